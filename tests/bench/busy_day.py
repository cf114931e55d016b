"""A busy day at the counter (issue #16): nothing may get slower as the day fills up.

    python tests/bench/busy_day.py [--operations 10000] [--no-rss] [--trace FRAMES]

Starts the simulator in its own process on loopback (``python -m kiosk.sim --port 0
--controls``, rate limits off through ``/_sim/settings``) and seeds a real database
through the kiosk's own code (``Journal.record``, ``mark_canceled``, ``OutboxStore.add``
and ``settle``): 5,000 of today's operations of every kind and outcome (2,000 of them
pending credits waiting in the outbox, 500 dead letters), and 100,000 settled outbox
rows of earlier days. It builds the real counter (``LoyaltyClient`` over HTTP,
``DatabaseWorker``, ``CounterSession`` with its outbox and sender, ``build_view`` in a
``KioskWindow`` shown offscreen at 1280x800), warms it up, and measures:

- ``today_open_ms``: from the tap on Today's rail button to the end of the first paint
  of its table (Today was built by the warm-up and kept current since);
- ``credit_paint_ms``: one credit by amount on the Points screen, from its answer (the
  outbox row settled) to the end of the first paint of the Points screen after it, with
  Today's list current (its row read back and shown): the later of the two;
- ``pending_open_ms``: from the tap on "Pending" to the end of the first paint of the
  Pending list (2,000 waiting rows and 500 dead letters);
- ``rss_growth_mib`` over ``ops`` operations (identify, preview and credit by amount or
  by point items, an exchange for money every 25th, a cancel every tenth credit) run
  through the counter's core with the view alive and
  Today kept current, after a warm-up of 300: the kiosk process's resident memory
  growth (the simulator's data lives in its own process). ``--no-rss`` skips it and
  prints ``rss_growth_mib=nan ops=0``; ``--trace FRAMES`` also traces Python's
  allocations over the run and prints the ten sites that grew most (slower: not for
  the figure).

Each figure is the median of 5 runs (the tap measures: leaving Today between runs).
Its last line: ``busy_day: today_open_ms=X credit_paint_ms=Y pending_open_ms=Z
rss_growth_mib=W ops=N``. Budgets: X <= 50, Y <= 16, Z <= 50, W <= 10, N >= 10000.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sqlite3
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from kiosk.api.models.points import CreditClient, CreditRequest
from kiosk.api.ratelimit import RateLimiter, Rule
from kiosk.core.journal import Journal, OperationKind, Outcome
from kiosk.core.outbox.queue import Binding, JournalNote, Resolution, RowKind, RowState
from kiosk.core.outbox.store import OutboxStore
from tests.bench.outbox import control, simulator

KEY = "sim-demo-key"
MEMBER_EMAIL = "juan.perez@example.com"
TODAY_ROWS, PENDING_ROWS, DEAD_ROWS, SETTLED_ROWS = 5000, 2000, 500, 100_000
RUNS = 5
LEFT = Qt.MouseButton.LeftButton
BUDGETS = {"today_open_ms": 50.0, "credit_paint_ms": 16.0, "pending_open_ms": 50.0}


class OpenLimiter(RateLimiter):
    """No wait for a place (the simulator's rate limits are off for this bench)."""

    async def acquire(self, rule: Rule, key: str = "merchant", **_: Any) -> float:
        return 0.0


class PaintClock(QApplication):
    """Notes when the paint of a watched widget ends (``notify`` wraps every delivery)."""

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv)
        self.watched: dict[int, list[float]] = {}

    def watch(self, widget: QWidget) -> list[float]:
        return self.watched.setdefault(id(widget), [])

    def notify(self, receiver: QObject, event: QEvent) -> bool:
        paint = event.type() == QEvent.Type.Paint
        handled = super().notify(receiver, event)
        if paint:
            ends = self.watched.get(id(receiver))
            if ends is not None:
                ends.append(time.perf_counter())
        return handled


# -- seeding -----------------------------------------------------------------------------
def seed(conn: sqlite3.Connection, binding: Binding) -> None:
    """Today's operations, pending credits and dead letters, settled rows of past days."""
    journal = Journal(conn)
    store = OutboxStore(conn)
    kinds = (
        (OperationKind.CREDIT, Outcome.OK),
        (OperationKind.CREDIT, Outcome.ALREADY_CREDITED),
        (OperationKind.CREDIT, Outcome.FAILED),
        (OperationKind.EXCHANGE, Outcome.OK),
        (OperationKind.MONEY_EXCHANGE, Outcome.OK),
        (OperationKind.REDEEM, Outcome.OK),
        (OperationKind.ENROLLMENT, Outcome.OK),
        (OperationKind.CREDIT, Outcome.VOIDED),
    )
    direct = TODAY_ROWS - PENDING_ROWS - DEAD_ROWS
    conn.execute("BEGIN")
    for n in range(direct):
        kind, outcome = kinds[n % len(kinds)]
        external_id = f"b1-busy-{n:06d}"
        journal.record(
            kind,
            outcome,
            client=f"Cliente {n} · c***@example.com",
            external_id=external_id,
            points=100 + n % 50 if kind is OperationKind.CREDIT else -50,
            amount=Decimal("1500.00") if kind is OperationKind.CREDIT else None,
            ticket=str(n),
        )
        if n % 40 == 0 and kind is OperationKind.CREDIT and outcome is Outcome.OK:
            journal.mark_canceled(external_id)  # a canceled credit and its cancel's row
            journal.record(OperationKind.CANCEL, Outcome.OK, external_id=external_id, points=-100)
    conn.execute("COMMIT")
    now = time.time()
    for n in range(PENDING_ROWS + DEAD_ROWS):
        request = CreditRequest(
            f"b1-busy-q{n:06d}",
            CreditClient(email=f"bench{n % 50}@bench.example.org"),
            amount=float(500 + n % 900),
        )
        body = request.to_json(origin="external-integration", branch_id=binding.branch_id)
        note = JournalNote(client=f"b***{n}@bench.example.org", amount=Decimal("500"))
        row, _ = store.add(
            RowKind.CREDIT, str(request.external_id), body, binding, now=now, journal=note
        )
        if n >= PENDING_ROWS:
            store.settle(
                row.id,
                RowState.DEAD,
                Resolution.REJECTED,
                now=now,
                error_kind="bad_request",
                error="the client does not exist",
            )
    # Waiting in a long backoff (after an outage): listed, not sent during the run.
    conn.execute(
        "UPDATE outbox_rows SET next_attempt_at = ? WHERE state = ?",
        (now + 86400, RowState.PENDING.value),
    )
    conn.execute("BEGIN")
    past = now - 3 * 86400
    for n in range(SETTLED_ROWS):
        request = CreditRequest(
            f"b1-past-{n:07d}", CreditClient(email="old@bench.example.org"), amount=100.0
        )
        body = request.to_json(origin="external-integration", branch_id=binding.branch_id)
        store._insert(  # bulk: settled rows of past days (their journal rows are purged)
            RowKind.CREDIT,
            str(request.external_id),
            body,
            binding,
            past,
            False,
            None,
            "",
            state=RowState.DONE,
            resolution=Resolution.CREDITED,
        )
    conn.execute("COMMIT")


# -- the counter ---------------------------------------------------------------------------
async def until(predicate: Callable[[], object], what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise RuntimeError(f"busy_day: {what} not reached")
        await asyncio.sleep(0)


def first_after(ends: list[float], start: float) -> float | None:
    return next((t for t in ends if t > start), None)


async def measure_tap(
    app: PaintClock, button: QWidget, painted: QWidget, ready: Callable[[], object]
) -> float:
    """From a tap on ``button`` to the end of the first paint of ``painted`` once ready."""
    ends = app.watch(painted)
    ends.clear()
    start = time.perf_counter()
    QTest.mouseClick(button, LEFT)
    await until(lambda: ready() and first_after(ends, start) is not None, "a paint")
    end = first_after(ends, start)
    assert end is not None
    return (end - start) * 1000


def print_growth(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot, ops: int) -> None:
    """Where Python's memory grew over the operations (``--trace``): the ten biggest
    sites, by the stack of their allocation (Qt's own C++ memory is not traced)."""
    ignored = (tracemalloc.Filter(False, tracemalloc.__file__),)
    stats = after.filter_traces(ignored).compare_to(before.filter_traces(ignored), "traceback")
    total = sum(stat.size_diff for stat in stats)
    print(f"traced Python growth: {total / 2**20:.2f} MiB ({total / max(1, ops):.0f} B/op)")
    for stat in stats[:10]:
        print(f"  {stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks")
        for line in stat.traceback.format()[-6:]:
            print(f"      {line}")


def print_timers(loop: asyncio.AbstractEventLoop) -> None:
    """The event loop's timers still registered (``--trace``): qasync keeps a cancelled
    timer's handle until its delay has passed, so what is cancelled often with a long
    delay piles up."""
    timer = getattr(loop, "_timer", None)
    handles = dict(getattr(timer, "_SimpleTimer__callbacks", {}))
    kinds: dict[tuple[str, bool], int] = {}
    for handle in handles.values():
        callback = getattr(handle, "_callback", None)
        name = getattr(callback, "__qualname__", repr(callback))
        owner = getattr(callback, "__self__", None)
        if isinstance(owner, asyncio.Task):
            name = f"{name} of {owner.get_coro().__qualname__}"  # type: ignore[union-attr]
        key = (name, bool(getattr(handle, "_cancelled", False)))
        kinds[key] = kinds.get(key, 0) + 1
    print(f"event-loop timers registered: {len(handles)}")
    for (name, cancelled), count in sorted(kinds.items(), key=lambda kv: -kv[1])[:8]:
        print(f"  {count:6d} {'cancelled ' if cancelled else ''}{name}")


def rss_mib() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def run(args: argparse.Namespace, url: str, home: Path, app: PaintClock) -> dict[str, Any]:
    from kiosk.api.client import LoyaltyClient
    from kiosk.core.amounts import AmountLocale
    from kiosk.core.counter.cancel import cancel_credit
    from kiosk.core.counter.credit import CreditFlow
    from kiosk.core.counter.rewards import exchange_money, journal_exchange
    from kiosk.core.counter.sale import SaleMode
    from kiosk.core.db import DatabaseWorker
    from kiosk.core.journal import AsyncJournal
    from kiosk.core.session import BranchInfo, CounterSession, SessionConfig
    from kiosk.ui.counter import build_view
    from kiosk.ui.screens.points.screen import PointsScreen
    from kiosk.ui.screens.today.screen import TodayScreen
    from kiosk.ui.shell import KioskWindow
    from kiosk.wiring import start_outbox
    from tests.bench.counter_script import Cashier, identify_member

    lister = LoyaltyClient(url, KEY)
    try:
        branch = (await lister.list_branches())[0]
    finally:
        await lister.aclose()
    binding = Binding.of("training", url, KEY, branch.id)
    worker = DatabaseWorker(home / "kiosk.sqlite3")
    await worker.start()
    started = time.perf_counter()
    await worker.run(lambda conn: seed(conn, binding))
    print(f"seeded in {time.perf_counter() - started:.1f} s", flush=True)
    # The simulator's limits are off: the kiosk's own limiter (10/s, the contract's) too,
    # or 10,000 operations would take 40 minutes; every other part is the counter's.
    api = LoyaltyClient(url, KEY, branch_id=branch.id, limiter=OpenLimiter())
    config = SessionConfig(
        environment="training",
        branch=BranchInfo(branch.id, branch.name or ""),
        kiosk_id="0bda7e16",
        locale=AmountLocale.ES_AR,
        idle_timeout_seconds=3600,
    )
    session = CounterSession(api, AsyncJournal(worker), config)
    outbox, make_sender = await start_outbox(session, worker, binding, KEY, lambda: None)
    sender = make_sender()
    window = KioskWindow()
    window.resize(1280, 800)
    window.show()
    view = build_view(session)
    window.setCentralWidget(view)
    figures: dict[str, Any] = {}
    try:
        await view.load()
        sender.start()
        view.warm_up()
        await until(lambda: len(view.screens) == len(view.specs), "every screen built", 60)
        await until(
            lambda: not any(s.tasks.running("preload") for s in view.screens.values()),
            "every screen preloaded",
            60,
        )
        today = view.screens["today"]
        assert isinstance(today, TodayScreen)
        model = today.table.journal_model
        await until(lambda: model.rowCount() > 0, "Today's first page", 60)
        cashier = Cashier(view, None, 30.0)

        # (a) Today's opening, from the tap to the table's first paint.
        opens = []
        for _ in range(RUNS):
            await cashier.rail("identify", QWidget)  # type: ignore[type-abstract]
            await asyncio.sleep(0.05)
            opens.append(
                await measure_tap(
                    app, view.rail_buttons["today"], today.table.viewport(), lambda: True
                )
            )
        figures["today_open_ms"] = statistics.median(opens)

        # (c) the Pending list's opening.
        panel = today.pending_panel
        pendings = []
        for _ in range(RUNS):
            QTest.mouseClick(today.today_tab, LEFT)
            await until(lambda: today.stack.currentWidget() is not panel, "Today's list")
            await asyncio.sleep(0.05)
            pendings.append(
                await measure_tap(
                    app,
                    today.pending_tab,
                    panel.table.viewport(),
                    lambda: today.stack.currentWidget() is panel,
                )
            )
        figures["pending_open_ms"] = statistics.median(pendings)
        QTest.mouseClick(today.today_tab, LEFT)

        # (b) one credit's answer to the paint, Today kept current.
        await identify_member(cashier, session)
        points = cashier.shown(PointsScreen)
        settled: list[float] = []
        outbox.settled.connect(lambda _s: settled.append(time.perf_counter()))
        shown: list[tuple[int, float]] = []
        model.rowsInserted.connect(lambda *_: shown.append((0, time.perf_counter())))
        model.dataChanged.connect(lambda *_: shown.append((1, time.perf_counter())))
        paints = app.watch(points)
        credits = []
        for n in range(RUNS):
            if not points.amount_tab.isChecked():
                QTest.mouseClick(points.amount_tab, LEFT)
            QTest.keyClicks(points, str(1000 + n))
            await cashier.tap(points.preview_button)
            await until(lambda: points.credit_button.armed, "credit armed")
            settled.clear()
            shown.clear()
            paints.clear()
            await cashier.tap(points.credit_button)
            await until(lambda: points.pages.currentWidget() is points.result, "result")
            await until(lambda: settled and any(k == 1 for k, _ in shown), "Today current")
            answer = settled[0]
            await until(lambda a=answer: first_after(paints, a) is not None, "a paint")
            painted = first_after(paints, answer)
            assert painted is not None
            current = max(t for _, t in shown)
            credits.append((max(painted, current) - answer) * 1000)
            await cashier.tap(points.result.next)
            await until(lambda: points.pages.currentIndex() == 0, "a new sale")
        figures["credit_paint_ms"] = statistics.median(credits)
        print(
            "runs (ms): today_open {} | pending_open {} | credit_paint {}".format(
                *(" ".join(f"{v:.1f}" for v in runs) for runs in (opens, pendings, credits))
            ),
            flush=True,
        )

        # (d) memory over many operations.
        figures["rss_growth_mib"], figures["ops"] = float("nan"), 0
        if not args.no_rss:
            member = session.client
            assert member is not None

            items = (await session.api.list_point_items(branch_id=branch.id, limit=10)).items
            item_ids = [item.id for item in items]
            assert item_ids, "the simulator's branch has no point items"

            async def operation(n: int) -> None:
                if n % 3 == 0:  # identify again
                    session.set_client(await session.api.search_client(MEMBER_EMAIL))
                client = session.client
                assert client is not None
                if n % 25 == 12:  # an exchange for money, in Today as a debit
                    done = await session.call(
                        lambda: exchange_money(session.api, client, Decimal(500 + n % 50))
                    )
                    await journal_exchange(session.journal, client, done)
                    return
                flow = CreditFlow(session)
                if n % 4 == 1:  # by point items: two units of one, one of another
                    flow.sale.set_mode(SaleMode.ITEMS)
                    first = item_ids[n % len(item_ids)]
                    for item_id in (first, first, item_ids[(n + 1) % len(item_ids)]):
                        flow.sale.add_item(item_id)
                else:
                    flow.sale.set_amount_text(str(100 + n % 900))
                await flow.preview()
                outcome = await flow.credit()
                if n % 10 == 9 and outcome.external_id:
                    entry = await session.journal.find_credit(outcome.external_id)
                    if entry is not None:
                        await cancel_credit(session, entry)

            warm = 300
            for n in range(warm):
                await operation(n)
            gc.collect()
            if args.trace:
                tracemalloc.start(args.trace)
            traced = tracemalloc.take_snapshot() if args.trace else None
            before = rss_mib()
            started = time.perf_counter()
            for n in range(warm, warm + args.operations):
                await operation(n)
                if n % 1000 == 0:
                    print(f"  {n - warm} ops, rss {rss_mib():.1f} MiB", flush=True)
            gc.collect()
            await asyncio.sleep(0.2)
            figures["rss_growth_mib"] = rss_mib() - before
            if traced is not None:
                print_growth(traced, tracemalloc.take_snapshot(), args.operations)
                tracemalloc.stop()
                print_timers(asyncio.get_running_loop())
                # The requests' deadlines (10 s, 20 s for a point operation) pass: what
                # is still registered then would be a pile-up, not the day's traffic.
                await asyncio.sleep(21)
                print("after 21 s without operations:", end=" ")
                print_timers(asyncio.get_running_loop())
            figures["ops"] = args.operations
            figures["ops_seconds"] = time.perf_counter() - started
            figures["today_rows"] = model.rowCount()
    finally:
        await sender.stop()
        view.shutdown()
        await api.aclose()
        await worker.close()
        window.close()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--operations", type=int, default=10_000)
    parser.add_argument("--no-rss", action="store_true", help="skip the memory run (d)")
    parser.add_argument(
        "--trace",
        type=int,
        default=0,
        metavar="FRAMES",
        help="trace Python's allocations over (d) and print the sites that grew",
    )
    args = parser.parse_args()

    import qasync

    from kiosk.ui.theme import apply_theme

    load_before = os.getloadavg()
    app = PaintClock(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)
    apply_theme(app, "light")
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with simulator() as url:
        control(url, "/_sim/settings", {"rate_limits": False})
        print(f"simulator {url} (own process, rate limits off); {datetime.now(UTC):%Y-%m-%d}")
        with tempfile.TemporaryDirectory(prefix="kiosk-busy-") as home, loop:
            figures = loop.run_until_complete(run(args, url, Path(home), app))
    print(
        "load average before: {:.2f} {:.2f} {:.2f}; after: {:.2f} {:.2f} {:.2f}".format(
            *load_before, *os.getloadavg()
        )
    )
    if figures.get("ops"):
        print(
            f"{figures['ops']} operations in {figures['ops_seconds']:.0f} s; "
            f"Today holds {figures['today_rows']} rows"
        )
    over = [k for k, budget in BUDGETS.items() if figures[k] > budget]
    print(f"over budget: {', '.join(over) or 'none'}")
    print(
        "busy_day: today_open_ms={:.1f} credit_paint_ms={:.1f} pending_open_ms={:.1f} "
        "rss_growth_mib={:.1f} ops={}".format(
            figures["today_open_ms"],
            figures["credit_paint_ms"],
            figures["pending_open_ms"],
            figures["rss_growth_mib"],
            figures["ops"],
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
