"""The button that commits something irreversible: a credit, an exchange, a delivery, a
cancel, an enrollment.

Two guards, both for real hands at a counter:

* **Armed only when seen.** ``arm()`` is called once what the button commits is on
  screen (a preview, a confirmation). The button accepts a tap only after it has
  been painted since that call *and* ``ARM_GUARD_MS`` have passed. A double tap (or
  Enter, Enter) on the step before can therefore never land on the commit: the
  second tap arrives before the button is armed and is ignored.
* **One tap, one request.** An accepted tap makes the button busy at once, in the
  click's own handler, before any coroutine runs: a second tap while the request is
  in flight is ignored. ``finish()`` ends the request (``rearm=True`` when the
  same commit may be tried again, after an error).

``ARM_GUARD_MS`` is 400 ms: longer than a double tap (about 100-300 ms between taps)
and than a key's auto-repeat delay, short enough that a cashier who reads the preview
never waits for it. It is written down in ``docs/design/counter.md``.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QKeyEvent, QPaintEvent
from PySide6.QtWidgets import QWidget

from kiosk.ui.widgets.busy_button import BusyButton

ARM_GUARD_MS = 400


class CommitButton(BusyButton):
    """Emits ``committed`` once per accepted tap; see the module's docstring."""

    committed = Signal()

    def __init__(
        self,
        text: str = "",
        parent: QWidget | None = None,
        *,
        primary: bool = True,
        guard_ms: int = ARM_GUARD_MS,
    ) -> None:
        super().__init__(text, parent, primary=primary)
        self._armed = False
        self._arming = False
        self._guard = QTimer(self)
        self._guard.setSingleShot(True)
        self._guard.setInterval(guard_ms)
        self._guard.timeout.connect(self._armed_now)
        self.clicked.connect(self._tapped)
        super().setEnabled(False)

    @property
    def armed(self) -> bool:
        return self._armed and not self.busy

    def arm(self) -> None:
        """What this button commits is on screen: accept taps once it is painted and
        the guard time has passed."""
        self._guard.stop()
        self._armed = False
        self._arming = True
        super().setEnabled(False)
        self.update()

    def disarm(self) -> None:
        """What this button would commit is gone (a new amount, another client)."""
        self._guard.stop()
        self._armed = False
        self._arming = False
        super().setEnabled(False)

    def finish(self, *, rearm: bool = False) -> None:
        """The request ended. ``rearm`` when the same commit may be tried again."""
        self.set_busy(False)
        if rearm:
            self.arm()
        else:
            self.disarm()

    def setEnabled(self, enabled: bool) -> None:
        """Enabling from outside never skips the guard: it arms instead."""
        if enabled:
            if not self._armed and not self._arming:
                self.arm()
            elif self._armed and not self.busy:
                super().setEnabled(True)
        else:
            self.disarm()

    def set_busy(self, busy: bool) -> None:
        self._show_busy(busy)
        super().setEnabled(self._armed and not busy)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self._arming and not self._guard.isActive():
            self._guard.start()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self.armed:
            # Not pressed (Space, Enter commit nothing unarmed), and not swallowed either:
            # the keys go on to the screen, whose amount the keyboard still edits after a
            # tap left the focus here (the screen's Enter is guarded the same way).
            event.ignore()
            return
        super().keyPressEvent(event)

    def _armed_now(self) -> None:
        if not self._arming:
            return
        self._arming = False
        self._armed = True
        if not self.busy:
            super().setEnabled(True)

    def _tapped(self) -> None:
        if not self.armed:
            return
        self.set_busy(True)
        self.committed.emit()
