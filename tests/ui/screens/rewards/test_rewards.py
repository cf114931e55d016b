"""The Rewards screen against the in-process simulator: the catalog at the client's
level, the confirmation sheet, exchanges (code, QR, balance, journal), refusals and
the money exchange."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from kiosk.api.errors import AmbiguousOutcome, ApiError, ErrorKind, Reason
from kiosk.core.amounts import format_points
from kiosk.core.journal import OperationKind
from kiosk.core.session import CounterSession
from kiosk.sim.catalog_seed_data import MAIN_PURCHASES
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from kiosk.ui.messages import error_text
from kiosk.ui.screens.rewards.grid import RewardTile
from kiosk.ui.screens.rewards.screen import RewardsScreen
from tests.qt_async import until

LEFT = Qt.MouseButton.LeftButton


def tables(world: World, name: str) -> dict[int, dict[str, Any]]:
    return world.merchants[1].tables[name]


def client_at(world: World, level: str, minimum: int = 0) -> dict[str, Any]:
    return next(
        c
        for c in tables(world, "clients").values()
        if c.get("status") == "ACTIVE" and c["level"]["name"] == level and c["score"] >= minimum
    )


def product(world: World, name: str) -> dict[str, Any]:
    return next(p for p in tables(world, "products").values() if p["name"] == name)


def price(world: World, name: str, level_id: int) -> int:
    return next(o["points"] for o in product(world, name)["offers"] if o["levelId"] == level_id)


def purchases_of(world: World, client_id: int) -> list[dict[str, Any]]:
    """The client's purchases made during the test (the seeded ones have seed codes)."""
    seeded = {row[0] for row in MAIN_PURCHASES}
    return [
        p
        for p in tables(world, "purchases").values()
        if p["_client_id"] == client_id and p["code"] not in seeded
    ]


def make_screen(qtbot: QtBot, session: CounterSession) -> RewardsScreen:
    screen = RewardsScreen(session)
    qtbot.addWidget(screen)
    screen.resize(1280, 800)
    screen.show()
    return screen


async def identify(session: CounterSession, screen: RewardsScreen, record: dict[str, Any]) -> None:
    session.set_client(await session.api.search_client(record["email"]))
    await until(lambda: screen.grid.tiles and not screen.tasks.running("catalog"))


def tile(screen: RewardsScreen, world: World, name: str) -> RewardTile:
    return screen.grid.tiles[product(world, name)["id"]]


async def tap_confirm(qtbot: QtBot, screen: RewardsScreen) -> None:
    """Tap the sheet's Confirm as a cashier does: once it is shown and armed (painted,
    then the guard time: a tap before that is ignored)."""
    await until(lambda: screen.sheet.confirm.armed, message="Confirm never armed")
    qtbot.mouseClick(screen.sheet.confirm, LEFT)


async def exchange(qtbot: QtBot, screen: RewardsScreen, target: RewardTile) -> None:
    """Tap the reward, check the sheet opened, confirm, wait for the answer."""
    qtbot.mouseClick(target, LEFT)
    assert screen.pages.currentWidget() is screen.sheet
    await tap_confirm(qtbot, screen)
    await until(lambda: not screen.tasks.running("exchange"))


def test_grid_shows_the_price_at_the_clients_level_and_dims_what_is_out_of_reach(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: World
) -> None:
    screen = make_screen(qtbot, session)
    plata = client_at(sim_world, "Plata")
    oro = client_at(sim_world, "Oro")
    locale = session.config.locale

    async def scenario() -> None:
        await identify(session, screen, plata)
        level = plata["level"]["id"]
        cafe = tile(screen, sim_world, "Café con medialunas")
        assert (
            cafe.price.text()
            == f"{format_points(price(sim_world, 'Café con medialunas', level), locale)} pts"
        )
        assert cafe.card.affordable
        # Out of reach at this balance: dimmed, with what is missing.
        bolso = tile(screen, sim_world, "Bolso térmico")
        missing = price(sim_world, "Bolso térmico", level) - plata["score"]
        assert missing > 0
        assert not bolso.card.affordable
        assert bolso.status.text() == f"Missing {format_points(missing, locale)} pts"
        assert bolso.property("reach") == "false"  # dashed, dimmed (the grid's sheet)
        assert cafe.property("reach") == "true"
        assert bolso.badge.text() == "1 left"
        assert (
            tile(screen, sim_world, "Torta de cumpleaños individual").badge.text() == "1 per client"
        )
        # The reward whose stock ran out stays, said out of stock (issue #14); the one
        # disabled by hand and the Oro-only one are not offered.
        botella = tile(screen, sim_world, "Botella térmica 750 ml")
        assert botella.status.text() == "Out of stock"
        assert not botella.card.affordable
        assert product(sim_world, "Pan dulce artesanal")["id"] not in screen.grid.tiles
        assert product(sim_world, "Cena para dos en parrilla")["id"] not in screen.grid.tiles
        # Tapping what is out of reach says why and opens nothing.
        qtbot.mouseClick(bolso, LEFT)
        assert screen.pages.currentWidget() is screen.grid
        assert f"missing {format_points(missing, locale)} points" in screen.banner.text()

        # Another client, another level: other prices and the Oro-only reward.
        plata_price = cafe.card.price
        await identify(session, screen, oro)
        await until(
            lambda: product(sim_world, "Cena para dos en parrilla")["id"] in screen.grid.tiles
        )
        oro_cafe = tile(screen, sim_world, "Café con medialunas")
        assert oro_cafe.card.price == price(sim_world, "Café con medialunas", oro["level"]["id"])
        assert oro_cafe.card.price < plata_price
        assert oro_cafe is cafe  # the tile kept from the last client, updated in place
        assert tile(screen, sim_world, "Bolso térmico").card.affordable
        assert screen.banner.text() == ""

    arun(scenario())


def test_confirm_then_exchange_shows_the_code_the_qr_and_the_new_balance(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: World
) -> None:
    screen = make_screen(qtbot, session)
    juan = client_at(sim_world, "Plata", 3000)
    before = juan["score"]
    cost = price(sim_world, "Café con medialunas", juan["level"]["id"])
    locale = session.config.locale
    journal_events: list[None] = []
    session.journal_changed.connect(journal_events.append)

    async def scenario() -> None:
        await identify(session, screen, juan)
        cafe = tile(screen, sim_world, "Café con medialunas")
        qtbot.mouseClick(cafe, LEFT)
        assert screen.pages.currentWidget() is screen.sheet
        assert screen.sheet.message.text() == (
            f"Exchange Café con medialunas for {format_points(cost, locale)} points."
        )
        assert (
            f"Balance after: {format_points(before - cost, locale)}" in screen.sheet.detail.text()
        )
        # Back changes nothing.
        qtbot.mouseClick(screen.sheet.back, LEFT)
        assert screen.pages.currentWidget() is screen.grid
        assert purchases_of(sim_world, juan["id"]) == []

        await exchange(qtbot, screen, tile(screen, sim_world, "Café con medialunas"))
        assert screen.pages.currentWidget() is screen.result
        [made] = purchases_of(sim_world, juan["id"])
        assert made["status"] == "pending"
        assert screen.result.code.text() == made["code"]
        assert screen.result.qr.has_code
        assert juan["score"] == before - cost
        await until(lambda: "updating" not in screen.result.balance.text())
        assert (
            screen.result.balance.text() == f"New balance: {format_points(juan['score'], locale)}"
        )
        assert screen.result.points.text() == f"−{format_points(cost, locale)} points"
        assert session.client is not None
        assert session.client.balance == juan["score"]
        rows = await session.journal.today()
        assert [(r.kind, r.points) for r in rows] == [(OperationKind.EXCHANGE, -cost)]
        assert made["code"] in rows[0].detail
        assert juan["email"] not in rows[0].client
        assert journal_events
        # Done: back to the grid, repriced for the new balance; the QR is forgotten.
        await until(lambda: not screen.tasks.running("catalog"))
        qtbot.mouseClick(screen.result.done_button, LEFT)
        assert screen.pages.currentWidget() is screen.grid
        assert not screen.result.qr.has_code
        assert tile(screen, sim_world, "Café con medialunas").card.balance == juan["score"]

    arun(scenario())


def test_insufficient_points_409_is_said_in_plain_words(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: World
) -> None:
    screen = make_screen(qtbot, session)
    juan = client_at(sim_world, "Plata", 3000)

    async def scenario() -> None:
        await identify(session, screen, juan)
        # Another counter spent the points after the grid was drawn.
        juan["score"] = 100
        await exchange(qtbot, screen, tile(screen, sim_world, "Café con medialunas"))
        expected = error_text(ApiError(ErrorKind.CONFLICT, reason=Reason.INSUFFICIENT_POINTS))
        assert screen.banner.kind == "error"
        assert screen.banner.text() == expected
        assert screen.pages.currentWidget() is screen.grid
        assert purchases_of(sim_world, juan["id"]) == []
        # The balance and the grid are read again.
        await until(lambda: session.client is not None and session.client.balance == 100)
        await until(lambda: not tile(screen, sim_world, "Café con medialunas").card.affordable)
        assert await session.journal.today() == []

    arun(scenario())


def test_no_stock_when_another_counter_took_the_last_unit(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: World
) -> None:
    screen = make_screen(qtbot, session)
    oro = [c for c in tables(sim_world, "clients").values() if c["level"]["name"] == "Oro"]
    maria, other = oro[0], oro[1]
    bolso = product(sim_world, "Bolso térmico")
    assert bolso["stock"] == {"controlled": True, "available": 1}

    async def scenario() -> None:
        await identify(session, screen, maria)
        target = tile(screen, sim_world, "Bolso térmico")
        assert target.card.affordable
        # The last unit goes to another client at another counter.
        await session.api.exchange_product(target.card.offer_id, other["id"])
        assert bolso["stock"]["available"] == 0
        await exchange(qtbot, screen, target)
        assert screen.banner.text() == error_text(
            ApiError(ErrorKind.CONFLICT, reason=Reason.NO_STOCK)
        )
        assert purchases_of(sim_world, maria["id"]) == []
        # The refreshed list says it is out of stock (it no longer vanishes, issue #14).
        await until(
            lambda: tile(screen, sim_world, "Bolso térmico").status.text() == "Out of stock"
        )
        await until(lambda: not screen.tasks.running("after-refusal"))

    arun(scenario())


def test_the_per_client_cap_refuses_the_second_exchange(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: World
) -> None:
    screen = make_screen(qtbot, session)
    juan = client_at(sim_world, "Plata", 3000)

    async def scenario() -> None:
        await identify(session, screen, juan)
        await exchange(qtbot, screen, tile(screen, sim_world, "Torta de cumpleaños individual"))
        assert screen.pages.currentWidget() is screen.result
        await until(lambda: not screen.tasks.running("catalog"))
        qtbot.mouseClick(screen.result.done_button, LEFT)
        balance = juan["score"]
        # The tile shows it is used (issue #21): a tap says why and opens no sheet.
        qtbot.mouseClick(tile(screen, sim_world, "Torta de cumpleaños individual"), LEFT)
        assert screen.pages.currentWidget() is screen.grid
        assert screen.banner.text() == error_text(
            ApiError(ErrorKind.CONFLICT, reason=Reason.EXCHANGE_CAP)
        )
        assert juan["score"] == balance
        assert len(purchases_of(sim_world, juan["id"])) == 1

    arun(scenario())


def test_money_exchange_success_and_below_the_minimum(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: World
) -> None:
    screen = make_screen(qtbot, session)
    juan = client_at(sim_world, "Plata", 3000)
    before = juan["score"]
    minimum = sim_world.merchants[1].rules.money_exchange_minimum
    locale = session.config.locale

    async def scenario() -> None:
        await identify(session, screen, juan)
        qtbot.mouseClick(screen.money_tab, LEFT)
        assert screen.pages.currentWidget() is screen.money
        keypad = screen.money.keypad.buttons
        for key in "1000":
            qtbot.mouseClick(keypad[key], LEFT)
        assert screen.money.echo.text() == "The client takes $ 1.000,00"
        qtbot.mouseClick(screen.money.exchange, LEFT)
        assert screen.pages.currentWidget() is screen.sheet
        assert screen.sheet.message.text() == "Exchange points for $ 1.000,00 in money."
        await tap_confirm(qtbot, screen)
        await until(lambda: screen.pages.currentWidget() is screen.result)
        [made] = purchases_of(sim_world, juan["id"])
        assert (made["type"], made["moneyAmount"]) == ("money", 1000.0)
        assert screen.result.code.text() == made["code"]
        assert screen.result.qr.has_code
        assert screen.result.points.text() == f"−{format_points(made['points'], locale)} points"
        assert juan["score"] == before - made["points"]
        await until(
            lambda: (
                screen.result.balance.text()
                == f"New balance: {format_points(juan['score'], locale)}"
            )
        )
        rows = await session.journal.today()
        assert [(r.kind, r.points) for r in rows] == [
            (OperationKind.MONEY_EXCHANGE, -made["points"])
        ]
        await until(lambda: not screen.tasks.running("catalog"))

        # Below the merchant's minimum: refused in plain words, nothing debited.
        qtbot.mouseClick(screen.result.done_button, LEFT)
        assert screen.pages.currentWidget() is screen.money
        assert screen.money.amount.text() == ""
        qtbot.keyClicks(screen.money.amount, str(int(minimum) - 1))
        qtbot.keyClick(screen.money.amount, Qt.Key.Key_Return)
        await tap_confirm(qtbot, screen)
        await until(lambda: screen.banner.kind == "error")
        # The service's minimum, as it sent it, in the store's format (issue #21).
        assert screen.banner.text() == (
            "The amount is below the minimum for a money exchange: $ 500,00."
        )
        assert screen.pages.currentWidget() is screen.money
        assert len(purchases_of(sim_world, juan["id"])) == 1

        # Not an amount: said under the field, nothing sent.
        screen.money.amount.setText("1,234.5")
        qtbot.mouseClick(screen.money.exchange, LEFT)
        assert screen.money.error.isVisible()
        assert screen.pages.currentWidget() is screen.money

    arun(scenario())


def test_a_lost_answer_that_cannot_be_settled_says_not_certain_and_is_not_resent(
    qtbot: QtBot,
    session: CounterSession,
    arun: Callable[..., Any],
    sim_world: World,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"exchange")
    screen = make_screen(qtbot, session)
    juan = client_at(sim_world, "Plata", 3000)
    control = SimControl(sim_world)

    async def scenario() -> None:
        await identify(session, screen, juan)
        # The request never arrives, the answer is lost, and reading back fails.
        control.add_fault("drop", "^/external/exchange/product$", method="POST", apply=False)
        control.add_fault("status", "^/external/purchase$", method="GET", status=400, skip=1)
        qtbot.mouseClick(tile(screen, sim_world, "Café con medialunas"), LEFT)
        await tap_confirm(qtbot, screen)
        await until(lambda: screen.banner.kind == "error", timeout=10)
        assert screen.banner.text() == error_text(
            AmbiguousOutcome(operation="x", cause=ErrorKind.NETWORK)
        )
        assert "not certain" in screen.banner.text()
        assert len(control.requests(path="^/external/exchange/product$", method="POST")) == 1
        assert screen.pages.currentWidget() is screen.grid
        await until(lambda: not screen.tasks.running("after-refusal"))

    arun(scenario())


def test_a_double_tap_on_confirm_exchanges_once_and_reset_forgets_everything(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: World
) -> None:
    screen = make_screen(qtbot, session)
    juan = client_at(sim_world, "Plata", 3000)
    control = SimControl(sim_world)

    async def scenario() -> None:
        await identify(session, screen, juan)
        qtbot.mouseClick(tile(screen, sim_world, "Alfajores x6"), LEFT)
        await tap_confirm(qtbot, screen)
        qtbot.mouseClick(screen.sheet.confirm, LEFT)  # a second tap while in flight
        assert not screen.sheet.back.isEnabled()
        await until(lambda: screen.pages.currentWidget() is screen.result)
        assert len(control.requests(path="^/external/exchange/product$", method="POST")) == 1
        await until(lambda: not screen.tasks.running("catalog"))
        screen.reset()
        assert screen.grid.tiles == {}
        assert not screen.result.qr.has_code
        assert screen.result.code.text() == ""

    arun(scenario())


def test_leaving_the_screen_mid_exchange_does_not_cut_it_and_shows_it_on_return(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: World
) -> None:
    screen = make_screen(qtbot, session)
    juan = client_at(sim_world, "Plata", 3000)
    control = SimControl(sim_world)

    async def scenario() -> None:
        await identify(session, screen, juan)
        control.add_fault("latency", "^/external/exchange/product$", method="POST", seconds=0.3)
        qtbot.mouseClick(tile(screen, sim_world, "Alfajores x6"), LEFT)
        await tap_confirm(qtbot, screen)
        await until(lambda: control.requests(path="^/external/exchange/product$"))
        screen.leave()  # the cashier taps another mode while the request is out
        assert not screen.tasks.running("exchange")
        await until(lambda: len(purchases_of(sim_world, juan["id"])) == 1)
        await until(lambda: screen._write is not None and not screen._write.running)
        rows = await session.journal.today()
        assert [r.kind for r in rows] == [OperationKind.EXCHANGE]
        # Back on the screen: what happened is shown, and nothing was sent twice.
        screen.entered()
        await until(lambda: screen.pages.currentWidget() is screen.result)
        [made] = purchases_of(sim_world, juan["id"])
        assert screen.result.code.text() == made["code"]
        assert len(control.requests(path="^/external/exchange/product$", method="POST")) == 1
        await until(lambda: not screen.tasks.running("exchange"))
        await until(lambda: not screen.tasks.running("catalog"))

    arun(scenario())


def test_a_new_level_reprices_the_catalog(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: World
) -> None:
    screen = make_screen(qtbot, session)
    juan = client_at(sim_world, "Plata", 3000)
    oro = next(lv for lv in tables(sim_world, "levels").values() if lv["name"] == "Oro")

    async def scenario() -> None:
        await identify(session, screen, juan)
        cafe_id = product(sim_world, "Café con medialunas")["id"]
        assert screen.grid.tiles[cafe_id].card.price == price(
            sim_world, "Café con medialunas", juan["level"]["id"]
        )
        # A credit elsewhere moved the client up to Oro; the card is read again.
        juan["level"] = {"id": oro["id"], "name": oro["name"]}
        await session.refresh_client()
        oro_price = price(sim_world, "Café con medialunas", oro["id"])
        await until(lambda: screen.grid.tiles[cafe_id].card.price == oro_price)
        await until(lambda: not screen.tasks.running("catalog"))

    arun(scenario())


def test_a_new_balance_while_hidden_is_priced_when_the_screen_shows_again(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: World
) -> None:
    """A credit on Points refreshes the client: the hidden Rewards screen does not re-price
    its tiles inside that answer, but as soon as it is shown again."""
    screen = make_screen(qtbot, session)
    plata = client_at(sim_world, "Plata")

    async def scenario() -> None:
        await identify(session, screen, plata)
        bolso = tile(screen, sim_world, "Bolso térmico")
        assert not bolso.card.affordable
        client = session.client
        assert client is not None
        screen.hide()
        richer = dataclasses.replace(client, balance=client.balance + 100_000)
        session.set_client(richer)
        assert not bolso.card.affordable  # hidden: not re-priced yet
        screen.show()
        screen.entered()
        assert bolso.card.affordable
        assert bolso.property("reach") == "true"

    arun(scenario())


def test_a_new_balance_while_the_first_catalog_is_placed_still_shows_it(
    qtbot: QtBot, session: CounterSession, sim_world: World, arun: Callable[..., Any]
) -> None:
    """The first catalog places its tiles one turn before it shows the page; the same
    client read again in that turn (a credit's new balance) still gets the catalog."""
    screen = make_screen(qtbot, session)
    record = client_at(sim_world, "Plata")
    summarize = screen._summarize
    refreshed: list[bool] = []

    def summarize_then_refresh() -> None:
        summarize()
        client = session.client
        if client is not None and not refreshed and screen.pages.currentWidget() is screen.empty:
            refreshed.append(True)  # once (the re-price summarizes again)
            session.set_client(dataclasses.replace(client, balance=client.balance + 1))

    screen._summarize = summarize_then_refresh  # type: ignore[method-assign]

    async def scenario() -> None:
        await identify(session, screen, record)
        await until(lambda: screen.pages.currentWidget() is screen.grid)
        assert refreshed

    arun(scenario())
