"""What Today reads from the journal, and when: never the whole day.

``open`` reads the day's newest page and its totals (COUNT/SUM); the model's
``more_wanted`` reads the next page; the journal's ``changed`` event (the ids a
write touched) reads back only those rows and the totals. The ids wait in
``waiting`` until their rows are shown, so a read cut short (the screen left)
is made again at the next change or opening.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtCore import QObject, Signal

from kiosk.core.journal import AsyncJournal, DayTotals, JournalChange
from kiosk.ui.screens.today.model import PAGE_ROWS, JournalModel

Run = Callable[[str, Coroutine[Any, Any, Any]], "asyncio.Task[Any]"]


class JournalFeed(QObject):
    """Keeps ``model`` current; ``totals_changed(DayTotals)`` after each read."""

    totals_changed = Signal(object)

    def __init__(self, journal: AsyncJournal, model: JournalModel, run: Run) -> None:
        super().__init__(model)
        self.journal = journal
        self.model = model
        self._run = run
        self.totals = DayTotals(0, 0)
        self.waiting: set[int] = set()
        self.opened = False
        self.catching = False  # a catch-up runs: it takes the ids that come meanwhile
        journal.changed.connect(self._changed)
        model.more_wanted.connect(self._more_wanted)

    async def open(self) -> None:
        """The day's newest rows and its totals (the opening, a new day, "Refresh")."""
        day = await self.journal.day()
        entries = await self.journal.page(day, limit=PAGE_ROWS)
        totals = await self.journal.totals(day)
        self.model.reset(day, entries, more=len(entries) == PAGE_ROWS)
        self.opened = True
        self._set_totals(totals)
        if self.waiting:
            await self.catch_up()

    async def catch_up(self) -> None:
        """Show the rows whose ids the journal announced (only those)."""
        self.catching = True
        try:
            await self._catch_up()
        finally:
            self.catching = False

    async def _catch_up(self) -> None:
        while self.waiting and self.model.day is not None:
            ids = set(self.waiting)
            entries = await self.journal.by_ids(ids)
            day = self.model.day
            if any(e.local_date > day for e in entries):  # midnight passed: a new day
                self.waiting -= ids
                await self.open()
                return
            self.model.apply(entries)
            self.waiting -= ids
            self._set_totals(await self.journal.totals(day))

    def _changed(self, change: JournalChange) -> None:
        self.waiting |= change.ids
        if self.opened and not self.catching:
            self._run("journal-rows", self.catch_up())

    def _more_wanted(self) -> None:
        self._run("journal-page", self._next_page())

    async def _next_page(self) -> None:
        day, oldest = self.model.day, self.model.oldest_id
        try:
            if day is None:
                return
            entries = await self.journal.page(day, before=oldest, limit=PAGE_ROWS)
        except BaseException:
            self.model.fetching = False  # asked again at the next scroll
            raise
        self.model.add_older(entries, more=len(entries) == PAGE_ROWS)

    def _set_totals(self, totals: DayTotals) -> None:
        self.totals = totals
        self.totals_changed.emit(totals)
