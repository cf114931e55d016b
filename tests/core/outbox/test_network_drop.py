"""The network drops and comes back (issue #21, item 6): a cancel queued during the
outage is tried again within seconds (a connection that never opened costs the
service nothing), not after the minute-long waits of a failing service; the service
coming back is found by the next try. On the virtual clock, the simulator's transport
made unreachable (``SimTransport.unreachable``: connection refused)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from starlette.types import ASGIApp

from kiosk.core.outbox.queue import Resolution, RowState
from kiosk.core.outbox.sender import Backoff
from kiosk.sim.world import World
from tests.core.outbox.harness import Kiosk, email, run_kiosk


@pytest.fixture(autouse=True)
def _transport_warnings(expect_log: Callable[[str], None]) -> None:
    expect_log(r"^(POST|PUT) /external/tags/\S* -> cannot reach")


def test_an_unreached_service_is_tried_again_within_seconds_whatever_the_streak() -> None:
    backoff = Backoff(base=1.0, cap=60.0, jitter=0.2)
    waits = [backoff.wait(n, None, 0.5, unreached=True) for n in range(1, 9)]
    assert waits == [1, 2, 4, 5, 5, 5, 5, 5]
    assert backoff.wait(9, None, 0.5) == 60  # a service that answers badly: the minute
    assert backoff.wait(2, 30.0, 0.5, unreached=True) == pytest.approx(30.125)  # Retry-After


def test_a_cancel_queued_in_an_outage_goes_within_seconds_of_the_network(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(k: Kiosk) -> None:
        assert k.transport is not None
        submitted, _ = await k.sale(k.request(k.kiosk_id(), email=email(sim_world)))
        await k.sender.drain()
        k.transport.unreachable = True  # the network drops
        cancel = await k.outbox.submit_cancel(submitted.row.external_id)
        waits: list[float] = []
        for _ in range(10):  # ten tries: the minute-long waits of a failing service
            wait = await k.sender.step()
            if wait is not None and wait > 0:
                waits.append(wait)
                k.time.now += wait
        row = await k.outbox.get(cancel.row.id)
        assert row is not None
        assert row.state is RowState.PENDING
        assert row.last_error_kind == "network"
        assert max(waits) <= 5 * 1.2  # never the 60 s of the schedule
        k.transport.unreachable = False  # the network is back
        back = k.time.now
        while (row := await k.outbox.get(cancel.row.id)) and row.state is RowState.PENDING:
            wait = await k.sender.step()
            assert wait is not None
            k.time.now += max(0.0, wait)
        assert row is not None
        assert row.resolution is Resolution.CANCELED
        assert k.time.now - back <= 5 * 1.2

    run_kiosk(sim_app, sim_world, tmp_path, scenario)
