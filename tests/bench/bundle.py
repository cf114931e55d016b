"""The frozen bundle: size on disk and ``--smoke`` start-up against the source run.

    .venv/bin/python build/build_bundle.py     # first
    .venv/bin/python tests/bench/bundle.py [--runs 7]

Size: every file of ``build/out/loyalty-kiosk`` (bytes, and the disk blocks they take);
budget 150 MB. Start-up: ``loyalty-kiosk --demo --smoke`` from the bundle and
``python -m kiosk --demo --smoke`` from the checkout, alternately, offscreen, each run
with a fresh data folder. For each: the wall time from starting the process to its
exit (what a user waits for, interpreter and bootloader included) and the app's own
``first_paint_ms`` / ``ready_ms`` (counted from ``kiosk.__main__``'s import). Medians
after one warm-up run. Exit 1 when the bundle is over budget.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "build" / "out" / "loyalty-kiosk"
BUDGET_MB = 150.0
FIGURE = re.compile(r"(first_paint|ready)_ms=(\d+)")


def size(folder: Path) -> tuple[int, int, int]:
    """(bytes, bytes of the disk blocks used, files)."""
    total = blocks = count = 0
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            stat = path.stat()
            total += stat.st_size
            blocks += getattr(stat, "st_blocks", 0) * 512 or stat.st_size
            count += 1
    return total, blocks, count


def measure(command: list[str]) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", LOYALTY_KIOSK_HOME=home)
        started = time.perf_counter()
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
        )
        wall = (time.perf_counter() - started) * 1000
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    figures = {name: float(value) for name, value in FIGURE.findall(done.stdout)}
    if "ready" not in figures:
        raise SystemExit(f"no timing printed by {' '.join(command)}:\n{done.stdout}")
    return {**figures, "wall": wall}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    exe = BUNDLE / ("loyalty-kiosk.exe" if sys.platform == "win32" else "loyalty-kiosk")
    if not exe.exists():
        raise SystemExit(f"{exe} not found: run build/build_bundle.py first")
    total, blocks, count = size(BUNDLE)
    bundle_runs: list[dict[str, float]] = []
    source_runs: list[dict[str, float]] = []
    for run in range(args.runs + 1):
        b = measure([str(exe), "--demo", "--smoke"])
        s = measure([sys.executable, "-m", "kiosk", "--demo", "--smoke"])
        if run:  # the first is a warm-up: file-system caches
            bundle_runs.append(b)
            source_runs.append(s)

    def median(runs: list[dict[str, float]], key: str) -> float:
        return statistics.median(r[key] for r in runs)

    mb = total / 1e6
    print(
        f"bundle {BUNDLE.relative_to(ROOT)}: {count} files, {mb:.1f} MB "
        f"({total / 2**20:.1f} MiB; {blocks / 1e6:.1f} MB of disk blocks)  budget {BUDGET_MB:.0f} MB"
    )
    print(f"--demo --smoke, {args.runs} runs after one warm-up, medians, offscreen:")
    print(f"{'':24}{'wall (start to exit)':>22}{'first paint':>14}{'ready':>10}")
    for name, runs in (("bundle", bundle_runs), ("source (python -m kiosk)", source_runs)):
        print(
            f"{name:<24}{median(runs, 'wall'):>19.0f} ms{median(runs, 'first_paint'):>11.0f} ms"
            f"{median(runs, 'ready'):>7.0f} ms"
        )
    ratio = median(bundle_runs, "wall") / median(source_runs, "wall")
    print(f"bundle / source, wall: {ratio:.2f}x")
    ok = mb <= BUDGET_MB
    print("within budget" if ok else "OVER BUDGET")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
