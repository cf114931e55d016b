"""A restart in the middle of a busy day (issue #16, item 3), and the counter's close.

Seeded versions of ``tests/bench/startup.py``'s mid-day start and
``tests/bench/midday_taps.py`` (correctness, not timing): the demo kiosk's own
``build_counter`` on a data folder holding today's operations, pending credits and dead
letters of its own binding reaches ready with Today's newest rows and the pending
count; and closing the counter while the outbox's sender settles rows never lets a
screen read the database after it was closed (``kiosk.app.stop_counter``).
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from kiosk.api.models.points import CreditClient, CreditRequest
from kiosk.app import stop_counter
from kiosk.core.journal import Journal, OperationKind, Outcome
from kiosk.core.outbox.queue import Binding, JournalNote, Resolution, RowKind, RowState
from kiosk.core.outbox.store import OutboxStore
from kiosk.core.settings.layers import load_settings
from kiosk.core.settings.paths import KioskPaths, resolve_paths
from kiosk.ui.counter import build_view
from kiosk.ui.screens.today.model import PAGE_ROWS
from kiosk.ui.screens.today.screen import TodayScreen
from kiosk.wiring import build_counter
from tests.qt_async import until

TODAY, PENDING, DEAD = 300, 40, 5


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("LOYALTY_KIOSK_HOME", str(tmp_path))
    monkeypatch.setenv("LOYALTY_KIOSK_MACHINE_SETTINGS", str(tmp_path / "machine.ini"))
    return tmp_path


def seed(conn: sqlite3.Connection, binding: Binding, *, due: bool) -> None:
    """Today's operations, pending credits (due now or in a day) and dead letters,
    through the kiosk's own journal and outbox (as ``tests/bench/busy_day.seed``)."""
    journal, store = Journal(conn), OutboxStore(conn)
    for n in range(TODAY - PENDING - DEAD):
        journal.record(
            OperationKind.CREDIT,
            Outcome.OK,
            client=f"Cliente {n} · c***@example.com",
            external_id=f"b1-busy-{n:06d}",
            points=100,
            amount=Decimal("1500.00"),
        )
    now = time.time()
    for n in range(PENDING + DEAD):
        request = CreditRequest(
            f"b1-busy-q{n:06d}", CreditClient(email="juan.perez@example.com"), amount=500.0
        )
        body = request.to_json(origin="external-integration", branch_id=binding.branch_id)
        note = JournalNote(client="j***@example.com", amount=Decimal("500"))
        row, _ = store.add(
            RowKind.CREDIT, str(request.external_id), body, binding, now=now, journal=note
        )
        if n >= PENDING:
            store.settle(row.id, RowState.DEAD, Resolution.REJECTED, now=now, error="no")
    if not due:
        conn.execute("UPDATE outbox_rows SET next_attempt_at = ?", (now + 86_400,))


async def seeded_counter(paths: KioskPaths, *, due: bool) -> Any:
    """The demo's counter, its database seeded with rows of its own binding."""
    counter = await build_counter(load_settings(paths), paths, demo=True)
    assert counter.outbox is not None
    binding = counter.outbox.binding
    await counter.worker.run(lambda conn: seed(conn, binding, due=due))
    return counter


def test_a_midday_restart_opens_on_the_newest_rows_and_the_pending_count(
    home: Path, qtbot: QtBot, arun: Callable[..., Any]
) -> None:
    paths = resolve_paths()

    async def first_start() -> None:
        counter = await seeded_counter(paths, due=False)
        await counter.close()

    arun(first_start())

    async def restart() -> tuple[int, int, int, str]:
        counter = await build_counter(load_settings(paths), paths, demo=True)
        view = build_view(counter.session)
        qtbot.addWidget(view)
        view.resize(1280, 800)
        view.show()
        try:
            await view.load()  # "ready": the status bar shows what waits
            shown = view.status.pending_count, view.status.dead_count, view.status.pending.text()
            view.show_screen("today")
            today = view.current
            assert isinstance(today, TodayScreen)
            model = today.table.journal_model
            await until(lambda: model.rowCount() > 0 and not today.tasks.running("load"))
            return model.rowCount(), *shown
        finally:
            await stop_counter(counter, view)

    rows, pending, dead, text = arun(restart())
    assert rows == PAGE_ROWS  # the newest page, not the whole day
    assert (pending, dead) == (PENDING, DEAD)
    assert text == f"{PENDING} pending · {DEAD} refused"


def test_closing_while_the_sender_settles_never_reads_a_closed_database(
    home: Path, qtbot: QtBot, arun: Callable[..., Any]
) -> None:
    """A row settled as the kiosk closes is announced to Today, which reads it back: the
    screens stop only after that, the database after them (an ERROR log fails this)."""
    paths = resolve_paths()

    async def scenario() -> int:
        counter = await seeded_counter(paths, due=True)
        view = build_view(counter.session)
        qtbot.addWidget(view)
        await view.load()
        view.show_screen("today")
        today = view.current
        assert isinstance(today, TodayScreen)
        await until(lambda: today.feed.opened and not today.tasks.running("load"))
        counter.start_checks()  # the sender drains the pending credits
        settled: list[object] = []
        second: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def on_settled(settlement: object) -> None:
            settled.append(settlement)
            if len(settled) == 2 and not second.done():
                second.set_result(None)

        assert counter.outbox is not None
        counter.outbox.settled.connect(on_settled)
        await asyncio.wait_for(second, 20)
        # The window closes as a row settles: its announcement to Today is in flight.
        await stop_counter(counter, view)
        await asyncio.sleep(0.05)  # anything started after the stop would run (and fail) now
        assert not counter.worker.started
        return len(settled)

    assert arun(scenario()) >= 2
