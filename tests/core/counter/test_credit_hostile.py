"""The cashier's credit against a hostile server, through the outbox (issue #22, items
10, 12 and 14): figures the contract forbids are never shown as points credited, a 201
for another client is flagged, and a day-long 429 never stops the counter.

The counter's session, its outbox and the outbox's sender over the in-process
simulator; the simulator applies each credit, then a fault answers in its place. The
sender's waits run on a virtual clock.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from starlette.types import ASGIApp

from kiosk.api.client import LoyaltyClient
from kiosk.api.ratelimit import MAX_HELD_WAIT, PROBE_AFTER, RateLimiter
from kiosk.api.retry import NO_RETRY
from kiosk.core.counter.credit import CreditFlow
from kiosk.core.counter.sale import CreditStatus, NoPreview
from kiosk.core.db import DatabaseWorker
from kiosk.core.journal import AsyncJournal
from kiosk.core.outbox.queue import Binding, Outbox
from kiosk.core.outbox.sender import Sender
from kiosk.core.session import BranchInfo, CounterSession, SessionConfig
from kiosk.sim.control import SimControl
from kiosk.sim.transport import SimTransport
from kiosk.sim.world import World
from tests.conftest import MAIN_KEY
from tests.qt_async import until

DAY = date(2026, 11, 22)
JUAN = "30123456"  # Juan Carlos Pérez, Plata (x1.25) in the seed
CREDIT = r"^/external/tags/add$"


class Clock:
    """One virtual clock (wall and monotonic) for the outbox, its sender and the limiter."""

    def __init__(self) -> None:
        self.now = time.time()
        self.released = asyncio.Event()  # cleared: every sleeper (the sender) waits here
        self.released.set()

    def time(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        await self.released.wait()
        self.now += max(0.0, seconds)
        await asyncio.sleep(0)


@dataclass
class Counter:
    session: CounterSession
    flow: CreditFlow
    control: SimControl
    outbox: Outbox
    clock: Clock


@asynccontextmanager
async def counter(app: ASGIApp, world: World, tmp_path: Path) -> AsyncIterator[Counter]:
    merchant = world.merchants[1]
    branch = merchant.tables["branches"][min(merchant.tables["branches"])]
    clock = Clock()
    limiter = RateLimiter(clock=clock.time, sleep=clock.sleep)
    base = f"http://sim-{uuid.uuid4().hex[:8]}.test"

    def client(**kwargs: Any) -> LoyaltyClient:
        return LoyaltyClient(
            base, MAIN_KEY, branch_id=branch["id"], transport=SimTransport(app),
            limiter=limiter, clock=clock.time, sleep=clock.sleep, wall_clock=clock.time,
            **kwargs,
        )  # fmt: skip

    api, sender_api = client(), client(retry=NO_RETRY)
    worker = DatabaseWorker(tmp_path / f"{uuid.uuid4().hex[:6]}.sqlite3")
    await worker.start()
    config = SessionConfig("training", BranchInfo(branch["id"], branch["name"]), "0a1b2c3d")
    session = CounterSession(api, AsyncJournal(worker), config)
    outbox = Outbox(worker, Binding.of("training", base, MAIN_KEY, branch["id"]), clock=clock.time)
    sender = Sender(outbox, sender_api, clock=clock.time, sleep=clock.sleep)
    session.attach_outbox(outbox)
    session.set_client(await api.search_client(JUAN))
    sender.start()
    try:
        flow = CreditFlow(session, today=lambda: DAY)
        yield Counter(session, flow, SimControl(world), outbox, clock)
    finally:
        await sender.stop()
        await session.changes_announced()
        await api.aclose()
        await sender_api.aclose()
        await worker.close()


def run(
    app: ASGIApp, world: World, tmp_path: Path, scenario: Callable[[Counter], Awaitable[None]]
) -> None:
    async def main() -> None:
        async with counter(app, world, tmp_path) as c:
            await asyncio.wait_for(scenario(c), 60)

    asyncio.run(main())


def answered(c: Counter, total: Any, *, client_id: int | None = None) -> None:
    """The next credit is applied, then answered 201 with these figures."""
    points = {"amount": 1500, "initialPointsToGive": 150, "totalPointsToGive": total}
    who = c.session.client.id if client_id is None and c.session.client else client_id
    data = {"pointOperationId": 900, "clientId": who, "points": points}
    c.control.add_fault(
        "status", CREDIT, status=201, apply=True, count=1,
        body={"success": True, "status": 201, "message": "OK", "data": data},
    )  # fmt: skip


@pytest.fixture(autouse=True)
def _expected_logs(expect_log: Callable[[str], None]) -> None:
    expect_log(r"^(POST|PUT) /external/tags/")


def test_a_credit_answered_with_negative_points_is_never_told_as_credited(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(c: Counter) -> None:
        c.flow.sale.set_amount_text("1500")
        preview = await c.flow.preview()
        assert preview is not None
        answered(c, -50)
        outcome = await c.flow.credit()
        # Applied once; the answer's figures are refused: asked again with its id, the
        # duplicate answer confirms it, with the preview's points.
        assert outcome.status is CreditStatus.CREDITED
        assert outcome.points == preview.points.total > 0
        assert outcome.confirmed_by_duplicate
        ops = [op for op in c.control.ledger() if op.get("externalId") == outcome.external_id]
        assert len(ops) == 1

    run(sim_app, sim_world, tmp_path, scenario)


def test_a_201_for_another_client_is_flagged_to_the_cashier_and_logged_masked(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path, expect_log: Callable[[str], None],
    caplog: pytest.LogCaptureFixture,
) -> None:  # fmt: skip
    expect_log(r"the service answered for client #\d+, not the client at the counter")

    async def scenario(c: Counter) -> None:
        c.flow.sale.set_amount_text("1500")
        await c.flow.preview()
        answered(c, 150, client_id=424242)
        outcome = await c.flow.credit()
        assert outcome.status is CreditStatus.CREDITED
        assert outcome.other_client == 424242

    run(sim_app, sim_world, tmp_path, scenario)
    [line] = [r.getMessage() for r in caplog.records if "#424242" in r.getMessage()]
    assert "@" not in line
    assert JUAN not in line


def test_a_day_long_429_never_stops_the_counter(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(c: Counter) -> None:
        c.flow.sale.set_amount_text("1500")
        assert await c.flow.preview() is not None
        c.clock.released.clear()  # the sender's waits last until the test lets them go
        pending: list[int] = []
        c.outbox.status_changed.connect(lambda status: pending.append(status.pending))
        c.control.add_fault("status", CREDIT, status=429, headers={"Retry-After": "86400"})
        started = time.monotonic()
        first = await c.flow.credit()
        # Into the outbox as usual; the cashier is not kept 20 s for a retry a minute
        # away: the receipt says "pending" at once.
        assert first.status is CreditStatus.PENDING
        assert time.monotonic() - started < 5
        # The next sale's preview says the service is busy and when it is asked again
        # (within a minute), and the sale goes on: its credit is saved too.
        c.flow.new_sale()
        c.flow.sale.set_amount_text("2000")
        before = time.time()
        assert await c.flow.preview() is None
        sale = c.flow.sale
        assert sale.no_preview is NoPreview.BUSY
        assert sale.retry_at is not None
        assert before + MAX_HELD_WAIT < sale.retry_at <= time.time() + PROBE_AFTER
        second = await c.flow.credit()
        assert second.status is CreditStatus.PENDING
        # The server is asked again within the minute (virtual): both land once.
        c.clock.released.set()
        await until(lambda: pending[-1:] == [0], message="the outbox never emptied")
        for outcome in (first, second):
            ops = [op for op in c.control.ledger() if op.get("externalId") == outcome.external_id]
            assert len(ops) == 1

    run(sim_app, sim_world, tmp_path, scenario)
