"""Kiosk mode (setting ``kiosk_mode``): full screen, frameless, and no way out without the PIN.

``KioskModeGuard(window, lock)`` installs it on the ``KioskWindow``:

- the window is frameless, on top (unless told otherwise) and full screen, and
  goes back to full screen if something minimizes it;
- a close request (Alt+F4, the taskbar, ``window.close()``) is ignored while
  manager mode is locked; ``close_refused`` tells the window to say so;
- it closes when manager mode is unlocked (the PIN was entered: "Close the
  kiosk" in the manager view), when the operating system ends the session or
  shuts down (``commitDataRequest``, ``aboutToQuit``), and on ``force_close()``
  (``loyalty-kiosk --shutdown`` through the single-instance server).

What Qt cannot stop (Ctrl+Alt+Del, Alt+Tab, the Windows key) is the operating
system's kiosk setup: a dedicated account with Assigned Access or a shell
replacement (see the deployment guide).
"""

from __future__ import annotations

import logging
from typing import Protocol

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

log = logging.getLogger(__name__)


class Unlockable(Protocol):
    """``kiosk.core.security.lock.ManagerLock`` (only whether manager mode is open matters)."""

    @property
    def unlocked(self) -> bool: ...


class KioskModeGuard(QObject):
    close_refused = Signal()

    def __init__(
        self,
        window: QWidget,
        lock: Unlockable,
        *,
        stay_on_top: bool = True,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent or window)
        self.window = window
        self.lock = lock
        self.stay_on_top = stay_on_top
        self._release: str | None = None  # why closing is allowed now (for the log)
        self._installed = False

    @property
    def installed(self) -> bool:
        return self._installed

    def install(self) -> None:
        """Set the window's flags and state, and watch it. Call before the window is shown."""
        if self._installed:
            return
        flags = self.window.windowFlags() | Qt.WindowType.FramelessWindowHint
        if self.stay_on_top:
            flags |= Qt.WindowType.WindowStaysOnTopHint
        self.window.setWindowFlags(flags)
        # Whatever shows the window next (the first-paint frame included) shows it full screen.
        self.window.setWindowState(self.window.windowState() | Qt.WindowState.WindowFullScreen)
        self.window.installEventFilter(self)
        app = QGuiApplication.instance()
        if isinstance(app, QGuiApplication):
            app.commitDataRequest.connect(self._session_ending)
            app.aboutToQuit.connect(self._quitting)
        self._installed = True
        log.info("kiosk mode on")

    def show(self) -> None:
        self.window.showFullScreen()

    @property
    def may_close(self) -> bool:
        return self._release is not None or self.lock.unlocked

    def force_close(self) -> None:
        """Close now, PIN or not (``--shutdown``: IT, the installer's upgrades)."""
        self._allow("shutdown requested")
        self.window.close()

    def _allow(self, why: str) -> None:
        if self._release is None:
            log.info("kiosk mode: closing allowed (%s)", why)
        self._release = why

    def _session_ending(self, *_: object) -> None:
        # Never cancel the session: the OS is logging off or shutting down.
        self._allow("the operating system ends the session")

    def _quitting(self) -> None:
        self._allow("the application quits")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is not self.window:
            return False
        kind = event.type()
        if kind == QEvent.Type.Close and not self.may_close:
            event.ignore()
            log.info("kiosk mode: close refused (manager mode is locked)")
            self.close_refused.emit()
            return True
        if kind == QEvent.Type.WindowStateChange and self.window.isMinimized():
            QTimer.singleShot(0, self.show)
        return False
