"""The counter view with its screens, in rail order.

Only the first screen (Identify) is built before the counter is "ready"; the
others are imported and built on first visit, or by ``warm_up()`` right after
start-up, so the counter paints and answers sooner.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from kiosk.core.session import CounterSession
from kiosk.ui.main_window import CounterView, ScreenSpec
from kiosk.ui.screens.base import Screen

# key, icon, needs a client, rail title, module, class
RAIL = (
    (
        "identify",
        "identify",
        False,
        QT_TRANSLATE_NOOP("Rail", "Identify"),
        "identify",
        "IdentifyScreen",
    ),
    ("points", "points", True, QT_TRANSLATE_NOOP("Rail", "Points"), "points", "PointsScreen"),
    ("rewards", "rewards", True, QT_TRANSLATE_NOOP("Rail", "Rewards"), "rewards", "RewardsScreen"),
    ("redeem", "redeem", False, QT_TRANSLATE_NOOP("Rail", "Redeem"), "redeem", "RedeemScreen"),
    ("code", "code", False, QT_TRANSLATE_NOOP("Rail", "Code"), "code", "CodeScreen"),
    ("today", "today", False, QT_TRANSLATE_NOOP("Rail", "Today"), "today", "TodayScreen"),
)


def _factory(session: CounterSession, module: str, name: str) -> Callable[[], Screen]:
    def build() -> Screen:
        cls = getattr(importlib.import_module(f"kiosk.ui.screens.{module}"), name)
        screen: Screen = cls(session)
        return screen

    return build


def screen_specs(session: CounterSession) -> list[ScreenSpec]:
    return [
        ScreenSpec(
            key,
            icon,
            needs,
            QCoreApplication.translate("Rail", title),
            _factory(session, module, cls),
        )
        for key, icon, needs, title, module, cls in RAIL
    ]


def build_screens(session: CounterSession) -> list[Screen]:
    """Every screen, built now (tests and the screenshot script)."""
    return [spec.factory() for spec in screen_specs(session)]


class Counter(CounterView):
    async def load(self) -> None:
        """Ready: the screens built so far fetched what they need (failures show in
        their banners)."""
        screens = list(self.screens.values())
        results = await asyncio.gather(*(s.preload() for s in screens), return_exceptions=True)
        for screen, result in zip(screens, results, strict=True):
            if isinstance(result, BaseException):
                screen.show_error(result)


def build_view(session: CounterSession) -> Counter:
    return Counter(session, screen_specs(session))
