"""Keep a simulated world in SQLite across restarts (``python -m kiosk.sim --db PATH``).

The file holds one row: the world's JSON snapshot (``World.snapshot()``), written
after every change (``world.on_change``: mutating requests, deferred jobs that
ran, control actions). The request log, fault rules and settings are test
machinery and are not kept.

Durability: WAL journal with ``synchronous=NORMAL``. A commit reaches the
write-ahead log (in the OS's hands) before the answer is sent, so killing the
simulator loses nothing and the file is never corrupted; only a power loss or
OS crash can roll back the last few commits, which is acceptable for a training
sandbox and keeps a save off the fsync path (``FULL`` would fsync on every credit
and distort benchmarks run against a ``--db`` simulator).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path

from kiosk.sim.seed import (
    DEFAULT_API_KEY,
    DEFAULT_OTHER_API_KEY,
    MAIN_MERCHANT_ID,
    OTHER_MERCHANT_ID,
    build_world,
)
from kiosk.sim.world import SimSettings, World

SCHEMA = """
CREATE TABLE IF NOT EXISTS world (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    snapshot TEXT NOT NULL,
    saved_at REAL NOT NULL
)
"""


class PersistError(RuntimeError):
    """The database cannot be used (unreadable file or snapshot)."""


class WorldStore:
    """One SQLite file with the latest snapshot of a world; safe across threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(SCHEMA)
        except sqlite3.DatabaseError as error:
            raise PersistError(
                f"cannot use {self.path} as the simulator's database: {error}"
            ) from None
        self.saves = 0

    def load(self) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT snapshot FROM world WHERE id = 1").fetchone()
        return None if row is None else str(row[0])

    def save(self, world: World) -> None:
        text = world.snapshot()
        with self._lock:
            self._db.execute(
                "INSERT INTO world (id, snapshot, saved_at) VALUES (1, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET snapshot = excluded.snapshot, saved_at = excluded.saved_at",
                (text, time.time()),
            )
            self.saves += 1

    def close(self) -> None:
        with self._lock:
            self._db.close()


def open_world(
    path: str | Path,
    *,
    api_key: str | None = None,
    other_api_key: str | None = None,
    settings: SimSettings | None = None,
) -> tuple[World, WorldStore]:
    """The world kept in ``path`` (seeded and saved when new), saving on every change.

    Keys given here override the stored ones; ``None`` keeps them (or the demo keys
    for a new file).
    """
    store = WorldStore(path)
    text = store.load()
    if text is None:
        world = build_world(
            api_key=api_key or DEFAULT_API_KEY,
            other_api_key=other_api_key or DEFAULT_OTHER_API_KEY,
            settings=settings,
        )
        store.save(world)
    else:
        world = World(settings=settings)
        keys = {MAIN_MERCHANT_ID: api_key, OTHER_MERCHANT_ID: other_api_key}
        try:
            world.restore(text, keys={k: v for k, v in keys.items() if v})
            offset = float(json.loads(text).get("clock_offset", 0.0))
        except (ValueError, KeyError, TypeError) as error:
            store.close()
            raise PersistError(f"the snapshot in {path} is unreadable: {error!r}") from None
        # The simulated time carries on where it was (a clock moved ahead by a
        # test stays ahead, so stored dates are never in the future).
        world.clock.advance(offset)
        store.save(world)
    world.on_change = store.save
    return world, store
