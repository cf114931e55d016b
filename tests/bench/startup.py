"""Start-up time of the counter against a bare PySide6 window, in the same run.

    python tests/bench/startup.py [--runs 15]

Runs ``python -m kiosk --demo --smoke`` (training mode: in-process simulator, a fresh
data folder each run) and ``tests/bench/bare_window.py`` alternately, offscreen, and
prints the medians of the time to first paint and to ready (counter painted with its
data loaded), and the kiosk's phases. The budgeted ratios are of the medians; each run
against its own round's bare window is printed beside them (median and range), since
this machine's speed drifts within a run. Budgets (issue #4): first paint <= 1.5x the bare
window's, ready <= 3.0x, for the daily start (the data folder kept from the previous
start, as a counter starts every morning); the first start after installation (an
empty data folder: databases created, the simulator asked for its branch) is printed
too. The **mid-day start** (issue #16) is budgeted like the daily one: a restart in the
middle of a busy day, on a copy of a data folder seeded once by
``tests/bench/busy_seed.py`` (5,000 of today's operations, 2,000 pending credits due
now, 500 dead letters, 100,000 settled outbox rows, all bound to the demo kiosk's own
binding); the copy is made before the timed start and each start gets a fresh one.

Bytecode: an installed kiosk runs compiled modules (pip compiles site-packages, Python
caches the rest after the first start, the frozen bundle ships them). A shell with
``PYTHONDONTWRITEBYTECODE=1`` (this workplace sets it) would make every run compile
the kiosk's ~120 modules again (~280 ms), so the children run with bytecode caching
on, into a temporary ``PYTHONPYCACHEPREFIX`` (the tree stays clean); the warm-up run
fills it.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.busy_seed import copy_folder, midday_folder  # noqa: E402

FIGURE = re.compile(r"(first_paint|ready)_ms=(\d+)")
PHASE = re.compile(r"(\w+)=(\d+)")


def measure(command: list[str], env: dict[str, str]) -> dict[str, float]:
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    figures = {name: float(value) for name, value in FIGURE.findall(done.stdout)}
    for line in done.stdout.splitlines():
        if line.startswith("phases:"):
            figures.update({f"phase:{k}": float(v) for k, v in PHASE.findall(line)})
    if "first_paint" not in figures:
        raise SystemExit(f"no timing printed by {' '.join(command)}:\n{done.stdout}")
    return figures


def paired(runs: list[dict[str, float]], bare: list[dict[str, float]], key: str) -> str:
    """Each run against the bare window of its own round (the machine's speed drifts
    within a run): median and range, to read the budgeted ratio's noise by."""
    ratios = sorted(r[key] / b["first_paint"] for r, b in zip(runs, bare, strict=True))
    return f"per round {statistics.median(ratios):4.2f}x ({ratios[0]:4.2f}-{ratios[-1]:4.2f})"


def summary(
    label: str, runs: list[dict[str, float]], bare: list[dict[str, float]], bare_paint: float
) -> tuple[float, float]:
    paint = statistics.median(r["first_paint"] for r in runs)
    ready = statistics.median(r["ready"] for r in runs)
    print(f"{label}:")
    print(
        f"  first paint     {paint:7.0f} ms  ratio {paint / bare_paint:4.2f}x  (budget 1.50x)"
        f"  {paired(runs, bare, 'first_paint')}"
    )
    print(
        f"  ready with data {ready:7.0f} ms  ratio {ready / bare_paint:4.2f}x  (budget 3.00x)"
        f"  {paired(runs, bare, 'ready')}"
    )
    phases = [key for key in runs[0] if key.startswith("phase:")]
    print(
        "  phases (ms since start, medians): "
        + "  ".join(
            f"{key[6:]} {statistics.median(r.get(key, 0.0) for r in runs):.0f}" for key in phases
        )
    )
    return paint / bare_paint, ready / bare_paint


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # 15 rounds (~25 s): with 7, the same tree's ratio of medians moved 2.41-3.04x
    # within three minutes on this machine; with 15, 2.41-2.71x over five runs.
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--no-midday", action="store_true", help="skip the mid-day start")
    args = parser.parse_args()
    daily: list[dict[str, float]] = []
    midday: list[dict[str, float]] = []
    first: list[dict[str, float]] = []
    bare: list[dict[str, float]] = []
    kiosk = [sys.executable, "-m", "kiosk", "--demo", "--smoke"]
    with (
        tempfile.TemporaryDirectory() as pycache,
        tempfile.TemporaryDirectory() as kept,
        tempfile.TemporaryDirectory() as busy,
    ):
        base = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPYCACHEPREFIX=pycache)
        base.pop("PYTHONDONTWRITEBYTECODE", None)
        template = Path(busy) / "seeded"
        if not args.no_midday:
            counts = midday_folder(template, base)
            print(f"mid-day folder seeded: {counts}", flush=True)
        for run in range(args.runs + 1):
            # The daily start: the kiosk's data folder as yesterday left it.
            b = measure([sys.executable, "tests/bench/bare_window.py"], base)
            d = measure(kiosk, dict(base, LOYALTY_KIOSK_HOME=kept))
            # The mid-day start: a busy day's folder (a fresh copy: a start drains it).
            if not args.no_midday:
                home = copy_folder(template, Path(busy) / f"round{run}")
                m = measure(kiosk, dict(base, LOYALTY_KIOSK_HOME=str(home)))
                shutil.rmtree(home)
            # The first start after installation: an empty data folder.
            with tempfile.TemporaryDirectory() as fresh:
                f = measure(kiosk, dict(base, LOYALTY_KIOSK_HOME=fresh))
            if run == 0:
                continue  # warm-up: file-system caches, compiled bytecode, the kept folder
            bare.append(b)
            daily.append(d)
            if not args.no_midday:
                midday.append(m)
            first.append(f)
    bare_paint = statistics.median(r["first_paint"] for r in bare)
    print(f"runs: {args.runs} (after one warm-up), medians, offscreen, alternating")
    print(f"bare PySide6 window, first paint: {bare_paint:7.0f} ms")
    paint, ready = summary("kiosk --demo, daily start (data folder kept)", daily, bare, bare_paint)
    ok = paint <= 1.5 and ready <= 3.0
    if midday:
        paint, ready = summary(
            "kiosk --demo, mid-day start (5,000 operations today, 2,000 pending credits)",
            midday,
            bare,
            bare_paint,
        )
        ok = ok and paint <= 1.5 and ready <= 3.0
    summary("kiosk --demo, first start (empty data folder; not budgeted)", first, bare, bare_paint)
    print("within budget" if ok else "OVER BUDGET")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
