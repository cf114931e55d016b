"""A server's absurd ``Retry-After`` never freezes the outbox (issue #17, item 1).

A 429 asking for a day is capped (``MAX_SERVER_WAIT``); the client's limiter holds
its lane no longer than ``MAX_HELD_WAIT`` for any one call, so the outbox's own
backoff owns the wait, and the lane and the rows ask the server again within
``PROBE_AFTER`` (issue #22, item 14); the manager's "retry now" ends the server's hold.
All on the virtual clock: nothing here sleeps.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from starlette.types import ASGIApp

from kiosk.api.ratelimit import PROBE_AFTER
from kiosk.core.outbox.queue import RowState
from kiosk.sim.world import World
from tests.core.outbox.harness import Kiosk, client_emails, run_kiosk

CREDIT = r"^/external/tags/add$"
DAY = "86400"


@pytest.fixture(autouse=True)
def _expected_logs(expect_log: Callable[[str], None]) -> None:
    expect_log(r"^(POST|PUT) /external/tags/")


def test_five_credits_behind_a_day_long_429_go_within_minutes(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(k: Kiosk) -> None:
        k.control.add_fault("status", CREDIT, status=429, headers={"Retry-After": DAY}, count=1)
        started = k.time.now
        rows = []
        for address in client_emails(sim_world, 5):
            submitted, _ = await k.sale(k.request(k.kiosk_id(), email=address))
            rows.append(submitted.row)
        await k.sender.drain()
        assert k.time.now - started < PROBE_AFTER + 10  # not 24 h, nor 5 minutes
        for row in rows:
            assert len(k.ops(row.external_id)) == 1
            settled = await k.outbox.get(row.id)
            assert settled is not None
            assert settled.state is RowState.DONE

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def test_retry_now_releases_the_server_s_hold(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(k: Kiosk) -> None:
        k.control.add_fault("status", CREDIT, status=429, headers={"Retry-After": DAY}, count=1)
        first, second = client_emails(sim_world, 2)
        one, _ = await k.sale(k.request(k.kiosk_id(), email=first))
        assert await k.sender.step() == 0  # the 429: the lane held for PROBE_AFTER
        two, _ = await k.sale(k.request(k.kiosk_id(), email=second))
        wait = await k.sender.step()  # the rows go in order: the first is not due yet
        assert wait is not None
        assert PROBE_AFTER - 1 < wait <= PROBE_AFTER + 1  # asked again within the minute
        assert k.ops(one.row.external_id) == k.ops(two.row.external_id) == []
        # The manager taps "retry now" (the running sender hears the outbox's signal).
        k.outbox.work_added.connect(k.sender._on_work)
        assert await k.outbox.retry_now() == 1
        before = k.time.now
        assert await k.sender.step() == 0
        assert await k.sender.step() == 0
        assert await k.sender.step() is None
        assert k.time.now == before  # nothing waited
        assert len(k.ops(one.row.external_id)) == 1
        assert len(k.ops(two.row.external_id)) == 1

    run_kiosk(sim_app, sim_world, tmp_path, scenario)
