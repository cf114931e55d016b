"""UI fixtures: a real counter session over the in-process simulator.

``session`` is a ``CounterSession`` whose API client talks to the simulator through
``SimTransport`` (in process, with real network-style failures for fault tests),
with its own SQLite journal in a temporary folder. Build screens with it, register
them with ``qtbot.addWidget``, and drive them inside ``arun(coroutine)`` (see
``tests/qt_async.py``). ``sim_world`` is the same world: read its tables or move its
clock (``sim_world.clock.advance(s)``) directly.

The session has the counter's store-and-forward outbox (issue #5) in its database,
with its sender running on a virtual clock (``outbox_kit``: outbox, sender, time):
credits and cancels go through it as in the app, and its backoffs cost no real time.
"""

from __future__ import annotations

import asyncio
import gc
import time
import uuid
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import pytest
from starlette.types import ASGIApp

from kiosk.api.client import LoyaltyClient
from kiosk.api.retry import NO_RETRY
from kiosk.core.amounts import AmountLocale
from kiosk.core.db import DatabaseWorker
from kiosk.core.journal import AsyncJournal
from kiosk.core.outbox.queue import Binding, Outbox
from kiosk.core.outbox.sender import Sender
from kiosk.core.session import BranchInfo, CounterSession, SessionConfig
from kiosk.sim.transport import SimTransport
from kiosk.sim.world import World
from tests.conftest import MAIN_KEY
from tests.ui.translated import translated

T = TypeVar("T")
_senders: list[Sender] = []


@pytest.fixture
def arun(aloop: asyncio.AbstractEventLoop) -> Callable[..., Any]:
    """``arun(coro, timeout=30)`` as in ``tests/qt_async.py``; the outbox's sender (when
    the test has one) runs while the coroutine runs, and is stopped after it: a task
    left between two ``arun`` calls would be stepped by Qt's event processing outside
    the running loop. A row caught mid-send is resent, same id, by the next start."""

    def run(coro: Coroutine[Any, Any, T], timeout: float = 30.0) -> T:
        return aloop.run_until_complete(asyncio.wait_for(_with_senders(coro), timeout))

    return run


async def _with_senders(coro: Coroutine[Any, Any, T]) -> T:
    senders = list(_senders)
    for sender in senders:
        sender.start()
    try:
        return await coro
    finally:
        for sender in senders:
            await sender.stop()


def first_branch(world: World) -> dict[str, Any]:
    branches = world.merchants[1].tables["branches"]
    return branches[min(branches)]


@pytest.fixture
def spanish(qapp: Any) -> Iterator[list[Any]]:
    """The kiosk in Spanish for the test (its translators, removed after)."""
    with translated(qapp, "es") as installed:
        yield installed


@pytest.fixture(autouse=True)
def _collect_on_the_main_thread(qapp: Any) -> Iterator[None]:
    """Widgets must die on the GUI thread: after each test, deliver deferred deletes and
    collect garbage here, so a later GC pass on the database thread never destroys a
    Qt object ("Timers cannot be stopped from another thread")."""
    yield
    from PySide6.QtCore import QCoreApplication, QEvent

    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


class OutboxTime:
    """The outbox's and the sender's wall clock and sleep: sleeping moves time on at once
    (a retry in 4 s costs no real time), starting from the real time."""

    def __init__(self) -> None:
        self.now = time.time()
        self.sleeps: list[float] = []
        self.hold = False
        self.holding = False  # the sender is held in a backoff wait now

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += max(0.0, seconds)
        await asyncio.sleep(0.001)
        while self.hold:  # a test holds the sender in its backoff
            self.holding = True
            await asyncio.sleep(0.002)
        self.holding = False


@dataclass
class OutboxKit:
    outbox: Outbox
    sender: Sender
    time: OutboxTime
    sender_api: LoyaltyClient


@pytest.fixture
def session(bare_session: CounterSession, outbox_kit: OutboxKit) -> CounterSession:
    """The counter session with its outbox attached and the sender running."""
    return bare_session


@pytest.fixture
def sim_transport(sim_app: ASGIApp) -> SimTransport:
    """The session's road to the simulator (``unreachable``: the network down)."""
    return SimTransport(sim_app)


@pytest.fixture
def outbox_kit(
    arun: Callable[..., Any], bare_session: CounterSession, sim_transport: SimTransport
) -> Iterator[OutboxKit]:
    session = bare_session
    api = session.api
    clock = OutboxTime()
    binding = Binding.of("training", api.base_url, MAIN_KEY, session.config.branch.id)
    worker = session.journal.worker
    outbox = Outbox(worker, binding, clock=clock.time)
    sender_api = LoyaltyClient(
        api.base_url,
        MAIN_KEY,
        branch_id=session.config.branch.id,
        transport=sim_transport,
        retry=NO_RETRY,
        limiter=api.limiter,
    )
    sender = Sender(outbox, sender_api, clock=clock.time, sleep=clock.sleep)
    sender.reached.connect(session.report_online)  # as kiosk.wiring.start_outbox does
    session.attach_outbox(outbox)

    arun(outbox.status())
    _senders.append(sender)
    yield OutboxKit(outbox, sender, clock, sender_api)
    _senders.remove(sender)
    arun(sender_api.aclose())


@pytest.fixture
def bare_session(
    arun: Callable[..., Any], sim_world: World, sim_transport: SimTransport, tmp_path: Any
) -> Iterator[CounterSession]:
    """The session without an outbox: credits and cancels go straight to the API."""
    branch = first_branch(sim_world)
    # A base URL of its own per test: the client-side rate limiter is shared per
    # merchant (base URL + key) in the process, and tests must not share budgets.
    api = LoyaltyClient(
        f"http://sim-{uuid.uuid4().hex[:8]}.test",
        MAIN_KEY,
        branch_id=branch["id"],
        transport=sim_transport,
    )
    worker = DatabaseWorker(tmp_path / "kiosk.sqlite3")
    arun(worker.start())
    config = SessionConfig(
        environment="training",
        branch=BranchInfo(branch["id"], branch["name"]),
        kiosk_id="0badcafe",
        locale=AmountLocale.ES_AR,
        idle_timeout_seconds=90,
    )
    session = CounterSession(api, AsyncJournal(worker), config)
    yield session
    # As the kiosk stops (kiosk.app.stop_counter): the journal's announcements still in
    # flight read their rows before the database closes (else "changes not announced").
    arun(session.changes_announced())
    arun(api.aclose())
    arun(worker.close())
