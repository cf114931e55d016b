"""What the Pending list reads from the outbox, and when: never the whole list.

``show`` opens the list on its first page and its counts (COUNT queries: the
summary and the 24-hour warning), or, opened before, catches up; the model's
``more_wanted`` reads the next page (keyset, after the last key read). The outbox's
``rows_changed`` event (the ids a write touched) reads back only those rows, at once
while the list is shown, else when it is shown again: the ids wait in ``waiting``
until their rows are applied, so a read cut short (the screen left) is made again.
"Any row" (a manager's "retry now", a purge), or more ids waiting than a page holds,
opens the list again on its first page.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtCore import QObject, Signal

from kiosk.core.outbox.listing import PAGE_ROWS, ListCounts, OutboxChange
from kiosk.core.outbox.queue import Outbox
from kiosk.ui.screens.today.pending_model import PendingModel

Run = Callable[[str, Coroutine[Any, Any, Any]], "asyncio.Task[Any]"]
MAX_WAITING = PAGE_ROWS  # more changed rows than this while hidden: open again instead


class PendingFeed(QObject):
    """Keeps ``model`` current; ``counts_changed(ListCounts)`` after each read."""

    counts_changed = Signal(object)

    def __init__(
        self, outbox: Outbox, model: PendingModel, run: Run, shown: Callable[[], bool]
    ) -> None:
        super().__init__(model)
        self.outbox = outbox
        self.model = model
        model.clock = outbox.now
        self._run = run
        self._shown = shown
        self.counts = ListCounts(0, 0, 0)
        self.waiting: set[int] = set()
        self._anything = 0  # "any row changed" announcements...
        self._anything_read = 0  # ...and how many an opening has covered
        self.opened = False
        self.catching = False  # a catch-up runs: it takes the ids that come meanwhile
        outbox.rows_changed.connect(self._changed)
        model.more_wanted.connect(self._more_wanted)

    @property
    def stale(self) -> bool:
        """Rows may have changed that no id names: the first page is read again."""
        return self._anything > self._anything_read

    async def show(self) -> None:
        """The list is shown: its first page the first time, else only what changed."""
        if not self.opened:
            await self.open()
            return
        self.model.refresh_ages()
        if not self.catching:
            await self.catch_up()

    async def open(self) -> None:
        """The list's first page and its counts (the opening, "any row changed")."""
        taken, anything = set(self.waiting), self._anything
        entries = await self.outbox.page(None)
        counts = await self.outbox.list_counts()
        self.model.reset(entries, more=len(entries) == PAGE_ROWS)
        self.waiting -= taken  # read after their change: the page shows them as they are
        self._anything_read = anything
        self.opened = True
        self._set_counts(counts)

    async def catch_up(self) -> None:
        """Show the rows whose ids the outbox announced (only those), and the counts."""
        self.catching = True
        try:
            while self.stale or self.waiting:
                if self.stale:
                    await self.open()
                    continue
                ids = frozenset(self.waiting)
                entries = await self.outbox.by_ids(ids)
                counts = await self.outbox.list_counts()
                self.model.apply(entries, ids)  # the rows and the summary at once
                self.waiting -= ids
                self._set_counts(counts)
        finally:
            self.catching = False

    def _changed(self, change: OutboxChange) -> None:
        if change.ids is not None:
            self.waiting |= change.ids
        if change.ids is None or len(self.waiting) > MAX_WAITING:
            self._anything += 1
            self.waiting.clear()  # the next opening reads them all
        if self.opened and not self.catching and self._shown():
            self._run("pending-rows", self.catch_up())

    def _more_wanted(self) -> None:
        self._run("pending-page", self._next_page())

    async def _next_page(self) -> None:
        after = self.model.cursor
        try:
            entries = await self.outbox.page(after)
        except BaseException:
            self.model.fetching = False  # asked again at the next scroll
            raise
        self.model.add_page(entries, after=after, more=len(entries) == PAGE_ROWS)

    def _set_counts(self, counts: ListCounts) -> None:
        self.counts = counts
        self.counts_changed.emit(counts)
