"""A manager's PIN for one action at the counter (cancelling a credit from Today).

The cashier confirms, then a sheet with the PIN pad appears in the same screen; a
right PIN authorizes that one action and manager mode locks again at once.

Without a PIN: outside training mode the action is refused, and the screen's banner
says to ask IT to set the manager PIN (the host's confirmation stays, as after
"Back"); in training there is nothing to check yet and the action goes on. When only
IT can unlock (100 wrong PINs, or the lock's files changed outside the kiosk) the
sheet shows and says so, its keys off.

The sheet says what the PIN is for (``reason``, or the host's own words), takes
digits from the keys and from a keyboard (digits, Backspace, Enter), and has one
way back: "Back", which answers ``None`` (nobody decided: the host goes back to
its confirmation, without an error). A wrong PIN is said in the sheet, which stays.

Where the sheet goes is the host's choice when it is a ``PinHost`` (Today puts it
under its confirmation, in room of its own); otherwise it is added at the bottom
of the screen's body.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, runtime_checkable

from PySide6.QtWidgets import QFrame, QVBoxLayout

from kiosk.core.security.lock import ManagerLock
from kiosk.ui.manager.lock_panel import NO_PIN, LockPanel, lock_text
from kiosk.ui.screens.base import Screen

# True: authorized; False: refused; None: the person went back (no decision).
Authorize = Callable[[Any], Awaitable[bool | None]]


class PinSheet(QFrame):
    """The card that asks the PIN for one action: ``panel`` (its pad, its words, its
    "Back" and "Authorize")."""

    def __init__(self, lock: ManagerLock, reason: str) -> None:
        super().__init__()
        self.setProperty("role", "card")
        self.panel = LockPanel(lock, purpose=reason)
        self.back = self.panel.back
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 16, 24, 16)
        layout.addWidget(self.panel)

    def focus_pad(self) -> None:
        """Typed digits go to the pad (call once the sheet is shown)."""
        self.panel.pad.setFocus()


@runtime_checkable
class PinHost(Protocol):
    """A screen that places the PIN sheet itself (and gives it its words)."""

    def show_pin_sheet(self, sheet: PinSheet) -> None: ...

    def hide_pin_sheet(self, sheet: PinSheet) -> None: ...


def pin_authorizer(lock: ManagerLock, host: Screen, reason: str) -> Authorize:
    async def authorize(_subject: Any) -> bool | None:
        if lock.unlocked:
            return True
        if not lock.has_pin() and not lock.blocked:
            if lock.training:
                return True  # nothing to check until the first person chooses a PIN
            host.banner.show_error(lock_text(NO_PIN))
            return None  # refused: the host's question stays, the banner says why
        future: asyncio.Future[bool | None] = asyncio.get_running_loop().create_future()
        sheet = PinSheet(lock, reason)

        def settle(value: bool | None) -> None:
            if not future.done():
                future.set_result(value)

        sheet.panel.unlocked.connect(lambda: settle(True))
        sheet.panel.cancelled.connect(lambda: settle(None))
        place = host if isinstance(host, PinHost) else None
        if place is not None:
            place.show_pin_sheet(sheet)
        else:
            host.body.addWidget(sheet)
            sheet.show()
        sheet.focus_pad()
        try:
            return await future
        finally:
            lock.relock()  # authorizes this one action only
            if place is not None:
                place.hide_pin_sheet(sheet)
            sheet.hide()
            sheet.deleteLater()

    return authorize
