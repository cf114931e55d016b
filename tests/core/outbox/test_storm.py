"""A credit storm (issue #17, "Done means"; issue #22): 100 credits taken while the
server answers 429 with an absurd ``Retry-After`` (a day), 500s, connection resets,
answers dripped slower than the call's deadline, connections that never answer, 201s
whose points the contract forbids (10**400, -50) and 409s naming another operation's
external id; then the server is healthy again. Every credit lands exactly once, nothing waits a day, and the event
loop (the counter's UI thread) is never held.

The simulator's fault book plays the storm (each kind a fixed number of times, in a
seeded order), the outbox's clock is virtual (backoffs cost no real time), and the
same ledger check as the 20% fault soak compares the simulator's ledger with every
outbox row.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.types import ASGIApp

from kiosk.sim.world import World
from tests.core.outbox.test_crash import unreadable_figures
from tests.core.outbox.test_faults import TAGS, run_fault_credits

DAY = "86400"
# (kind, how many times, its parameters): about 150 failed requests, then health.
STORM: tuple[tuple[int, dict[str, Any]], ...] = (
    (50, {"kind": "status", "status": 429, "headers": {"Retry-After": DAY}}),
    (30, {"kind": "status", "status": 500}),
    (25, {"kind": "drop", "apply": False}),  # reset before the server did anything
    (15, {"kind": "drop"}),  # applied, then reset: the answer is lost
    (15, {"kind": "latency", "seconds": 3600.0}),  # a drip past every deadline
    (15, {"kind": "timeout"}),  # a connection that never answers
    # Applied, then answered with points the contract forbids (issue #22, item 10): the
    # row is never stranded "sending" nor settled with them; resent, settled once.
    (10, unreadable_figures(10**400)),
    (10, unreadable_figures(-50)),
)
# A 409 naming another operation's external id, on credits only (issue #22, item 12):
# never settled as ours; each such credit is a dead letter until a manager sends it again.
OTHERS_DUPLICATE = (
    "Ya existe una operación de puntos con el externalId b1-20261122-T0 para este negocio"
)
LOOP_STALL_BUDGET = 0.5  # s: the longest the loop may go without running a ticker


def storm_rules(seed: int) -> list[dict[str, Any]]:
    others = {"statusCode": 409, "message": OTHERS_DUPLICATE, "errors": None, "data": None}
    return [
        {"match": {"path": TAGS}, "count": count, "probability": 0.5, "seed": seed + i, **rule}
        for i, (count, rule) in enumerate(STORM)
    ] + [
        {"match": {"path": r"^/external/tags/add$"}, "count": 5, "probability": 0.5,
         "seed": seed + len(STORM), "kind": "status", "status": 409, "body": others},
    ]  # fmt: skip


async def _storm(app: ASGIApp, world: World, path: Path) -> tuple[Any, float]:
    worst = 0.0
    stop = asyncio.Event()

    async def ticker() -> None:  # what a frozen UI thread would show: no turns
        nonlocal worst
        last = time.perf_counter()
        while not stop.is_set():
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            worst = max(worst, now - last)
            last = now

    tick = asyncio.create_task(ticker())
    try:
        tally = await run_fault_credits(
            app, world, path, credits=100, seed=11, rules=storm_rules(11), timeout=240
        )
    finally:
        stop.set()
        await tick
    return tally, worst


@pytest.fixture(autouse=True)
def _expected_warnings(expect_log: Any) -> None:
    expect_log(r"^(POST|PUT) /external/tags/\S* -> \w+")  # the client's failed attempts
    expect_log(r"dead letter")  # the suspended client's credits, the others' 409s
    expect_log(r"a duplicate refusal that does not name this id")


def test_a_storm_then_a_healthy_server_lands_every_credit_once(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    tally, worst = asyncio.run(_storm(sim_app, sim_world, tmp_path / "kiosk.sqlite3"))
    print("\n".join(tally.lines()), f"\nlongest loop gap {worst * 1000:.0f} ms")
    assert tally.credits == 100
    assert tally.duplicates == 0
    assert tally.lost == 0
    # The storm was played: each kind of fault met the kiosk.
    kinds = set(tally.faults)
    assert {"status-429", "status-500", "status-201", "status-409"} <= kinds
    assert {"drop", "latency", "timeout"} <= kinds
    # The 409s naming another id were dead letters, never settled as ours; a manager
    # sent them again and each landed once.
    assert tally.requeued >= 5
    assert sum(tally.faults.values()) >= 100
    # A day-long Retry-After does not hold the queue for a day (the server's waits are
    # capped; the outbox's own backoff owns long waits).
    assert tally.virtual_seconds < 6 * 3600
    assert worst < LOOP_STALL_BUDGET
