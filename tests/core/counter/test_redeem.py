"""Redeem core: purchase codes, the purchase card's data, delivery against the simulator."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

import pytest

from kiosk.api.client import LoyaltyClient
from kiosk.api.errors import ApiError, ErrorKind, Resource
from kiosk.api.models.common import Named
from kiosk.api.models.purchases import Purchase, PurchaseClient
from kiosk.core.amounts import AmountLocale
from kiosk.core.counter.redeem import (
    CodeError,
    CodeProblem,
    DeliveryOutcome,
    PurchaseState,
    deliver,
    find_purchase,
    format_when,
    is_complete_code,
    journal_delivery,
    normalize_code,
    parse_code,
    view_purchase,
)
from kiosk.core.db import DatabaseWorker
from kiosk.core.journal import AsyncJournal, OperationKind, Outcome
from kiosk.sim import create_app
from kiosk.sim.control import SimControl
from kiosk.sim.transport import SimTransport
from kiosk.sim.world import World
from tests.conftest import MAIN_KEY

T = TypeVar("T")

# -- codes -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("PEND2345", "PEND2345"),
        ("pend2345", "PEND2345"),
        ("  pend 2345\n", "PEND2345"),
        ("PEND-2345", "PEND2345"),
        ("pe nd-23.45", "PEND2345"),
        ("\tPeNd2345\r\n", "PEND2345"),
    ],
)
def test_codes_are_normalized(typed: str, code: str) -> None:
    assert normalize_code(typed) == code
    assert parse_code(typed) == code
    assert is_complete_code(typed)


@pytest.mark.parametrize(
    ("typed", "problem"),
    [
        ("", CodeProblem.EMPTY),
        ("  - ", CodeProblem.EMPTY),
        ("PEND/2345", CodeProblem.NOT_A_CODE),
        ("PEÑD2345", CodeProblem.NOT_A_CODE),
        ("ab@c.com", CodeProblem.NOT_A_CODE),
        ("AB1", CodeProblem.LENGTH),
        ("A" * 33, CodeProblem.LENGTH),
    ],
)
def test_what_cannot_be_a_code_is_refused(typed: str, problem: CodeProblem) -> None:
    with pytest.raises(CodeError) as caught:
        parse_code(typed)
    assert caught.value.problem is problem
    assert not is_complete_code(typed)


def test_a_code_of_another_length_can_be_looked_up_but_is_not_complete() -> None:
    assert parse_code("abc12") == "ABC12"
    assert not is_complete_code("abc12")
    assert not is_complete_code("PEND23456")


# -- the purchase card's data ------------------------------------------------------

AT = datetime(2026, 11, 22, 17, 5, tzinfo=UTC)


def test_dates_follow_the_store_locale_in_the_kiosk_time_zone() -> None:
    buenos_aires = timezone(timedelta(hours=-3))
    assert format_when(AT, AmountLocale.ES_AR, buenos_aires) == "22/11/2026 14:05"
    assert format_when(AT, AmountLocale.EN_US, buenos_aires) == "11/22/2026 2:05 PM"
    assert format_when(AT, "en-US", UTC) == "11/22/2026 5:05 PM"
    assert format_when(AT.replace(hour=0), "en-US", UTC) == "11/22/2026 12:05 AM"
    assert format_when(None, "es-AR") == ""


def purchase(**changes: Any) -> Purchase:
    base: dict[str, Any] = {
        "id": 7,
        "code": "PEND2345",
        "status": "pending",
        "points": 1200,
        "type": "product",
        "product": Named(1, "Café con medialunas"),
        "client": PurchaseClient(3, "Ana", "Pérez", "ana.perez@gmail.com"),
        "branch": Named(1, "Sucursal Centro"),
        "created_at": AT,
        "updated_at": AT,
    }
    base.update(changes)
    return Purchase(**base)


def test_view_of_a_pending_reward() -> None:
    view = view_purchase(purchase(), AmountLocale.ES_AR, tz=UTC)
    assert view.state is PurchaseState.PENDING
    assert view.deliverable
    assert (view.reward, view.points, view.is_money) == ("Café con medialunas", "1.200", False)
    assert (view.client_name, view.client_email) == ("Ana Pérez", "a***@gmail.com")
    assert (view.created, view.branch) == ("22/11/2026 17:05", "Sucursal Centro")


def test_view_of_money_and_of_states_that_cannot_be_delivered() -> None:
    money = purchase(type="money", product=None, money_amount=1000.0, points=1000)
    view = view_purchase(money, AmountLocale.EN_US)
    assert (view.is_money, view.reward, view.points) == (True, "$1,000.00", "1,000")
    for status, state in [
        ("delivered", PurchaseState.DELIVERED),
        ("canceled", PurchaseState.CANCELED),
        ("CANCELED", PurchaseState.CANCELED),
        ("lost-in-space", PurchaseState.UNKNOWN),
    ]:
        view = view_purchase(purchase(status=status), "es-AR")
        assert view.state is state
        assert not view.deliverable
    expired = view_purchase(purchase(), "es-AR", expired=True)
    assert expired.state is PurchaseState.EXPIRED
    assert not expired.deliverable
    assert view_purchase(purchase(client=None), "es-AR").client_email == ""


# -- against the simulator -----------------------------------------------------------


async def _no_wait(_seconds: float) -> None:
    await asyncio.sleep(0)


def run(world: World, scenario: Callable[[LoyaltyClient], Awaitable[T]]) -> T:
    async def main() -> T:
        branch = min(world.merchants[1].tables["branches"])
        async with LoyaltyClient(
            f"http://core-{uuid.uuid4().hex[:8]}.test",
            MAIN_KEY,
            branch_id=branch,
            transport=SimTransport(create_app(world)),
            sleep=_no_wait,
            settle_seconds=0,
        ) as api:
            return await scenario(api)

    return asyncio.run(main())


def stored(world: World, code: str) -> dict[str, Any]:
    purchases = world.merchants[1].tables["purchases"].values()
    return next(p for p in purchases if p["code"] == code)


def test_deliver_a_pending_code_then_again(sim_world: World, tmp_path: Path) -> None:
    async def scenario(api: LoyaltyClient) -> Any:
        found = await find_purchase(api, " pend-2345 ")
        first = await deliver(api, found)
        # The same card tapped again (the looked-up record still says pending).
        second = await deliver(api, found)
        worker = DatabaseWorker(tmp_path / "j.sqlite3")
        await worker.start()
        try:
            entry = await journal_delivery(AsyncJournal(worker), first.purchase)
        finally:
            await worker.close()
        return found, first, second, entry

    found, first, second, entry = run(sim_world, scenario)
    assert found.is_pending
    assert (first.outcome, first.changed, first.purchase.status) == (
        DeliveryOutcome.DELIVERED,
        True,
        "delivered",
    )
    assert (second.outcome, second.changed) == (DeliveryOutcome.ALREADY_DELIVERED, False)
    assert stored(sim_world, "PEND2345")["status"] == "delivered"
    assert (entry.kind, entry.outcome, entry.points) == (OperationKind.REDEEM, Outcome.OK, None)
    assert entry.detail == "Café con medialunas · PEND2345"
    assert "***@" in entry.client


@pytest.mark.parametrize(
    ("code", "outcome", "status"),
    [
        ("ENTR6789", DeliveryOutcome.ALREADY_DELIVERED, "delivered"),
        ("VENC3456", DeliveryOutcome.EXPIRED, "pending"),
        ("CANC4567", DeliveryOutcome.CANCELED, "canceled"),
    ],
)
def test_codes_that_cannot_be_delivered_change_nothing(
    sim_world: World, code: str, outcome: DeliveryOutcome, status: str
) -> None:
    before = dict(stored(sim_world, code))

    async def scenario(api: LoyaltyClient) -> Any:
        return await deliver(api, await find_purchase(api, code.lower()))

    delivery = run(sim_world, scenario)
    assert (delivery.outcome, delivery.changed) == (outcome, False)
    assert delivery.purchase.code == code
    assert stored(sim_world, code) == before
    assert stored(sim_world, code)["status"] == status


def test_a_canceled_refusal_for_a_code_that_looked_pending(sim_world: World) -> None:
    async def scenario(api: LoyaltyClient) -> Any:
        found = await find_purchase(api, "PEND2345")
        stored(sim_world, "PEND2345")["status"] = "canceled"  # canceled in the panel meanwhile
        return await deliver(api, found)

    delivery = run(sim_world, scenario)
    assert delivery.outcome is DeliveryOutcome.CANCELED
    assert delivery.purchase.status == "canceled"


def test_money_purchase_delivery_is_journaled_with_its_amount(
    sim_world: World, tmp_path: Path
) -> None:
    async def scenario(api: LoyaltyClient) -> Any:
        delivery = await deliver(api, await find_purchase(api, "CASH2345"))
        worker = DatabaseWorker(tmp_path / "j.sqlite3")
        await worker.start()
        try:
            return delivery, await journal_delivery(AsyncJournal(worker), delivery.purchase)
        finally:
            await worker.close()

    delivery, entry = run(sim_world, scenario)
    assert delivery.outcome is DeliveryOutcome.DELIVERED
    assert (entry.detail, entry.amount) == ("CASH2345", Decimal("1000"))


def test_an_unknown_code_is_not_found(sim_world: World) -> None:
    async def scenario(api: LoyaltyClient) -> None:
        await find_purchase(api, "ZZZZ9999")

    with pytest.raises(ApiError) as caught:
        run(sim_world, scenario)
    assert (caught.value.kind, caught.value.resource) == (ErrorKind.NOT_FOUND, Resource.PURCHASE)


def test_a_dropped_redeem_is_reconciled_by_reading_the_code(
    sim_world: World, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"redeem")
    control = SimControl(sim_world)
    control.add_fault("drop", "^/external/purchase/redeem/", method="POST")

    async def scenario(api: LoyaltyClient) -> Any:
        return await deliver(api, await find_purchase(api, "PEND2345"))

    delivery = run(sim_world, scenario)
    assert (delivery.outcome, delivery.reconciled) == (DeliveryOutcome.DELIVERED, True)
    assert len(control.requests(path="^/external/purchase/redeem/", method="POST")) == 1
    assert stored(sim_world, "PEND2345")["status"] == "delivered"


def test_a_refusal_other_than_nothing_to_do_is_raised(sim_world: World) -> None:
    SimControl(sim_world).add_fault("status", "^/external/purchase/redeem/", status=404)

    async def scenario(api: LoyaltyClient) -> None:
        await deliver(api, await find_purchase(api, "PEND2345"))

    with pytest.raises(ApiError) as caught:
        run(sim_world, scenario)
    assert caught.value.kind is ErrorKind.NOT_FOUND
    assert stored(sim_world, "PEND2345")["status"] == "pending"
