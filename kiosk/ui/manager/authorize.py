"""A manager's PIN for one action at the counter (cancelling a credit from Today).

The cashier confirms, then a sheet with the PIN pad appears in the same screen; a
right PIN authorizes that one action and manager mode locks again at once. With
no PIN set yet on this kiosk there is nothing to check, and the action goes on
(as before manager mode is configured).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QVBoxLayout

from kiosk.core.lock import ManagerLock
from kiosk.ui.manager.lock_panel import LockPanel
from kiosk.ui.screens.base import Screen

Authorize = Callable[[Any], Awaitable[bool]]


class PinSheet(QFrame):
    def __init__(self, lock: ManagerLock, reason: str) -> None:
        super().__init__()
        self.setProperty("role", "card")
        heading = QLabel(reason)
        heading.setProperty("role", "heading")
        heading.setWordWrap(True)
        self.panel = LockPanel(lock)
        self.back = QPushButton(self.tr("Back"))
        self.back.setMinimumHeight(56)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 16, 24, 16)
        layout.addWidget(heading)
        layout.addWidget(self.panel, 1)
        layout.addWidget(self.back)


def pin_authorizer(lock: ManagerLock, host: Screen, reason: str) -> Authorize:
    async def authorize(_subject: Any) -> bool:
        if lock.unlocked:
            return True
        if not lock.has_pin():
            return True
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        sheet = PinSheet(lock, reason)

        def settle(value: bool) -> None:
            if not future.done():
                future.set_result(value)

        sheet.panel.unlocked.connect(lambda: settle(True))
        sheet.back.clicked.connect(lambda: settle(False))
        host.body.addWidget(sheet, 1)
        sheet.show()
        try:
            return await future
        finally:
            lock.relock()  # authorizes this one action only
            sheet.hide()
            sheet.deleteLater()

    return authorize
