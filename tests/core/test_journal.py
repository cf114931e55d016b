"""The kiosk's SQLite file (pragmas, migrations) and today's journal (sync and async)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path

import pytest

from kiosk.core.db import (
    MIGRATIONS,
    DatabaseWorker,
    Migration,
    SchemaError,
    open_database,
    schema_version,
    transaction,
)
from kiosk.core.journal import (
    NAME_CHARS,
    AsyncJournal,
    Journal,
    OperationKind,
    Outcome,
    client_display,
)

ARGENTINA = timezone(timedelta(hours=-3))
NOON = datetime(2026, 11, 22, 15, 0, tzinfo=UTC)  # 12:00 at the kiosk


class Clock:
    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at


def local(at: datetime) -> date:
    return at.astimezone(ARGENTINA).date()


@pytest.fixture
def conn(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    connection = open_database(tmp_path / "kiosk.sqlite3")
    yield connection
    connection.close()


@pytest.fixture
def clock() -> Clock:
    return Clock(NOON)


@pytest.fixture
def journal(conn: sqlite3.Connection, clock: Clock) -> Journal:
    return Journal(conn, now=clock, local_date_of=local)


def tables(conn: sqlite3.Connection) -> set[str]:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {row[0] for row in rows} - {"sqlite_sequence"}


# --- the database file -------------------------------------------------------------


def test_durability_pragmas(conn: sqlite3.Connection) -> None:
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert schema_version(conn) == len(MIGRATIONS)


def test_migrates_an_empty_file_from_version_0(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "kiosk.sqlite3"
    path.parent.mkdir()
    raw = sqlite3.connect(path)
    assert schema_version(raw) == 0
    raw.close()
    conn = open_database(path)
    assert schema_version(conn) == len(MIGRATIONS) >= 1
    assert "journal" in tables(conn)
    conn.close()


def test_reopen_keeps_rows_and_does_not_migrate_again(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.sqlite3"
    first = open_database(path)
    Journal(first, now=lambda: NOON, local_date_of=local).record(
        OperationKind.CREDIT, Outcome.OK, points=10
    )
    first.close()
    again = open_database(path)
    assert [e.points for e in Journal(again, now=lambda: NOON, local_date_of=local).today()] == [10]
    assert schema_version(again) == len(MIGRATIONS)
    again.close()


EXTRA = Migration(
    len(MIGRATIONS) + 1,
    "test: an outbox-like table and a new journal column",
    """
    CREATE TABLE outbox (id INTEGER PRIMARY KEY, external_id TEXT NOT NULL UNIQUE);
    ALTER TABLE journal ADD COLUMN cashier TEXT;
    """,
)


def test_adding_a_step_upgrades_an_existing_file(tmp_path: Path, clock: Clock) -> None:
    path = tmp_path / "kiosk.sqlite3"
    old = open_database(path)
    Journal(old, now=clock, local_date_of=local).record(OperationKind.CREDIT, Outcome.OK)
    old.close()
    new = open_database(path, migrations=(*MIGRATIONS, EXTRA))
    assert schema_version(new) == EXTRA.version
    assert "outbox" in tables(new)
    assert len(Journal(new, now=clock, local_date_of=local).today()) == 1  # rows kept
    new.close()


def test_a_failing_step_leaves_the_previous_version(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.sqlite3"
    open_database(path).close()
    broken = Migration(
        len(MIGRATIONS) + 1,
        "broken",
        "CREATE TABLE half_done (id INTEGER); INSERT INTO no_such_table VALUES (1);",
    )
    with pytest.raises(SchemaError, match="failed"):
        open_database(path, migrations=(*MIGRATIONS, broken))
    conn = open_database(path)
    assert schema_version(conn) == len(MIGRATIONS)
    assert "half_done" not in tables(conn)
    conn.close()


def test_a_newer_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.sqlite3"
    open_database(path, migrations=(*MIGRATIONS, EXTRA)).close()
    with pytest.raises(SchemaError, match="newer than this app"):
        open_database(path)


def test_steps_must_be_numbered_in_order(tmp_path: Path) -> None:
    skipping = (*MIGRATIONS, Migration(len(MIGRATIONS) + 2, "gap", "SELECT 1;"))
    with pytest.raises(SchemaError, match="out of order"):
        open_database(tmp_path / "kiosk.sqlite3", migrations=skipping)


def test_transaction_rolls_back_on_error(conn: sqlite3.Connection, journal: Journal) -> None:
    def interrupted() -> None:
        with transaction(conn):
            journal.record(OperationKind.CREDIT, Outcome.OK)
            raise RuntimeError("power cut")

    with pytest.raises(RuntimeError, match="power cut"):
        interrupted()
    assert journal.today() == []
    with transaction(conn):
        journal.record(OperationKind.CREDIT, Outcome.OK)
    assert len(journal.today()) == 1


# --- the journal ---------------------------------------------------------------------


def test_record_and_today_newest_first(journal: Journal, clock: Clock) -> None:
    credit = journal.record(
        OperationKind.CREDIT,
        Outcome.OK,
        client=client_display("Ana Perez", email="ana.perez@gmail.com"),
        external_id="b12-20261122-T000123",
        points=1234,
        amount=Decimal("1234.56"),
        ticket="000123",
    )
    clock.at += timedelta(minutes=5)
    redeem = journal.record(OperationKind.REDEEM, Outcome.OK, detail="code ABC123")
    assert [entry.id for entry in journal.today()] == [redeem.id, credit.id]
    assert credit.at == NOON
    assert credit.local_date == date(2026, 11, 22)
    assert credit.amount == Decimal("1234.56")
    assert credit.client == "Ana Perez · a***@gmail.com"
    assert (credit.points, credit.ticket, credit.canceled) == (1234, "000123", False)


def test_today_is_the_kiosks_calendar_day(journal: Journal, clock: Clock) -> None:
    clock.at = datetime(2026, 11, 23, 2, 0, tzinfo=UTC)  # still the 22nd in Argentina
    late = journal.record(OperationKind.CREDIT, Outcome.OK)
    clock.at = datetime(2026, 11, 23, 3, 30, tzinfo=UTC)  # 00:30 on the 23rd
    early = journal.record(OperationKind.CREDIT, Outcome.OK)
    assert [e.id for e in journal.today()] == [early.id]
    assert [e.id for e in journal.today(date(2026, 11, 22))] == [late.id]


def test_the_journal_keeps_only_masked_personal_data(
    journal: Journal, conn: sqlite3.Connection
) -> None:
    journal.record(
        OperationKind.ENROLLMENT,
        Outcome.OK,
        client="Ana Perez ana.perez@gmail.com 30123456",  # raw data by mistake
        detail="Client 30.123.456 (ana.perez@gmail.com) already exists",
    )
    stored = " ".join(str(value) for value in conn.execute("SELECT * FROM journal").fetchone())
    assert "ana.perez@gmail.com" not in stored
    assert "30123456" not in stored
    assert "30.123.456" not in stored
    assert "a***@gmail.com" in stored
    assert "****3456" in stored


@pytest.mark.parametrize(
    ("name", "email", "document", "shown"),
    [
        ("Ana Perez", "ana.perez@gmail.com", "30123456", "Ana Perez · a***@gmail.com"),
        ("  Ana   Perez ", None, "30123456", "Ana Perez · ****3456"),
        (None, None, "AAA123456", "****3456"),
        ("Ana", None, None, "Ana"),
        (None, None, None, ""),
    ],
)
def test_client_display(
    name: str | None, email: str | None, document: str | None, shown: str
) -> None:
    assert client_display(name, email, document) == shown


def test_client_display_keeps_a_long_name_cut() -> None:
    shown = client_display("Ñandú " * 700, email="ana.perez@gmail.com")
    name, _, email = shown.partition(" · ")
    assert len(name) == NAME_CHARS
    assert name.endswith("…")
    assert email == "a***@gmail.com"


def test_find_credit_and_mark_canceled(journal: Journal, clock: Clock) -> None:
    eid = "b12-20261122-k1a2b3c4d-0123456789ab"
    journal.record(OperationKind.CREDIT, Outcome.FAILED, external_id=eid, detail="timeout")
    ok = journal.record(OperationKind.CREDIT, Outcome.OK, external_id=eid, points=50)
    journal.record(OperationKind.EXCHANGE, Outcome.OK, external_id=eid)
    assert journal.find_credit(eid) == ok
    assert journal.find_credit("nope") is None
    clock.at += timedelta(minutes=1)
    assert journal.mark_canceled(eid)
    found = journal.find_credit(eid)
    assert found is not None
    assert found.canceled
    assert found.canceled_at == clock.at
    assert not journal.mark_canceled(eid)  # already canceled
    assert not journal.mark_canceled("nope")
    journal.record(OperationKind.CANCEL, Outcome.OK, external_id=eid)
    assert next(e.kind for e in journal.today()) is OperationKind.CANCEL


def test_update_outcome(journal: Journal) -> None:
    pending = journal.record(OperationKind.CREDIT, Outcome.PENDING, external_id="x")
    assert journal.update_outcome(pending.id, Outcome.OK, points=77)
    settled = journal.get(pending.id)
    assert settled is not None
    assert (settled.outcome, settled.points, settled.detail) == (Outcome.OK, 77, "")
    assert journal.update_outcome(pending.id, Outcome.REJECTED, detail="mail a@b.com refused")
    rejected = journal.get(pending.id)
    assert rejected is not None
    assert (rejected.points, rejected.detail) == (77, "mail a***@b.com refused")
    assert not journal.update_outcome(9999, Outcome.OK)


def test_purge_after_the_retention(journal: Journal, clock: Clock) -> None:
    for days_ago in (0, 1, 2, 29, 30, 31):
        clock.at = NOON - timedelta(days=days_ago)
        journal.record(OperationKind.CREDIT, Outcome.OK, points=days_ago)
    clock.at = NOON - timedelta(days=40)
    journal.record(OperationKind.CREDIT, Outcome.PENDING, points=40)
    clock.at = NOON
    assert journal.purge(30) == 2  # 30 and 31 days ago; the old pending one stays
    remaining = sorted(
        e.points or 0
        for day in range(45)
        for e in journal.today(date(2026, 11, 22) - timedelta(days=day))
    )
    assert remaining == [0, 1, 2, 29, 40]
    assert journal.purge(1) == 3
    assert journal.purge(1) == 0
    with pytest.raises(ValueError, match="at least one day"):
        journal.purge(0)


def test_times_must_be_aware(journal: Journal) -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        journal.record(OperationKind.CREDIT, Outcome.OK, at=datetime(2026, 1, 1))


# --- the async facade ---------------------------------------------------------------


def test_async_journal_runs_every_call_in_one_worker_thread(tmp_path: Path) -> None:
    async def scenario() -> None:
        worker = DatabaseWorker(tmp_path / "kiosk.sqlite3")
        await worker.start()
        journal = AsyncJournal(worker, now=lambda: NOON, local_date_of=local)
        entries = await asyncio.gather(
            *(journal.record(OperationKind.CREDIT, Outcome.OK, points=n) for n in range(20))
        )
        assert len({e.id for e in entries}) == 20
        today = await journal.today()
        assert [e.points for e in today] == list(range(19, -1, -1))  # in call order
        await journal.record(OperationKind.CREDIT, Outcome.OK, external_id="e-1")
        assert await journal.mark_canceled("e-1")
        found = await journal.find_credit("e-1")
        assert found is not None
        assert found.canceled
        assert await journal.update_outcome(entries[0].id, Outcome.FAILED)
        assert await journal.purge(1, today=date(2026, 12, 31)) == 21
        threads = {await worker.run(lambda _: threading.get_ident()) for _ in range(5)}
        assert len(threads) == 1
        assert threading.get_ident() not in threads
        await worker.close()
        with pytest.raises(RuntimeError, match="not running"):
            await journal.today()
        await worker.close()  # twice is fine

    asyncio.run(scenario())


def test_the_loop_keeps_running_while_the_database_works(tmp_path: Path) -> None:
    """A slow disk call does not stop the event loop: the loop itself releases it."""

    async def scenario() -> None:
        worker = DatabaseWorker(tmp_path / "kiosk.sqlite3")
        await worker.start()
        released = threading.Event()

        def slow(conn: sqlite3.Connection) -> int:
            assert released.wait(timeout=10), "the event loop was blocked"
            return int(conn.execute("SELECT count(*) FROM journal").fetchone()[0])

        call = asyncio.ensure_future(worker.run(slow))
        await asyncio.sleep(0)
        assert not call.done()
        released.set()  # only possible because the loop is free
        assert await call == 0
        await worker.close()

    asyncio.run(scenario())


def test_worker_start_errors(tmp_path: Path) -> None:
    async def scenario() -> None:
        worker = DatabaseWorker(tmp_path / "kiosk.sqlite3")
        with pytest.raises(RuntimeError, match="not running"):
            await worker.run(lambda _: None)
        await worker.start()
        assert worker.started
        with pytest.raises(RuntimeError, match="already started"):
            await worker.start()
        await worker.close()
        assert not worker.started
        newer = DatabaseWorker(tmp_path / "kiosk.sqlite3", migrations=(*MIGRATIONS, EXTRA))
        await newer.start()
        await newer.close()
        with pytest.raises(SchemaError):
            await DatabaseWorker(tmp_path / "kiosk.sqlite3").start()

    asyncio.run(scenario())


# --- which rows changed (issue #16) ---------------------------------------------------


def test_pages_ids_and_totals_read_only_what_is_asked(journal: Journal) -> None:
    day = journal.day()
    for n in range(250):
        journal.record(OperationKind.CREDIT, Outcome.OK, external_id=f"e-{n}", points=10)
    journal.record(OperationKind.EXCHANGE, Outcome.OK, points=-5)
    journal.record(OperationKind.CREDIT, Outcome.FAILED, points=99)
    journal.mark_canceled("e-0")
    first = journal.page(day, limit=100)
    assert len(first) == 100
    assert first[0].kind is OperationKind.CREDIT  # the newest: the failed credit
    assert [e.id for e in first] == sorted((e.id for e in first), reverse=True)
    second = journal.page(day, before=first[-1].id, limit=100)
    assert second[0].id == first[-1].id - 1
    assert len(journal.page(day, before=second[-1].id, limit=100)) == 52
    assert journal.page(day + timedelta(days=1)) == []
    assert [e.id for e in journal.by_ids([3, 1, 2, 10_000])] == [3, 2, 1]
    assert len(journal.by_ids(range(1, 700))) == 252  # more ids than one query binds
    # 252 rows; 249 credits of 10 points stay credited (one canceled, one failed).
    totals = journal.totals(day)
    assert (totals.operations, totals.points) == (252, 2490)


def test_every_write_on_the_connection_leaves_its_id_once(journal: Journal) -> None:
    journal.watch()
    journal.watch()  # twice is fine
    credit = journal.record(OperationKind.CREDIT, Outcome.PENDING, external_id="e-1")
    other = journal.record(OperationKind.EXCHANGE, Outcome.OK)
    assert journal.take_changed() == {credit.id, other.id}
    assert journal.take_changed() == frozenset()
    journal.update_outcome(credit.id, Outcome.OK, points=10)
    journal.mark_canceled("e-1")
    assert journal.take_changed() == {credit.id}
    journal.purge(1)  # nothing old to purge: nothing noted either
    assert journal.take_changed() == frozenset()


def test_async_journal_announces_the_ids_written(tmp_path: Path) -> None:
    async def scenario() -> None:
        worker = DatabaseWorker(tmp_path / "kiosk.sqlite3")
        await worker.start()
        journal = AsyncJournal(worker, now=lambda: NOON, local_date_of=local)
        heard: list[frozenset[int]] = []
        journal.changed.connect(lambda change: heard.append(change.ids))
        first = await journal.record(OperationKind.CREDIT, Outcome.OK, external_id="e-1")
        # A write outside AsyncJournal on the same connection (the outbox's transactions).
        second = await worker.run(
            lambda conn: Journal(conn).record(OperationKind.CANCEL, Outcome.PENDING)
        )
        await journal.publish_changes()
        assert heard == [{first.id, second.id}]
        assert await journal.publish_changes() is None  # nothing new: nothing said
        assert heard == [{first.id, second.id}]
        entries = await journal.by_ids([second.id])
        assert [e.id for e in entries] == [second.id]
        assert journal.rows_read == 1
        await worker.close()
        assert await journal.publish_changes() is None  # closed: nothing to read

    asyncio.run(scenario())
