"""The database's retention (issue #17, item 10): ``journal_retention_days`` is applied
at start and daily, dead letters lose their personal data after a documented age, and
what is purged or redacted leaves the file (``secure_delete``, the WAL checkpointed).
Every wait is on a virtual clock: nothing here sleeps."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import pytest

from kiosk.core import retention as R
from kiosk.core.db import DatabaseWorker, open_database
from kiosk.core.journal import Journal, OperationKind, Outcome
from kiosk.core.outbox.body import REDACTED, dumps
from kiosk.core.outbox.store import OutboxStore
from kiosk.core.outbox.types import OutboxError
from kiosk.core.retention import DAY, Retention, Upkeep

T = TypeVar("T")
NOW = datetime(2026, 11, 22, 15, 0, tzinfo=UTC).timestamp()
EMAIL = "zacarias.unicornio@example.com"
DNI = "30999111"
NAME = "Zacarías"


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


class Clock:
    """Wall time and a sleep that moves it at once."""

    def __init__(self, now: float = NOW) -> None:
        self.now = now
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)


def body(email: str = EMAIL) -> str:
    client = {"email": email, "dni": DNI, "first_name": NAME, "last_name": "Unicornio"}
    return dumps({"external_id": "x", "client": client, "amount": 1500.0})


def add_row(conn: sqlite3.Connection, state: str, settled_days_ago: float | None, key: str) -> int:
    settled = None if settled_days_ago is None else NOW - settled_days_ago * DAY
    cursor = conn.execute(
        "INSERT INTO outbox_rows (kind, external_id, body, state, created_at, next_attempt_at,"
        " settled_at, environment, base_url, key_fingerprint, branch_id) VALUES"
        " ('credit', ?, ?, ?, ?, 0, ?, 'production', 'https://api.example', 'k', 1)",
        (key, body(), state, (settled or NOW) - 60, settled),
    )
    return int(cursor.lastrowid or 0)


def add_journal(conn: sqlite3.Connection, days_ago: float, outcome: Outcome = Outcome.OK) -> int:
    at = datetime.fromtimestamp(NOW - days_ago * DAY, UTC)
    entry = Journal(conn, now=lambda: at).record(
        OperationKind.CREDIT, outcome, client=f"{NAME} Unicornio · z***@example.com"
    )
    return entry.id


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "kiosk.sqlite3"


@pytest.fixture
def default_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite as the python.org builds ship it (Windows): ``secure_delete`` off unless
    asked for (this machine's library may be built with it on)."""
    connect = sqlite3.connect

    def plain(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = connect(*args, **kwargs)
        conn.execute("PRAGMA secure_delete = OFF")
        return conn

    monkeypatch.setattr(sqlite3, "connect", plain)


@pytest.mark.usefixtures("default_off")
def test_secure_delete_is_on(database: Path) -> None:
    conn = open_database(database)
    assert conn.execute("PRAGMA secure_delete").fetchone()[0] == 1
    conn.close()


def test_one_pass_applies_every_period(database: Path) -> None:
    conn = open_database(database)
    old_journal, kept_journal = add_journal(conn, 40), add_journal(conn, 10)
    old_pending = add_journal(conn, 40, Outcome.PENDING)
    done_old, done_kept = add_row(conn, "done", 31, "a"), add_row(conn, "done", 29, "b")
    dead_old, dead_new = add_row(conn, "dead", 31, "c"), add_row(conn, "dead", 2, "d")
    pending = add_row(conn, "pending", None, "e")
    done = R.tidy(conn, Retention(journal_days=30), NOW)
    assert (done.journal, done.settled, done.redacted) == (1, 1, 1)
    journal = Journal(conn)
    assert journal.get(old_journal) is None
    assert journal.get(kept_journal) is not None
    assert journal.get(old_pending) is not None  # not settled yet: kept
    store = OutboxStore(conn)
    assert store.get(done_old) is None
    assert store.get(done_kept) is not None
    redacted = store.get(dead_old)
    assert redacted is not None
    assert redacted.state.value == "dead"  # still a dead letter, to discard
    assert redacted.body[REDACTED] is True
    assert redacted.body["client"] == {"email": "z***@example.com", "dni": "****9111"}
    assert EMAIL not in dumps(redacted.body)
    fresh = store.get(dead_new)
    assert fresh is not None
    assert fresh.body["client"]["email"] == EMAIL  # may still be sent again
    assert store.get(pending) is not None
    with pytest.raises(OutboxError, match="can only be discarded"):
        store.requeue(dead_old, NOW)
    store.requeue(dead_new, NOW)
    assert R.tidy(conn, Retention(journal_days=30), NOW) == R.Tidied()  # nothing left to do
    conn.close()


@pytest.mark.parametrize(("journal_days", "dead_days"), [(30, 30), (90, 90), (1, 7), (7, 7)])
def test_dead_letters_keep_their_data_as_long_as_the_journal_at_least_a_week(
    journal_days: int, dead_days: int
) -> None:
    assert Retention(journal_days=journal_days).dead_letter_days == dead_days
    assert Retention().settled_days == 30


@pytest.mark.usefixtures("default_off")
def test_the_purged_and_redacted_data_leaves_the_file(database: Path) -> None:
    wal = database.with_name(database.name + "-wal")

    def on_disk() -> bytes:
        return database.read_bytes() + (wal.read_bytes() if wal.exists() else b"")

    async def scenario() -> None:
        worker = DatabaseWorker(database)
        await worker.start()

        def fill(conn: sqlite3.Connection) -> None:
            add_journal(conn, 40)
            add_row(conn, "dead", 40, "c")
            add_row(conn, "done", 40, "d")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

        await worker.run(fill)
        assert EMAIL.encode() in on_disk()
        upkeep = Upkeep(worker, Retention(journal_days=30), clock=lambda: NOW)
        done = await upkeep.once()
        assert (done.journal, done.settled, done.redacted) == (1, 1, 1)
        files = on_disk()
        await worker.close()  # read above while the kiosk runs (no checkpoint on close)
        assert EMAIL.encode() not in files
        assert DNI.encode() not in files
        assert NAME.encode() not in files

    run(scenario())


def test_it_runs_at_start_then_daily_for_days_without_sleeping(database: Path) -> None:
    clock = Clock()

    async def scenario() -> tuple[list[int], float | None]:
        worker = DatabaseWorker(database)
        await worker.start()
        await worker.run(lambda conn: add_journal(conn, 29))  # old enough tomorrow
        upkeep = Upkeep(worker, Retention(journal_days=30), clock=clock, sleep=clock.sleep)
        task = asyncio.create_task(upkeep.run())
        seen: list[int] = []
        for _ in range(100_000):  # the virtual days pass as fast as the loop turns
            if upkeep.passes >= 4:
                break
            await asyncio.sleep(0)
            if upkeep.passes > len(seen):
                count = await worker.run(
                    lambda c: int(c.execute("SELECT COUNT(*) FROM journal").fetchone()[0])
                )
                seen.append(count)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await worker.close()
        return seen, upkeep.last

    seen, last = run(scenario())
    assert seen[0] == 1  # at start: 29 days old, kept
    assert seen[-1] == 0  # gone once it passed 30 days
    assert last is not None
    assert last - NOW == pytest.approx(3 * DAY)  # the 4th pass: a pass a day
    assert set(clock.sleeps) == {R.CHECK_EVERY}  # checked hourly, never a long timer


def test_a_pass_that_fails_is_logged_and_tried_again(
    database: Path, monkeypatch: pytest.MonkeyPatch, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"retention stopped on an error")
    clock = Clock()
    real, calls = R.tidy, []

    def failing_once(conn: sqlite3.Connection, retention: Retention, now: float) -> R.Tidied:
        calls.append(now)
        if len(calls) == 1:
            raise sqlite3.OperationalError("disk I/O error")
        return real(conn, retention, now)

    monkeypatch.setattr(R, "tidy", failing_once)

    async def scenario() -> int:
        worker = DatabaseWorker(database)
        await worker.start()
        upkeep = Upkeep(worker, Retention(), clock=clock, sleep=clock.sleep)
        task = asyncio.create_task(upkeep.run())
        for _ in range(5000):  # the database thread answers: at most seconds
            if upkeep.passes:
                break
            await asyncio.sleep(0.002)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await worker.close()
        return upkeep.passes

    assert run(scenario()) >= 1
    assert len(calls) >= 2
    assert calls[1] == calls[0] + 1.0  # the supervisor's first wait, then the pass again
    assert clock.sleeps[0] == 1.0
