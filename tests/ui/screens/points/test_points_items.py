"""The Points screen's point items against the simulator: the grid of tiles, the
basket with counts and remove, the 100-unit limit, preview and a credit with
repeated ids checked in the ledger; tiles and basket rows updated in place (#4)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QEvent
from pytestqt.qtbot import QtBot

from kiosk.core.counter.sale import SaleMode
from kiosk.core.session import CounterSession
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from kiosk.ui.screens.points.screen import PointsScreen
from tests.qt_async import until
from tests.ui.event_count import EventCount
from tests.ui.screens.points.points_support import (
    LEFT,
    Run,
    credit,
    ledger_of,
    points_screen,
    previewed,
)


@pytest.fixture
def screen(qtbot: QtBot, session: CounterSession, arun: Run) -> Iterator[PointsScreen]:
    yield from points_screen(qtbot, session, arun)


def test_items_grid_basket_preview_and_credit_with_repeated_ids(
    qtbot: QtBot, screen: PointsScreen, arun: Run, sim_world: World
) -> None:
    async def scenario() -> None:
        qtbot.mouseClick(screen.items_tab, LEFT)
        await until(lambda: len(screen.grid.tiles) > 2)
        first, second = list(screen.grid.tiles)[:2]
        tile_a, tile_b = screen.grid.tiles[first], screen.grid.tiles[second]
        for tile in (tile_a, tile_b, tile_a, tile_b):
            qtbot.mouseClick(tile, LEFT)
        assert (tile_a.badge.text(), tile_b.badge.text()) == ("2", "2")
        assert screen.basket.heading.text() == "Basket: 4 of 100 units"
        qtbot.mouseClick(screen.basket.minus[second], LEFT)  # remove one unit
        assert tile_b.badge.text() == "1"
        assert screen.flow.sale.basket.lines() == [(first, 2), (second, 1)]
        qtbot.mouseClick(screen.preview_button, LEFT)
        await previewed(screen)
        assert screen.preview_card.units.text() == "3 units"
        preview = screen.flow.sale.preview
        assert preview is not None
        await credit(qtbot, screen)
        outcome = screen.flow.sale.outcome
        assert outcome is not None
        [op] = ledger_of(sim_world, outcome.external_id)
        assert {row["id"]: row["units"] for row in op["items"]} == {first: 2, second: 1}
        assert op["totalPoints"] == preview.points.total
        assert "3 units" in screen.result.details.text()
        # Today says how many items the credit was for (#21, minor).
        [row] = [r for r in await screen.session.journal.today() if r.kind.value == "credit"]
        assert row.units == 3

    arun(scenario())


def test_the_101st_unit_is_refused_with_a_message(
    qtbot: QtBot, screen: PointsScreen, arun: Run
) -> None:
    async def scenario() -> None:
        qtbot.mouseClick(screen.items_tab, LEFT)
        await until(lambda: bool(screen.grid.tiles))
        tile = next(iter(screen.grid.tiles.values()))
        for _ in range(100):
            qtbot.mouseClick(tile, LEFT)
        assert tile.badge.text() == "100"
        assert not screen.banner.isVisible()
        qtbot.mouseClick(tile, LEFT)
        assert tile.badge.text() == "100"
        assert screen.banner.kind == "error"
        assert "at most 100 units" in screen.banner.text()
        assert screen.flow.sale.basket.total_units == 100

    arun(scenario())


def test_another_client_starts_a_new_sale(
    qtbot: QtBot, screen: PointsScreen, arun: Run, session: CounterSession
) -> None:
    async def scenario() -> None:
        qtbot.mouseClick(screen.items_tab, LEFT)
        await until(lambda: bool(screen.grid.tiles))
        qtbot.mouseClick(next(iter(screen.grid.tiles.values())), LEFT)
        qtbot.keyClicks(screen.ticket, "55")
        session.set_client(await session.api.search_client("27456789"))
        assert screen.flow.sale.mode is SaleMode.AMOUNT
        assert screen.flow.sale.basket.is_empty
        assert screen.ticket.text() == ""
        assert screen.amount_tab.isChecked()

    arun(scenario())


def test_taps_update_the_tile_and_the_basket_row_in_place(
    qtbot: QtBot, screen: PointsScreen, arun: Run
) -> None:
    async def scenario() -> None:
        qtbot.mouseClick(screen.items_tab, LEFT)
        await until(lambda: len(screen.grid.tiles) > 2)
        first, second = list(screen.grid.tiles)[:2]
        tile = screen.grid.tiles[first]
        spy = EventCount(QEvent.Type.PaletteChange, QEvent.Type.FontChange)  # a re-polish
        tile.installEventFilter(spy)
        qtbot.mouseClick(tile, LEFT)  # into the basket: restyled ("chosen")
        assert tile.property("chosen") == "true"
        assert spy.count > 0
        row, minus = screen.basket.rows[first], screen.basket.minus[first]
        assert row.isVisible()  # (the first row, added while the list was hidden)
        spy.count = 0
        qtbot.mouseClick(tile, LEFT)
        qtbot.mouseClick(screen.grid.tiles[second], LEFT)
        qtbot.mouseClick(tile, LEFT)
        assert tile.badge.text() == "3"
        assert spy.count == 0  # still chosen: no re-polish for a new count
        assert screen.basket.rows[first] is row  # the same row and button, counted up
        assert screen.basket.minus[first] is minus
        assert row.count.text() == "3 ×"
        assert screen.basket.rows[second].isVisible()
        qtbot.mouseClick(screen.basket.minus[second], LEFT)  # its last unit: row gone
        assert set(screen.basket.rows) == {first}
        assert screen.basket.rows[first] is row
        for _ in range(3):
            qtbot.mouseClick(minus, LEFT)
        assert tile.property("chosen") == "false"
        assert not tile.badge.isVisibleTo(tile)
        assert screen.basket.rows == {}
        assert screen.basket.empty.isVisibleTo(screen.basket)

    arun(scenario())


def test_a_request_in_flight_refuses_taps_without_disabling_the_tiles(
    qtbot: QtBot, screen: PointsScreen, arun: Run, sim_world: World
) -> None:
    async def scenario() -> None:
        qtbot.mouseClick(screen.items_tab, LEFT)
        await until(lambda: bool(screen.grid.tiles))
        first = next(iter(screen.grid.tiles))
        tile = screen.grid.tiles[first]
        qtbot.mouseClick(tile, LEFT)
        SimControl(sim_world).add_fault("latency", r"preview", seconds=0.3)
        qtbot.mouseClick(screen.preview_button, LEFT)  # Preview: on its way
        await until(lambda: screen.preview_button.busy)
        assert tile.isEnabled()  # not restyled twice a request...
        qtbot.mouseClick(tile, LEFT)  # ...but refused, like the basket and the tabs
        qtbot.mouseClick(screen.basket.minus[first], LEFT)
        qtbot.mouseClick(screen.basket.clear, LEFT)
        assert not screen.items_tab.isEnabled()
        assert screen.flow.sale.basket.lines() == [(first, 1)]
        await until(lambda: screen.preview_card.isVisible() and not screen.preview_button.busy)
        assert screen.flow.sale.basket.lines() == [(first, 1)]
        assert screen.preview_card.units.text() == "1 units"

    arun(scenario())
