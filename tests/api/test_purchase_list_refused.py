"""Exchanges never hang on the purchase list's undocumented parameters (issue #30, item 1).

Before an exchange the client reads the client's recent purchases (``order=createdAt``,
``clientId``: parameters the contract does not document) to be able to reconcile a
lost answer. Against the loopback simulator answering that list with a 400: the
exchange goes on (the list is "unknown"), later exchanges do not ask it again, and a
lost answer is checked by the client's balance alone ("not applied" when nothing
moved, else "cannot tell": check before retrying).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from kiosk.api import AmbiguousOutcome, LoyaltyClient
from kiosk.api.models.purchases import PurchaseType
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from tests.api.conftest import SHORT, run
from tests.api.support import JUAN_DNI, client_record, fails

Connect = Callable[..., LoyaltyClient]
LIST = r"^/external/purchase$"
EXCHANGE = "^/external/exchange/product$"
MARIA_DNI = "27456789"
REFUSALS = {
    "bad-request": {"statusCode": 400, "message": "property order should not exist"},
    "validation": {
        "statusCode": 400,
        "message": "Error de validación",
        "errors": [{"field": "clientId", "constraints": {"whitelist": "not allowed"}}],
    },
}


@pytest.fixture
def list_refused(control: SimControl, expect_log: Callable[[str], None]) -> Callable[..., None]:
    expect_log(r"^the purchase list refused its parameters \(400 (bad_request|validation)\)")

    def refuse(body: dict[str, Any]) -> None:
        control.add_fault("status", LIST, method="GET", count=None, status=400, body=body)

    return refuse


@pytest.mark.parametrize("refusal", list(REFUSALS), ids=list(REFUSALS))
def test_exchanges_go_on_when_the_purchase_list_refuses_its_parameters(
    connect: Connect,
    control: SimControl,
    sim_world: World,
    list_refused: Callable[..., None],
    refusal: str,
) -> None:
    list_refused(REFUSALS[refusal])
    juan = client_record(sim_world, JUAN_DNI)
    maria = client_record(sim_world, MARIA_DNI)

    async def scenario() -> None:
        async with connect() as api:
            reward = await api.exchange_product(3, juan["id"], product_id=1, lookup=JUAN_DNI)
            money = await api.exchange_money(1000, maria["id"], lookup=MARIA_DNI)
            again = await api.exchange_money(1000, maria["id"])
        assert reward.record.is_pending
        assert reward.record.code
        assert not reward.reconciled
        assert money.record.type == PurchaseType.MONEY
        assert again.record.money_amount == 1000

    run(scenario())
    # Asked once: this client does not ask the refused list again.
    assert len(control.requests(path=LIST)) == 1


@pytest.mark.parametrize(
    ("applied", "expected"), [(False, False), (True, None)], ids=["not-applied", "applied"]
)
def test_a_lost_answer_without_the_list_is_checked_by_the_balance(
    connect: Connect,
    control: SimControl,
    sim_world: World,
    list_refused: Callable[..., None],
    client_warnings: None,
    applied: bool,
    expected: bool | None,
) -> None:
    list_refused(REFUSALS["bad-request"])
    control.add_fault("timeout", EXCHANGE, apply=applied)
    juan = client_record(sim_world, JUAN_DNI)

    async def scenario() -> None:
        async with connect(timeouts=SHORT) as api:
            error = await fails(api.exchange_product(3, juan["id"], lookup=JUAN_DNI))
        assert isinstance(error, AmbiguousOutcome)
        assert error.applied is expected

    run(scenario())
    assert len(control.requests(path=EXCHANGE)) == 1  # never resent


def test_a_lost_answer_without_list_nor_lookup_cannot_tell(
    connect: Connect,
    control: SimControl,
    sim_world: World,
    list_refused: Callable[..., None],
    client_warnings: None,
) -> None:
    list_refused(REFUSALS["bad-request"])
    control.add_fault("timeout", EXCHANGE)
    juan = client_record(sim_world, JUAN_DNI)

    async def scenario() -> None:
        async with connect(timeouts=SHORT) as api:
            error = await fails(api.exchange_product(3, juan["id"]))
        assert isinstance(error, AmbiguousOutcome)
        assert error.applied is None

    run(scenario())
