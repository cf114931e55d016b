"""A busy day (issue #16): with 5,000 rows in the day, Today opens on its newest page,
reads older ones as it scrolls, and a credit reads back only the rows it changed."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from PySide6.QtCore import QModelIndex
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.core.counter.credit import CreditFlow
from kiosk.core.journal import AsyncJournal, Journal, OperationKind, Outcome
from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.main_window import CounterView
from kiosk.ui.screens.today.model import PAGE_ROWS
from kiosk.ui.screens.today.screen import TodayScreen
from tests.qt_async import until

DAY_ROWS = 5000
KINDS = (OperationKind.CREDIT, OperationKind.EXCHANGE, OperationKind.REDEEM)


def seed_day(conn: sqlite3.Connection) -> None:
    journal = Journal(conn)
    with conn:
        for n in range(DAY_ROWS):
            journal.record(
                KINDS[n % len(KINDS)],
                Outcome.OK,
                client="Ana · a***@example.com",
                external_id=f"b1-busy-{n}",
                points=10 if n % len(KINDS) == 0 else None,
                amount=Decimal("100") if n % len(KINDS) == 0 else None,
                ticket=str(n),
            )


def test_a_credit_on_a_busy_day_reads_only_the_rows_it_changed(
    qtbot: QtBot,
    session: CounterSession,
    sim_world: World,
    qapp: QApplication,
    arun: Callable[..., Any],
) -> None:
    whole_day: list[object] = []
    journal = session.journal
    original_today = AsyncJournal.today

    async def counted_today(self: AsyncJournal, *args: Any) -> Any:
        whole_day.append(args)
        return await original_today(self, *args)

    async def scenario() -> None:
        await journal.worker.run(seed_day)
        screen = TodayScreen(session)
        view = CounterView(session, [screen])
        qtbot.addWidget(view)
        view.resize(1280, 800)
        view.show()
        model = screen.table.journal_model
        await until(lambda: model.rowCount() == PAGE_ROWS and not screen.tasks.running("load"))
        assert screen.summary.text() == "5000 operations · 16.670 points credited"
        assert journal.rows_read == PAGE_ROWS  # the newest page, not the day

        # Scrolling to the end reads the next page, and only it.
        screen.table.scrollToBottom()
        await until(lambda: model.rowCount() == 2 * PAGE_ROWS and not model.fetching)
        assert journal.rows_read == 2 * PAGE_ROWS
        assert model.canFetchMore(QModelIndex())

        # A credit through the counter (and its outbox): one row read back, one inserted.
        client = sim_world.merchants[1].tables["clients"][1]
        session.set_client(await session.api.search_client(client["email"]))
        inserted: list[tuple[int, int]] = []
        model.rowsInserted.connect(lambda _p, first, last: inserted.append((first, last)))
        read_before = journal.rows_read
        AsyncJournal.today = counted_today  # type: ignore[method-assign]
        try:
            flow = CreditFlow(session)
            flow.sale.set_amount_text("1500")
            await flow.preview()
            await flow.credit()
            await until(lambda: model.rowCount() == 2 * PAGE_ROWS + 1)
            await until(lambda: screen.summary.text().startswith("5001 operations"))
            # Settled (sent by the outbox's sender): Today shows it, read again by id.
            await until(lambda: model.entries[0].outcome is Outcome.OK)
            await until(lambda: not screen.feed.catching and not screen.feed.waiting)
        finally:
            AsyncJournal.today = original_today  # type: ignore[method-assign]
        assert inserted == [(0, 0)]
        assert model.entries[0].kind is OperationKind.CREDIT
        # Only the credit's row was read again (pending, then settled: at most twice).
        assert 1 <= journal.rows_read - read_before <= 2
        assert whole_day == []
        screen.tasks.cancel_all()

    arun(scenario())
