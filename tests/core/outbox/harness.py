"""A kiosk's outbox and sender over the in-process simulator, on a virtual clock.

Shared by the outbox tests and ``tests/bench/soak.py``. The sender's clock, sleep
and random, and the client's limiter, run on ``VirtualTime``: backoffs and
``Retry-After`` cost no real time. The simulator's own clock is untouched; its
rate limits are switched off (429s come from fault rules) because our virtual
second is not its real one.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from starlette.types import ASGIApp

from kiosk.api.client import LoyaltyClient
from kiosk.api.models.points import CreditClient, CreditRequest
from kiosk.api.ratelimit import RateLimiter
from kiosk.api.retry import NO_RETRY
from kiosk.api.transport import Timeouts
from kiosk.core.counter.tickets import kiosk_external_id, ticket_external_id
from kiosk.core.db import DatabaseWorker
from kiosk.core.journal import AsyncJournal, Journal, JournalEntry, OperationKind
from kiosk.core.outbox.queue import Binding, JournalNote, Outbox, Submitted
from kiosk.core.outbox.sender import Backoff, Sender
from kiosk.sim import DEFAULT_API_KEY
from kiosk.sim.control import SimControl
from kiosk.sim.transport import SimTransport
from kiosk.sim.world import World

DAY = date(2026, 11, 22)
KIOSK_ID = "0a1b2c3d"
BASE_URL = "http://sim.test"
START = 1_795_000_000.0  # epoch seconds of the virtual clock's start


class VirtualTime:
    """Wall clock, monotonic clock and sleep in one: sleeping moves time on at once."""

    def __init__(self, start: float = START) -> None:
        self.now = start
        self.sleeps: list[float] = []

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += max(0.0, seconds)
        await asyncio.sleep(0)


@dataclass
class Kiosk:
    world: World
    control: SimControl
    worker: DatabaseWorker
    api: LoyaltyClient
    journal: AsyncJournal
    outbox: Outbox
    sender: Sender
    time: VirtualTime
    branch_id: int
    path: Path
    tokens: Any = field(default_factory=lambda: iter(range(1, 10**9)))
    transport: SimTransport | None = None  # (its ``unreachable``: the network down)

    def kiosk_id(self) -> str:
        """A fresh kiosk-made external id (deterministic per kiosk)."""
        token = f"{next(self.tokens):012d}"
        return kiosk_external_id(self.branch_id, DAY, KIOSK_ID, token=lambda: token)

    def ticket_id(self, ticket: str) -> str:
        return ticket_external_id(self.branch_id, DAY, ticket)

    def request(
        self,
        external_id: str,
        *,
        email: str | None = None,
        document: str | None = None,
        amount: float = 1500.0,
    ) -> CreditRequest:
        return CreditRequest(
            external_id=external_id,
            client=CreditClient(email=email, document=document),
            amount=amount,
            branch_id=self.branch_id,
            extra_data=[{"source": "loyalty-kiosk", "kiosk_id": KIOSK_ID}],
        )

    async def sale(
        self,
        request: CreditRequest,
        *,
        live: bool = False,
        client: str | None = None,
        points: int | None = None,
    ) -> tuple[Submitted, JournalEntry]:
        """Queue a credit with its pending journal row (one transaction), as the counter will.
        ``points``: the preview's, shown on the pending row."""
        note = JournalNote(
            amount=Decimal(str(request.amount)) if request.amount is not None else None,
            points=points,
        )
        submitted = await self.outbox.submit_credit(request, journal=note, live=live, client=client)
        journal_id = submitted.row.journal_id
        assert journal_id is not None
        entry = await self.worker.run(lambda conn: Journal(conn).get(journal_id))
        assert entry is not None
        assert entry.kind is OperationKind.CREDIT
        return submitted, entry

    def ops(self, external_id: str) -> list[dict[str, Any]]:
        return [op for op in self.control.ledger() if op.get("externalId") == external_id]

    def requests(self, external_id: str) -> list[dict[str, Any]]:
        return [r for r in self.control.requests() if r.get("external_id") == external_id]


def main_branch(world: World) -> int:
    branches = world.merchants[1].tables["branches"]
    return int(min(branches))


def client_emails(world: World, count: int) -> list[str]:
    """Emails of active seeded clients of merchant 1 (suspended ones left out)."""
    clients = world.merchants[1].tables["clients"].values()
    emails = [c["email"] for c in clients if c.get("status") == "ACTIVE" and c.get("email")]
    return sorted(emails)[:count]


@asynccontextmanager
async def open_kiosk(
    app: ASGIApp,
    world: World,
    path: Path,
    *,
    clock: VirtualTime | None = None,
    seed: int = 0,
    read_timeout: float = 0.25,
    environment: str = "training",
    backoff: Backoff | None = None,
) -> AsyncIterator[Kiosk]:
    clock = clock or VirtualTime()
    control = SimControl(world)
    control.settings(rate_limits=False)
    branch_id = main_branch(world)
    transport = SimTransport(app)
    api = LoyaltyClient(
        BASE_URL,
        DEFAULT_API_KEY,
        branch_id=branch_id,
        transport=transport,
        timeouts=Timeouts(default=read_timeout, operation=read_timeout, connect=read_timeout),
        retry=NO_RETRY,
        limiter=RateLimiter(clock=clock.monotonic, sleep=clock.sleep),
        clock=clock.monotonic,
        sleep=clock.sleep,
        wall_clock=clock.time,
    )
    worker = DatabaseWorker(path)
    await worker.start()
    binding = Binding.of(environment, BASE_URL, DEFAULT_API_KEY, branch_id)
    outbox = Outbox(worker, binding, clock=clock.time)
    rng = random.Random(seed)
    sender = Sender(
        outbox, api, clock=clock.time, sleep=clock.sleep, random=rng.random, backoff=backoff
    )
    journal = AsyncJournal(worker)
    try:
        yield Kiosk(
            world, control, worker, api, journal, outbox, sender, clock, branch_id, path,
            transport=transport,
        )  # fmt: skip
    finally:
        await sender.stop()
        await api.aclose()
        await worker.close()


def new_path(tmp_path: Path) -> Path:
    return tmp_path / f"kiosk-{uuid.uuid4().hex[:6]}.sqlite3"


def run_kiosk(
    app: ASGIApp, world: World, tmp_path: Path, scenario: Callable[[Kiosk], Awaitable[None]]
) -> None:
    """``scenario(kiosk)`` on a fresh kiosk over the in-process simulator."""

    async def main() -> None:
        async with open_kiosk(app, world, new_path(tmp_path)) as kiosk:
            await scenario(kiosk)

    asyncio.run(main())


def email(world: World, index: int = 0) -> str:
    return client_emails(world, index + 1)[index]
