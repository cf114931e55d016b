"""Rewards core: price at the client's level, affordability, exchanges against the simulator."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

import pytest

from kiosk.api.client import LoyaltyClient
from kiosk.api.errors import AmbiguousOutcome, ApiError, ErrorKind, Reason
from kiosk.api.models.catalog import Level, Offer, Product, Stock
from kiosk.api.models.clients import Client
from kiosk.core.counter.rewards import (
    ExchangeKind,
    LevelLadder,
    RewardCard,
    catalog_for,
    exchange_money,
    exchange_reward,
    journal_exchange,
    load_catalog,
    load_ladder,
    missing_points,
    price_at_level,
    reward_card,
    with_balance,
)
from kiosk.core.db import DatabaseWorker
from kiosk.core.journal import AsyncJournal, OperationKind, Outcome
from kiosk.sim import create_app
from kiosk.sim.control import SimControl
from kiosk.sim.transport import SimTransport
from kiosk.sim.world import World
from tests.conftest import MAIN_KEY

T = TypeVar("T")

BRONCE, PLATA, ORO = 1, 2, 3
LADDER = LevelLadder.of(
    [Level(BRONCE, 0, "Bronce"), Level(PLATA, 5000, "Plata"), Level(ORO, 15000, "Oro")]
)


def product(*offers: tuple[int | None, int], **extra: Any) -> Product:
    return Product(
        id=extra.pop("id", 1),
        name=extra.pop("name", "Café"),
        offers=tuple(Offer(100 + i, points, level) for i, (level, points) in enumerate(offers)),
        **extra,
    )


# -- price at level ------------------------------------------------------------


def test_a_client_without_level_pays_the_offer_without_level() -> None:
    p = product((None, 800), (BRONCE, 720), (ORO, 560))
    offer = price_at_level(p, None, LADDER)
    assert offer is not None
    assert (offer.points, offer.level_id) == (800, None)


def test_a_client_pays_the_offer_of_their_own_level() -> None:
    p = product((None, 800), (BRONCE, 720), (PLATA, 640), (ORO, 560))
    assert price_at_level(p, PLATA, LADDER) == Offer(102, 640, PLATA)
    assert price_at_level(p, ORO, LADDER) == Offer(103, 560, ORO)


def test_a_higher_level_may_use_the_offer_of_a_lower_level() -> None:
    # No offer for Oro: an Oro client gets the best offer open to them (Bronce's).
    p = product((None, 800), (BRONCE, 700), (PLATA, 750))
    offer = price_at_level(p, ORO, LADDER)
    assert offer is not None
    assert (offer.points, offer.level_id) == (700, BRONCE)


def test_level_only_offers_are_closed_to_lower_levels_and_to_clients_without_level() -> None:
    p = product((ORO, 8400))
    assert price_at_level(p, None, LADDER) is None
    assert price_at_level(p, BRONCE, LADDER) is None
    assert price_at_level(p, PLATA, LADDER) is None
    offer = price_at_level(p, ORO, LADDER)
    assert offer is not None
    assert offer.points == 8400


def test_unknown_ranks_only_open_the_exact_level_and_the_offer_without_level() -> None:
    p = product((None, 900), (BRONCE, 500))
    # The ladder could not be read: Plata's rank against Bronce is unknown.
    offer = price_at_level(p, PLATA, LevelLadder())
    assert offer is not None
    assert offer.points == 900
    assert price_at_level(p, BRONCE, LevelLadder()) == Offer(101, 500, BRONCE)


def test_a_tie_prefers_the_clients_own_level() -> None:
    p = product((None, 500), (PLATA, 500))
    assert price_at_level(p, PLATA, LADDER) == Offer(101, 500, PLATA)


# -- affordability ---------------------------------------------------------------


def test_missing_points_and_affordability() -> None:
    assert missing_points(1200, 880) == 320
    assert missing_points(1200, 1200) == 0
    assert missing_points(1200, 5000) == 0
    card = RewardCard(1, "Café", "", 10, price=1200, balance=880)
    assert (card.affordable, card.missing, card.balance_after) == (False, 320, -320)
    rich = RewardCard(1, "Café", "", 10, price=1200, balance=4650)
    assert (rich.affordable, rich.missing, rich.balance_after) == (True, 0, 3450)


def test_a_reward_out_of_stock_is_not_affordable_whatever_the_balance() -> None:
    p = product((None, 100), stock=Stock(controlled=True, available=0))
    card = reward_card(p, 10_000, None, LADDER)
    assert card is not None
    assert (card.in_stock, card.affordable, card.stock) == (False, False, 0)
    free = reward_card(product((None, 100), stock=Stock(controlled=False)), 50, None, LADDER)
    assert free is not None
    assert (free.stock, free.in_stock) == (None, True)


def test_catalog_leaves_out_what_the_client_cannot_exchange_and_sorts_affordable_first() -> None:
    products = [
        product((None, 3000), id=1, name="Cine"),
        product((None, 900), id=2, name="Café"),
        product((ORO, 100), id=3, name="Cena"),  # not for a Plata client
        product((None, 50), id=4, name="Apagado", is_enabled=False),
        product((None, 1500), (PLATA, 1400), id=5, name="Torta", max_purchases=1),
    ]
    cards = catalog_for(products, 1450, PLATA, LADDER)
    assert [(c.name, c.price, c.affordable) for c in cards] == [
        ("Café", 900, True),
        ("Torta", 1400, True),
        ("Cine", 3000, False),
    ]
    assert cards[1].max_per_client == 1
    assert cards[2].missing == 1550
    # After spending 1.000 points only the coffee is still within reach.
    poorer = with_balance(cards, 450)
    assert [(c.name, c.affordable, c.missing) for c in poorer] == [
        ("Café", False, 450),
        ("Torta", False, 950),
        ("Cine", False, 2550),
    ]
    richer = with_balance(cards, 3000)
    assert [c.name for c in richer if c.affordable] == ["Café", "Torta", "Cine"]


# -- against the simulator ---------------------------------------------------------


async def _no_wait(_seconds: float) -> None:
    await asyncio.sleep(0)


def api_for(world: World) -> LoyaltyClient:
    branch = min(world.merchants[1].tables["branches"])
    return LoyaltyClient(
        f"http://core-{uuid.uuid4().hex[:8]}.test",
        MAIN_KEY,
        branch_id=branch,
        transport=SimTransport(create_app(world)),
        sleep=_no_wait,
        settle_seconds=0,
    )


def run(world: World, scenario: Callable[[LoyaltyClient], Awaitable[T]]) -> T:
    async def main() -> T:
        async with api_for(world) as api:
            return await scenario(api)

    return asyncio.run(main())


def clients(world: World) -> dict[int, dict[str, Any]]:
    return world.merchants[1].tables["clients"]


def products(world: World) -> dict[int, dict[str, Any]]:
    return world.merchants[1].tables["products"]


def seeded(world: World, name: str) -> dict[str, Any]:
    return next(p for p in products(world).values() if p["name"] == name)


def client_at(world: World, level_name: str, minimum: int = 0) -> dict[str, Any]:
    return next(
        c
        for c in clients(world).values()
        if c["level"] and c["level"]["name"] == level_name and c["score"] >= minimum
    )


async def find(api: LoyaltyClient, record: dict[str, Any]) -> Client:
    return await api.search_client(record["email"])


def test_catalog_of_a_plata_client_from_the_simulator(sim_world: World) -> None:
    juan = client_at(sim_world, "Plata")

    async def scenario(api: LoyaltyClient) -> list[RewardCard]:
        ladder = await load_ladder(api)
        return await load_catalog(api, await find(api, juan), ladder)

    cards = run(sim_world, scenario)
    by_name = {c.name: c for c in cards}
    # Disabled by hand in the panel and Oro-only rewards are not listed; the one whose
    # stock ran out (disabled by the service) is, as out of stock (issue #14).
    assert by_name["Botella térmica 750 ml"].stock == 0
    assert not by_name["Botella térmica 750 ml"].in_stock
    assert "Pan dulce artesanal" not in by_name
    assert "Cena para dos en parrilla" not in by_name
    plata_offer = next(
        o for o in seeded(sim_world, "Café con medialunas")["offers"] if o["levelId"] == PLATA
    )
    assert by_name["Café con medialunas"].price == plata_offer["points"]
    assert by_name["Café con medialunas"].offer_id == plata_offer["productOfferId"]
    assert (
        by_name["Entrada de cine 2D"].stock
        == seeded(sim_world, "Entrada de cine 2D")["stock"]["available"]
    )
    assert by_name["Café con medialunas"].stock is None
    for card in cards:
        assert card.affordable == (card.price <= juan["score"] and card.in_stock)


def test_catalog_of_an_oro_client_includes_the_oro_only_reward(sim_world: World) -> None:
    oro = client_at(sim_world, "Oro")

    async def scenario(api: LoyaltyClient) -> list[RewardCard]:
        return await load_catalog(api, await find(api, oro), await load_ladder(api))

    names = {c.name for c in run(sim_world, scenario)}
    assert "Cena para dos en parrilla" in names


def test_exchange_debits_the_points_and_takes_a_unit_of_stock(
    sim_world: World, tmp_path: Path
) -> None:
    juan = client_at(sim_world, "Plata", 3000)
    cine = seeded(sim_world, "Entrada de cine 2D")
    balance, stock = juan["score"], cine["stock"]["available"]

    async def scenario(api: LoyaltyClient) -> Any:
        client = await find(api, juan)
        cards = await load_catalog(api, client, await load_ladder(api))
        card = next(c for c in cards if c.product_id == cine["id"])
        done = await exchange_reward(api, client, card)
        worker = DatabaseWorker(tmp_path / "j.sqlite3")
        await worker.start()
        try:
            entry = await journal_exchange(AsyncJournal(worker), client, done)
        finally:
            await worker.close()
        return card, done, entry

    card, done, entry = run(sim_world, scenario)
    assert done.kind is ExchangeKind.REWARD
    assert done.purchase.is_pending
    assert len(done.code) == 8
    assert done.points == card.price
    assert done.reward == "Entrada de cine 2D"
    assert juan["score"] == balance - card.price == done.expected_balance
    assert cine["stock"]["available"] == stock - 1
    stored = next(
        p for p in sim_world.merchants[1].tables["purchases"].values() if p["code"] == done.code
    )
    assert stored["status"] == "pending"
    assert (entry.kind, entry.outcome, entry.points) == (
        OperationKind.EXCHANGE,
        Outcome.OK,
        -card.price,
    )
    assert done.code in entry.detail
    assert juan["email"] not in entry.client
    assert entry.client.endswith("***@" + juan["email"].split("@")[1])


def offer_for(world: World, name: str, level_id: int | None) -> int:
    return next(
        o["productOfferId"] for o in seeded(world, name)["offers"] if o["levelId"] == level_id
    )


@pytest.mark.parametrize(
    ("name", "level_name", "reason"),
    [
        ("Botella térmica 750 ml", "Plata", Reason.NO_STOCK),
        ("Pan dulce artesanal", "Plata", Reason.PRODUCT_DISABLED),
        ("Cena para dos en parrilla", "Plata", Reason.LEVEL_NOT_ALLOWED),
        ("Entrada Parque de la Costa", "Bronce", Reason.INSUFFICIENT_POINTS),
    ],
)
def test_refusals_come_back_with_their_reason_and_change_nothing(
    sim_world: World, name: str, level_name: str, reason: Reason
) -> None:
    who = client_at(sim_world, level_name)
    balance = who["score"]
    level_id = ORO if name.startswith("Cena") else who["level"]["id"]
    card = RewardCard(
        seeded(sim_world, name)["id"], name, "", offer_for(sim_world, name, level_id), 1, balance
    )

    async def scenario(api: LoyaltyClient) -> None:
        await exchange_reward(api, await find(api, who), card)

    with pytest.raises(ApiError) as caught:
        run(sim_world, scenario)
    assert (caught.value.kind, caught.value.reason) == (ErrorKind.CONFLICT, reason)
    assert who["score"] == balance


def test_the_per_client_cap_refuses_the_second_exchange(sim_world: World) -> None:
    juan = client_at(sim_world, "Plata", 3000)
    torta = seeded(sim_world, "Torta de cumpleaños individual")
    assert torta["maxPurchases"] == 1

    async def scenario(api: LoyaltyClient) -> None:
        client = await find(api, juan)
        cards = await load_catalog(api, client, await load_ladder(api))
        card = next(c for c in cards if c.product_id == torta["id"])
        await exchange_reward(api, client, card)
        client = await find(api, juan)
        with pytest.raises(ApiError) as caught:
            await exchange_reward(api, client, card)
        assert caught.value.reason is Reason.EXCHANGE_CAP

    run(sim_world, scenario)


def test_money_exchange_and_its_minimum(sim_world: World, tmp_path: Path) -> None:
    juan = client_at(sim_world, "Plata", 3000)
    balance = juan["score"]
    minimum = Decimal(str(sim_world.merchants[1].rules.money_exchange_minimum))

    async def scenario(api: LoyaltyClient) -> Any:
        client = await find(api, juan)
        with pytest.raises(ApiError) as caught:
            await exchange_money(api, client, minimum - 1)
        assert caught.value.reason is Reason.MONEY_MINIMUM
        done = await exchange_money(api, client, Decimal("1000"))
        worker = DatabaseWorker(tmp_path / "j.sqlite3")
        await worker.start()
        try:
            entry = await journal_exchange(AsyncJournal(worker), client, done)
        finally:
            await worker.close()
        return done, entry

    done, entry = run(sim_world, scenario)
    assert done.kind is ExchangeKind.MONEY
    assert done.money == Decimal("1000")
    assert done.purchase.type == "money"
    assert juan["score"] == balance - done.points
    assert done.points > 0
    assert (entry.kind, entry.amount, entry.points) == (
        OperationKind.MONEY_EXCHANGE,
        Decimal("1000"),
        -done.points,
    )
    with pytest.raises(ValueError, match="positive"):
        asyncio.run(exchange_money(None, None, Decimal(0)))  # type: ignore[arg-type]


def test_a_dropped_exchange_is_reconciled_by_reading_and_not_sent_twice(
    sim_world: World, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"exchange_product|POST /external/exchange/product")
    juan = client_at(sim_world, "Plata", 3000)
    balance = juan["score"]
    control = SimControl(sim_world)
    control.add_fault("drop", "^/external/exchange/product$", method="POST")
    card = RewardCard(
        1, "Café con medialunas", "", offer_for(sim_world, "Café con medialunas", PLATA), 0, balance
    )

    async def scenario(api: LoyaltyClient) -> Any:
        return await exchange_reward(api, await find(api, juan), card)

    done = run(sim_world, scenario)
    assert done.reconciled
    assert len(control.requests(path="^/external/exchange/product$", method="POST")) == 1
    assert juan["score"] == balance - done.points
    assert done.purchase.product is not None
    assert done.purchase.product.name == "Café con medialunas"


def test_a_lost_answer_that_reading_cannot_settle_is_ambiguous(
    sim_world: World, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"exchange_product|/external/exchange/product|/external/purchase")
    juan = client_at(sim_world, "Plata", 3000)
    control = SimControl(sim_world)
    # Dropped without being applied, and reading back fails too.
    control.add_fault("drop", "^/external/exchange/product$", method="POST", apply=False)
    control.add_fault(
        "status", "^/external/purchase$", method="GET", status=500, count=None, skip=1
    )
    card = RewardCard(1, "Café", "", offer_for(sim_world, "Café con medialunas", PLATA), 0, 0)

    async def scenario(api: LoyaltyClient) -> None:
        await exchange_reward(api, await find(api, juan), card)

    with pytest.raises(AmbiguousOutcome):
        run(sim_world, scenario)


def test_a_client_without_level_sees_the_prices_without_level(sim_world: World) -> None:
    # No level (e.g. still being assigned): only offers without level are open, so
    # the Oro-only reward is not listed and every price is the base price.
    client = Client(id=1, balance=100_000, level=None)

    async def scenario(api: LoyaltyClient) -> list[RewardCard]:
        return await load_catalog(api, client, await load_ladder(api))

    cards = run(sim_world, scenario)
    names = {c.name for c in cards}
    assert "Cena para dos en parrilla" not in names
    cafe = next(c for c in cards if c.name == "Café con medialunas")
    assert cafe.price == next(
        o["points"]
        for o in seeded(sim_world, "Café con medialunas")["offers"]
        if o["levelId"] is None
    )
    assert all(c.affordable for c in cards if c.in_stock)


def test_exchanges_go_on_when_the_purchase_list_refuses_its_guessed_parameters(
    sim_world: World, expect_log: Callable[[str], None]
) -> None:
    """Issue #30, item 1: a service that answers the purchase list's undocumented
    ``order`` and ``clientId`` with a 400 stops neither a reward nor a money exchange."""
    expect_log(r"^the purchase list refused its parameters \(400 bad_request\)")
    juan = client_at(sim_world, "Plata", 3000)
    balance = juan["score"]
    control = SimControl(sim_world)
    control.add_fault(
        "status",
        "^/external/purchase$",
        method="GET",
        status=400,
        count=None,
        body={"statusCode": 400, "message": "property order should not exist"},
    )

    async def scenario(api: LoyaltyClient) -> tuple[Any, Any]:
        client = await find(api, juan)
        cards = await load_catalog(api, client, await load_ladder(api))
        reward = await exchange_reward(api, client, cards[0])
        money = await exchange_money(api, await find(api, juan), Decimal("1000"))
        return reward, money

    reward, money = run(sim_world, scenario)
    assert reward.purchase.is_pending
    assert len(reward.code) == 8
    assert money.money == Decimal("1000")
    assert juan["score"] == balance - reward.points - money.points
    assert len(control.requests(path="^/external/purchase$")) == 1  # asked once
