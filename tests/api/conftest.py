"""Fixtures of the API client tests: a client factory on the loopback simulator.

Clients made by ``connect`` run on a ``FakeClock`` (retries and the limiter never
wait for real; ``fake_clock.sleeps`` tells what they would have waited), with
short timeouts and a fixed jitter draw. ``control`` drives the simulator
(faults, clock, request log) in process.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import pytest

from kiosk.api import LoyaltyClient, RetryPolicy, Timeouts
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from tests.api.fakes import FakeClock
from tests.conftest import MAIN_KEY

T = TypeVar("T")

FAST = Timeouts(default=5.0, operation=5.0, connect=2.0)
SHORT = Timeouts(default=1.0, operation=1.0, connect=1.0)  # for the timeout faults


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


@pytest.fixture
def control(sim_world: World) -> SimControl:
    return SimControl(sim_world)


@pytest.fixture
def client_warnings(expect_log: Callable[[str], None]) -> None:
    """Allow the client's own warnings: failed attempts, retries, reconciliation."""
    expect_log(r"^(GET|POST|PUT|DELETE) /external/")
    expect_log(
        r"^\w+: (not applied|could not read back|\d+ new matching|the balance|status went"
        r"|cannot tell)"
    )


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def main_branches(sim_world: World) -> list[int]:
    return sorted(sim_world.merchants[1].tables["branches"])


@pytest.fixture
def other_branches(sim_world: World) -> list[int]:
    return sorted(sim_world.merchants[2].tables["branches"])


@pytest.fixture
def connect(
    sim_url: str, fake_clock: FakeClock, main_branches: list[int]
) -> Callable[..., LoyaltyClient]:
    def make(key: str = MAIN_KEY, **options: Any) -> LoyaltyClient:
        options.setdefault("branch_id", main_branches[0])
        options.setdefault("clock", fake_clock.time)
        options.setdefault("sleep", fake_clock.sleep)
        options.setdefault("timeouts", FAST)
        options.setdefault("retry", RetryPolicy(random=lambda: 0.5))
        return LoyaltyClient(sim_url, key, **options)

    return make
