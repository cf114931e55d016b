"""The gate of manager mode: the lock panel until the PIN opens it, then the manager view.

While locked, the manager view does not exist: it is built when the lock opens
and deleted when it closes again, so nothing of it (a typed key, a half-filled
form) can be reached or seen without the PIN. It locks again on "Lock", after
the manager idle time (any tap or key anywhere restarts the count), when the gate
is hidden (another rail button, the window minimized) and at the counter's idle
reset.

``ManagerScreen`` puts the gate on the counter's rail (key ``manager``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtGui import QHideEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget

from kiosk.core.security.lock import ManagerLock
from kiosk.core.session import CounterSession
from kiosk.ui.manager.lock_panel import LockPanel
from kiosk.ui.manager.manager_view import ManagerView
from kiosk.ui.screens.base import Screen
from kiosk.ui.widgets.banner import BannerSlot
from kiosk.ui.widgets.idle import IdleTimer
from kiosk.ui.widgets.relayout import PageStack

log = logging.getLogger(__name__)


class ManagerGate(QWidget):
    """``view_factory`` builds the manager view each time the lock opens."""

    def __init__(
        self,
        lock: ManagerLock,
        view_factory: Callable[[], ManagerView],
        *,
        idle_seconds: float,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.lock = lock
        self._factory = view_factory
        self.view: ManagerView | None = None
        self._banner: BannerSlot | None = None  # the host screen's banner room (top)
        self._banner_room: BannerSlot | None = None  # its room under the view's header
        self.panel = LockPanel(lock)
        self.panel.cancelled.connect(self._back_to_view)
        self.stack = PageStack(fit_current=True)  # the PIN's words never squeeze its pad
        self.stack.addWidget(self.panel)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stack)
        self.idle = IdleTimer(idle_seconds, self)
        self.idle.idle.connect(self._idle)
        listener = self._lock_changed
        lock.changed.connect(listener)
        # The lock outlives this widget: stop listening when Qt deletes it.
        self.destroyed.connect(lambda *_: lock.changed.disconnect(listener))
        if lock.unlocked:
            self._open()

    def _lock_changed(self, unlocked: bool) -> None:
        if unlocked:
            self._open()
        else:
            self._close()

    def _open(self) -> None:
        if self.view is None:
            self.view = self._factory()
            self.view.lock_requested.connect(self.lock.relock)
            self.view.change_pin_requested.connect(self.change_pin)
            self.view.pin_button.setVisible(self.lock.can_change_pin())
            self.stack.addWidget(self.view)
            self._banner_under_header(self.view)
        self.stack.setCurrentWidget(self.view)
        self.idle.start()

    def speak_in(self, slot: BannerSlot) -> None:
        """The host screen's banner (in ``slot``, its room at the screen's top): while
        manager mode is open its room moves under the view's header, so a banner never
        covers "Change PIN" or "Lock"; whatever it says is dismissed when the lock opens
        or closes (an exchange's code never waits on the PIN screen)."""
        self._banner = slot
        if self.view is not None:
            self._banner_under_header(self.view)

    def _banner_under_header(self, view: ManagerView) -> None:
        top = self._banner
        if top is None:
            return
        top.banner.dismiss()
        host = top.parentWidget()
        room = BannerSlot(top.banner, host)  # (the view adopts it below)
        view.keep_banner_room(room)
        for section in view.widgets.values():  # built before the view had a host
            if isinstance(section, Screen) and isinstance(host, Screen):
                section.say_in(host)  # one banner, one room: the manager screen's
        self._banner_room = room
        top.hide()

    def _banner_back_on_top(self) -> None:
        top, room = self._banner, self._banner_room
        self._banner_room = None
        if top is None:
            return
        top.banner.dismiss()
        top.adopt()
        top.show()
        if room is not None:
            room.hide()

    def change_pin(self) -> None:
        """The lock panel asks for a new PIN (twice); manager mode stays unlocked."""
        if self.lock.unlocked and self.lock.can_change_pin():
            if self._banner is not None:
                self._banner.banner.dismiss()
            self.panel.start_change()
            self.stack.setCurrentWidget(self.panel)

    def _back_to_view(self) -> None:
        if self.lock.unlocked and self.view is not None:
            self.stack.setCurrentWidget(self.view)

    def _close(self) -> None:
        self.idle.stop()
        view, self.view = self.view, None
        self._banner_back_on_top()
        self.panel.reset()
        self.stack.setCurrentWidget(self.panel)
        if view is not None:
            self.stack.removeWidget(view)
            view.hide()
            view.deleteLater()

    def _idle(self) -> None:
        log.info("manager mode idle: locking")
        self.lock.relock()

    def hideEvent(self, event: QHideEvent) -> None:
        self.lock.relock()
        super().hideEvent(event)

    def detach(self) -> None:
        """Stop listening (the window is closing)."""
        self.idle.stop()
        self.lock.changed.disconnect(self._lock_changed)


class ManagerScreen(Screen):
    """The rail's "Manager" entry. While it is unlocked, ``suspends_counter_idle`` is
    True: the counter's own idle reset (90 s) should then leave it alone, since
    manager mode has its own, longer, idle lock."""

    key = "manager"
    icon_name = "manager"
    needs_client = False
    shows_client_card = False  # the counter view hides the client card here

    def __init__(
        self, session: CounterSession, gate: ManagerGate, parent: QWidget | None = None
    ) -> None:
        super().__init__(session, parent)
        self.gate = gate
        self.body.addWidget(gate, 1)
        gate.speak_in(self.banner_slot)

    def title(self) -> str:
        return self.tr("Manager")

    @property
    def suspends_counter_idle(self) -> bool:
        return self.gate.lock.unlocked

    def entered(self) -> None:
        if not self.gate.lock.unlocked:
            self.banner.dismiss()  # nothing said elsewhere waits on the PIN screen
        self.gate.panel.reset()

    def left(self) -> None:
        self.gate.lock.relock()

    def reset(self) -> None:
        self.gate.lock.relock()
