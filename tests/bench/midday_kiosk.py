"""One real start of the demo kiosk and a cashier's first taps after ready: the child
process of ``tests/bench/midday_taps.py`` (its doc says what is measured and how).

    LOYALTY_KIOSK_HOME=FOLDER python tests/bench/midday_kiosk.py OUT.json [--first-tap S]
        [--hold 2] [--interval-ms 5] [--stacks] [--daily] [--profile SORT]

Runs ``kiosk.__main__.main(["--demo"])`` with a hook on ``Counter.start_checks`` (at
"ready": the probe starts and the taps begin) and writes the figures to ``OUT.json``.
Exit 0 when the kiosk ended normally and logged no ERROR, 2 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import os
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

MEMBER_DNI = "30123456"  # Juan Carlos Pérez (docs/simulator.md, "Seed data")
AMOUNT = "1500"
BUDGET_MS = 16.0


# -- the child: one real start and the first taps ------------------------------------------
def child(args: argparse.Namespace) -> int:
    from PySide6.QtCore import QEvent, QObject, Qt, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QWidget

    import kiosk.wiring as wiring
    from tests.bench.ui_stall import LoopProbe, percentile

    class PaintWatch(QObject):
        """When a watched widget was first painted with its data: the loop's first turn
        after the first paint event of the widget or of one of its children that started
        with the data there (the frame drawn and flushed). An application-wide event
        filter: no ``QApplication.notify`` override (PySide6 can hand such an override a
        stale wrapper for the receiver, and the event then fails)."""

        def __init__(self) -> None:
            super().__init__()
            self.waits: list[tuple[QWidget, Callable[[], object], list[float]]] = []
            self.armed: list[list[float]] = []

        def expect(self, widget: QWidget, shown: Callable[[], object]) -> list[float]:
            ends: list[float] = []
            self.waits.append((widget, shown, ends))
            return ends

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if self.waits and event.type() == QEvent.Type.Paint and isinstance(watched, QWidget):
                for widget, shown, ends in self.waits:
                    if (
                        not any(armed is ends for armed in self.armed)
                        and (watched is widget or widget.isAncestorOf(watched))
                        and shown()
                    ):
                        self.armed.append(ends)
                        QTimer.singleShot(0, lambda ends=ends: ends.append(time.perf_counter()))
            return False

    app = QApplication(sys.argv[:1])
    paints = PaintWatch()
    app.installEventFilter(paints)
    probe = LoopProbe(args.interval_ms, stacks=args.stacks)
    result: dict[str, Any] = {"answers": {}}
    left = Qt.MouseButton.LeftButton

    async def until(predicate: Callable[[], object], what: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise RuntimeError(f"midday_taps: {what} not reached (step {probe.step})")
            await asyncio.sleep(0.005)

    async def answer(
        label: str, tap: Callable[[], None], widget: QWidget, shown: Callable[[], object]
    ) -> None:
        ends = paints.expect(widget, shown)
        probe.step = label
        started = time.perf_counter()
        tap()
        await until(lambda: ends, f"{label}: its screen painted with its data")
        paints.waits.clear()
        paints.armed.clear()
        result["answers"][label] = (ends[0] - started) * 1000

    async def keys(widget: QWidget, text: str) -> None:
        for char in text:  # one key per loop turn, as a scanner or a person types
            QTest.keyClicks(widget, char)
            await asyncio.sleep(0)

    async def drive(counter: Any) -> None:
        from kiosk.ui.shell import KioskWindow

        window = next(w for w in app.topLevelWidgets() if isinstance(w, KioskWindow))
        try:
            from kiosk.ui.main_window import CounterView
            from kiosk.ui.screens.identify.screen import IdentifyScreen
            from kiosk.ui.screens.points.screen import PointsScreen
            from kiosk.ui.screens.today.screen import TodayScreen

            view = window.centralWidget()
            assert isinstance(view, CounterView)
            session, outbox = counter.session, counter.outbox
            before = await outbox.status()
            result["pending_at_ready"] = before.pending
            result["window"] = [window.width(), window.height()]
            if args.first_tap:  # the cashier's first tap comes later (the warm-up done)
                probe.step = "before-first-tap"
                await asyncio.sleep(args.first_tap)

            # 1. identify by DNI
            probe.step = "identify-type"
            result["first_tap_tick"] = len(probe.ticks)  # the taps' own figures from here
            if not isinstance(view.current, IdentifyScreen):
                QTest.mouseClick(view.rail_buttons["identify"], left)
            identify = view.current
            assert isinstance(identify, IdentifyScreen)
            await keys(identify.field, MEMBER_DNI)

            def found() -> bool:
                client = session.client
                return (
                    client is not None
                    and client.document_number == MEMBER_DNI
                    and identify.pages.currentWidget() is identify.found
                )

            await answer(
                "identify",
                lambda: QTest.keyClick(identify.field, Qt.Key.Key_Return),
                identify.found,
                found,
            )
            # 2. Points: open, preview, credit
            await answer(
                "points",
                lambda: QTest.mouseClick(identify.found.points_button, left),
                view,  # (the Points screen may not be built yet)
                lambda: isinstance(view.current, PointsScreen),
            )
            points = view.current
            assert isinstance(points, PointsScreen)
            probe.step = "points-type"
            if not points.amount_tab.isChecked():
                QTest.mouseClick(points.amount_tab, left)
            await keys(points, AMOUNT)
            await answer(
                "preview",
                lambda: QTest.mouseClick(points.preview_button, left),
                points.preview_card,
                lambda: points.preview_card.isVisible() and not points.preview_button.busy,
            )
            probe.step = "points-armed"
            await until(lambda: points.credit_button.armed, "the credit button armed")
            await answer(
                "credit",
                lambda: QTest.mouseClick(points.credit_button, left),
                points.result,
                lambda: (
                    points.pages.currentWidget() is points.result and not points.credit_button.busy
                ),
            )
            outcome = points.flow.sale.outcome
            result["credit_points"] = None if outcome is None else outcome.points
            probe.step = "points-next"
            QTest.mouseClick(points.result.next, left)
            await until(lambda: points.pages.currentIndex() == 0, "a new sale")

            # 3. Today
            def today_shown() -> bool:
                screen = view.current
                return isinstance(screen, TodayScreen) and (
                    screen.table.journal_model.rowCount() > 0 or args.daily
                )

            await answer(
                "today",
                lambda: QTest.mouseClick(view.rail_buttons["today"], left),
                view,  # (Today may not be built yet)
                today_shown,
            )
            today = view.current
            assert isinstance(today, TodayScreen)
            result["today_rows"] = today.table.journal_model.rowCount()
            probe.step = "today-hold"  # Today on screen, kept current as the drain settles
            await asyncio.sleep(args.hold)
            # 4. Pending
            panel = today.pending_panel
            await answer(
                "pending",
                lambda: QTest.mouseClick(today.pending_tab, left),
                panel,
                lambda: (
                    today.stack.currentWidget() is panel
                    and (panel.table.rowCount() > 0 or args.daily)
                ),
            )
            result["pending_tab"] = today.pending_tab.text()
            if args.profile:
                profiler.disable()
            probe.step = "pending-hold"
            await asyncio.sleep(args.hold)
            probe.step = ""
            probe.stop()
            after = await outbox.status()
            result["pending_at_end"] = after.pending
            result["session_s"] = probe.ticks[-1][0] - probe.ticks[0][0]
        except BaseException as error:
            result["error"] = f"{type(error).__name__}: {error}"
            raise
        finally:
            if probe.timer.isActive():
                probe.stop()
            window.close()

    tasks: list[asyncio.Task[None]] = []
    profiler = cProfile.Profile()
    start_checks = wiring.Counter.start_checks

    def at_ready(counter: Any) -> None:
        start_checks(counter)
        if tasks:
            return
        probe.step = "ready"
        probe.start()
        if args.profile:
            profiler.enable()
        tasks.append(asyncio.get_running_loop().create_task(drive(counter)))

    wiring.Counter.start_checks = at_ready  # type: ignore[method-assign, assignment]
    from kiosk.__main__ import main as kiosk_main

    code = kiosk_main(["--demo"])
    log_file = Path(os.environ["LOYALTY_KIOSK_HOME"]) / "log" / "kiosk.log"
    lines = log_file.read_text().splitlines()
    errors = [n for n, line in enumerate(lines) if " ERROR " in line]
    if errors:  # the run is not the kiosk's normal life: say so, with the traceback
        trace = "\n".join(lines[errors[0] : errors[0] + 40])
        result.setdefault("error", f"{len(errors)} error(s) logged:\n{trace}")
    stalls = probe.stalls()
    values = sorted(s for s, _, _ in stalls)
    steps: dict[str, float] = {}
    for value, _, label in stalls:
        steps[label] = max(steps.get(label, 0.0), value)
    tapped = sorted(s for s, _, _ in stalls[max(0, result.get("first_tap_tick", 1) - 1) :])
    result.update(
        taps_max_ms=tapped[-1] if tapped else 0.0,
        taps_p99_ms=percentile(tapped, 0.99),
        taps_over=sum(1 for v in tapped if v > BUDGET_MS),
    )
    result.update(
        exit=code,
        samples=len(values),
        max_ms=values[-1] if values else 0.0,
        p99_ms=percentile(values, 0.99),
        over=sum(1 for v in values if v > BUDGET_MS),
        over_cpu=sum(1 for s, c, _ in stalls if s > BUDGET_MS and c > s / 2),
        worst=[(round(s, 1), round(c, 1), label) for s, c, label in sorted(stalls)[::-1][:5]],
        steps={k: round(v, 1) for k, v in steps.items()},
        stacks=[(round(late, 1), step, stack) for late, step, stack in probe.stacks],
        gc_max_ms=max((ms for ms, _, _ in probe.gc_pauses), default=0.0),
    )
    if args.profile:
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats(args.profile).print_stats(40)
        result["profile"] = text.getvalue()
    Path(args.json).write_text(json.dumps(result))
    return 0 if code == 0 and "error" not in result else 2


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", metavar="OUT.json")
    parser.add_argument("--first-tap", type=float, default=0.0)
    parser.add_argument("--hold", type=float, default=2.0)
    parser.add_argument("--interval-ms", type=int, default=5)
    parser.add_argument("--stacks", action="store_true")
    parser.add_argument("--daily", action="store_true")
    parser.add_argument("--profile", metavar="SORT")
    return child(parser.parse_args())


if __name__ == "__main__":
    raise SystemExit(main())
