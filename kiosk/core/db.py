"""The kiosk's SQLite file (``kiosk.sqlite3``): opening, schema migrations, one worker thread.

Every connection runs in WAL mode with ``synchronous=FULL``: a committed sale
survives a power cut. ``secure_delete`` is on: what a purge deletes or a redaction
overwrites (a client's email, document, name) is zeroed in the file, not left in its
free space; ``checkpoint`` then moves the WAL into the file and empties it, so the
old pages leave the ``-wal`` file too (``kiosk.core.retention``).

Production and QA use ``kiosk.sqlite3``; training has its own file,
``kiosk-training.sqlite3`` (``KioskPaths.database_for``): a training credit never
shows in the real Today nor in its end-of-day figures. Rows written by training
into ``kiosk.sqlite3`` before the split stay where they are (nothing is moved or
deleted): they leave with the journal's retention. The schema is versioned by ``PRAGMA user_version``;
``MIGRATIONS`` is the ordered list of steps, step *n* taking the file from
version *n-1* to *n*. To change the schema, append a step (never edit a
released one)::

    Migration(2, "outbox", '''
        CREATE TABLE outbox (...);
    ''')

Each step runs in one transaction together with its version bump, so a crash
mid-migration leaves the file at the previous version. A file newer than this
code (a downgrade) is refused rather than guessed at.

``DatabaseWorker`` owns one connection in one dedicated thread and runs calls
there from asyncio (``await worker.run(fn)``), so the UI never waits on disk
and SQLite never sees two writers from this process.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

_log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class Migration:
    version: int
    description: str
    script: str


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "journal: today's operations on this kiosk",
        """
        CREATE TABLE journal (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            at_utc TEXT NOT NULL,
            local_date TEXT NOT NULL,
            kind TEXT NOT NULL,
            external_id TEXT,
            client TEXT NOT NULL DEFAULT '',
            points INTEGER,
            amount TEXT,
            ticket TEXT,
            outcome TEXT NOT NULL,
            detail TEXT NOT NULL DEFAULT '',
            canceled_at_utc TEXT
        );
        CREATE INDEX journal_by_date ON journal (local_date, id);
        CREATE INDEX journal_by_external_id ON journal (external_id);
        """,
    ),
    Migration(
        2,
        "outbox: credits and cancels waiting to be sent (kiosk.core.outbox.store)",
        """
        CREATE TABLE outbox_rows (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL CHECK (kind IN ('credit', 'cancel')),
            external_id TEXT NOT NULL,
            body TEXT NOT NULL,
            state TEXT NOT NULL
                CHECK (state IN ('pending', 'sending', 'done', 'dead', 'voided')),
            resolution TEXT,
            attempts INTEGER NOT NULL DEFAULT 0,
            created_at REAL NOT NULL,
            first_attempt_at REAL,
            last_attempt_at REAL,
            next_attempt_at REAL NOT NULL,
            settled_at REAL,
            last_error_kind TEXT,
            last_error TEXT,
            ticket_typed INTEGER NOT NULL DEFAULT 0,
            may_have_reached_server INTEGER NOT NULL DEFAULT 0,
            environment TEXT NOT NULL,
            base_url TEXT NOT NULL,
            key_fingerprint TEXT NOT NULL,
            branch_id INTEGER,
            journal_id INTEGER,
            client_label TEXT NOT NULL DEFAULT '',
            points INTEGER,
            UNIQUE (kind, external_id)
        );
        CREATE INDEX outbox_rows_by_state ON outbox_rows (state, id);
        CREATE INDEX outbox_rows_by_external_id ON outbox_rows (external_id, id);
        """,
    ),
    Migration(
        3,
        "point item cache: the last point-item list fetched, for offline use (kiosk.core.counter.catalogue)",
        """
        CREATE TABLE point_item_cache (
            environment TEXT NOT NULL,
            branch_id INTEGER NOT NULL,
            items TEXT NOT NULL,
            saved_at REAL NOT NULL,
            PRIMARY KEY (environment, branch_id)
        );
        """,
    ),
    Migration(
        4,
        "journal: the units of a point-item credit (Today shows '3 items' for it)",
        """
        ALTER TABLE journal ADD COLUMN units INTEGER;
        """,
    ),
)


class SchemaError(RuntimeError):
    """The database file cannot be brought to this code's schema."""


def open_database(
    path: Path | str, *, migrations: Sequence[Migration] = MIGRATIONS
) -> sqlite3.Connection:
    """Open (creating if needed) and migrate the kiosk's database at ``path``.

    The connection is in autocommit mode: one statement is one transaction, and
    ``transaction(conn)`` groups several.
    """
    if isinstance(path, Path):
        path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None, timeout=10.0)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA secure_delete = ON")
        migrate(conn, migrations)
    except BaseException:
        conn.close()
        raise
    return conn


def schema_version(conn: sqlite3.Connection) -> int:
    row = conn.execute("PRAGMA user_version").fetchone()
    return int(row[0])


def migrate(conn: sqlite3.Connection, migrations: Sequence[Migration] = MIGRATIONS) -> int:
    """Apply the steps the file lacks; returns the final version."""
    for index, step in enumerate(migrations, start=1):
        if step.version != index:
            raise SchemaError(f"migration {step.version} is out of order (expected {index})")
    target = len(migrations)
    current = schema_version(conn)
    if current > target:
        raise SchemaError(
            f"the database is at schema version {current}, newer than this app "
            f"({target}); install the newer app or restore a backup"
        )
    for step in migrations[current:]:
        _log.info("database: migrating to version %d (%s)", step.version, step.description)
        try:
            conn.executescript(
                f"BEGIN IMMEDIATE;\n{step.script}\nPRAGMA user_version = {step.version};\nCOMMIT;"
            )
        except sqlite3.Error as error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise SchemaError(f"migration {step.version} failed: {error}") from error
    return target


def checkpoint(conn: sqlite3.Connection) -> bool:
    """Copy the WAL into the file and truncate it; whether it completed (a reader
    elsewhere may hold it: the next one will)."""
    busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return not busy


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """Several statements as one write transaction (``BEGIN IMMEDIATE``)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


IDS_PER_QUERY = 500  # bound parameters per statement, well under SQLite's limit


def rows_by_ids(
    conn: sqlite3.Connection, select: str, ids: Iterable[int], *, newest_first: bool = False
) -> list[tuple[Any, ...]]:
    """The rows of ``select`` (``SELECT ... FROM table``) whose ``id`` is among ``ids``,
    by id (``newest_first``: descending), in statements of at most ``IDS_PER_QUERY``
    ids: what a list reads back of the rows a change named."""
    wanted = sorted(set(ids), reverse=newest_first)
    order = "DESC" if newest_first else "ASC"
    found: list[tuple[Any, ...]] = []
    for start in range(0, len(wanted), IDS_PER_QUERY):
        chunk = wanted[start : start + IDS_PER_QUERY]
        marks = ", ".join("?" * len(chunk))
        query = f"{select} WHERE id IN ({marks}) ORDER BY id {order}"
        found += conn.execute(query, chunk).fetchall()
    return found


class DatabaseWorker:
    """One connection, owned by one dedicated thread; asyncio callers await its calls.

    Calls run one at a time, in the order they were made. A call whose awaiting
    task is cancelled still runs to its end (a write is never cut in half).
    """

    def __init__(self, path: Path | str, *, migrations: Sequence[Migration] = MIGRATIONS) -> None:
        self.path = path
        self._migrations = migrations
        self._executor: ThreadPoolExecutor | None = None
        self._conn: sqlite3.Connection | None = None

    @property
    def started(self) -> bool:
        return self._conn is not None

    async def start(self) -> None:
        """Open and migrate the file in the worker thread."""
        if self._executor is not None:
            raise RuntimeError("database worker already started")
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kiosk-db")
        loop = asyncio.get_running_loop()
        try:
            self._conn = await loop.run_in_executor(
                self._executor, lambda: open_database(self.path, migrations=self._migrations)
            )
        except BaseException:
            self._executor.shutdown(wait=False)
            self._executor = None
            raise

    async def run(self, call: Callable[[sqlite3.Connection], T]) -> T:
        """``call(connection)`` in the worker thread."""
        executor, conn = self._executor, self._conn
        if executor is None or conn is None:
            raise RuntimeError("database worker is not running")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(executor, call, conn)

    async def close(self) -> None:
        """Close the connection (after the calls already queued) and end the thread."""
        executor, conn = self._executor, self._conn
        if executor is None:
            return
        self._executor = self._conn = None
        try:
            if conn is not None:
                await asyncio.get_running_loop().run_in_executor(executor, conn.close)
        finally:
            executor.shutdown(wait=False)
