"""The Rewards screen under a cashier's fingers (issue #14): exchange and money exchange
commit through an armed Confirm (a double tap, Enter, Enter, a tap or Enter while the
request is out: exactly one exchange); the money exchange's confirmation invents no
points figure and its result shows the points the service took; a reward whose stock
ran out stays on the grid as "Out of stock". At 1280x800 and 1024x768, in English and
Spanish, with a long reward name and big numbers. Each state is rendered to
``/tmp/shots/rewards-*.png``."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QPoint, Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from kiosk.core.amounts import format_amount, format_points
from kiosk.core.session import CounterSession
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from kiosk.ui.i18n import install_translators
from kiosk.ui.screens.rewards.screen import RewardsScreen
from kiosk.ui.theme import apply_theme
from tests.qt_async import until
from tests.ui.screens.rewards.test_rewards import client_at, product, purchases_of, tile

LEFT = Qt.MouseButton.LeftButton
SIZES = [(1280, 800), (1024, 768)]
LONG_NAME = (
    "Alfajores artesanales de dulce de leche con baño de chocolate semiamargo, "
    "caja regalo de seis unidades edición especial"
)
BIG_BALANCE = 98_765_432
EXCHANGE_PATH = "^/external/exchange/product$"
MONEY_PATH = "^/external/exchange/money$"
SHOTS = Path("/tmp/shots")


@pytest.fixture(params=["en", "es"])
def language(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    apply_theme(qapp, "light")
    installed = install_translators(qapp, request.param) if request.param == "es" else []
    if request.param == "es":
        assert installed, "the Spanish catalogue did not load"
    try:
        yield request.param
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)


def tr(text: str, context: str = "RewardsScreen") -> str:
    return QCoreApplication.translate(context, text)


def shot(widget: QWidget, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    widget.grab().save(str(SHOTS / f"rewards-{name}.png"))


def tap(qtbot: QtBot, window: QWidget, widget: QWidget) -> None:
    """A finger on ``widget``: it is visible and it is what lies under that point."""
    assert widget.isVisible(), f"{widget} is not visible"
    center = widget.rect().center()
    at = window.childAt(widget.mapTo(window, center))
    assert at is widget or widget.isAncestorOf(at), f"{at} lies over {widget}"
    qtbot.mouseClick(widget, LEFT, pos=center)


def tap_at(qtbot: QtBot, window: QWidget, point: QPoint) -> None:
    """A finger at a point of the window, on whatever is there now."""
    target = window.childAt(point) or window
    qtbot.mouseClick(target, LEFT, pos=target.mapFrom(window, point))


def numbers(text: str) -> set[str]:
    """Every figure in ``text`` (``12.345,00``, ``98.765.432``, ``$ 1.000``)."""
    return set(re.findall(r"\d[\d.,]*\d|\d", text))


def rich_plata(world: World) -> dict[str, Any]:
    juan = client_at(world, "Plata", 3000)
    juan["score"] = BIG_BALANCE
    return juan


def make_screen(qtbot: QtBot, session: CounterSession, size: tuple[int, int]) -> RewardsScreen:
    screen = RewardsScreen(session)
    qtbot.addWidget(screen)
    screen.resize(*size)
    screen.show()
    return screen


async def identify(session: CounterSession, screen: RewardsScreen, record: dict[str, Any]) -> None:
    session.set_client(await session.api.search_client(record["email"]))
    screen.entered()
    await until(lambda: screen.grid.tiles and not screen.tasks.running("catalog"))
    await until(lambda: screen.pages.currentWidget() is screen.grid)


@pytest.mark.parametrize("how", ["tap", "enter"])
@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x768"])
def test_an_exchange_commits_once_whatever_the_fingers_do(
    qtbot: QtBot,
    session: CounterSession,
    arun: Callable[..., Any],
    sim_world: World,
    language: str,
    size: tuple[int, int],
    how: str,
) -> None:
    product(sim_world, "Alfajores x6")["name"] = LONG_NAME
    juan = rich_plata(sim_world)
    screen = make_screen(qtbot, session, size)
    control = SimControl(sim_world)
    name = f"{language}-{size[0]}-{how}"

    def sent() -> int:
        return len(control.requests(path=EXCHANGE_PATH, method="POST"))

    async def scenario() -> None:
        await identify(session, screen, juan)
        target = tile(screen, sim_world, LONG_NAME)
        screen.grid.ensureWidgetVisible(target)
        # The long name is elided on its tile, the whole of it in the tooltips.
        assert target.name.shown_text().endswith("…")
        assert target.name.toolTip() == LONG_NAME
        assert target.toolTip() == LONG_NAME
        shot(screen, f"grid-{name}")
        # A double tap on the tile: the second tap lands on the sheet, on whatever is
        # at that point (Confirm or not): nothing is sent.
        point = target.mapTo(screen, target.rect().center())
        tap(qtbot, screen, target)
        assert screen.pages.currentWidget() is screen.sheet
        tap_at(qtbot, screen, point)
        # Confirm tapped, and Enter on it, before it was seen: ignored.
        tap(qtbot, screen, screen.sheet.confirm)
        qtbot.keyClick(screen.sheet.confirm, Qt.Key.Key_Return)
        qtbot.keyClick(screen.sheet.confirm, Qt.Key.Key_Return)
        assert sent() == 0
        assert screen.pages.currentWidget() is screen.sheet
        assert LONG_NAME in screen.sheet.message.text()  # the sheet says it whole
        price = tile(screen, sim_world, LONG_NAME).card.price
        assert format_points(BIG_BALANCE - price, session.config.locale) in (
            screen.sheet.detail.text()
        )
        await until(lambda: screen.sheet.confirm.armed)
        shot(screen, f"sheet-{name}")
        control.add_fault("latency", EXCHANGE_PATH, method="POST", seconds=0.3)
        if how == "tap":
            tap(qtbot, screen, screen.sheet.confirm)
            tap(qtbot, screen, screen.sheet.confirm)  # the double tap's second
        else:
            qtbot.keyClick(screen.sheet.confirm, Qt.Key.Key_Return)
            qtbot.keyClick(screen.sheet.confirm, Qt.Key.Key_Return)
        await until(lambda: sent() == 1)
        # While in flight: a tap, Enter, and Back do nothing.
        assert screen.sheet.confirm.busy
        qtbot.mouseClick(screen.sheet.confirm, LEFT)
        qtbot.keyClick(screen.sheet.confirm, Qt.Key.Key_Return)
        qtbot.mouseClick(screen.sheet.back, LEFT)
        shot(screen, f"busy-{name}")
        await until(lambda: screen.pages.currentWidget() is screen.result)
        await until(lambda: not screen.tasks.running("catalog"))
        assert sent() == 1
        assert len(purchases_of(sim_world, juan["id"])) == 1
        assert juan["score"] == BIG_BALANCE - price
        shot(screen, f"result-{name}")

    arun(scenario())


@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x768"])
def test_the_money_exchange_invents_no_points_and_shows_the_points_taken(
    qtbot: QtBot,
    session: CounterSession,
    arun: Callable[..., Any],
    sim_world: World,
    language: str,
    size: tuple[int, int],
) -> None:
    juan = rich_plata(sim_world)
    screen = make_screen(qtbot, session, size)
    control = SimControl(sim_world)
    locale = session.config.locale
    name = f"{language}-{size[0]}"

    def sent() -> int:
        return len(control.requests(path=MONEY_PATH, method="POST"))

    async def scenario() -> None:
        await identify(session, screen, juan)
        tap(qtbot, screen, screen.money_tab)
        assert screen.pages.currentWidget() is screen.money
        for key in "1234567":
            qtbot.mouseClick(screen.money.keypad.buttons[key], LEFT)
        amount = format_amount(Decimal(1_234_567), locale)
        balance = format_points(BIG_BALANCE, locale)
        # Enter, Enter on the amount: the sheet, and nothing committed.
        qtbot.keyClick(screen.money.amount, Qt.Key.Key_Return)
        assert screen.pages.currentWidget() is screen.sheet
        focused = QApplication.focusWidget()
        qtbot.keyClick(focused or screen.sheet.confirm, Qt.Key.Key_Return)
        qtbot.keyClick(screen.sheet.confirm, Qt.Key.Key_Return)
        assert sent() == 0
        sheet = screen.sheet
        said = " ".join(
            (sheet.heading.text(), sheet.message.text(), sheet.detail.text(), sheet.hint.text())
        )
        # The amount, the balance, that the program computes the points: no other figure.
        assert amount in sheet.message.text()
        assert balance in sheet.detail.text()
        assert (
            tr(
                "The points are computed by the program: there is no preview of how many will "
                "be taken. The result shows them."
            )
            in said
        )
        assert numbers(said + " " + sheet.confirm.text()) <= numbers(f"{amount} {balance}")
        assert sheet.hint.isVisible()
        assert sheet.detail.isVisible()
        await until(lambda: sheet.confirm.armed)
        shot(screen, f"money-sheet-{name}")
        tap(qtbot, screen, sheet.confirm)
        tap(qtbot, screen, sheet.confirm)
        qtbot.keyClick(sheet.confirm, Qt.Key.Key_Return)
        await until(lambda: screen.pages.currentWidget() is screen.result)
        assert sent() == 1
        [made] = purchases_of(sim_world, juan["id"])
        # The points taken are the service's answer.
        taken = format_points(made["points"], locale)
        assert screen.result.points.text() == tr("−%1 points").replace("%1", taken)
        assert juan["score"] == BIG_BALANCE - made["points"]
        await until(lambda: not screen.tasks.running("catalog"))
        shot(screen, f"money-result-{name}")

    arun(scenario())


@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x768"])
def test_a_reward_whose_stock_ran_out_says_out_of_stock_on_its_tile(
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
    out = QCoreApplication.translate("RewardTile", "Out of stock")

    async def scenario() -> None:
        await identify(session, screen, oro)
        # Seeded with no stock left (the service disabled it): on the grid, said so.
        botella = tile(screen, sim_world, "Botella térmica 750 ml")
        screen.grid.ensureWidgetVisible(botella)
        assert botella.isVisible()
        assert botella.status.text() == out
        assert botella.property("reach") == "false"
        tap(qtbot, screen, botella)
        assert screen.pages.currentWidget() is screen.grid
        assert screen.banner.text() == tr("This reward is out of stock.")
        # The last unit exchanged here: the tile stays, out of stock.
        target = tile(screen, sim_world, "Bolso térmico")
        screen.grid.ensureWidgetVisible(target)
        tap(qtbot, screen, target)
        await until(lambda: screen.sheet.confirm.armed)
        tap(qtbot, screen, screen.sheet.confirm)
        await until(lambda: screen.pages.currentWidget() is screen.result)
        await until(lambda: not screen.tasks.running("catalog"))
        tap(qtbot, screen, screen.result.done_button)
        assert bolso["stock"]["available"] == 0
        await until(lambda: tile(screen, sim_world, "Bolso térmico").status.text() == out)
        shot(screen, f"out-of-stock-{language}-{size[0]}")

    arun(scenario())
