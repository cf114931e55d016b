"""The first taps after a mid-day restart answer without a stall (issue #16, item 3).

    python tests/bench/midday_taps.py [--runs 5] [--hold 2] [--first-tap 0] [--stacks]
                                      [--daily] [--profile SORT] [--interval-ms 5]

Seeds a demo kiosk's data folder in the middle of a busy day once
(``tests/bench/busy_seed.py``: 5,000 of today's operations, 2,000 pending credits due
now, 500 dead letters, 100,000 settled outbox rows, bound to the demo's own binding).
Then each run (after one warm-up run, not kept) starts the REAL kiosk on a fresh copy
of it in a child process (``tests/bench/midday_kiosk.py``):
``kiosk.__main__.main(["--demo"])``, the start path of
``python -m kiosk --demo`` (the window, the qasync loop, ``build_counter``,
``build_view``, the warm-up, the sender started after ready, the in-process
simulator), offscreen on a 1280x800 screen. The one thing added is a hook on
``Counter.start_checks`` (called at "ready"): it starts a precise ``QTimer`` probe
(``tests/bench/ui_stall.py``'s ``LoopProbe``: a tick every 5 ms, a stall is how much
later a tick came) and a cashier's first taps through the widgets, while the sender
drains the 2,000 credits to the simulator:

1. ``identify``: a member's DNI typed as a scanner does and Enter, to the first paint
   of the "found" page with the client;
2. ``points``: "Credit points", to the first paint of the Points screen;
   ``preview``: an amount typed, Preview, to the first paint of the preview card;
   ``credit``: Credit (once armed), to the first paint of the result (a live credit:
   the sender takes it before the waiting ones);
3. ``today``: the rail's Today, to the first paint of the table with the day's rows;
   it stays on screen ``--hold`` seconds (2) while the drain goes on (``today-hold``);
4. ``pending``: the Pending tab, to the first paint of the list with its rows; then
   the list stays on screen ``--hold`` seconds too (``pending-hold``).

An answer ends at the loop's first turn after the first paint of the watched screen
(or of a child of it) that started with its data there (an application event filter).

``--first-tap S``: the first tap S seconds after ready instead of at once (the probe
runs from ready all the same): with ``--first-tap 3`` the warm-up has built every
screen before the cashier comes, and what stalls after it is the busy day's.
``--daily``: the same taps after a daily start (a plain folder, nothing seeded,
nothing to drain), to tell the busy day's stalls from the start's own.
``--stacks``: the UI thread's stack sampled in each stall over 12 ms (the watchdog of
``ui_stall.py``), the most frequent innermost kiosk frames; ``--profile SORT``:
cProfile of the UI thread from ready to Pending's answer (printed per run).

Printed per run and over runs (median and range): each tap's answer time; the worst
stall, p99 and the stalls over 16 ms (those with the UI thread on CPU), from ready and
from the first tap; the worst stall per step; the credits drained meanwhile; the
Pending tab's count. A run whose kiosk logged an ERROR fails the bench (exit 2), with
the log's traceback. Budget: no stall over 16 ms from ready. Exit 0 within budget,
1 over.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import Counter as Tally
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

CHILD = ROOT / "tests" / "bench" / "midday_kiosk.py"  # one start and its taps
BUDGET_MS = 16.0
TAPS = ("identify", "points", "preview", "credit", "today", "pending")
SCREEN = {
    "synchronousWindowSystemEvents": False,
    "windowFrameMargins": False,
    "screens": [
        {"name": "counter", "x": 0, "y": 0, "width": 1280, "height": 800,
         "logicalDpiX": 96, "logicalDpiY": 96, "dpr": 1}
    ],
}  # fmt: skip


# -- the parent: seed once, a fresh copy per run, the figures ----------------------------
def spread(values: list[float]) -> str:
    ordered = sorted(values)
    return f"{statistics.median(ordered):7.1f} ({ordered[0]:.1f}-{ordered[-1]:.1f})"


def innermost(stack: str) -> str:
    """The stack's deepest frames in the kiosk (what the UI thread was doing)."""
    lines = [line.strip() for line in stack.split("  -- thread")[0].splitlines()]
    files = [line for line in lines if line.startswith('File "')]
    ours = [f for f in files if "/kiosk/" in f and "/tests/" not in f]
    picked = (ours or files)[-3:]
    return " <- ".join(
        f.split('File "')[1].split('"')[0].split("/kiosk/")[-1] + ":" + f.split(", line ")[1]
        for f in reversed(picked)
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--hold", type=float, default=2.0, help="seconds on Today, then on Pending, after each"
    )
    parser.add_argument(
        "--first-tap", type=float, default=0.0, help="seconds from ready to the first tap"
    )
    parser.add_argument("--interval-ms", type=int, default=5)
    parser.add_argument("--stacks", action="store_true", help="sample the UI stack in stalls")
    parser.add_argument(
        "--daily", action="store_true", help="the same taps on a daily start (nothing seeded)"
    )
    parser.add_argument(
        "--profile",
        metavar="SORT",
        help="cProfile the UI thread from ready to Pending's answer (pstats sort key)",
    )
    args = parser.parse_args()

    from tests.bench.busy_seed import copy_folder, midday_folder, plain_start
    from tests.bench.ui_stall import reference_work_ms

    load_before = os.getloadavg()
    runs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="kiosk-midday-") as tmp:
        screen = Path(tmp) / "screen.json"
        screen.write_text(json.dumps(SCREEN))
        base = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={screen}")
        base.update(PYTHONPYCACHEPREFIX=str(Path(tmp) / "pycache"))
        base.pop("PYTHONDONTWRITEBYTECODE", None)  # compiled, as an installed kiosk
        template = Path(tmp) / "seeded"
        if args.daily:
            plain_start(template, base)
            print("daily folder (one plain start, nothing seeded)", flush=True)
        else:
            print(f"mid-day folder seeded: {midday_folder(template, base)}", flush=True)
        for run in range(args.runs + 1):  # run 0: warm-up (bytecode, file caches), not kept
            home = copy_folder(template, Path(tmp) / f"run{run}")
            out = Path(tmp) / f"run{run}.json"
            command = [sys.executable, str(CHILD), str(out), "--hold", str(args.hold)]
            command += ["--interval-ms", str(args.interval_ms)] + ["--stacks"] * args.stacks
            command += ["--daily"] * args.daily + ["--first-tap", str(args.first_tap)]
            command += ["--profile", args.profile] if args.profile else []
            env = dict(base, LOYALTY_KIOSK_HOME=str(home))
            try:
                done = subprocess.run(
                    command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
                )
            except subprocess.TimeoutExpired:
                print(f"run {run} did not end within 300 s", file=sys.stderr)
                return 2
            if not out.exists():
                print(done.stderr[-3000:], file=sys.stderr)
                return 2
            figures = json.loads(out.read_text())
            if done.returncode != 0:
                print(f"run {run} failed: {figures.get('error')}\n{done.stderr[-3000:]}")
                return 2
            if run == 0:
                print(f"warm-up run: max stall {figures['max_ms']:.1f} ms (not kept)", flush=True)
                continue
            runs.append(figures)
            if args.profile:
                print(figures["profile"])
            answers = "  ".join(f"{k} {figures['answers'][k]:.0f}" for k in TAPS)
            print(
                f"run {run}: answers (ms) {answers} | max stall {figures['max_ms']:.1f} ms,"
                f" p99 {figures['p99_ms']:.1f}, over 16 ms {figures['over']}"
                f" ({figures['over_cpu']} on CPU); from the first tap: max"
                f" {figures['taps_max_ms']:.1f} | drained"
                f" {figures['pending_at_ready'] - figures['pending_at_end']} in"
                f" {figures['session_s']:.1f} s",
                flush=True,
            )
    reference = reference_work_ms()
    print(
        f"\nruns: {len(runs)}, each a fresh copy of the seeded folder; window "
        f"{runs[0]['window'][0]}x{runs[0]['window'][1]} offscreen; probe every "
        f"{args.interval_ms} ms from ready to the end; first tap {args.first_tap:.1f} s after"
        f" ready; Today and Pending each held {args.hold:.1f} s"
    )
    print(f"at ready: Pending tab {runs[0]['pending_tab']!r} once opened, "
          f"{runs[0]['pending_at_ready']} waiting, Today {runs[0]['today_rows']} rows shown")  # fmt: skip
    print("answer, tap to first paint with its data (ms), median (range):")
    for tap in TAPS:
        print(f"  {tap:9s} {spread([r['answers'][tap] for r in runs])}")
    print("stalls from ready to the end (ms), median (range):")
    print(f"  worst     {spread([r['max_ms'] for r in runs])}")
    print(f"  p99       {spread([r['p99_ms'] for r in runs])}")
    print(f"  over 16   {spread([float(r['over']) for r in runs])}  (on CPU: "
          f"{spread([float(r['over_cpu']) for r in runs]).strip()})")  # fmt: skip
    print("stalls from the first tap to the end (the taps, the drain; ms), median (range):")
    print(f"  worst     {spread([r['taps_max_ms'] for r in runs])}")
    print(f"  p99       {spread([r['taps_p99_ms'] for r in runs])}")
    print(f"  over 16   {spread([float(r['taps_over']) for r in runs])}")
    labels = sorted({k for r in runs for k in r["steps"]}, key=lambda k: -max(
        r["steps"].get(k, 0.0) for r in runs))  # fmt: skip
    print("worst stall per step (ms), over runs: " + "  ".join(
        f"{k} {max(r['steps'].get(k, 0.0) for r in runs):.1f}" for k in labels[:8]))  # fmt: skip
    worst = sorted((w for r in runs for w in r["worst"]), reverse=True)[:6]
    print("worst stalls (ms late, UI CPU ms, step): " + "; ".join(
        f"{s} / {c} {label}" for s, c, label in worst))  # fmt: skip
    if args.stacks:
        tally = Tally(innermost(stack) for r in runs for _, _, stack in r["stacks"])
        print(f"stall stacks (over 12 ms), innermost kiosk frames, {sum(tally.values())} samples:")
        for where, count in tally.most_common(8):
            print(f"  {count:3d}x {where}")
    print(
        "load average before: {:.2f} {:.2f} {:.2f}; after: {:.2f} {:.2f} {:.2f}; ".format(
            *load_before, *os.getloadavg()
        )
        + f"reference work {reference:.1f} ms (11-13 usual, 19-24 half speed)"
    )
    over = max(r["max_ms"] for r in runs) > BUDGET_MS
    print("OVER BUDGET (a stall over 16 ms)" if over else "within budget")
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(main())
