"""Exchanges for rewards and money, code lookup, redeem, purchase list."""

from __future__ import annotations

from collections.abc import Callable

from kiosk.api import ErrorKind, LoyaltyClient, Reason, Resource
from kiosk.api.models import PurchaseStatus, PurchaseType
from kiosk.sim.world import World
from tests.api.conftest import run
from tests.api.support import JUAN_DNI, SUSPENDED_DNI, client_record, fails

Connect = Callable[..., LoyaltyClient]

MARIA_DNI = "27456789"  # Oro, 12840 points
SANTIAGO_DNI = "38901234"  # Bronce, 820 points
MICAELA_DNI = "43000111"  # Bronce, 60 points


def test_exchange_a_reward_debits_points_and_gives_a_code(
    connect: Connect, sim_world: World, main_branches: list[int]
) -> None:
    juan = client_record(sim_world, JUAN_DNI)
    balance, counter = juan["score"], juan["purchases_counter"]

    async def scenario() -> None:
        async with connect() as api:
            done = await api.exchange_product(3, juan["id"], lookup=JUAN_DNI)  # Plata price
            looked = await api.find_purchase(done.record.code)
            after = await api.search_client(JUAN_DNI)
        purchase = done.record
        assert not done.reconciled
        assert purchase.is_pending
        assert purchase.points == 640
        assert purchase.type == PurchaseType.PRODUCT
        assert purchase.product is not None
        assert purchase.client is not None
        assert purchase.client.id == juan["id"]
        assert purchase.branch is not None
        assert purchase.branch.id == main_branches[0]
        assert looked == purchase
        assert (after.balance, after.purchases_counter) == (balance - 640, counter + 1)

    run(scenario())


def test_each_exchange_refusal_has_its_reason(
    connect: Connect, sim_world: World, other_branches: list[int]
) -> None:
    sim_world.merchants[1].tables["products"][3]["isEnabled"] = False
    maria = client_record(sim_world, MARIA_DNI)["id"]

    async def scenario() -> None:
        async with connect() as api:
            poor = await fails(api.exchange_product(1, client_record(sim_world, MICAELA_DNI)["id"]))
            no_stock = await fails(api.exchange_product(17, maria))
            disabled = await fails(api.exchange_product(9, maria))
            level = await fails(
                api.exchange_product(4, client_record(sim_world, SANTIAGO_DNI)["id"])
            )
            await api.exchange_product(29, maria)
            capped = await fails(api.exchange_product(29, maria))
            no_offer = await fails(api.exchange_product(99_999, maria))
            no_client = await fails(api.exchange_product(1, 99_999))
            suspended = await fails(
                api.exchange_product(1, client_record(sim_world, SUSPENDED_DNI)["id"])
            )
            foreign = await fails(api.exchange_product(1, maria, branch_id=other_branches[0]))
        assert (poor.kind, poor.reason) == (ErrorKind.CONFLICT, Reason.INSUFFICIENT_POINTS)
        assert no_stock.reason is Reason.NO_STOCK
        assert disabled.reason is Reason.PRODUCT_DISABLED
        assert level.reason is Reason.LEVEL_NOT_ALLOWED
        assert capped.reason is Reason.EXCHANGE_CAP
        assert (no_offer.kind, no_offer.resource) == (ErrorKind.NOT_FOUND, Resource.OFFER)
        assert (no_client.kind, no_client.resource) == (ErrorKind.NOT_FOUND, Resource.CLIENT)
        assert suspended.kind is ErrorKind.SUSPENDED
        assert (foreign.kind, foreign.reason) == (ErrorKind.FORBIDDEN, Reason.FOREIGN_BRANCH)

    run(scenario())


def test_exchange_money_and_its_minimum(connect: Connect, sim_world: World) -> None:
    maria = client_record(sim_world, MARIA_DNI)["id"]

    async def scenario() -> None:
        async with connect() as api:
            done = await api.exchange_money(1000, maria)
            below = await fails(api.exchange_money(100, maria))
        assert done.record.type == PurchaseType.MONEY
        assert done.record.money_amount == 1000
        assert done.record.product is None
        assert done.record.points == 1000
        assert (below.kind, below.reason) == (ErrorKind.CONFLICT, Reason.MONEY_MINIMUM)

    run(scenario())


def test_redeem_once_and_refusals(connect: Connect) -> None:
    async def scenario() -> None:
        async with connect() as api:
            pending = await api.find_purchase("PEND2345")
            delivered = await api.redeem("PEND2345", looked_up=pending)
            twice = await fails(api.redeem("PEND2345"))
            expired = await fails(api.redeem("VENC3456"))
            canceled = await fails(api.redeem("CANC4567"))
            missing = await fails(api.find_purchase("NOEXISTE"))
            missing_redeem = await fails(api.redeem("NOEXISTE"))
        assert pending.is_pending
        assert delivered.record.is_delivered
        assert not delivered.reconciled
        assert (twice.kind, twice.reason) == (ErrorKind.BAD_REQUEST, Reason.ALREADY_REDEEMED)
        assert expired.reason is Reason.ALREADY_REDEEMED
        assert canceled.reason is Reason.PURCHASE_CANCELED
        assert (missing.kind, missing.resource) == (ErrorKind.NOT_FOUND, Resource.PURCHASE)
        assert missing_redeem.resource is Resource.PURCHASE

    run(scenario())


def test_purchase_list_filters_and_walk(connect: Connect, sim_world: World) -> None:
    juan = client_record(sim_world, JUAN_DNI)["id"]

    async def scenario() -> None:
        async with connect() as api:
            page = await api.list_purchases(limit=2)
            everything = [p async for p in api.iter_purchases()]
            pending = [p async for p in api.iter_purchases(status=PurchaseStatus.PENDING)]
            money = await api.list_purchases(type=PurchaseType.MONEY)
            mine = await api.list_purchases(client_id=juan)
            by_code = await api.list_purchases(query="CASH")
        assert page.meta.total_pages == 3
        assert len(page.items) == 2
        assert len(everything) == page.meta.total_items == 5
        created = [p.created_at for p in everything]
        assert created == sorted(created, reverse=True)  # newest first
        assert pending
        assert all(p.is_pending for p in pending)
        assert [p.code for p in money.items] == ["CASH2345"]
        assert mine.items
        assert all(p.client is not None and p.client.id == juan for p in mine.items)
        assert [p.code for p in by_code.items] == ["CASH2345"]

    run(scenario())
