"""UI fixtures: a real counter session over the in-process simulator.

``session`` is a ``CounterSession`` whose API client talks to the simulator through
``SimTransport`` (in process, with real network-style failures for fault tests),
with its own SQLite journal in a temporary folder. Build screens with it, register
them with ``qtbot.addWidget``, and drive them inside ``arun(coroutine)`` (see
``tests/qt_async.py``). ``sim_world`` is the same world: read its tables or move its
clock (``sim_world.clock.advance(s)``) directly.
"""

from __future__ import annotations

import gc
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from starlette.types import ASGIApp

from kiosk.api.client import LoyaltyClient
from kiosk.core.amounts import AmountLocale
from kiosk.core.db import DatabaseWorker
from kiosk.core.journal import AsyncJournal
from kiosk.core.session import BranchInfo, CounterSession, SessionConfig
from kiosk.sim.transport import SimTransport
from kiosk.sim.world import World
from tests.conftest import MAIN_KEY


def first_branch(world: World) -> dict[str, Any]:
    branches = world.merchants[1].tables["branches"]
    return branches[min(branches)]


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


@pytest.fixture
def session(
    arun: Callable[..., Any], sim_world: World, sim_app: ASGIApp, tmp_path: Any
) -> Iterator[CounterSession]:
    branch = first_branch(sim_world)
    # A base URL of its own per test: the client-side rate limiter is shared per
    # merchant (base URL + key) in the process, and tests must not share budgets.
    api = LoyaltyClient(
        f"http://sim-{uuid.uuid4().hex[:8]}.test",
        MAIN_KEY,
        branch_id=branch["id"],
        transport=SimTransport(sim_app),
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
    arun(api.aclose())
    arun(worker.close())
