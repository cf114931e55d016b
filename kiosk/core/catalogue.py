"""The branch's point items, fetched once and kept in memory for the item buttons.

``preload()`` runs at start-up so the counter is "ready" with its buttons; a
later issue persists the list for offline use. When the kiosk's settings name
point items (``SessionConfig.point_item_ids``), only those are shown, in that
order; ids the API no longer lists are skipped (and logged).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from kiosk.api.models.catalog import PointItem
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


class PointItemCatalogue:
    """The point items of the session's branch, in memory."""

    def __init__(self, session: CounterSession) -> None:
        self._session = session
        self._items: list[PointItem] | None = None
        self._loading: asyncio.Task[list[PointItem]] | None = None

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

        fetched = await session.call(walk)
        self._items = choose_items(fetched, session.config.point_item_ids)
        log.info("point items: %d offered, %d shown", len(fetched), len(self._items))
        return self._items


def _seen(task: asyncio.Task[list[PointItem]]) -> None:
    """Mark a shared fetch's failure as seen: its callers (if any are left) raise it."""
    if not task.cancelled():
        task.exception()
