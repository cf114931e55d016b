"""A hostile server never holds, floods or redirects the client (issue #17, the network).

Against the loopback simulator (429s with absurd ``Retry-After``, dot segments) and a
small hostile server of our own (a body that drips, a body of 80 MB).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable

import httpx
import pytest

from kiosk.api import LoyaltyClient, RetryPolicy, Timeouts
from kiosk.api.classify import MAX_SERVER_WAIT, parse_retry_after
from kiosk.api.errors import ErrorKind
from kiosk.api.models._read import CUT_MARK, MAX_TEXT
from kiosk.api.models.points import CreditClient, CreditRequest
from kiosk.api.ratelimit import MAX_HELD_WAIT, PROBE_AFTER, TAGS, RateLimiter
from kiosk.api.retry import NO_RETRY
from kiosk.api.session import MAX_RECORD_BODY
from kiosk.sim.control import SimControl
from tests.api.conftest import run
from tests.api.fakes import FakeClock
from tests.api.hostile_server import HostileServer, drip, fixed, flood
from tests.api.support import JUAN_DNI, JUAN_EMAIL, fails
from tests.conftest import MAIN_KEY

Connect = Callable[..., LoyaltyClient]
DAY = "86400"


def test_every_server_wait_is_capped_in_one_place() -> None:
    assert parse_retry_after(DAY, now_epoch=0) == MAX_SERVER_WAIT
    assert parse_retry_after("1e308", now_epoch=0) == MAX_SERVER_WAIT
    assert parse_retry_after("Fri, 01 Jan 2100 00:00:00 GMT", now_epoch=0) == MAX_SERVER_WAIT
    assert parse_retry_after("2", now_epoch=0) == 2.0
    limiter = RateLimiter(clock=lambda: 0.0)
    limiter.hold_off(TAGS, "merchant", 10**9)
    # The lane is held at most PROBE_AFTER: then the next call asks the server again.
    assert limiter._lane(TAGS, "merchant").blocked_until == PROBE_AFTER <= MAX_SERVER_WAIT


def test_a_day_long_retry_after_fails_one_call_and_holds_none_for_long(
    connect: Connect,
    control: SimControl,
    fake_clock: FakeClock,
    client_warnings: None,
) -> None:
    control.add_fault(
        "status", r"^/external/tags/", status=429, headers={"Retry-After": DAY}, count=1
    )
    api = connect()

    async def scenario() -> None:
        try:
            client = await api.search_client(JUAN_DNI)
            first = await fails(api.preview(client.id, amount=1500))
            assert first.kind is ErrorKind.RATE_LIMITED
            assert first.retry_after == MAX_SERVER_WAIT
            # The next preview does not wait a day (nor five minutes) in the limiter:
            # it is told at once how long the server's hold has left.
            second = await fails(api.preview(client.id, amount=1500))
            assert second.kind is ErrorKind.RATE_LIMITED
            assert second.retry_after is not None
            assert MAX_HELD_WAIT < second.retry_after <= PROBE_AFTER
            assert all(s <= MAX_HELD_WAIT for s in fake_clock.sleeps)
            # A person's "retry now" ends the hold: the healthy server answers.
            assert api.release_holds() == 1
            preview = await api.preview(client.id, amount=1500)
            assert preview.points.total > 0
        finally:
            await api.aclose()

    run(scenario())


def test_a_server_that_drips_cannot_hold_a_call_past_its_deadline(client_warnings: None) -> None:
    stop = threading.Event()
    body = b'{"data": {"id": 1}}' + b" " * 200
    with HostileServer(drip(body, 0.05, stop=stop)) as server:
        api = LoyaltyClient(
            server.base_url,
            MAIN_KEY,
            branch_id=1,
            timeouts=Timeouts(default=0.5, operation=0.5, connect=0.5),
            retry=NO_RETRY,
        )

        async def scenario() -> None:
            try:
                # Each byte comes well within the 0.5 s read timeout; the whole answer
                # would take 11 s. The deadline ends the call.
                error = await fails(api.search_client(JUAN_EMAIL))
                assert error.kind is ErrorKind.TIMEOUT
                assert "no whole answer within" in error.message
            finally:
                stop.set()
                await api.aclose()

        run(scenario())


@pytest.mark.parametrize("declare", [True, False], ids=["declared", "undeclared"])
def test_an_80_mb_answer_is_refused_past_its_cap_not_read_whole(
    declare: bool, client_warnings: None
) -> None:
    with HostileServer(flood(80 * 1024 * 1024, declare=declare)) as server:
        api = LoyaltyClient(
            server.base_url,
            MAIN_KEY,
            branch_id=1,
            timeouts=Timeouts(default=10.0, operation=10.0, connect=2.0),
            retry=NO_RETRY,
        )

        async def scenario() -> None:
            try:
                error = await fails(api.search_client(JUAN_EMAIL))
                assert error.kind is ErrorKind.MALFORMED
                assert f"larger than {MAX_RECORD_BODY // 1024} KiB" in error.message
            finally:
                await api.aclose()

        run(scenario())


def test_a_name_longer_than_any_screen_is_kept_cut(sim_url: str) -> None:
    # The simulator's own answer for a client, with an 83-million-character name cut
    # down to 100,000 characters (under the body cap): the record is read, the name
    # kept cut to MAX_TEXT with a mark (issue #30, item 2).
    real = httpx.get(
        f"{sim_url}/external/clients/search",
        params={"query": JUAN_DNI},
        headers={"x-api-key": MAIN_KEY},
    ).json()
    real["data"]["first_name"] = "A" * 100_000
    with HostileServer(fixed(json.dumps(real).encode())) as server:
        api = LoyaltyClient(server.base_url, MAIN_KEY, branch_id=1, retry=NO_RETRY)

        async def scenario() -> None:
            try:
                client = await api.search_client(JUAN_DNI)
                assert client.first_name == "A" * (MAX_TEXT - 1) + CUT_MARK
            finally:
                await api.aclose()

        run(scenario())


@pytest.mark.parametrize("code", [".", "..", "...", "%2E%2E"])
def test_a_code_of_dots_stays_a_code(
    connect: Connect, control: SimControl, code: str, client_warnings: None
) -> None:
    api = connect(retry=RetryPolicy(delays=()))

    async def scenario() -> None:
        try:
            error = await fails(api.find_purchase(code))
            assert error.kind is ErrorKind.NOT_FOUND
            error = await fails(api.cancel_credit(code))
            assert error.kind is ErrorKind.NOT_FOUND
        finally:
            await api.aclose()

    run(scenario())
    paths = [r["path"] for r in control.requests()]
    # Neither the purchase list nor /external/tags was asked: the dots stayed a code.
    assert not any(
        p.rstrip("/") in ("/external/purchase", "/external/tags", "/external") for p in paths
    )
    assert any(p.startswith("/external/purchase/") for p in paths)
    assert any(p.startswith("/external/tags/cancel/") for p in paths)


def test_a_credit_of_dots_is_sent_as_its_id(connect: Connect, control: SimControl) -> None:
    api = connect()

    async def scenario() -> None:
        try:
            request = CreditRequest("..", CreditClient(email=JUAN_EMAIL), amount=100)
            result = await api.credit(request)
            assert result.external_id == ".."
        finally:
            await api.aclose()

    run(scenario())
