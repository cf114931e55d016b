"""Numbers the contract does not allow (issue #22, item 10, the client's half).

Every integer of the contract (ids, points, balances, counters, pages, seconds) is a
whole number, never negative, and no JavaScript service writes one past 2**53 - 1
exactly; money and multipliers are finite and not negative. Against a small hostile
server on loopback, a credit answered with 10**400 or -50 points, or a client whose
balance is negative, is a malformed answer (typed), which the outbox reconciles like
any unreadable answer: nothing tells the cashier "-50 points credited".
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from kiosk.api import LoyaltyClient
from kiosk.api.errors import ErrorKind
from kiosk.api.models.points import CreditClient, CreditRequest
from kiosk.api.retry import NO_RETRY
from tests.api.conftest import run
from tests.api.hostile_server import HostileServer, fixed
from tests.api.support import JUAN_EMAIL, fails
from tests.conftest import MAIN_KEY

OK: dict[str, Any] = {"success": True, "status": 201, "message": "OK"}
MAX_INT = 2**53 - 1  # kiosk.api.models._read.MAX_INT


def credit_answer(total: Any, **points: Any) -> bytes:
    data = {
        "pointOperationId": 91,
        "clientId": 7,
        "points": {"amount": 1500, "totalPointsToGive": total, **points},
    }
    return json.dumps({**OK, "data": data}).encode()


def client_answer(**fields: Any) -> bytes:
    return json.dumps({**OK, "data": {"id": 7, "score": 120, **fields}}).encode()


async def _credit(api: LoyaltyClient) -> Any:
    return await api.credit(CreditRequest("T-1", CreditClient(email=JUAN_EMAIL), amount=1500))


@pytest.mark.parametrize(
    "body",
    [
        credit_answer(10**400),
        b'{"data": {"pointOperationId": 91, "clientId": 7, '
        b'"points": {"totalPointsToGive": 1e400}}}',
        credit_answer(-50),
        credit_answer(2.5),
        credit_answer(MAX_INT + 1),
        credit_answer(150, initialPointsToGive=-1),
        credit_answer(150, amount=-1500),
        credit_answer(150, amount=1e300),
    ],
    ids=[
        "10^400",
        "1e400",
        "minus-50",
        "half",
        "past-2^53",
        "initial-negative",
        "amount-negative",
        "amount-1e300",
    ],
)
def test_a_credit_with_points_the_contract_does_not_allow_is_malformed(
    body: bytes, client_warnings: None
) -> None:
    with HostileServer(fixed(body, 201)) as server:
        api = LoyaltyClient(server.base_url, MAIN_KEY, branch_id=1, retry=NO_RETRY)

        async def scenario() -> None:
            try:
                error = await fails(_credit(api))
                assert error.kind is ErrorKind.MALFORMED
                assert len(error.message) < 300  # the number itself is never repeated
            finally:
                await api.aclose()

        run(scenario())


@pytest.mark.parametrize(
    "fields",
    [{"score": -5}, {"score": 10**30}, {"total_score": -1}, {"id": -7}, {"purchases_counter": -2}],
    ids=[
        "balance-negative",
        "balance-huge",
        "accumulated-negative",
        "id-negative",
        "counter-negative",
    ],
)
def test_a_client_with_numbers_the_contract_does_not_allow_is_malformed(
    fields: dict[str, Any], client_warnings: None
) -> None:
    with HostileServer(fixed(client_answer(**fields))) as server:
        api = LoyaltyClient(server.base_url, MAIN_KEY, branch_id=1, retry=NO_RETRY)

        async def scenario() -> None:
            try:
                error = await fails(api.search_client(JUAN_EMAIL))
                assert error.kind is ErrorKind.MALFORMED
            finally:
                await api.aclose()

        run(scenario())


def test_whole_numbers_written_as_floats_and_the_largest_exact_one_are_read() -> None:
    body = credit_answer(225.0, initialPointsToGive=MAX_INT, amount=0)
    with HostileServer(fixed(body, 201)) as server:
        api = LoyaltyClient(server.base_url, MAIN_KEY, branch_id=1, retry=NO_RETRY)

        async def scenario() -> None:
            try:
                result = await _credit(api)
                assert result.operation is not None
                assert result.operation.points.total == 225
                assert result.operation.points.initial == MAX_INT
            finally:
                await api.aclose()

        run(scenario())
