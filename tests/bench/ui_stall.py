"""Event-loop stalls of the real counter during a scripted cashier's session (issue #4).

    python tests/bench/ui_stall.py [--interval-ms 5] [--no-rotation] [--stacks]
                                   [--events] [--timeline] [--profile STEP] [--json FILE]
                                   [--marks FILE] [--repaint N]

Starts the simulator in a separate process over loopback (``python -m kiosk.sim --port 0
--controls``, real rate limits: the session stays within them, they never make it
wait), builds the real counter (``LoyaltyClient`` over HTTP, ``DatabaseWorker`` in a
temporary folder, ``CounterSession``, ``build_view`` in a ``KioskWindow`` shown offscreen
at 1280x800, light theme), warms it up (every screen built and preloaded), then runs
``tests/bench/counter_script.py`` (one code rotation awaited in real time: ~1 minute)
with a probe on the Qt event loop:

- a precise ``QTimer`` every ``--interval-ms`` records when it really fires
  (``time.perf_counter``); a stall is how much later than its interval a tick came:
  how long the loop could not run its timers. The UI thread's CPU time
  (``time.thread_time``) over the same gap tells work on the UI thread (cpu close to
  the stall) from waiting (descheduled on a loaded machine, blocked on I/O or the GIL);
- Python's garbage-collector pauses and modules imported during the session;
- ``--stacks``: a watchdog thread samples the UI thread's Python stack when a tick is
  over 12 ms late (and the other threads' stacks: who held the GIL); ``--events``: ``QApplication.notify`` timed (the slowest event
  deliveries and their receivers); ``--profile STEP``: cProfile around one step;
  ``--marks FILE``: each step's start on ``CLOCK_MONOTONIC`` with the UI thread's id, to
  cut a ``perf record -k CLOCK_MONOTONIC --call-graph dwarf`` of the run to the
  session (``perf report --tid ID --time START,END``): how Qt's C++ spends the turns;
  ``--timeline``: what ran inside the three worst stalls (``tests/bench/timeline.py``);
  ``--repaint N``: full repaints of the window timed in each state
  (``tests/bench/repaint_probe.py``; the stall figures of such a run mean nothing).

Prints samples, max stall, p99, p95, stalls over 16 ms, the five worst with the step
in progress, per-step figures, the load average and the time of a fixed Python loop
(this shared machine's speed varies by a third or more over a day: compare runs by
it). Budget: no stall over 16 ms (wall time, what the cashier sees). Exit 0 within
budget, 1 over, 2 if the session failed.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import json
import os
import platform
import pstats
import re
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import Qt, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from tests.bench.repaint_probe import RepaintTimer  # noqa: E402
from tests.bench.timeline import Timeline  # noqa: E402

SERVING = re.compile(r"serving (http://\S+)")
BUDGET_MS = 16.0
STACK_AFTER_MS = 12.0

Tick = tuple[float, float, str]  # perf_counter, UI thread CPU time, step


class LoopProbe:
    """Timer ticks (with the UI thread's CPU time), GC pauses, imports, stall stacks."""

    def __init__(self, interval_ms: int, *, stacks: bool) -> None:
        self.interval = interval_ms / 1000
        self.step = ""
        self.ticks: list[Tick] = []
        self.gc_pauses: list[tuple[float, int, str]] = []  # ms, generation, step
        self.imports: list[tuple[str, str]] = []  # module, step
        self.stacks: list[tuple[float, str, str]] = []  # ms late, step, stack
        self.marks: list[str] = []  # each step's start: monotonic s, UI thread id, step
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)
        self._modules: set[str] = set()
        self._gc_start = 0.0
        self._want_stacks = stacks
        self._watching = False

    def start(self) -> None:
        self._modules = set(sys.modules)
        gc.callbacks.append(self._gc)
        self._tick()
        self.timer.start()
        if self._want_stacks:
            self._watching = True
            threading.Thread(target=self._watch, name="stall-watch", daemon=True).start()

    def stop(self) -> None:
        self.timer.stop()
        self._watching = False
        gc.callbacks.remove(self._gc)

    def _tick(self) -> None:
        self.ticks.append((time.perf_counter(), time.thread_time(), self.step))
        if len(sys.modules) != len(self._modules):  # an import on the UI thread
            self.imports += [(name, self.step) for name in set(sys.modules) - self._modules]
            self._modules = set(sys.modules)

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._gc_start = now
        else:
            self.gc_pauses.append(((now - self._gc_start) * 1000, info["generation"], self.step))

    def _watch(self) -> None:
        main, seen = threading.main_thread().ident, 0.0
        me = threading.get_ident()
        while self._watching:
            time.sleep(0.002)
            last = self.ticks[-1][0]
            late = (time.perf_counter() - last - self.interval) * 1000
            frames = sys._current_frames()
            frame = frames.get(main or 0)
            if late > STACK_AFTER_MS and last != seen and frame is not None:
                seen = last
                stack = "".join(traceback.format_stack(frame, limit=14))
                names = {t.ident: t.name for t in threading.enumerate()}
                for ident, other in frames.items():  # who else holds the GIL?
                    if ident not in (main, me):
                        name = names.get(ident, str(ident))
                        stack += f"  -- thread {name}:\n"
                        stack += "".join(traceback.format_stack(other, limit=6))
                self.stacks.append((late, self.step, stack))

    # -- figures -------------------------------------------------------------------
    def worst_gaps(self, count: int) -> list[tuple[float, float, float, str]]:
        """The ``count`` longest stalls: (ms late, gap start, gap end, step label)."""
        gaps = [
            (stall, t0, t1, label)
            for (stall, _, label), (t0, _, _), (t1, _, _) in zip(
                self.stalls(), self.ticks, self.ticks[1:], strict=False
            )
        ]
        return sorted(gaps, reverse=True)[:count]

    def stalls(self) -> list[tuple[float, float, str]]:
        """(ms beyond the interval, UI-thread CPU ms in that gap, step) per tick."""
        out = []
        for (t0, c0, a), (t1, c1, b) in zip(self.ticks, self.ticks[1:], strict=False):
            label = a if a == b else f"{a or '-'} -> {b or '-'}"
            out.append((max(0.0, (t1 - t0 - self.interval) * 1000), (c1 - c0) * 1000, label))
        return out

    def summary(self) -> dict[str, Any]:
        stalls = self.stalls()
        values = sorted(s for s, _, _ in stalls)
        steps: dict[str, list[float]] = {}
        for value, _, label in stalls:
            steps.setdefault(label, []).append(value)
        return {
            "interval_ms": self.interval * 1000,
            "samples": len(values),
            "max_ms": values[-1] if values else 0.0,
            "p99_ms": percentile(values, 0.99),
            "p95_ms": percentile(values, 0.95),
            "over_budget": sum(1 for v in values if v > BUDGET_MS),
            "over_budget_cpu_bound": sum(1 for s, c, _ in stalls if s > BUDGET_MS and c > s / 2),
            "worst": [
                {"ms": round(s, 1), "cpu_ms": round(c, 1), "step": label}
                for s, c, label in sorted(stalls, reverse=True)[:5]
            ],
            "steps": {k: {"ticks": len(v), "max_ms": round(max(v), 1)} for k, v in steps.items()},
            "gc_collections": len(self.gc_pauses),
            "gc_max_ms": round(max((ms for ms, _, _ in self.gc_pauses), default=0.0), 2),
            "imports": self.imports,
        }


def percentile(values: list[float], share: float) -> float:
    return values[min(len(values) - 1, int(share * len(values)))] if values else 0.0


class TimedApplication(QApplication):
    """``notify`` timed: every event delivery over 3 ms, with its receiver (``--events``)."""

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv)
        self.step = ""
        self.depth = 0
        self.slow: list[tuple[float, int, str, str]] = []  # ms, nesting depth, what, step
        self.timeline: Timeline | None = None  # --timeline: every top-level delivery

    def notify(self, receiver: Any, event: Any) -> bool:
        self.depth += 1
        started = time.perf_counter()
        try:
            return bool(super().notify(receiver, event))
        finally:
            self.depth -= 1
            ended = time.perf_counter()
            ms = (ended - started) * 1000
            if ms > 3 or (self.timeline is not None and self.depth == 0):
                kind = type(receiver).__name__
                what = f"{event.type().name} -> {receiver.objectName() or kind} ({kind})"
                if ms > 3:
                    self.slow.append((ms, self.depth, what, self.step))
                if self.timeline is not None and self.depth == 0:
                    self.timeline.add(started, ended, what)


class StepProfiler:
    """cProfile enabled while the script is in one step (``--profile``)."""

    def __init__(self, step: str | None) -> None:
        self.step, self.profile, self.active = step, cProfile.Profile(), False

    def on_step(self, label: str) -> None:
        if self.step is not None and (label == self.step) != self.active:
            self.active = not self.active
            (self.profile.enable if self.active else self.profile.disable)()

    def text(self, limit: int = 25) -> str:
        out = io.StringIO()
        stats = pstats.Stats(self.profile, stream=out)
        stats.sort_stats("cumulative").print_stats(limit)
        stats.sort_stats("tottime").print_stats(limit)
        return out.getvalue()


def report(probe: LoopProbe, record: Any) -> str:
    s = probe.summary()
    lines = [
        f"samples: {s['samples']} (a {s['interval_ms']:.0f} ms timer)",
        f"max stall: {s['max_ms']:.1f} ms   p99: {s['p99_ms']:.2f} ms   p95: {s['p95_ms']:.2f} ms",
        f"stalls > {BUDGET_MS:.0f} ms: {s['over_budget']} "
        f"({s['over_budget_cpu_bound']} with the UI thread on the CPU most of the stall)",
        "worst stalls (UI-thread CPU during the stall):",
        *(f"  {w['ms']:7.1f} ms  (cpu {w['cpu_ms']:5.1f})  {w['step']}" for w in s["worst"]),
        f"GC: {s['gc_collections']} collections, longest {s['gc_max_ms']:.1f} ms",
    ]
    by_step: dict[str, list[str]] = {}
    for name, step in sorted(probe.imports):
        by_step.setdefault(step, []).append(name)
    lines += [f"imported during [{step}]: {', '.join(names)}" for step, names in by_step.items()]
    app = QApplication.instance()
    if isinstance(app, TimedApplication):
        lines.append("slowest event deliveries (QApplication.notify; d = nesting depth):")
        slow = sorted((e for e in app.slow if e[3]), reverse=True)[:15]
        lines += [f"  {ms:7.1f} ms  d{depth} {what}  [{step}]" for ms, depth, what, step in slow]
    if record is not None:
        lines.append("steps: seconds, ticks, max stall")
        for step, seconds in record.step_seconds.items():
            f = s["steps"].get(step, {"ticks": 0, "max_ms": 0.0})
            lines.append(f"  {step:22s} {seconds:6.2f} s {f['ticks']:6d} {f['max_ms']:7.1f} ms")
    for late, step, stack in probe.stacks[:10]:
        lines.append(f"-- UI thread {late:.0f} ms late in {step}:\n{stack}")
    ok = s["max_ms"] <= BUDGET_MS
    lines.append("within budget" if ok else f"OVER BUDGET (a stall over {BUDGET_MS:.0f} ms)")
    return "\n".join(lines)


def reference_work_ms() -> float:
    """A fixed pure-Python loop (best of five): how fast this (shared) machine runs now.
    The stalls scale with it; compare runs by it."""
    best = float("inf")
    for _ in range(5):
        started = time.perf_counter()
        sum(i * i for i in range(200_000))
        best = min(best, (time.perf_counter() - started) * 1000)
    return best


def start_simulator() -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "kiosk.sim", "--port", "0", "--controls"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    match = SERVING.search(line)
    if match is None:
        process.kill()
        raise SystemExit(f"the simulator did not start: {line!r}")
    return process, match.group(1)


async def wait_for(predicate: Any, what: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise SystemExit(f"warm-up: {what} not reached")
        await asyncio.sleep(0.01)


async def session_run(
    args: argparse.Namespace, url: str, home: Path
) -> tuple[LoopProbe, LoopProbe, StepProfiler, Any, int]:
    import httpx

    from kiosk.api.client import LoyaltyClient
    from kiosk.core.amounts import AmountLocale
    from kiosk.core.db import DatabaseWorker
    from kiosk.core.journal import AsyncJournal
    from kiosk.core.session import BranchInfo, CounterSession, SessionConfig
    from kiosk.sim import DEFAULT_API_KEY
    from kiosk.ui.counter import build_view
    from kiosk.ui.shell import KioskWindow
    from tests.bench.counter_script import StepFailed, run_counter_session

    lister = LoyaltyClient(url, DEFAULT_API_KEY)
    try:
        first = (await lister.list_branches())[0]
    finally:
        await lister.aclose()
    api = LoyaltyClient(url, DEFAULT_API_KEY, branch_id=first.id)
    worker = DatabaseWorker(home / "kiosk.sqlite3")
    await worker.start()
    config = SessionConfig(
        environment="training",
        branch=BranchInfo(first.id, first.name or ""),
        kiosk_id="0a1b2c3d",
        locale=AmountLocale.ES_AR,
        idle_timeout_seconds=600,  # the code rotation waits a real minute without input
    )
    session = CounterSession(api, AsyncJournal(worker), config)
    window = KioskWindow()
    window.resize(1280, 800)
    window.show()
    view = build_view(session)
    window.setCentralWidget(view)
    controls = httpx.AsyncClient(base_url=url)

    async def advance_clock(seconds: float) -> None:
        (await controls.post("/_sim/clock", json={"advance": seconds})).raise_for_status()

    probe = LoopProbe(args.interval_ms, stacks=args.stacks)
    warm = LoopProbe(args.interval_ms, stacks=False)
    profiler = StepProfiler(args.profile)
    repaints = RepaintTimer(window, args.repaint) if args.repaint else None

    def on_step(label: str) -> None:
        # (CLOCK_MONOTONIC, as `perf record -k CLOCK_MONOTONIC`; written by main())
        probe.marks.append(f"{time.monotonic():.6f} {threading.get_native_id()} {label}\n")
        probe.step = label
        profiler.on_step(label)
        if repaints is not None:
            repaints.measure(label)
        app = QApplication.instance()
        if isinstance(app, TimedApplication):
            app.step = label
            if app.timeline is not None:
                app.timeline.step = label

    record, status = None, 0
    try:
        await view.load()
        warm.step = "(warm-up)"  # not in the budget: the figures are printed apart
        warm.start()
        view.warm_up()
        await wait_for(lambda: len(view.screens) == len(view.specs), "every screen built")
        await wait_for(
            lambda: not any(s.tasks.running("preload") for s in view.screens.values()),
            "every screen preloaded",
        )
        warm.stop()
        probe.start()
        try:
            record = await run_counter_session(
                view,
                session,
                on_step=on_step,
                advance_clock=advance_clock,
                wait_rotation=not args.no_rotation,
            )
        except StepFailed as failure:
            print(f"SESSION FAILED: {failure}", file=sys.stderr)
            status = 2
        finally:
            probe.stop()
            profiler.on_step("")
    finally:
        view.shutdown()
        await controls.aclose()
        await api.aclose()
        await worker.close()
        window.close()
    if repaints is not None:
        print(repaints.text())
    return probe, warm, profiler, record, status


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interval-ms", type=int, default=5)
    parser.add_argument("--no-rotation", action="store_true", help="do not await a new code")
    parser.add_argument(
        "--marks", metavar="FILE", help="write each step's start (monotonic s) for perf"
    )
    parser.add_argument("--stacks", action="store_true", help="sample the UI stack in stalls")
    parser.add_argument("--events", action="store_true", help="time every event delivery")
    parser.add_argument(
        "--timeline", action="store_true", help="what ran in the worst stalls (events, callbacks)"
    )
    parser.add_argument("--profile", metavar="STEP", help="cProfile one step of the script")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument(
        "--repaint",
        type=int,
        metavar="N",
        default=0,
        help="time N full repaints of the window at each step (stall figures then invalid)",
    )
    args = parser.parse_args()

    import qasync
    from PySide6 import __version__ as pyside_version

    from kiosk.ui.theme import apply_theme

    load_before = os.getloadavg()
    reference = reference_work_ms()
    process, url = start_simulator()
    app = (TimedApplication if args.events or args.timeline else QApplication)(sys.argv[:1])
    if args.timeline and isinstance(app, TimedApplication):
        app.timeline = Timeline()
        app.timeline.install()
    app.setQuitOnLastWindowClosed(False)
    apply_theme(app, "light")
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    print(
        f"Python {platform.python_version()}, PySide6 {pyside_version}, "
        f"QPA {os.environ['QT_QPA_PLATFORM']}, {os.cpu_count()} CPUs; simulator {url} "
        f"(separate process, real rate limits); probe every {args.interval_ms} ms"
    )
    try:
        with tempfile.TemporaryDirectory(prefix="kiosk-stall-") as home, loop:
            probe, warm, profiler, record, status = loop.run_until_complete(
                session_run(args, url, Path(home))
            )
    finally:
        process.terminate()
        process.wait(timeout=10)
    w = warm.summary()
    print(
        f"warm-up (after ready; not in the budget): max stall {w['max_ms']:.0f} ms, "
        f"{w['over_budget']} over {BUDGET_MS:.0f} ms, "
        f"{sum(s for s, _, _ in warm.stalls()):.0f} ms stalled in all"
    )
    print(report(probe, record))
    if isinstance(app, TimedApplication) and app.timeline is not None:
        app.timeline.uninstall()
        print(app.timeline.text(probe.worst_gaps(3)))
    if args.profile:
        print(f"\n== cProfile of step {args.profile!r} ==\n{profiler.text()}")
    summary = probe.summary()
    summary["reference_work_ms"] = reference
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2))
    if args.marks:
        Path(args.marks).write_text("".join(probe.marks))
    print(
        "load average before: {:.2f} {:.2f} {:.2f}; after: {:.2f} {:.2f} {:.2f}".format(
            *load_before, *os.getloadavg()
        )
        + f"; reference work {reference:.1f} ms (a fixed Python loop: the machine's speed now)"
    )
    if status == 0 and float(summary["max_ms"]) > BUDGET_MS:
        return 1
    return int(status)


if __name__ == "__main__":
    raise SystemExit(main())
