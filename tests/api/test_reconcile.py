"""Writes without idempotency key: never resent after a lost answer; reconciled by reading."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from kiosk.api import AmbiguousOutcome, ErrorKind, LoyaltyClient, Reason
from kiosk.api.models import (
    Client,
    CreditClient,
    CreditRequest,
    LevelColors,
    LevelDraft,
    NewClient,
    Page,
    PageMeta,
    Purchase,
)
from kiosk.api.models.common import Named
from kiosk.api.models.purchases import PurchaseClient
from kiosk.api.reconcile import ExchangeBefore, reconcile_exchange
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from tests.api.conftest import SHORT, run
from tests.api.support import JUAN_DNI, client_record, fails

Connect = Callable[..., LoyaltyClient]
EXCHANGE = "^/external/exchange/product$"
MONEY = "^/external/exchange/money$"
REDEEM = "^/external/purchase/redeem/"
CLIENTS = "^/external/clients$"

pytestmark = pytest.mark.usefixtures("client_warnings")


def purchases_of(world: World, client_id: int) -> list[dict[str, Any]]:
    return [
        p for p in world.merchants[1].tables["purchases"].values() if p["client"]["id"] == client_id
    ]


@pytest.mark.parametrize(
    ("kind", "params"),
    [
        ("drop", {}),
        ("timeout", {"apply": True}),
        ("status", {"status": 500, "apply": True}),
        ("malformed", {"variant": "truncated"}),
        ("malformed", {"variant": "html"}),
    ],
)
def test_exchange_applied_but_answer_lost_is_found_by_reading(
    connect: Connect, control: SimControl, sim_world: World, kind: str, params: dict[str, Any]
) -> None:
    juan = client_record(sim_world, JUAN_DNI)
    before = len(purchases_of(sim_world, juan["id"]))
    control.add_fault(kind, EXCHANGE, **params)

    async def scenario() -> None:
        async with connect(timeouts=SHORT) as api:
            done = await api.exchange_product(3, juan["id"], product_id=1, lookup=JUAN_DNI)
        assert done.reconciled
        assert done.record.is_pending
        assert done.record.points == 640

    run(scenario())
    assert len(purchases_of(sim_world, juan["id"])) == before + 1
    assert len(control.requests(path=EXCHANGE)) == 1  # never resent


@pytest.mark.parametrize("lookup", [None, JUAN_DNI])
def test_exchange_not_applied_is_reported_so(
    connect: Connect, control: SimControl, sim_world: World, lookup: str | None
) -> None:
    juan = client_record(sim_world, JUAN_DNI)
    balance = juan["score"]
    control.add_fault("timeout", EXCHANGE)  # the request never reaches the handler

    async def scenario() -> None:
        async with connect(timeouts=SHORT) as api:
            error = await fails(api.exchange_product(3, juan["id"], lookup=lookup))
        assert isinstance(error, AmbiguousOutcome)
        assert error.kind is ErrorKind.AMBIGUOUS
        assert error.applied is False
        assert error.cause is ErrorKind.TIMEOUT
        assert error.operation == "exchange_product"

    run(scenario())
    assert client_record(sim_world, JUAN_DNI)["score"] == balance
    assert len(control.requests(path=EXCHANGE)) == 1


def test_exchange_is_retried_when_it_cannot_have_been_applied(
    connect: Connect, control: SimControl, sim_world: World
) -> None:
    juan = client_record(sim_world, JUAN_DNI)
    control.add_faults(
        [
            {"match": {"path": EXCHANGE}, "kind": "status", "status": 503},
            {"match": {"path": EXCHANGE}, "kind": "status", "status": 429},
        ]
    )

    async def scenario() -> None:
        async with connect() as api:
            done = await api.exchange_product(3, juan["id"])
        assert not done.reconciled

    run(scenario())
    assert [r["status"] for r in control.requests(path=EXCHANGE)] == [503, 429, 201]


def test_money_exchange_lost_answer_is_reconciled(
    connect: Connect, control: SimControl, sim_world: World
) -> None:
    maria = client_record(sim_world, "27456789")
    control.add_fault("drop", MONEY)

    async def scenario() -> None:
        async with connect() as api:
            done = await api.exchange_money(1500, maria["id"])
        assert done.reconciled
        assert done.record.money_amount == 1500

    run(scenario())
    assert len(control.requests(path=MONEY)) == 1


def test_redeem_lost_answer_is_reconciled_or_reported(
    connect: Connect, control: SimControl
) -> None:
    async def scenario() -> None:
        async with connect(timeouts=SHORT) as api:
            control.add_fault("drop", REDEEM)
            delivered = await api.redeem("PEND2345")
            control.add_fault("timeout", REDEEM)  # not applied
            unknown = await fails(api.redeem("CASH2345"))
            still = await api.find_purchase("CASH2345")
        assert delivered.reconciled
        assert delivered.record.is_delivered
        assert isinstance(unknown, AmbiguousOutcome)
        assert unknown.applied is False
        assert still.is_pending

    run(scenario())
    assert len(control.requests(path=REDEEM)) == 2


def test_client_creation_lost_answer_is_reconciled_by_search(
    connect: Connect, control: SimControl
) -> None:
    async def scenario() -> None:
        async with connect(timeouts=SHORT) as api:
            control.add_fault("drop", CLIENTS, method="POST")
            created = await api.create_client(NewClient(email="ana.lopez@example.com"))
            control.add_fault("timeout", CLIENTS, method="POST")
            lost = await fails(api.create_client(NewClient(document_number="20111222")))
            control.add_fault("drop", CLIENTS, method="POST")
            existing = await fails(api.create_client(NewClient(document_number=JUAN_DNI)))
        assert created.reconciled
        assert created.record.email == "ana.lopez@example.com"
        assert isinstance(lost, AmbiguousOutcome)
        assert lost.applied is False
        assert (existing.kind, existing.reason) == (ErrorKind.CONFLICT, Reason.CLIENT_EXISTS)

    run(scenario())
    assert len(control.requests(path=CLIENTS, method="POST")) == 3


def test_admin_writes_and_credits_without_external_id_report_ambiguity(
    connect: Connect, control: SimControl, sim_world: World
) -> None:
    async def scenario() -> None:
        async with connect() as api:
            control.add_fault("drop", "^/external/levels$")
            level = await fails(
                api.create_level(
                    LevelDraft("Platino", 30000, 2.0, LevelColors("#000000", "#000000", "#000000"))
                )
            )
            control.add_fault("status", "^/external/tags/add$", status=500, apply=True)
            credit = await fails(
                api.credit(CreditRequest(None, CreditClient(document=JUAN_DNI), amount=1000))
            )
        assert isinstance(level, AmbiguousOutcome)
        assert level.applied is None
        assert level.cause is ErrorKind.NETWORK
        assert isinstance(credit, AmbiguousOutcome)
        assert credit.cause is ErrorKind.SERVER

    run(scenario())
    assert len(control.requests(path="^/external/levels$")) == 1
    assert len(control.requests(path="^/external/tags/add$")) == 1
    assert any(lv["minPoints"] == 30000 for lv in sim_world.merchants[1].tables["levels"].values())


# -- the decision table, with a scripted reader ------------------------------------------


def purchase(pid: int, client_id: int = 1, product_id: int = 1) -> Purchase:
    return Purchase(
        id=pid,
        code=f"C{pid}",
        status="pending",
        points=10,
        type="product",
        product=Named(product_id),
        client=PurchaseClient(client_id),
    )


class ScriptedReader:
    def __init__(
        self, purchases: list[Purchase], client: Client | None = None, fail: bool = False
    ) -> None:
        self.purchases, self.client, self.fail = purchases, client, fail

    async def list_purchases(self, **_: Any) -> Page[Purchase]:
        if self.fail:
            from kiosk.api.errors import ApiError

            raise ApiError(ErrorKind.NETWORK)
        return Page(tuple(self.purchases), PageMeta(1, 1))

    async def search_client(self, query: str) -> Client:
        assert self.client is not None
        return self.client

    async def find_purchase(self, code: str) -> Purchase:
        raise AssertionError("not used")


async def no_sleep(_: float) -> None:
    return None


LOST = AmbiguousOutcome(operation="exchange_product", cause=ErrorKind.TIMEOUT)


@pytest.mark.parametrize(
    ("reader", "before", "expected"),
    [
        (
            ScriptedReader([purchase(1), purchase(2), purchase(3)]),
            ExchangeBefore(frozenset({1}), None),
            None,
        ),  # two candidates: cannot tell
        (
            ScriptedReader([purchase(1), purchase(2, client_id=9)]),
            ExchangeBefore(frozenset({1}), None),
            False,
        ),  # someone else's purchase
        (
            ScriptedReader([purchase(1), purchase(2, product_id=7)]),
            ExchangeBefore(frozenset({1}), None),
            False,
        ),  # another product
        (
            ScriptedReader([purchase(1)], client=Client(1, balance=5, purchases_counter=2)),
            ExchangeBefore(frozenset({1}), Client(1, balance=15, purchases_counter=1)),
            None,
        ),
        (ScriptedReader([], fail=True), ExchangeBefore(frozenset(), None), None),
    ],
)
def test_reconciliation_never_guesses(
    reader: ScriptedReader, before: ExchangeBefore, expected: bool | None
) -> None:
    async def scenario() -> AmbiguousOutcome:
        with pytest.raises(AmbiguousOutcome) as caught:
            await reconcile_exchange(
                reader,
                no_sleep,
                0.0,
                before=before,
                client_id=1,
                lookup="x" if before.client else None,
                matches=lambda p: p.product is not None and p.product.id == 1,
                lost=LOST,
            )
        return caught.value

    assert run(scenario()).applied is expected


def test_reconciliation_finds_the_one_new_purchase() -> None:
    reader = ScriptedReader([purchase(5), purchase(1)])

    async def scenario() -> None:
        done = await reconcile_exchange(
            reader,
            no_sleep,
            0.0,
            before=ExchangeBefore(frozenset({1}), None),
            client_id=1,
            lookup=None,
            matches=lambda p: True,
            lost=LOST,
        )
        assert done.reconciled
        assert done.record.id == 5

    run(scenario())
