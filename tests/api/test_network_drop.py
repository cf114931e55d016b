"""The network drops (issue #21, item 6): a person's call gets the offline answer
within the connect timeout, with no retries; a background call keeps its retries; every
attempt tells whether the service was reached, so the counter's status bar turns at
the first failure. Against a loopback port with nothing listening, on a fake clock
(``tests/bench/network_drop.py`` measures the seconds)."""

from __future__ import annotations

import socket
from collections.abc import Callable

import pytest

from kiosk.api import LoyaltyClient, Timeouts
from kiosk.api.errors import ErrorKind
from kiosk.api.transport import CONNECT_TIMEOUT
from kiosk.sim.control import SimControl
from tests.api.conftest import FAST, run
from tests.api.fakes import FakeClock
from tests.api.support import JUAN_DNI, fails


@pytest.fixture
def dead_url() -> str:
    """A loopback port with nothing listening: every connection is refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def client(url: str, clock: FakeClock) -> LoyaltyClient:
    return LoyaltyClient(url, "a-key-123456", clock=clock.time, sleep=clock.sleep, timeouts=FAST)


def test_the_connect_timeout_gives_the_offline_answer_within_two_seconds() -> None:
    assert CONNECT_TIMEOUT <= 2.0
    timeouts = Timeouts()
    assert timeouts.connect == CONNECT_TIMEOUT
    for operation in (False, True):
        assert timeouts.for_call(operation=operation).connect == CONNECT_TIMEOUT


def test_a_persons_call_is_not_retried_when_the_connection_never_opens(
    dead_url: str, fake_clock: FakeClock, client_warnings: None
) -> None:
    reached: list[bool] = []

    async def scenario() -> None:
        async with client(dead_url, fake_clock) as api:
            api.follow_reach(reached.append)
            error = await fails(api.search_client(JUAN_DNI))
        assert error.kind is ErrorKind.NETWORK
        assert error.unconnected

    run(scenario())
    assert fake_clock.sleeps == []  # one attempt: no 1 + 2 + 4 s of retries
    assert reached == [False]


def test_a_background_call_keeps_its_retries_and_says_each_failure(
    dead_url: str, fake_clock: FakeClock, client_warnings: None
) -> None:
    reached: list[bool] = []

    async def scenario() -> None:
        async with client(dead_url, fake_clock) as api:
            api.follow_reach(reached.append)
            error = await fails(api.list_validation_qrs(background=True))
        assert error.unconnected

    run(scenario())
    assert len(fake_clock.sleeps) == 3
    assert reached == [False] * 4  # each attempt, the first at once


def test_any_answer_says_the_service_was_reached(
    connect: Callable[..., LoyaltyClient], control: SimControl, client_warnings: None
) -> None:
    control.add_fault("status", r"^/external/clients", status=503, count=1)
    reached: list[bool] = []

    async def scenario() -> None:
        async with connect() as api:
            api.follow_reach(reached.append)
            await api.search_client(JUAN_DNI)

    run(scenario())
    assert reached == [True, True]  # the 503, then the answer
