"""The Pending list on a busy day (issue #16): it opens on its first page, reads the
next ones as the manager scrolls, and, told by the outbox which rows changed, reads back
only those and inserts, updates or removes exactly those rows."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from kiosk.api.models.points import CreditClient, CreditRequest
from kiosk.core.amounts import AmountLocale
from kiosk.core.db import DatabaseWorker
from kiosk.core.outbox import listing
from kiosk.core.outbox.queue import (
    STALE_AFTER,
    Binding,
    Outbox,
    OutboxEntry,
    Resolution,
    RowKind,
    RowState,
)
from kiosk.core.outbox.types import Unreadable
from kiosk.ui.screens.today.pending import PendingPanel, PendingTable
from kiosk.ui.screens.today.pending_feed import PendingFeed
from kiosk.ui.screens.today.pending_model import AGE, ERROR, KIND, TRIES
from tests.qt_async import until

BINDING = Binding.of("training", "https://api.example.test", "sk-live-do-not-store-9f8e7d", 3)
PAGE = listing.PAGE_ROWS


class Clock:
    def __init__(self) -> None:
        self.now = 1_790_000_000.0

    def time(self) -> float:
        return self.now


class Counted:
    """How many rows the Pending list's reads brought back from SQLite."""

    def __init__(self) -> None:
        self.pages: list[int] = []
        self.by_id: list[int] = []


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Counted:
    seen = Counted()
    page, by_ids = listing.page, listing.by_ids

    def counted_page(*args: Any, **kwargs: Any) -> list[listing.Listed]:
        rows = page(*args, **kwargs)
        seen.pages.append(len(rows))
        return rows

    def counted_by_ids(*args: Any, **kwargs: Any) -> list[listing.Listed]:
        rows = by_ids(*args, **kwargs)
        seen.by_id.append(len(rows))
        return rows

    monkeypatch.setattr(listing, "page", counted_page)
    monkeypatch.setattr(listing, "by_ids", counted_by_ids)
    return seen


class Kit:
    def __init__(self, qtbot: QtBot, outbox: Outbox, worker: DatabaseWorker) -> None:
        self.outbox = outbox
        self.worker = worker
        self.panel = PendingPanel(amount_locale=AmountLocale.ES_AR)
        qtbot.addWidget(self.panel)
        self.panel.resize(1280, 700)
        self.panel.show()
        self.table: PendingTable = self.panel.table
        self.model = self.table.pending_model
        self.shown = True
        self.tasks: list[asyncio.Task[Any]] = []
        self.feed = PendingFeed(outbox, self.model, self.run, lambda: self.shown)
        self.feed.counts_changed.connect(self.panel.show_counts)

    def run(self, name: str, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self.tasks.append(task)
        return task

    def ids(self) -> list[int]:
        return [e.id for e in self.model.entries]

    async def settled(self) -> None:
        await until(lambda: all(t.done() for t in self.tasks) and not self.feed.waiting)


Scenario = Callable[[Kit, Clock], Coroutine[Any, Any, None]]


def play(qtbot: QtBot, tmp_path: Path, arun: Callable[..., Any], scenario: Scenario) -> None:
    async def main() -> None:
        worker = DatabaseWorker(tmp_path / "kiosk.sqlite3")
        await worker.start()
        clock = Clock()
        kit = Kit(qtbot, Outbox(worker, BINDING, clock=clock.time), worker)
        try:
            await scenario(kit, clock)
            await kit.settled()
        finally:
            await worker.close()

    arun(main())


def sale(n: int) -> CreditRequest:
    external_id = f"b3-20261122-k0a1b2c3d-{n:012x}"
    return CreditRequest(external_id, CreditClient(email=f"c{n}@gmail.com"), amount=1000.0 + n)


async def seed(outbox: Outbox, waiting: int, dead: int = 0) -> tuple[list[int], list[int]]:
    ids = [(await outbox.submit_credit(sale(n))).row.id for n in range(waiting + dead)]
    dead_ids = ids[1 : 1 + 2 * dead : 2]  # spread among the waiting ones
    for row_id in dead_ids:
        await outbox.begin_attempt(row_id)
        await outbox.settle(
            row_id, RowState.DEAD, Resolution.REJECTED, error_kind="bad_request", error="suspended"
        )
    return [i for i in ids if i not in dead_ids], dead_ids


def test_the_list_opens_on_its_first_page_and_reads_more_as_it_scrolls(
    qtbot: QtBot, tmp_path: Path, arun: Callable[..., Any], counted: Counted
) -> None:
    async def scenario(kit: Kit, clock: Clock) -> None:
        waiting, dead = await seed(kit.outbox, 130, 20)
        await kit.feed.show()
        assert counted.pages == [PAGE]  # one page, not the 150 rows
        assert kit.ids() == [*dead, *waiting[: PAGE - 20]]  # dead letters first, oldest first
        assert kit.model.canFetchMore(QModelIndex())
        assert kit.table.discard_ids() == dead
        assert kit.table.findChildren(QPushButton) == []  # painted: no widget per row
        # The summary comes from the counts, not from the rows read.
        assert kit.panel.summary.text() == (
            "130 waiting to be sent · 20 refused by the server: a manager must discard"
        )
        assert kit.table.cell_text(0, ERROR).startswith("Refused: ")
        kit.table.scrollToBottom()
        await until(lambda: kit.model.rowCount() == 150 and not kit.model.fetching)
        assert counted.pages == [PAGE, 50]
        assert kit.ids() == [*dead, *waiting]
        assert not kit.model.canFetchMore(QModelIndex())

    play(qtbot, tmp_path, arun, scenario)


def test_a_change_reads_back_only_its_row_and_changes_only_it(
    qtbot: QtBot,
    tmp_path: Path,
    arun: Callable[..., Any],
    counted: Counted,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"discarded")

    async def scenario(kit: Kit, clock: Clock) -> None:
        waiting, dead = await seed(kit.outbox, 8, 2)
        await kit.feed.show()
        model = kit.model
        inserted: list[tuple[int, int]] = []
        removed: list[tuple[int, int]] = []
        changed: list[tuple[int, int]] = []
        model.rowsInserted.connect(lambda _p, first, last: inserted.append((first, last)))
        model.rowsRemoved.connect(lambda _p, first, last: removed.append((first, last)))
        model.dataChanged.connect(lambda a, b: changed.append((a.row(), b.row())))
        resets: list[int] = []
        model.modelReset.connect(lambda: resets.append(1))

        # An insert: a new credit queued goes at the end (the whole list is read).
        new = (await kit.outbox.submit_credit(sale(500))).row.id
        await until(lambda: model.rowCount() == 11)
        await kit.settled()
        assert inserted == [(10, 10)]
        assert kit.ids()[-1] == new
        assert counted.by_id == [1]  # only the new row read from SQLite
        assert kit.panel.summary.text().startswith("9 waiting to be sent")

        # An update: an attempt and its error, on the same row.
        row = model.row_of(waiting[0])
        assert row == 2
        await kit.outbox.begin_attempt(waiting[0])
        await until(lambda: kit.table.cell_text(2, ERROR) == "Sending…")
        await kit.outbox.reschedule(
            waiting[0], reached=True, wait=30, error_kind="server", error="down"
        )
        await until(lambda: kit.table.cell_text(2, ERROR) not in ("", "Sending…"))
        await kit.settled()
        assert kit.table.cell_text(2, TRIES) == "1"
        assert set(changed) == {(2, 2)}
        assert counted.by_id[1:] == [1] * (len(counted.by_id) - 1)

        # A removal: settled (sent), then a dead letter discarded.
        counted.by_id.clear()
        await kit.outbox.begin_attempt(waiting[1])
        await kit.outbox.settle(waiting[1], RowState.DONE, Resolution.CREDITED, points=10)
        await until(lambda: model.row_of(waiting[1]) is None)
        await kit.outbox.discard(dead[0])
        await until(lambda: model.row_of(dead[0]) is None)
        await kit.settled()
        assert removed == [(3, 3), (0, 0)]
        assert kit.ids() == [dead[1], *[i for i in waiting if i != waiting[1]], new]
        assert all(n == 1 for n in counted.by_id)  # each change: its one row
        assert counted.pages == [10]  # the opening's page only: never the list again
        assert resets == []
        assert kit.panel.summary.text() == (
            "8 waiting to be sent · 1 refused by the server: a manager must discard"
        )

    play(qtbot, tmp_path, arun, scenario)


def test_a_row_past_the_pages_read_waits_for_its_page(
    qtbot: QtBot, tmp_path: Path, arun: Callable[..., Any], counted: Counted
) -> None:
    async def scenario(kit: Kit, clock: Clock) -> None:
        waiting, _ = await seed(kit.outbox, PAGE + 20)
        await kit.feed.show()
        new = (await kit.outbox.submit_credit(sale(900))).row.id
        await kit.settled()
        assert kit.model.rowCount() == PAGE  # after the last row read: its page brings it
        assert counted.by_id == [1]
        new_dead = waiting[PAGE + 5]  # a dead letter goes first, inside the range read
        await kit.outbox.begin_attempt(new_dead)
        await kit.outbox.settle(new_dead, RowState.DEAD, Resolution.REJECTED, error="refused")
        await until(lambda: kit.ids()[:1] == [new_dead])
        kit.table.scrollToBottom()
        await until(lambda: not kit.model.more and not kit.model.fetching)
        assert kit.ids() == [new_dead, *[i for i in waiting if i != new_dead], new]

    play(qtbot, tmp_path, arun, scenario)


def test_changes_while_hidden_are_read_when_the_list_shows_again(
    qtbot: QtBot, tmp_path: Path, arun: Callable[..., Any], counted: Counted
) -> None:
    async def scenario(kit: Kit, clock: Clock) -> None:
        waiting, _ = await seed(kit.outbox, 5)
        await kit.feed.show()
        kit.shown = False
        await kit.outbox.begin_attempt(waiting[0])
        await kit.outbox.settle(waiting[0], RowState.DONE, Resolution.CREDITED, points=1)
        await kit.outbox.submit_credit(sale(70))
        assert counted.by_id == []  # nothing read while hidden
        assert kit.model.rowCount() == 5
        clock.now += STALE_AFTER + 120  # a day later: ages and the warning follow
        kit.shown = True
        await kit.feed.show()
        assert counted.by_id == [2]  # the two rows that changed, at once
        assert kit.ids() == [*waiting[1:], waiting[-1] + 1]
        assert kit.table.cell_text(0, AGE) == "24 h"
        assert kit.panel.warning.isVisible()
        assert kit.panel.warning.text().startswith("5 operation(s) waiting for more than 24")
        # "Retry now" touches every waiting row: the list opens again on its first page.
        await kit.outbox.retry_now()
        await until(lambda: counted.pages == [5, 5])

    play(qtbot, tmp_path, arun, scenario)


def break_row(conn: sqlite3.Connection, row_id: int, kind: str | None) -> None:
    with conn:
        if kind is None:
            conn.execute("UPDATE outbox_rows SET body = '[broken' WHERE id = ?", (row_id,))
            return
        conn.execute("PRAGMA ignore_check_constraints = ON")
        conn.execute("UPDATE outbox_rows SET kind = ? WHERE id = ?", (kind, row_id))
    conn.execute("PRAGMA ignore_check_constraints = OFF")


def test_a_row_the_kiosk_cannot_read_shows_saying_so(
    qtbot: QtBot, tmp_path: Path, arun: Callable[..., Any]
) -> None:
    async def scenario(kit: Kit, clock: Clock) -> None:
        waiting, dead = await seed(kit.outbox, 3, 1)
        await kit.worker.run(lambda conn: break_row(conn, dead[0], None))
        await kit.worker.run(lambda conn: break_row(conn, waiting[1], "refund"))
        await kit.feed.show()
        assert kit.ids() == [dead[0], *waiting]  # never dropped
        assert kit.table.cell_text(0, ERROR) == (
            "This kiosk cannot read this row: its stored data is damaged."
        )
        assert kit.table.cell_text(2, KIND) == "Unknown operation (refund)"
        assert kit.table.cell_text(2, ERROR) == (
            "This kiosk cannot read this row: a newer version wrote it."
        )
        assert kit.table.discard_ids() == []  # nothing the kiosk could do with it
        assert kit.table.action_rect(dead[0]) is None
        assert kit.table.cell_text(1, KIND) == "Credit\n$ 1.000,00"

    play(qtbot, tmp_path, arun, scenario)


def test_an_unreadable_row_says_so_in_spanish(qtbot: QtBot, spanish: Any) -> None:
    newer = OutboxEntry(
        id=7,
        kind=RowKind.CANCEL,
        external_id="b3-20261122-k0a1b2c3d-000000000007",
        state=RowState.PENDING,
        client="",
        age=30.0,
        attempts=0,
        last_error=None,
        may_have_reached_server=True,
        next_attempt_in=None,
        stale=False,
        bound_here=False,
        unreadable=Unreadable.UNKNOWN_KIND,
        stored_kind="refund",
    )
    table = PendingTable(amount_locale=AmountLocale.ES_AR)
    qtbot.addWidget(table)
    table.show_entries([newer])
    assert table.cell_text(0, KIND) == "Operación desconocida (refund)"
    assert table.cell_text(0, ERROR) == (
        "Este kiosco no puede leer esta fila: la escribió una versión más nueva."
    )
