"""Manager mode in the counter window: the rail's Manager entry, and a manager's PIN
to cancel a credit from Today."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from kiosk.core.security.lock import ManagerLock
from kiosk.core.session import CounterSession
from kiosk.core.settings.layers import Settings
from kiosk.ui.counter import ManagerContext, build_view
from kiosk.ui.manager.authorize import PinSheet
from kiosk.ui.manager.gate import ManagerScreen
from tests.qt_async import until
from tests.ui.manager.manager_support import Clocks, make_lock


def context(lock: ManagerLock) -> ManagerContext:
    from kiosk.core.admin.manager_settings import ManagerSettings, TrainingLink

    model = ManagerSettings(
        Settings.load(None, None),
        transport_for=lambda *_: None,
        training=TrainingLink("http://training.sim", "unused"),
    )
    return ManagerContext(settings=None, lock=lock, model=model, idle_seconds=900)


def test_rail_has_manager_behind_the_pin(
    qtbot: QtBot, session: CounterSession, tmp_path: Path
) -> None:
    lock = make_lock(tmp_path, Clocks())
    view = build_view(session, context(lock))
    qtbot.addWidget(view)
    assert "manager" in view.rail_buttons
    view.show_screen("manager")
    screen = view.current
    assert isinstance(screen, ManagerScreen)
    assert not lock.unlocked
    # While manager mode is locked, the counter's idle reset still applies.
    assert screen.suspends_counter_idle is False
    view.shutdown()


def test_cancelling_from_today_needs_the_managers_pin(
    qtbot: QtBot, session: CounterSession, tmp_path: Path, arun: Callable[..., Any]
) -> None:
    lock = make_lock(tmp_path, Clocks())
    arun(lock.set_pin("2468"))
    lock.relock()
    view = build_view(session, context(lock))
    qtbot.addWidget(view)
    today = view.build("today")
    authorize = today.authorize_cancel  # type: ignore[attr-defined]

    async def scenario() -> None:
        # Back: no answer (None: the confirmation stays, no "not authorized"), nothing unlocked.
        asking = asyncio.ensure_future(authorize(None))
        await until(lambda: today.findChild(PinSheet) is not None)
        sheet = today.findChild(PinSheet)
        assert sheet is not None
        qtbot.mouseClick(sheet.back, Qt.MouseButton.LeftButton)
        assert await asking is None
        assert not lock.unlocked
        # The right PIN: authorized once, then locked again.
        asking = asyncio.ensure_future(authorize(None))
        await until(lambda: any(s.isVisible() for s in today.findChildren(PinSheet)))
        sheet = next(s for s in today.findChildren(PinSheet) if s.isVisible())
        for digit in "2468":
            qtbot.mouseClick(sheet.panel.pad.keys[digit], Qt.MouseButton.LeftButton)
        sheet.panel.pad.submitted.emit()
        assert await asyncio.wait_for(asking, 10) is True
        assert not lock.unlocked

    view.show()
    view.show_screen("today")
    arun(scenario())
    view.shutdown()
