"""The Rewards grid's counts and the next client (issue #21, minors), by taps at
1280x800 and 1024x768, in English and Spanish: the stock left reads "queda 1" /
"quedan 3" (not "quedan 1"); a "1 per client" reward the client just exchanged shows
it is used, out of reach; the next client's catalog starts at its top."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication
from pytestqt.qtbot import QtBot

from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.main_window import CounterView
from kiosk.ui.screens.rewards.screen import RewardsScreen
from tests.qt_async import until
from tests.ui.layout_audit import audit
from tests.ui.screens.rewards.test_rewards import client_at, product, tile
from tests.ui.screens.rewards.test_rewards_taps import (
    BIG_BALANCE,
    LONG_NAME,
    SIZES,
    identify,
    language,
    make_screen,
    shot,
    tap,
)

__all__ = ["language"]  # the fixture, used by name

LEFT_TEXT = {"en": ("1 left", "3 left"), "es": ("queda 1", "quedan 3")}
CAKE = "Torta de cumpleaños individual"  # seeded with maxPurchases 1


def tile_text(context: str, text: str) -> str:
    return QCoreApplication.translate(context, text)


@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x768"])
def test_the_stock_left_says_one_in_the_singular(
    qtbot: QtBot,
    session: CounterSession,
    arun: Callable[..., Any],
    sim_world: World,
    language: str,
    size: tuple[int, int],
) -> None:
    oro = client_at(sim_world, "Oro")
    oro["score"] = BIG_BALANCE
    bolso = product(sim_world, "Bolso térmico")
    assert bolso["stock"] == {"controlled": True, "available": 1}
    screen = make_screen(qtbot, session, size)
    one, three = LEFT_TEXT[language]

    async def scenario() -> None:
        await identify(session, screen, oro)
        assert tile(screen, sim_world, "Bolso térmico").badge.text() == one
        bolso["stock"]["available"] = 3
        tap(qtbot, screen, screen.refresh)
        await until(lambda: tile(screen, sim_world, "Bolso térmico").badge.text() == three)

    arun(scenario())


@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x768"])
def test_a_once_per_client_reward_shows_it_is_used_after_the_exchange(
    qtbot: QtBot,
    session: CounterSession,
    arun: Callable[..., Any],
    sim_world: World,
    language: str,
    size: tuple[int, int],
) -> None:
    oro = client_at(sim_world, "Oro")
    oro["score"] = BIG_BALANCE
    screen = make_screen(qtbot, session, size)
    used = tile_text("RewardTile", "Already exchanged: %1 per client").replace("%1", "1")

    async def scenario() -> None:
        await identify(session, screen, oro)
        cake = tile(screen, sim_world, CAKE)
        assert cake.reachable
        within = screen.summary.text()
        screen.grid.ensureWidgetVisible(cake)
        tap(qtbot, screen, cake)
        await until(lambda: screen.sheet.confirm.armed)
        tap(qtbot, screen, screen.sheet.confirm)
        await until(lambda: screen.pages.currentWidget() is screen.result)
        await until(lambda: not screen.tasks.running("catalog"))
        tap(qtbot, screen, screen.result.done_button)
        cake = tile(screen, sim_world, CAKE)
        await until(lambda: cake.status.text() == used)
        assert not cake.reachable
        assert cake.property("reach") == "false"
        assert screen.summary.text() != within  # one fewer within reach
        shot(screen, f"used-once-{language}-{size[0]}")
        # A tap on it says why, and opens no sheet.
        screen.grid.ensureWidgetVisible(cake)
        tap(qtbot, screen, cake)
        assert screen.pages.currentWidget() is screen.grid
        assert screen.banner.kind == "info"

    arun(scenario())


def test_the_next_clients_catalog_starts_at_the_top(
    qtbot: QtBot,
    session: CounterSession,
    arun: Callable[..., Any],
    sim_world: World,
    language: str,
) -> None:
    oro = client_at(sim_world, "Oro")
    oro["score"] = BIG_BALANCE
    plata = client_at(sim_world, "Plata", 3000)
    screen = make_screen(qtbot, session, (1024, 768))
    bar = screen.grid.verticalScrollBar()

    async def scenario() -> None:
        await identify(session, screen, oro)
        last = list(screen.grid.tiles.values())[-1]
        screen.grid.ensureWidgetVisible(last)  # the cashier scrolled to the end
        assert bar.value() > 0
        # The cashier goes to Identify (the screen hidden), the next client comes.
        screen.hide()
        session.set_client(await session.api.search_client(plata["email"]))
        await until(lambda: screen.summary.text() == "")  # the screen heard of it
        screen.show()
        await identify(session, screen, plata)
        assert bar.value() == 0

    arun(scenario())


@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x768"])
def test_a_banner_covers_neither_the_tabs_nor_refresh(
    qtbot: QtBot,
    session: CounterSession,
    arun: Callable[..., Any],
    sim_world: World,
    language: str,
    size: tuple[int, int],
) -> None:
    """A tap on a reward out of reach says what is missing in a banner (a long reward
    name, two lines): it stands in its kept room, over no tab, Refresh or tile (issue
    #21: it covered the tabs and Refresh at 1024x768)."""
    bronce = client_at(sim_world, "Bronce")
    bronce["score"] = 10
    kit = product(sim_world, "Kit matero")
    kit["name"] = LONG_NAME
    screen = RewardsScreen(session)
    view = CounterView(session, [screen])  # the counter's window: card, rail, status bar
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()

    async def scenario() -> None:
        session.set_client(await session.api.search_client(bronce["email"]))
        view.show_screen(screen.key)
        await until(lambda: screen.grid.tiles and not screen.tasks.running("catalog"))
        await until(lambda: screen.pages.currentWidget() is screen.grid)
        target = screen.grid.tiles[kit["id"]]
        screen.grid.ensureWidgetVisible(target)
        tap(qtbot, view, target)
        await until(lambda: screen.banner.kind == "info")
        shot(view, f"banner-{language}-{size[0]}")
        assert LONG_NAME in screen.banner.text()
        covered = [f.line() for f in audit(view, "missing points") if "covers" in f.what]
        assert covered == []
        for button in (screen.refresh, screen.rewards_tab, screen.money_tab):
            tap(qtbot, view, button)  # each still under the finger
            await until(lambda: not screen.tasks.running("catalog"))

    arun(scenario())
