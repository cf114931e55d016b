"""Today's journal: every operation made on this kiosk, for the "Today" screen.

Rows live in the kiosk's SQLite file (see ``kiosk.core.db``). The journal keeps
no more personal data than the screen shows: the client is stored as a display
string built by ``client_display`` (name plus masked email or document), and
every text that enters a row goes through ``redact_text`` as a safety net, so
a raw email or document number given by mistake is stored masked. Rows older
than the retention period are purged.

``Journal`` is synchronous (plain ``sqlite3``) and must be used from the thread
that owns its connection; ``AsyncJournal`` runs the same calls in the
``DatabaseWorker`` thread so the UI never waits on disk.

Which rows changed: ``Journal.watch`` puts temporary triggers on the connection
that note the id of every row inserted or updated (whoever writes it: the counter,
the outbox's transactions); ``AsyncJournal.publish_changes`` takes those ids and
announces them as a ``JournalChange`` on ``AsyncJournal.changed``. A list reads
back only those rows (``by_ids``), a day's first rows by pages (``page``) and its
totals with one query (``totals``): nothing reads the whole day after a write.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from enum import StrEnum
from typing import Any, TypeVar

from kiosk.api.redact import mask_document, mask_email, redact_text
from kiosk.core.db import DatabaseWorker, rows_by_ids
from kiosk.core.events import Event

T = TypeVar("T")


class OperationKind(StrEnum):
    CREDIT = "credit"
    EXCHANGE = "exchange"
    MONEY_EXCHANGE = "money_exchange"
    REDEEM = "redeem"
    CANCEL = "cancel"
    ENROLLMENT = "enrollment"


class Outcome(StrEnum):
    OK = "ok"
    ALREADY_CREDITED = "already_credited"  # 409 on the cashier's ticket: no new points
    PENDING = "pending"  # queued, not yet confirmed by the API
    FAILED = "failed"  # did not happen (network, refusal); nothing changed
    REJECTED = "rejected"  # the API refused a queued operation (dead letter)
    VOIDED = "voided"  # canceled before it was ever sent
    ABANDONED = "abandoned"  # previewed, never credited: cleared by idle (nothing sent)


@dataclass(frozen=True)
class JournalEntry:
    id: int
    at: datetime  # UTC
    local_date: date
    kind: OperationKind
    outcome: Outcome
    client: str = ""
    external_id: str | None = None
    points: int | None = None
    amount: Decimal | None = None
    ticket: str | None = None
    detail: str = ""
    canceled_at: datetime | None = None
    units: int | None = None  # a point-item credit: how many items

    @property
    def canceled(self) -> bool:
        return self.canceled_at is not None


NAME_CHARS = 80  # a client's name as a journal row keeps it


def client_display(
    name: str | None = None, email: str | None = None, document: str | None = None
) -> str:
    """What the journal shows of a client: ``Ana Perez · a***@gmail.com`` (or ``· ****3456``).
    A name longer than ``NAME_CHARS`` is kept cut, with "…": a row names a client, it
    does not archive a name of thousands of characters (the screens elide it anyway)."""
    masked = mask_email(email) if email else mask_document(document)
    folded = " ".join((name or "").split())
    if len(folded) > NAME_CHARS:
        folded = folded[: NAME_CHARS - 1].rstrip() + "…"
    parts = [folded, masked]
    return " · ".join(part for part in parts if part)


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _local_date(at: datetime) -> date:
    return at.astimezone().date()


_GET = (
    "SELECT id, at_utc, local_date, kind, outcome, client, external_id, points, amount, ticket,"
    " detail, canceled_at_utc, units FROM journal WHERE id = ?"
)
_BY_DATE = (
    "SELECT id, at_utc, local_date, kind, outcome, client, external_id, points, amount, ticket,"
    " detail, canceled_at_utc, units FROM journal WHERE local_date = ? ORDER BY id DESC"
)
_CREDIT_BY_EXTERNAL_ID = (
    "SELECT id, at_utc, local_date, kind, outcome, client, external_id, points, amount, ticket,"
    " detail, canceled_at_utc, units FROM journal WHERE kind = ? AND external_id = ?"
    " ORDER BY id DESC LIMIT 1"
)


_COLUMNS = (
    "id, at_utc, local_date, kind, outcome, client, external_id, points, amount, ticket,"
    " detail, canceled_at_utc, units"
)
_PAGE = (
    "SELECT id, at_utc, local_date, kind, outcome, client, external_id, points, amount, ticket,"
    " detail, canceled_at_utc, units FROM journal WHERE local_date = ? AND id < ?"
    " ORDER BY id DESC LIMIT ?"
)
_TOTALS = (
    "SELECT COUNT(*), COALESCE(SUM(CASE WHEN kind = ? AND outcome = ?"
    " AND canceled_at_utc IS NULL THEN points ELSE 0 END), 0)"
    " FROM journal WHERE local_date = ?"
)
# Temporary (this connection only, never in the file): every row inserted or updated
# leaves its id in ``journal_touched`` until ``take_changed`` reads it.
_WATCH = (
    "CREATE TEMP TABLE IF NOT EXISTS journal_touched (id INTEGER PRIMARY KEY)",
    "CREATE TEMP TRIGGER IF NOT EXISTS journal_touched_insert AFTER INSERT ON main.journal"
    " BEGIN INSERT OR IGNORE INTO journal_touched (id) VALUES (NEW.id); END",
    "CREATE TEMP TRIGGER IF NOT EXISTS journal_touched_update AFTER UPDATE ON main.journal"
    " BEGIN INSERT OR IGNORE INTO journal_touched (id) VALUES (NEW.id); END",
)


@dataclass(frozen=True)
class JournalChange:
    """The rows a write added or changed, by id (announced after it)."""

    ids: frozenset[int]


@dataclass(frozen=True)
class DayTotals:
    """A day's summary: its rows, and the points credited that stay credited."""

    operations: int
    points: int


def _entry(row: tuple[Any, ...]) -> JournalEntry:
    (id_, at, day, kind, outcome, client, external_id, points, amount, ticket, detail, canceled) = (
        row[:12]
    )
    units = row[12] if len(row) > 12 else None
    return JournalEntry(
        id=int(id_),
        at=datetime.fromisoformat(at),
        local_date=date.fromisoformat(day),
        kind=OperationKind(kind),
        outcome=Outcome(outcome),
        client=client,
        external_id=external_id,
        points=points,
        amount=None if amount is None else Decimal(amount),
        ticket=ticket,
        detail=detail,
        canceled_at=None if canceled is None else datetime.fromisoformat(canceled),
        units=None if units is None else int(units),
    )


class Journal:
    """The journal over an open, migrated connection (``kiosk.core.db.open_database``).

    ``now`` gives the UTC time of new rows; ``local_date_of`` the kiosk's calendar
    day of an instant (default: the system's time zone).
    """

    def __init__(
        self,
        conn: sqlite3.Connection,
        *,
        now: Callable[[], datetime] = _utc_now,
        local_date_of: Callable[[datetime], date] = _local_date,
    ) -> None:
        self._conn = conn
        self._now = now
        self._local_date_of = local_date_of

    def _utc(self, at: datetime | None) -> datetime:
        at = self._now() if at is None else at
        if at.tzinfo is None:
            raise ValueError("journal times must be timezone-aware")
        return at.astimezone(UTC)

    def record(
        self,
        kind: OperationKind,
        outcome: Outcome,
        *,
        client: str = "",
        external_id: str | None = None,
        points: int | None = None,
        amount: Decimal | None = None,
        ticket: str | None = None,
        detail: str = "",
        at: datetime | None = None,
        units: int | None = None,
    ) -> JournalEntry:
        """Add a row; ``client`` is a display string (see ``client_display``)."""
        when = self._utc(at)
        values = (
            when.isoformat(),
            self._local_date_of(when).isoformat(),
            OperationKind(kind).value,
            Outcome(outcome).value,
            redact_text(client),
            external_id,
            points,
            None if amount is None else str(amount),
            ticket,
            redact_text(detail),
            units,
        )
        cursor = self._conn.execute(
            "INSERT INTO journal (at_utc, local_date, kind, outcome, client, external_id,"
            " points, amount, ticket, detail, units) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            values,
        )
        entry = self.get(int(cursor.lastrowid or 0))
        assert entry is not None
        return entry

    def get(self, entry_id: int) -> JournalEntry | None:
        row = self._conn.execute(_GET, (entry_id,)).fetchone()
        return None if row is None else _entry(row)

    def update_outcome(
        self,
        entry_id: int,
        outcome: Outcome,
        *,
        points: int | None = None,
        detail: str | None = None,
    ) -> bool:
        """Settle a row (a pending credit that went through or was refused)."""
        cursor = self._conn.execute(
            "UPDATE journal SET outcome = ?, points = COALESCE(?, points),"
            " detail = COALESCE(?, detail) WHERE id = ?",
            (
                Outcome(outcome).value,
                points,
                None if detail is None else redact_text(detail),
                entry_id,
            ),
        )
        return cursor.rowcount > 0

    def today(self, day: date | None = None) -> list[JournalEntry]:
        """The rows of ``day`` (default: the kiosk's today), newest first."""
        day = self._local_date_of(self._utc(None)) if day is None else day
        rows = self._conn.execute(
            _BY_DATE,
            (day.isoformat(),),
        ).fetchall()
        return [_entry(row) for row in rows]

    def day(self) -> date:
        """The kiosk's calendar day now."""
        return self._local_date_of(self._utc(None))

    def page(self, day: date, *, before: int | None = None, limit: int = 100) -> list[JournalEntry]:
        """Up to ``limit`` rows of ``day`` older than the row ``before`` (None: the
        newest), newest first: a list opens on its first page and reads on as it scrolls."""
        start = (1 << 62) if before is None else before
        rows = self._conn.execute(_PAGE, (day.isoformat(), start, limit)).fetchall()
        return [_entry(row) for row in rows]

    def by_ids(self, ids: Iterable[int]) -> list[JournalEntry]:
        """The rows with these ids that exist, newest first."""
        select = f"SELECT {_COLUMNS} FROM journal"  # noqa: S608 (the module's columns)
        return [_entry(row) for row in rows_by_ids(self._conn, select, ids, newest_first=True)]

    def totals(self, day: date) -> DayTotals:
        """How many rows ``day`` has and the points its credits gave (canceled ones not)."""
        count, points = self._conn.execute(
            _TOTALS, (OperationKind.CREDIT.value, Outcome.OK.value, day.isoformat())
        ).fetchone()
        return DayTotals(operations=int(count), points=int(points))

    def watch(self) -> None:
        """Note the id of every row written on this connection from now on."""
        for statement in _WATCH:
            self._conn.execute(statement)

    def take_changed(self) -> frozenset[int]:
        """The ids noted since the last call (``watch``), forgotten once read."""
        rows = self._conn.execute("SELECT id FROM temp.journal_touched").fetchall()
        if rows:
            self._conn.execute("DELETE FROM temp.journal_touched")
        return frozenset(int(row[0]) for row in rows)

    def find_credit(self, external_id: str) -> JournalEntry | None:
        """The latest credit row with that external id."""
        row = self._conn.execute(
            _CREDIT_BY_EXTERNAL_ID,
            (OperationKind.CREDIT.value, external_id),
        ).fetchone()
        return None if row is None else _entry(row)

    def mark_canceled(self, external_id: str, at: datetime | None = None) -> bool:
        """Flag the credit(s) with that external id as canceled; False if none was open.

        The cancel itself is a row of its own (``record(OperationKind.CANCEL, ...)``).
        """
        cursor = self._conn.execute(
            "UPDATE journal SET canceled_at_utc = ? WHERE kind = ? AND external_id = ?"
            " AND canceled_at_utc IS NULL",
            (self._utc(at).isoformat(), OperationKind.CREDIT.value, external_id),
        )
        return cursor.rowcount > 0

    def purge(self, retention_days: int, today: date | None = None) -> int:
        """Delete rows older than ``retention_days`` calendar days (today counts as one).

        Pending rows are kept whatever their age: they are not settled yet.
        Returns how many rows went.
        """
        if retention_days < 1:
            raise ValueError("retention must be at least one day")
        today = self._local_date_of(self._utc(None)) if today is None else today
        cutoff = today - timedelta(days=retention_days - 1)
        cursor = self._conn.execute(
            "DELETE FROM journal WHERE local_date < ? AND outcome != ?",
            (cutoff.isoformat(), Outcome.PENDING.value),
        )
        return cursor.rowcount


class AsyncJournal:
    """The ``Journal`` calls, awaited from the UI's event loop, run in the database thread."""

    def __init__(
        self,
        worker: DatabaseWorker,
        *,
        now: Callable[[], datetime] = _utc_now,
        local_date_of: Callable[[datetime], date] = _local_date,
    ) -> None:
        self._worker = worker
        self._now = now
        self._local_date_of = local_date_of
        self._watching = False
        self.changed: Event[JournalChange] = Event()
        self.rows_read = 0  # rows read back by pages and ids (what a list costs)

    @property
    def worker(self) -> DatabaseWorker:
        """The kiosk's database thread (other tables of the same file use it too)."""
        return self._worker

    async def _call(self, call: Callable[[Journal], T]) -> T:
        watch = not self._watching
        self._watching = True

        def in_thread(conn: sqlite3.Connection) -> T:
            journal = Journal(conn, now=self._now, local_date_of=self._local_date_of)
            if watch:  # before the first call: every later write is noted
                journal.watch()
            return call(journal)

        return await self._worker.run(in_thread)

    async def record(
        self,
        kind: OperationKind,
        outcome: Outcome,
        *,
        client: str = "",
        external_id: str | None = None,
        points: int | None = None,
        amount: Decimal | None = None,
        ticket: str | None = None,
        detail: str = "",
        at: datetime | None = None,
        units: int | None = None,
    ) -> JournalEntry:
        return await self._call(
            lambda j: j.record(
                kind,
                outcome,
                client=client,
                external_id=external_id,
                points=points,
                amount=amount,
                ticket=ticket,
                detail=detail,
                at=at,
                units=units,
            )
        )

    async def update_outcome(
        self,
        entry_id: int,
        outcome: Outcome,
        *,
        points: int | None = None,
        detail: str | None = None,
    ) -> bool:
        return await self._call(
            lambda j: j.update_outcome(entry_id, outcome, points=points, detail=detail)
        )

    async def today(self, day: date | None = None) -> list[JournalEntry]:
        return await self._call(lambda j: j.today(day))

    async def day(self) -> date:
        return await self._call(lambda j: j.day())

    async def page(
        self, day: date, *, before: int | None = None, limit: int = 100
    ) -> list[JournalEntry]:
        entries = await self._call(lambda j: j.page(day, before=before, limit=limit))
        self.rows_read += len(entries)
        return entries

    async def by_ids(self, ids: Iterable[int]) -> list[JournalEntry]:
        wanted = list(ids)
        entries = await self._call(lambda j: j.by_ids(wanted))
        self.rows_read += len(entries)
        return entries

    async def totals(self, day: date) -> DayTotals:
        return await self._call(lambda j: j.totals(day))

    async def publish_changes(self) -> JournalChange | None:
        """Announce on ``changed`` the rows written since the last announcement."""
        if not self._worker.started:  # closed (the counter stopping) or never opened
            return None
        ids = await self._call(lambda j: j.take_changed())
        if not ids:
            return None
        change = JournalChange(ids)
        self.changed.emit(change)
        return change

    async def find_credit(self, external_id: str) -> JournalEntry | None:
        return await self._call(lambda j: j.find_credit(external_id))

    async def mark_canceled(self, external_id: str, at: datetime | None = None) -> bool:
        return await self._call(lambda j: j.mark_canceled(external_id, at))

    async def purge(self, retention_days: int, today: date | None = None) -> int:
        return await self._call(lambda j: j.purge(retention_days, today))
