"""A suspended client at the counter (issue #21, minor): the rail's Points and Rewards
are disabled with the reason, and the client card shows a "Suspended" badge."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from kiosk.core.session import CounterSession
from kiosk.sim.seed_people import MAIN_SUSPENDED
from kiosk.ui.counter import build_view
from tests.qt_async import until
from tests.ui.screens.points.points_support import JUAN

LEFT = Qt.MouseButton.LeftButton


def test_a_suspended_client_has_no_points_nor_rewards_and_the_card_says_so(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], spanish: Any
) -> None:
    view = build_view(session)
    qtbot.addWidget(view)
    view.resize(1024, 768)
    view.show()

    async def scenario() -> None:
        session.set_client(await session.api.search_client(MAIN_SUSPENDED))
        await until(lambda: view.card.isVisible())
        assert view.card.suspended.isVisible()
        assert view.card.suspended.text() == "Suspendido"
        for key in ("points", "rewards"):
            button = view.rail_buttons[key]
            assert not button.isEnabled()
            assert "suspendido" in button.toolTip()
            qtbot.mouseClick(button, LEFT)
            assert view.current is not None
            assert view.current.key == "identify"
        # The next client is not suspended: all open again, no badge.
        session.set_client(await session.api.search_client(JUAN))
        assert not view.card.suspended.isVisible()
        assert view.rail_buttons["points"].isEnabled()
        view.shutdown()

    arun(scenario())
