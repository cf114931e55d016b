"""Retries and typed failures under the simulator's fault injection, over real HTTP."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from kiosk.api import ErrorKind, LoyaltyClient, MalformedResponse, RetryPolicy
from kiosk.api.models import CreditClient, CreditRequest, LevelColors, LevelDraft
from kiosk.sim.control import SimControl
from tests.api.conftest import SHORT, run
from tests.api.fakes import FakeClock
from tests.api.support import JUAN_DNI, fails

Connect = Callable[..., LoyaltyClient]
CREDIT = "^/external/tags/add$"
SEARCH = "^/external/clients/search$"

pytestmark = pytest.mark.usefixtures("client_warnings")


def credit(external_id: str = "F-1") -> CreditRequest:
    return CreditRequest(external_id, CreditClient(document=JUAN_DNI), amount=2000)


def statuses(control: SimControl, path: str) -> list[int | None]:
    return [r["status"] for r in control.requests(path=path)]


def test_429_waits_retry_after_then_succeeds(
    connect: Connect, control: SimControl, fake_clock: FakeClock
) -> None:
    control.add_fault("status", CREDIT, status=429, headers={"Retry-After": "3"})

    async def scenario() -> None:
        async with connect() as api:
            result = await api.credit(credit())
        assert result.operation is not None

    run(scenario())
    assert statuses(control, CREDIT) == [429, 201]
    assert fake_clock.sleeps == [pytest.approx(3.125)]  # Retry-After + spread (draw 0.5)


def test_persistent_429_gives_rate_limited_after_four_attempts(
    connect: Connect, control: SimControl, fake_clock: FakeClock
) -> None:
    control.add_fault("status", SEARCH, status=429, count=None)

    async def scenario() -> None:
        async with connect() as api:
            error = await fails(api.search_client(JUAN_DNI))
        assert error.kind is ErrorKind.RATE_LIMITED
        assert error.retry_after == 1.0

    run(scenario())
    assert statuses(control, SEARCH) == [429] * 4
    assert len(fake_clock.sleeps) == 3


def test_500_on_a_read_is_retried_with_growing_waits(
    connect: Connect, control: SimControl, fake_clock: FakeClock
) -> None:
    control.add_fault("status", SEARCH, status=500, count=2)

    async def scenario() -> None:
        async with connect() as api:
            assert (await api.search_client(JUAN_DNI)).document_number == JUAN_DNI
            control.add_fault("status", SEARCH, status=500, count=None)
            error = await fails(api.search_client(JUAN_DNI))
        assert (error.kind, error.status) == (ErrorKind.SERVER, 500)

    run(scenario())
    assert statuses(control, SEARCH) == [500, 500, 200, 500, 500, 500, 500]
    assert fake_clock.sleeps == [1.0, 2.0, 1.0, 2.0, 4.0]


def test_503_on_a_credit_is_retried_and_credits_once(connect: Connect, control: SimControl) -> None:
    control.add_fault("status", CREDIT, status=503, count=2)

    async def scenario() -> None:
        async with connect() as api:
            result = await api.credit(credit())
            control.add_fault("status", CREDIT, status=503, count=None)
            error = await fails(api.credit(credit("F-2")))
        assert result.operation is not None
        assert not result.already_credited
        assert error.kind is ErrorKind.UNAVAILABLE
        assert "Intente nuevamente" in error.message

    run(scenario())
    assert [op["externalId"] for op in control.ledger()].count("F-1") == 1
    assert "F-2" not in [op["externalId"] for op in control.ledger()]


@pytest.mark.parametrize(
    ("kind", "params"),
    [
        ("status", {"status": 500, "apply": True}),
        ("drop", {}),
        ("timeout", {"apply": True}),
    ],
)
def test_a_credit_whose_answer_is_lost_is_resent_and_reported_already_credited(
    connect: Connect, control: SimControl, kind: str, params: dict[str, object]
) -> None:
    control.add_fault(kind, CREDIT, **params)

    async def scenario() -> None:
        async with connect(timeouts=SHORT) as api:
            result = await api.credit(credit())
        assert result.already_credited
        assert result.external_id == "F-1"

    run(scenario())
    assert [op["externalId"] for op in control.ledger()].count("F-1") == 1
    assert len(control.requests(path=CREDIT)) == 2


def test_timeout_of_a_read_is_retried(connect: Connect, control: SimControl) -> None:
    control.add_fault("timeout", SEARCH)

    async def scenario() -> None:
        async with (
            connect(timeouts=SHORT) as api,
            connect(timeouts=SHORT, retry=RetryPolicy(delays=(1.0,))) as once,
        ):
            assert (await api.search_client(JUAN_DNI)).document_number == JUAN_DNI
            control.add_fault("timeout", SEARCH, count=None)
            error = await fails(once.search_client(JUAN_DNI))
        assert error.kind is ErrorKind.TIMEOUT
        assert error.status is None

    run(scenario())
    assert len(control.requests(path=SEARCH)) == 4  # 1 lost + 1 retried, then 2 lost


def test_dropped_connection_on_every_attempt_is_a_network_error(
    connect: Connect, control: SimControl
) -> None:
    control.add_fault("drop", SEARCH, count=None)

    async def scenario() -> None:
        async with connect() as api:
            error = await fails(api.search_client(JUAN_DNI))
        assert error.kind is ErrorKind.NETWORK
        assert "disconnected" in error.message

    run(scenario())
    assert len(control.requests(path=SEARCH)) == 4


def test_a_4xx_is_never_retried(
    connect: Connect, control: SimControl, fake_clock: FakeClock
) -> None:
    control.add_fault("status", SEARCH, status=400, count=None)

    async def scenario() -> None:
        async with connect() as api:
            error = await fails(api.search_client(JUAN_DNI))
        assert error.kind is ErrorKind.BAD_REQUEST

    run(scenario())
    assert len(control.requests(path=SEARCH)) == 1
    assert fake_clock.sleeps == []


@pytest.mark.parametrize("variant", ["truncated", "wrong_types", "empty"])
@pytest.mark.parametrize("path", [SEARCH, "^/external/clients$", "^/external/branch$"])
def test_malformed_answers_are_malformed_errors(
    connect: Connect, control: SimControl, variant: str, path: str
) -> None:
    control.add_fault("malformed", path, variant=variant)

    async def scenario() -> None:
        async with connect() as api:
            calls = {
                SEARCH: lambda: api.search_client(JUAN_DNI),
                "^/external/clients$": lambda: api.list_clients(),
                "^/external/branch$": lambda: api.list_branches(),
            }
            error = await fails(calls[path]())
            assert isinstance(error, MalformedResponse)
            assert error.kind is ErrorKind.MALFORMED
            assert error.status is not None
            assert 200 <= error.status < 300
            assert error.method == "GET"
            assert error.path
            assert error.path.startswith("/external/")
            await calls[path]()  # the next call is fine: nothing was left broken

    run(scenario())
    assert len(control.requests(path=path)) == 2  # a malformed 2xx is not retried


def test_html_error_page_is_retried_as_a_5xx_and_reported_malformed(
    connect: Connect, control: SimControl
) -> None:
    control.add_fault("malformed", SEARCH, variant="html")

    async def scenario() -> None:
        async with connect() as api:
            assert (await api.search_client(JUAN_DNI)).document_number == JUAN_DNI
            control.add_fault("malformed", SEARCH, variant="html", count=None)
            error = await fails(api.search_client(JUAN_DNI))
        assert (error.kind, error.status) == (ErrorKind.MALFORMED, 502)
        assert "text/html" in error.message

    run(scenario())
    assert statuses(control, SEARCH) == [502, 200, 502, 502, 502, 502]


def test_connection_refused_answers_a_persons_call_at_once_even_an_admin_write(
    unused_port_url: str, fake_clock: FakeClock
) -> None:
    async def scenario() -> None:
        async with LoyaltyClient(
            unused_port_url,
            "a-key-123456",
            clock=fake_clock.time,
            sleep=fake_clock.sleep,
            timeouts=SHORT,
        ) as api:
            error = await fails(
                api.create_level(
                    LevelDraft("x", 1, 1.0, LevelColors("#000000", "#000000", "#000000"))
                )
            )
        assert error.kind is ErrorKind.NETWORK  # not AMBIGUOUS: it never left
        assert error.unconnected

    run(scenario())
    assert fake_clock.sleeps == []  # the offline answer at once, no 1 + 2 + 4 s (#21, 6)


@pytest.fixture
def unused_port_url() -> str:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"
