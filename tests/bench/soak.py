"""Soak of the outbox: 1,000 credits through ~20% faults, then 200 SIGKILLs.

    .venv/bin/python tests/bench/soak.py [--credits 1000] [--kills 200] [--seed 7]

1. ``run_fault_credits`` (tests/core/outbox/test_faults.py) with ``--credits``:
   in-process simulator, apply-then-drop, 500, 503, 429, timeouts and malformed
   bodies on about a fifth of the requests, the sender on a virtual clock; the
   ledger is compared with the outbox row by row.
2. ``run_crash_loop`` (tests/core/outbox/test_crash.py) with ``--kills``: a kiosk
   process killed with SIGKILL at random moments against a loopback simulator;
   ``PRAGMA integrity_check`` after each kill; every sale exactly once at the end.

Prints both tallies; exit status 1 on any duplicate or loss (the runs also assert).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from kiosk.sim import build_world, create_app
from tests.core.outbox.test_crash import run_crash_loop
from tests.core.outbox.test_faults import run_fault_credits


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--credits", type=int, default=1000)
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)  # each failed attempt logs a warning
    with tempfile.TemporaryDirectory() as tmp:
        world = build_world()
        app = create_app(world, controls=True)
        path = Path(tmp) / "faults.sqlite3"
        faults = asyncio.run(
            run_fault_credits(app, world, path, credits=args.credits, seed=args.seed)
        )
        print(f"fault soak ({args.credits} credits, seed {args.seed}):")
        print("\n".join(f"  {line}" for line in faults.lines()))
        crash_dir = Path(tmp) / "crash"
        crash_dir.mkdir()
        crashes = run_crash_loop(
            crash_dir, kills=args.kills, sales=5 * args.kills, seed=args.seed, timeout=3600
        )
        print(f"crash soak ({args.kills} runs killed with SIGKILL, seed {args.seed}):")
        print("\n".join(f"  {line}" for line in crashes.lines()))
    bad = faults.duplicates + faults.lost + crashes.duplicates + crashes.lost
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
