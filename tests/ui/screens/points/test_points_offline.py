"""The Points screen with point items from the offline copy (the service cannot be
reached): it says how old they are ("Point items as of 12:05 (offline)", with the
date when not today, in the kiosk's time), and the note goes when a fresh list
arrives by itself once the connection returns (the tiles kept, updated in place)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from kiosk.api.errors import ApiError
from kiosk.core.counter.catalogue import PointItemCatalogue
from kiosk.core.session import CounterSession
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from kiosk.ui.screens.points.screen import PointsScreen
from tests.qt_async import until
from tests.ui.screens.identify.identify_support import fast_session  # noqa: F401  (fixture)
from tests.ui.screens.points.points_support import JUAN, release_screens, shown_screen

ITEMS = r"^/external/point-items$"
LEFT = Qt.MouseButton.LeftButton

Run = Callable[..., Any]


def _local(day: int, hour: int, minute: int) -> datetime:
    """``day`` days from today, at hour:minute in the kiosk's time zone."""
    today = datetime.now().astimezone()
    return (today + timedelta(days=day)).replace(hour=hour, minute=minute, second=0)


@pytest.fixture
def offline_screen(
    qtbot: QtBot,
    fast_session: CounterSession,  # noqa: F811
    arun: Run,
    sim_world: World,
    expect_log: Callable[[str], None],
) -> Iterator[Callable[[datetime], PointsScreen]]:
    """``make(saved)``: a list saved at ``saved``, then the screen built during an
    outage of the point-items route (Juan at the counter)."""
    expect_log(r"point-items|point items|retry")
    session = fast_session
    made: list[PointsScreen] = []

    def make(saved: datetime) -> PointsScreen:
        arun(PointItemCatalogue(session, clock=saved.timestamp).preload())  # saved online
        SimControl(sim_world).add_fault("drop", ITEMS, count=None)
        session.set_client(arun(session.api.search_client(JUAN)))
        screen = shown_screen(qtbot, session)
        made.append(screen)
        return screen

    yield make
    release_screens(session, made)


def test_items_from_the_offline_copy_say_when_they_were_fetched_until_fresh_ones_come(
    qtbot: QtBot,
    offline_screen: Callable[[datetime], PointsScreen],
    arun: Run,
    fast_session: CounterSession,  # noqa: F811
    sim_world: World,
) -> None:
    screen = offline_screen(_local(0, 12, 5))
    session = fast_session
    assert not screen.items_age.isVisible()  # (amount mode)

    async def scenario() -> None:
        qtbot.mouseClick(screen.items_tab, LEFT)
        await until(lambda: bool(screen.grid.tiles) and not screen.tasks.running("items"))
        assert screen.catalogue.from_cache
        assert screen.items_age.isVisible()
        assert screen.items_age.text() == "Point items as of 12:05 (offline)"
        first_id = next(iter(screen.grid.tiles))
        first = screen.grid.tiles[first_id]
        qtbot.mouseClick(first, LEFT)  # the saved buttons work
        assert screen.flow.sale.basket.lines() == [(first_id, 1)]
        # The merchant renamed it meanwhile; the connection comes back.
        sim_world.merchants[1].tables["point_items"][first_id]["name"] = "Renombrado"
        SimControl(sim_world).clear_faults()
        with pytest.raises(ApiError, match="not_found"):  # any answer says "online"
            await session.call(lambda: session.api.search_client("nadie@example.com"))
        await until(lambda: not screen.catalogue.from_cache)
        await until(lambda: not screen.items_age.isVisible())
        assert screen.grid.tiles[first_id] is first  # the same tile, updated in place
        assert first.name.text() == "Renombrado"
        assert first.badge.text() == "1"  # and the sale kept its unit
        assert screen.basket.rows[first_id].label.text() == "Renombrado"

    arun(scenario())


def test_a_copy_from_another_day_shows_the_date(
    qtbot: QtBot, offline_screen: Callable[[datetime], PointsScreen], arun: Run
) -> None:
    saved = _local(-1, 9, 7)
    screen = offline_screen(saved)

    async def scenario() -> None:
        qtbot.mouseClick(screen.items_tab, LEFT)
        await until(lambda: screen.items_age.isVisible())
        assert screen.items_age.text() == f"Point items as of {saved:%d/%m/%Y} 09:07 (offline)"

    arun(scenario())
