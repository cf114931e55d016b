"""Crash test: a kiosk process credits through the outbox and is killed with SIGKILL
at random moments (mid-send, mid-commit, mid-queueing). After every kill the file
passes ``PRAGMA integrity_check`` and the ledger holds no credit twice; after the
last restart every sale is in the ledger exactly once and the journal has settled.

``run_crash_loop`` is shared with ``tests/bench/soak.py`` (200 kills); the suite
runs 20. The simulator is served over loopback by this process; its faults
(latency, apply-then-drop, 503) widen the windows a kill can fall into, and some
credits are applied then answered with points the contract forbids (10**400, -50):
resent with their id, settled once (issue #22, item 10).
"""

from __future__ import annotations

import random
import selectors
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.sim import DEFAULT_API_KEY, build_world, create_app
from kiosk.sim.control import SimControl
from kiosk.sim.server import SimServer
from tests.core.outbox.crash_worker import KIOSK_ID, sale_id

WORKER = Path(__file__).with_name("crash_worker.py")
TAGS = r"^/external/tags/"
BRANCH = 1


def unreadable_figures(total: int) -> dict[str, Any]:
    """Applied, then answered 201 with points the contract forbids (issue #22, item 10)."""
    points = {"amount": 1000, "initialPointsToGive": 10, "totalPointsToGive": total}
    data = {"pointOperationId": 9, "clientId": 1, "points": points}
    body = {"success": True, "status": 201, "message": "OK", "data": data}
    return {"kind": "status", "status": 201, "apply": True, "body": body}


FAULTS: tuple[dict[str, Any], ...] = (
    {"kind": "latency", "seconds": 0.2, "probability": 0.4},  # a slow answer: kill mid-send
    {"kind": "drop", "probability": 0.1},  # applied, then no answer
    {"kind": "status", "status": 503, "probability": 0.05},
    {**unreadable_figures(10**400), "probability": 0.04},  # beyond any integer
    {**unreadable_figures(-50), "probability": 0.04},  # negative
)


@dataclass
class CrashTally:
    kills: int = 0
    finished_before_kill: int = 0
    caught_mid_send: int = 0  # kills that left a row in ``sending``
    sales: int = 0
    once: int = 0
    duplicates: int = 0
    lost: int = 0
    integrity_checks: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    real_seconds: float = 0.0

    def lines(self) -> list[str]:
        return [
            f"kills {self.kills} ({self.caught_mid_send} with a row mid-send, "
            f"{self.finished_before_kill} runs finished first), integrity_check ok "
            f"{self.integrity_checks} times",
            f"sales {self.sales}: {self.once} exactly once, {self.duplicates} duplicated, "
            f"{self.lost} lost",
            "answers seen by the kiosk: "
            + ", ".join(f"{k} {v}" for k, v in sorted(self.statuses.items())),
            f"time: {self.real_seconds:.1f} s",
        ]


def _wait_line(proc: subprocess.Popen[str], wanted: str, deadline: float) -> None:
    assert proc.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(proc.stdout, selectors.EVENT_READ)
        while True:
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"the kiosk process did not say {wanted!r} in time"
            if selector.select(remaining):
                line = proc.stdout.readline()
                assert line, f"the kiosk process ended before {wanted!r}: {proc.wait()}"
                if line.strip() == wanted:
                    return


def _start(db: Path, url: str, sales: int) -> subprocess.Popen[str]:
    command = [sys.executable, str(WORKER), "--db", str(db), "--url", url]
    command += ["--sales", str(sales), "--branch", str(BRANCH), "--key", DEFAULT_API_KEY]
    return subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1
    )


def _check_file(db: Path, tally: CrashTally) -> None:
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        tally.integrity_checks += 1
        sending = conn.execute("SELECT COUNT(*) FROM outbox_rows WHERE state = 'sending'")
        tally.caught_mid_send += sending.fetchone()[0] > 0
    finally:
        conn.close()


def _quiet(control: SimControl, deadline: float) -> None:
    """Wait until the simulator has finished what the killed process left in flight
    (a slow request is still applied after its client went away)."""
    while any(r["fault"] == "latency" and r["handler_status"] is None for r in control.requests()):
        assert time.monotonic() < deadline, "the simulator did not finish its requests"
        time.sleep(0.01)


def _ledger(control: SimControl) -> dict[str, list[dict[str, Any]]]:
    ops: dict[str, list[dict[str, Any]]] = {}
    for op in control.ledger():
        if KIOSK_ID in str(op.get("externalId")):
            ops.setdefault(str(op["externalId"]), []).append(op)
    return ops


def run_crash_loop(
    workdir: Path, *, kills: int, sales: int, seed: int, max_delay: float = 0.8,
    timeout: float = 600,
) -> CrashTally:  # fmt: skip
    rng = random.Random(seed)
    started = time.monotonic()
    deadline = started + timeout
    tally = CrashTally(sales=sales)
    db = workdir / "kiosk.sqlite3"
    world = build_world()
    control = SimControl(world)
    control.add_faults(
        [
            {"match": {"path": TAGS}, "count": None, "seed": seed * 10 + i, **rule}
            for i, rule in enumerate(FAULTS)
        ]
    )
    with SimServer(create_app(world, controls=True)) as server:
        for _ in range(kills):
            with _start(db, server.base_url, sales) as proc:
                try:
                    _wait_line(proc, "ready", deadline)
                    try:
                        proc.wait(timeout=rng.uniform(0.0, max_delay))
                        tally.finished_before_kill += 1
                    except subprocess.TimeoutExpired:
                        proc.send_signal(signal.SIGKILL)
                        proc.wait()
                        tally.kills += 1
                finally:
                    if proc.poll() is None:
                        proc.kill()
                        proc.wait()
            _quiet(control, deadline)
            _check_file(db, tally)
            doubled = {e: ops for e, ops in _ledger(control).items() if len(ops) > 1}
            assert not doubled, f"credited twice after a kill: {sorted(doubled)}"
        with _start(db, server.base_url, sales) as proc:
            _wait_line(proc, "drained", deadline)
            assert proc.wait(timeout=max(1.0, deadline - time.monotonic())) == 0
        _check_file(db, tally)
        ledger = _ledger(control)
        tally.statuses.update(
            str(r["status"]) if r["status"] is not None else "no answer" for r in control.requests()
        )
    for n in range(sales):
        ops = ledger.get(sale_id(BRANCH, n), [])
        tally.once += len(ops) == 1
        tally.duplicates += max(0, len(ops) - 1)
        tally.lost += not ops
        assert [op["state"] for op in ops] == ["active"], f"sale {n}: {ops}"
    conn = sqlite3.connect(db)
    try:
        states = dict(conn.execute("SELECT state, COUNT(*) FROM outbox_rows GROUP BY state"))
        journal = dict(conn.execute("SELECT outcome, COUNT(*) FROM journal GROUP BY outcome"))
    finally:
        conn.close()
    assert states == {"done": sales}, states
    assert journal == {"ok": sales}, journal  # one row per sale, written with its outbox row
    tally.real_seconds = time.monotonic() - started
    return tally


def test_20_kills_lose_nothing_and_double_nothing(tmp_path: Path) -> None:
    tally = run_crash_loop(tmp_path, kills=20, sales=80, seed=11, timeout=100)
    print("\n".join(tally.lines()))
    assert tally.kills + tally.finished_before_kill == 20
    assert tally.kills >= 15
    assert tally.once == 80
    assert tally.statuses["409"] >= 1  # at least one resend after a kill or a drop
    assert tally.statuses["201"] >= 1  # figures the contract forbids: resent, settled once
