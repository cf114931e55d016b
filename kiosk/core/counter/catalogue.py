"""The branch's point items, fetched once and kept in memory for the item buttons.

``preload()`` runs at start-up so the counter is "ready" with its buttons. When the
kiosk's settings name point items (``SessionConfig.point_item_ids``), only those are
shown, in that order; ids the API no longer lists are skipped (and logged).

Offline: every successful fetch is also written to the kiosk's SQLite file (table
``point_item_cache``, one row per environment and branch: the items as JSON and the
time). When the API cannot be reached and nothing is in memory yet, the list is
read back from the file, so the item buttons work through an outage;
``from_cache`` and ``saved_at`` say how old it is (the screen shows "Point items as
of 14:32 (offline)", ``saved_at_text``), and when the connection returns the list is fetched again in the
background (``changed`` fires). A refusal of the API (404, 401...) is not an
outage: it raises as before.

A manager's change reaches the counter without a tap on "Refresh items"
(``catalogue_changes(session)``): the administration sections announce what they
created, replaced or deleted (``point_items``, ``rewards``, the stock included), a
loaded catalogue fetches its list again in the background and fires ``changed``, and
the Rewards screen reads its catalog again when it is next shown.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
import weakref
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, tzinfo
from typing import Any

from kiosk.api.errors import ApiError, ErrorKind
from kiosk.api.models.catalog import PointItem
from kiosk.core.amounts import AmountLocale, as_locale
from kiosk.core.db import DatabaseWorker
from kiosk.core.events import Event
from kiosk.core.session import CounterSession

log = logging.getLogger(__name__)


def choose_items(items: Sequence[PointItem], wanted: Sequence[int]) -> list[PointItem]:
    """``items`` as the counter shows them: all (API order), or only ``wanted``, in
    that order (each once)."""
    if not wanted:
        return list(items)
    by_id = {item.id: item for item in items}
    chosen: list[PointItem] = []
    for item_id in dict.fromkeys(wanted):
        item = by_id.get(item_id)
        if item is None:
            log.warning("point item %d is in the settings but not offered to this branch", item_id)
        else:
            chosen.append(item)
    return chosen


def saved_at_text(
    saved_at: datetime,
    locale: AmountLocale | str,
    *,
    now: datetime | None = None,
    tz: tzinfo | None = None,
) -> str:
    """When a saved list was fetched, in the store's time (``tz``; default the kiosk's
    time zone): ``14:32`` today, ``21/11/2026 14:32`` another day (es-AR); ``2:32 PM``,
    ``11/21/2026 2:32 PM`` (en-US)."""
    local = saved_at.astimezone(tz)
    today = (now or datetime.now(UTC)).astimezone(tz).date()
    if as_locale(locale) is AmountLocale.ES_AR:
        time_text = f"{local:%H:%M}"
        date_text = f"{local:%d/%m/%Y}"
    else:
        time_text = f"{local.hour % 12 or 12}:{local:%M} {'AM' if local.hour < 12 else 'PM'}"
        date_text = f"{local:%m/%d/%Y}"
    return time_text if local.date() == today else f"{date_text} {time_text}"


# The API gives no usable answer: use the list saved in the file.
UNREACHABLE_KINDS = frozenset(
    {
        ErrorKind.NETWORK,
        ErrorKind.TIMEOUT,
        ErrorKind.UNAVAILABLE,
        ErrorKind.SERVER,
        ErrorKind.MALFORMED,
        ErrorKind.RATE_LIMITED,
    }
)


def item_json(item: PointItem) -> dict[str, Any]:
    """A point item as the API writes it (``PointItem.from_json`` reads it back)."""
    return {
        "id": item.id,
        "name": item.name,
        "points": item.points,
        "amount": item.amount,
        "branchId": item.branch_id,
        "createdAt": item.created_at.isoformat() if item.created_at else None,
        "updatedAt": item.updated_at.isoformat() if item.updated_at else None,
    }


class CatalogueChanges:
    """A manager changed what the counter offers (announced by the administration
    sections of the same kiosk, heard by the counter's screens)."""

    def __init__(self) -> None:
        self.point_items: Event[None] = Event()
        self.rewards: Event[None] = Event()  # a reward, its prices or its stock


_changes: weakref.WeakKeyDictionary[CounterSession, CatalogueChanges] = weakref.WeakKeyDictionary()


def catalogue_changes(session: CounterSession) -> CatalogueChanges:
    """The session's one ``CatalogueChanges`` (made on first use)."""
    changes = _changes.get(session)
    if changes is None:
        changes = _changes[session] = CatalogueChanges()
    return changes


class CachedItems:
    """A list read back from the file: the items and when they were fetched (UTC)."""

    def __init__(self, items: list[PointItem], saved_at: datetime) -> None:
        self.items = items
        self.saved_at = saved_at


class PointItemCache:
    """The ``point_item_cache`` table, through the kiosk's database thread."""

    def __init__(self, worker: DatabaseWorker, environment: str) -> None:
        self._worker = worker
        self._environment = environment

    @property
    def available(self) -> bool:
        return self._worker.started

    async def save(self, branch_id: int | None, items: Sequence[PointItem], at: float) -> None:
        text = json.dumps([item_json(item) for item in items], ensure_ascii=False)
        key = (self._environment, branch_id or 0)

        def write(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO point_item_cache (environment, branch_id, items, saved_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (environment, branch_id)"
                " DO UPDATE SET items = excluded.items, saved_at = excluded.saved_at",
                (*key, text, at),
            )

        await self._worker.run(write)

    async def load(self, branch_id: int | None) -> CachedItems | None:
        key = (self._environment, branch_id or 0)

        def read(conn: sqlite3.Connection) -> tuple[str, float] | None:
            row = conn.execute(
                "SELECT items, saved_at FROM point_item_cache"
                " WHERE environment = ? AND branch_id = ?",
                key,
            ).fetchone()
            return (str(row[0]), float(row[1])) if row else None

        found = await self._worker.run(read)
        if found is None:
            return None
        items = [PointItem.from_json(data) for data in json.loads(found[0])]
        return CachedItems(items, datetime.fromtimestamp(found[1], UTC))


class PointItemCatalogue:
    """The point items of the session's branch, in memory (and in the file, for offline)."""

    def __init__(
        self,
        session: CounterSession,
        cache: PointItemCache | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._session = session
        self._items: list[PointItem] | None = None
        self._loading: asyncio.Task[list[PointItem]] | None = None
        self._cache = cache or PointItemCache(session.journal.worker, session.config.environment)
        self._clock = clock
        self._saved_at: datetime | None = None
        self._from_cache = False
        self._background: asyncio.Task[list[PointItem]] | None = None
        # The list changed without being asked for (a background refresh after an outage).
        self.changed: Event[None] = Event()
        # Held weakly: the catalogue goes with the screen that owns it.
        session.online_changed.connect(self._online_changed, weak=True)
        catalogue_changes(session).point_items.connect(self._changed_by_manager, weak=True)

    @property
    def from_cache(self) -> bool:
        """The items shown come from the file (the API could not be reached)."""
        return self._from_cache

    @property
    def saved_at(self) -> datetime | None:
        """When the items shown were fetched from the API (UTC); None until loaded."""
        return self._saved_at

    @property
    def loaded(self) -> bool:
        return self._items is not None

    @property
    def items(self) -> list[PointItem]:
        """The items to show (empty until loaded)."""
        return list(self._items or ())

    def get(self, item_id: int) -> PointItem | None:
        return next((item for item in self._items or () if item.id == item_id), None)

    async def preload(self) -> list[PointItem]:
        """The items, fetched on first use only."""
        if self._items is not None:
            return self.items
        return await self.refresh()

    async def refresh(self) -> list[PointItem]:
        """Fetch the items again; two callers at once share one fetch. A failure
        keeps what was there and raises."""
        if self._loading is None or self._loading.done():
            self._loading = asyncio.ensure_future(self._fetch())
            self._loading.add_done_callback(_seen)
        items = await asyncio.shield(self._loading)
        return list(items)

    async def _fetch(self) -> list[PointItem]:
        session = self._session
        branch_id = session.config.branch.id

        async def walk() -> list[PointItem]:
            return [item async for item in session.api.iter_point_items(branch_id=branch_id)]

        try:
            fetched = await session.call(walk)
        except ApiError as error:
            if error.kind not in UNREACHABLE_KINDS or self._items is not None:
                raise
            cached = await self._read_cache(branch_id)
            if cached is None:
                raise
            log.info("point items: the service cannot be reached, using the saved list")
            self._use(cached.items, cached.saved_at, from_cache=True)
            return self._items or []
        self._use(fetched, datetime.fromtimestamp(self._clock(), UTC), from_cache=False)
        log.info("point items: %d offered, %d shown", len(fetched), len(self._items or ()))
        await self._write_cache(branch_id, fetched)
        return self._items or []

    def _use(self, fetched: list[PointItem], saved_at: datetime, *, from_cache: bool) -> None:
        self._items = choose_items(fetched, self._session.config.point_item_ids)
        self._saved_at = saved_at
        self._from_cache = from_cache

    async def _read_cache(self, branch_id: int | None) -> CachedItems | None:
        if not self._cache.available:
            return None
        try:
            return await self._cache.load(branch_id)
        except (sqlite3.Error, ValueError, ApiError):
            log.exception("point items: the saved list could not be read")
            return None

    async def _write_cache(self, branch_id: int | None, fetched: list[PointItem]) -> None:
        if not self._cache.available:
            return  # a session without a database file (tests): memory only
        assert self._saved_at is not None
        try:
            await self._cache.save(branch_id, fetched, self._saved_at.timestamp())
        except sqlite3.Error:
            log.exception("point items: the list could not be saved for offline use")

    def _online_changed(self, online: bool) -> None:
        """Back online with a saved list on the buttons: fetch a fresh one."""
        if not (online and self._from_cache):
            return
        if self._background is not None and not self._background.done():
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        self._background = asyncio.ensure_future(self._refresh_in_background())

    def _changed_by_manager(self, _: None) -> None:
        """A manager created, replaced or deleted a point item: a loaded list is
        fetched again (a list not loaded yet is fetched fresh when first needed)."""
        if self._items is None:
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            self._items = None  # no loop to fetch on: the next preload fetches
            return
        previous = self._background
        self._background = asyncio.ensure_future(self._refresh_in_background(after=previous))

    async def _refresh_in_background(
        self, after: asyncio.Task[list[PointItem]] | None = None
    ) -> list[PointItem]:
        running = self._loading
        for task in (after, running):
            if task is not None and not task.done():
                # Begun before the change: its answer may not have it. Fetch after it.
                await asyncio.wait([task])
        try:
            items = await self.refresh()
        except ApiError as error:
            log.info("point items: still the saved list (%s)", error.kind.value)
            return self.items
        self.changed.emit(None)
        return items


def _seen(task: asyncio.Task[list[PointItem]]) -> None:
    """Mark a shared fetch's failure as seen: its callers (if any are left) raise it."""
    if not task.cancelled():
        task.exception()
