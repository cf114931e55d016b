"""Fault injection: about 20% of requests fail (apply-then-drop, 500, 503, 429,
timeouts, malformed bodies), and every credit still lands exactly once.

``run_fault_credits`` is shared with ``tests/bench/soak.py`` (1,000 credits); the
suite runs a seeded 100. The simulator's ledger is compared with the outbox row
by row: done rows exactly once in the ledger, dead and voided rows never, nothing
left pending, no ledger entry the outbox does not know.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from starlette.types import ASGIApp

from kiosk.core.journal import Outcome
from kiosk.core.outbox.queue import Resolution, RowKind, RowState
from kiosk.core.outbox.store import OutboxStore
from kiosk.sim.seed_people import MAIN_SUSPENDED
from kiosk.sim.world import World
from tests.core.outbox.harness import KIOSK_ID, Kiosk, client_emails, open_kiosk

TAGS = r"^/external/tags/(add$|cancel/)"

FAULTS: tuple[tuple[float, dict[str, Any]], ...] = (
    (0.05, {"kind": "drop"}),  # applied, then the connection drops without an answer
    (0.03, {"kind": "status", "status": 500}),
    (0.03, {"kind": "status", "status": 503}),
    (0.03, {"kind": "status", "status": 429}),
    (0.02, {"kind": "timeout", "apply": True}),  # applied, then no answer in time
    (0.01, {"kind": "timeout"}),  # lost before it was applied
    (0.015, {"kind": "malformed", "variant": "truncated"}),  # applied, 201 cut in half
    (0.01, {"kind": "malformed", "variant": "html"}),  # a proxy's 502 page
    (0.01, {"kind": "malformed", "variant": "wrong_types"}),
    (0.005, {"kind": "malformed", "variant": "empty"}),
)


@dataclass
class Tally:
    credits: int = 0
    cancels: int = 0
    requests: int = 0
    faulted: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    resolutions: Counter[str] = field(default_factory=Counter)
    attempts: int = 0
    once_in_ledger: int = 0
    duplicates: int = 0
    lost: int = 0
    requeued: int = 0  # dead letters a manager sent again (a 409 naming another id)
    virtual_seconds: float = 0.0
    real_seconds: float = 0.0

    def lines(self) -> list[str]:
        share = self.faulted / self.requests if self.requests else 0.0
        return [
            f"credits {self.credits}, cancels {self.cancels}, attempts {self.attempts}",
            f"requests {self.requests}, faulted {self.faulted} ({share:.1%}): "
            + ", ".join(f"{k} {v}" for k, v in sorted(self.faults.items())),
            "rows: " + ", ".join(f"{k} {v}" for k, v in sorted(self.resolutions.items())),
            f"ledger: {self.once_in_ledger} credited exactly once, "
            f"{self.duplicates} duplicated, {self.lost} lost, {self.requeued} requeued",
            f"time: {self.virtual_seconds:.0f} s virtual (backoffs), {self.real_seconds:.1f} s real",
        ]


def fault_rules(seed: int) -> list[dict[str, Any]]:
    return [
        {"match": {"path": TAGS}, "count": None, "probability": p, "seed": seed * 100 + i, **rule}
        for i, (p, rule) in enumerate(FAULTS)
    ]


async def _settled(k: Kiosk, deadline: float) -> None:
    while (await k.outbox.status()).pending:
        if time.monotonic() > deadline:
            raise AssertionError("the outbox did not drain in time")
        await asyncio.sleep(0.005)


async def run_fault_credits(
    app: ASGIApp,
    world: World,
    path: Path,
    *,
    credits: int,
    seed: int,
    timeout: float = 300,
    rules: list[dict[str, Any]] | None = None,
) -> Tally:
    """Queue ``credits`` sales (some canceled) through faults (``rules``, by default
    ``fault_rules(seed)``); check the ledger."""
    rng = random.Random(seed)
    deadline = time.monotonic() + timeout
    started = time.perf_counter()
    tally = Tally()
    async with open_kiosk(app, world, path, seed=seed) as k:
        emails = client_emails(world, 20)
        start = k.time.now
        k.control.add_faults(fault_rules(seed) if rules is None else rules)
        sender = k.sender.start()
        expect_dead: set[str] = set()
        cancel_later: list[str] = []
        for n in range(credits):
            roll = rng.random()
            if roll < 0.05:
                request = k.request(k.kiosk_id(), document=MAIN_SUSPENDED)
                expect_dead.add(str(request.external_id))
            elif roll < 0.20:
                request = k.request(k.ticket_id(f"{seed:04d}-{n:08d}"), email=rng.choice(emails))
            elif roll < 0.30:
                new = f"offline.{seed}.{n}@example.org"
                request = k.request(k.kiosk_id(), email=new, document=f"{50_000_000 + n}")
            else:
                request = k.request(k.kiosk_id(), email=rng.choice(emails))
            amount = float(rng.randrange(200, 20_000))
            request = dataclasses.replace(request, amount=amount)
            submitted, _ = await k.sale(request, live=rng.random() < 0.3)
            tally.credits += 1
            external_id = submitted.row.external_id
            if rng.random() < 0.05:  # changed their mind at once: usually never sent
                await k.outbox.submit_cancel(external_id)
                tally.cancels += 1
            elif rng.random() < 0.08 and external_id not in expect_dead:
                cancel_later.append(external_id)
            await asyncio.sleep(0)
        await _settled(k, deadline)
        for external_id in cancel_later:  # from the journal, once credited
            await k.outbox.submit_cancel(external_id)
            tally.cancels += 1
        await _settled(k, deadline)
        await _requeue_refused(k, deadline, tally)
        await k.sender.stop()
        assert sender.done()
        tally.attempts = k.sender.stats.attempts
        tally.virtual_seconds = k.time.now - start
        _check(k, world, await _all_rows(k), expect_dead, tally)
        journal = {e.id: e for e in await k.journal.today()}
    tally.real_seconds = time.perf_counter() - started
    assert all(e.outcome is not Outcome.PENDING for e in journal.values()), "journal pending"
    return tally


async def _requeue_refused(k: Kiosk, deadline: float, tally: Tally) -> None:
    """A manager sends again every dead letter a 409 naming another operation made
    (issue #22, item 12: refused, never counted as ours), until none is left."""
    while refused := [
        row
        for row in await k.outbox.dead()
        if row.last_error is not None and row.last_error.startswith("conflict:")
    ]:
        for row in refused:
            await k.outbox.requeue(row.id)
            tally.requeued += 1
        await _settled(k, deadline)


async def _all_rows(k: Kiosk) -> list[Any]:
    return await k.worker.run(
        lambda conn: (
            OutboxStore(conn).rows(RowState.DONE, RowState.DEAD)
            + OutboxStore(conn).rows(RowState.VOIDED, RowState.PENDING)
            + OutboxStore(conn).rows(RowState.SENDING)
        )
    )


def _check(k: Kiosk, world: World, rows: list[Any], expect_dead: set[str], tally: Tally) -> None:
    log = k.control.requests()
    tally.requests = len(log)
    tally.faulted = sum(1 for r in log if r["fault"])
    tally.faults.update(
        r["fault"] + (f"-{r['status']}" if r["fault"] == "status" else "")
        for r in log
        if r["fault"]
    )
    ledger: dict[str, list[dict[str, Any]]] = {}
    for op in k.control.ledger():
        if KIOSK_ID in str(op.get("externalId")) or "-T" in str(op.get("externalId")):
            ledger.setdefault(str(op["externalId"]), []).append(op)
    credits = {r.external_id: r for r in rows if r.kind is RowKind.CREDIT}
    cancels = {r.external_id: r for r in rows if r.kind is RowKind.CANCEL}
    assert set(ledger) <= set(credits), "the ledger has credits the outbox does not know"
    for row in rows:
        tally.resolutions[f"{row.kind}:{row.resolution}"] += 1
        assert row.state in (RowState.DONE, RowState.DEAD, RowState.VOIDED), row
    for external_id, row in credits.items():
        ops = ledger.get(external_id, [])
        tally.duplicates += max(0, len(ops) - 1)
        if row.state is RowState.DONE:
            assert row.resolution in (Resolution.CREDITED, Resolution.CONFIRMED), row
            tally.lost += len(ops) == 0
            tally.once_in_ledger += len(ops) == 1
            if row.resolution is Resolution.CREDITED and ops:
                assert row.points == ops[0]["totalPoints"]
            cancel = cancels.get(external_id)
            canceled = cancel is not None and cancel.state is RowState.DONE
            assert [op["state"] for op in ops] == ["canceled" if canceled else "active"]
        else:
            assert ops == [], f"{row.state} credit {external_id} is in the ledger"
            if row.state is RowState.DEAD:
                assert external_id in expect_dead
                assert row.last_error_kind == "suspended"
    assert {e for e, r in credits.items() if r.state is RowState.DEAD} == expect_dead - {
        e for e, r in credits.items() if r.state is RowState.VOIDED
    }
    assert tally.duplicates == 0
    assert tally.lost == 0


@pytest.fixture(autouse=True)
def _expected_warnings(expect_log: Any) -> None:
    expect_log(r"^(POST|PUT) /external/tags/\S* -> \w+")  # the client's failed attempts
    expect_log(r"dead letter")  # the suspended client's credits


def test_a_seeded_100_credits_through_20_percent_faults_land_exactly_once(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    tally = asyncio.run(
        run_fault_credits(sim_app, sim_world, tmp_path / "kiosk.sqlite3", credits=100, seed=5)
    )
    print("\n".join(tally.lines()))
    assert tally.credits == 100
    assert tally.once_in_ledger >= 80
    assert 0.12 <= tally.faulted / tally.requests <= 0.30
    kinds = {k.split("-")[0] for k in tally.faults}
    assert {"drop", "status", "timeout", "malformed"} <= kinds
    assert {"status-500", "status-503", "status-429"} <= set(tally.faults)
    assert tally.resolutions["credit:confirmed"] >= 1  # some 409s after a lost answer
