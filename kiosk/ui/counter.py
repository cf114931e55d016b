"""The counter view with its screens, in rail order."""

from __future__ import annotations

import asyncio

from kiosk.core.session import CounterSession
from kiosk.ui.main_window import CounterView
from kiosk.ui.screens.base import Screen


def build_screens(session: CounterSession) -> list[Screen]:
    from kiosk.ui.screens.code import CodeScreen
    from kiosk.ui.screens.identify import IdentifyScreen
    from kiosk.ui.screens.points import PointsScreen
    from kiosk.ui.screens.redeem import RedeemScreen
    from kiosk.ui.screens.rewards import RewardsScreen
    from kiosk.ui.screens.today import TodayScreen

    return [
        IdentifyScreen(session),
        PointsScreen(session),
        RewardsScreen(session),
        RedeemScreen(session),
        CodeScreen(session),
        TodayScreen(session),
    ]


class Counter(CounterView):
    async def load(self) -> None:
        """Ready: every screen fetched what it needs (failures show in its banner)."""
        results = await asyncio.gather(
            *(screen.preload() for screen in self.screens.values()), return_exceptions=True
        )
        for screen, result in zip(self.screens.values(), results, strict=True):
            if isinstance(result, BaseException):
                screen.show_error(result)


def build_view(session: CounterSession) -> Counter:
    return Counter(session, build_screens(session))
