"""A hostile server's answers to credits (issue #22, items 12 and 14), on loopback.

- A 409 is a duplicate of *our* credit only when its message names our external id
  in the contract's form ("Ya existe una operación de puntos con el externalId <id>
  para este negocio"); naming another id, or none, it is a refusal (``CONFLICT``,
  ``OTHER_OPERATION``), never a silent success.
- A 429 asking for a day holds the merchant's lane for at most ``PROBE_AFTER``: the
  next preview after that asks the server again (and gets its answer) instead of
  failing for five minutes without asking.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from kiosk.api import LoyaltyClient
from kiosk.api.classify import duplicate_names
from kiosk.api.errors import ErrorKind, Reason
from kiosk.api.models.points import CreditClient, CreditRequest, Preview
from kiosk.api.ratelimit import MAX_HELD_WAIT, PROBE_AFTER, TAGS, RateLimiter
from kiosk.api.retry import NO_RETRY, RetryPolicy
from tests.api.conftest import run
from tests.api.fakes import FakeClock
from tests.api.hostile_server import HostileServer, fixed, head
from tests.api.support import fails
from tests.conftest import MAIN_KEY

OURS = "b1-20261122-TA-1001"
DUPLICATE = "Ya existe una operación de puntos con el externalId {} para este negocio"


def refusal(message: str, status: int = 409) -> bytes:
    return json.dumps(
        {"statusCode": status, "timestamp": "2026-11-22T12:00:00Z", "path": "/external/tags/add",
         "method": "POST", "message": message, "errors": None, "data": None}
    ).encode()  # fmt: skip


def request(external_id: str = OURS) -> CreditRequest:
    return CreditRequest(
        external_id=external_id, client=CreditClient(email="ana@example.org"), amount=1500.0
    )


@pytest.fixture
def client_logs(expect_log: Any) -> None:
    expect_log(r"^POST /external/tags/add")
    expect_log(r"a duplicate refusal that does not name this id")


# -- item 12 ---------------------------------------------------------------------------


def test_the_id_a_duplicate_refusal_names_is_read_as_sent() -> None:
    assert duplicate_names(DUPLICATE.format(OURS)) == OURS
    assert duplicate_names(DUPLICATE.format(OURS).upper().replace(OURS.upper(), OURS)) == OURS
    assert duplicate_names(f"Ya existe una operacion de puntos con el externalId {OURS}.") == OURS
    assert duplicate_names(DUPLICATE.format("b1-20261122-TA-1002")) == "b1-20261122-TA-1002"
    # Not the contract's form: no id the kiosk can trust.
    assert duplicate_names("Ya existe una operación de puntos con el externalId") is None
    assert duplicate_names("Ya existe una operación de puntos para este negocio") is None
    assert duplicate_names("Conflict") is None
    assert duplicate_names(f"{OURS} y {OURS} ya existen") is None


@pytest.mark.parametrize(
    "message",
    [
        DUPLICATE.format("b1-20261122-TA-1002"),  # another operation's id
        DUPLICATE.format(OURS + "0"),  # ours as a prefix of another
        DUPLICATE.format(OURS.lower()),  # another case: another id
        "Ya existe una operación de puntos con el externalId",  # the form cut: no id
    ],
    ids=["another-id", "ours-as-prefix", "another-case", "no-id"],
)
def test_a_409_that_does_not_name_our_id_is_a_refusal_not_our_credit(
    message: str, client_logs: None
) -> None:
    async def scenario() -> None:
        with HostileServer(fixed(refusal(message), 409)) as server:
            api = LoyaltyClient(server.base_url, MAIN_KEY, branch_id=1, retry=NO_RETRY)
            try:
                error = await fails(api.credit(request()))
            finally:
                await api.aclose()
        assert (error.kind, error.reason, error.status) == (
            ErrorKind.CONFLICT, Reason.OTHER_OPERATION, 409,
        )  # fmt: skip
        # The same refusal naming our id is our duplicate: already credited.
        with HostileServer(fixed(refusal(DUPLICATE.format(OURS)), 409)) as server:
            api = LoyaltyClient(server.base_url, MAIN_KEY, branch_id=1, retry=NO_RETRY)
            try:
                result = await api.credit(request())
            finally:
                await api.aclose()
        assert (result.already_credited, result.external_id) == (True, OURS)

    run(scenario())


# -- item 14 ---------------------------------------------------------------------------

PREVIEW = {
    "success": True, "status": 201, "message": "OK",
    "data": {"clientId": 7, "points": {"initialPointsToGive": 150, "totalPointsToGive": 225}},
}  # fmt: skip


def scripted(answers: Iterator[tuple[int, bytes, str]]) -> Any:
    """Each request gets the next scripted answer (status, body, extra headers)."""

    def handle(_line: str, conn: socket.socket) -> None:
        status, body, extra = next(answers)
        conn.sendall(head(status, length=len(body), extra=extra) + body)

    return handle


def test_a_day_long_429_holds_the_previews_at_most_a_minute_then_asks_again(
    expect_log: Any,
) -> None:
    expect_log(r"^POST /external/tags/add")
    day = (429, b'{"success": false, "status": 429, "message": "Rate limit"}',
           "retry-after: 86400\r\n")  # fmt: skip
    healthy = (201, json.dumps(PREVIEW).encode(), "")
    clock = FakeClock()
    limiter = RateLimiter(clock=clock.time, sleep=clock.sleep)

    async def scenario(server: HostileServer) -> None:
        api = LoyaltyClient(
            server.base_url, MAIN_KEY, branch_id=1, limiter=limiter, clock=clock.time,
            sleep=clock.sleep, wall_clock=clock.time, retry=RetryPolicy(random=lambda: 0.5),
        )  # fmt: skip
        try:
            refused = await fails(api.credit(request()))
            assert refused.kind is ErrorKind.RATE_LIMITED
            asked = len(server.request_lines)
            # Meanwhile the counter's previews are told at once how long the hold has
            # left (never more than a minute), without a request.
            clock.now += 10
            held = await fails(api.preview(7, amount=1500))
            assert held.kind is ErrorKind.RATE_LIMITED
            assert held.retry_after is not None
            assert MAX_HELD_WAIT < held.retry_after <= PROBE_AFTER - 10
            assert limiter.held(TAGS) == pytest.approx(held.retry_after)
            assert len(server.request_lines) == asked
            # A minute after the 429 the lane asks the server again: it answers.
            clock.now += PROBE_AFTER
            preview = await api.preview(7, amount=1500)
            assert isinstance(preview, Preview)
            assert preview.points.total == 225
            assert len(server.request_lines) == asked + 1
        finally:
            await api.aclose()

    async def main() -> None:
        with HostileServer(scripted(iter([day, healthy]))) as server:
            await scenario(server)

    run(main())
