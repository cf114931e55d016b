"""A kiosk data folder in the middle of a busy day, for the demo kiosk (issue #16, item 3).

    python tests/bench/busy_seed.py FOLDER

``midday_folder(home)`` makes ``home`` the data folder (``LOYALTY_KIOSK_HOME``) of a
demo kiosk (``python -m kiosk --demo``) restarted in the middle of a busy day:

1. one plain ``python -m kiosk --demo --smoke`` start creates the folder as a counter
   leaves it (the training database, the kiosk id, the log);
2. the kiosk's own ``build_counter(..., demo=True)`` opens it again, and its outbox's
   binding (environment, the training URL, the demo key's fingerprint, the branch) is
   the one the rows are seeded with, so that they are this kiosk's pending work;
3. ``tests.bench.busy_day.seed`` fills the training database through the kiosk's code:
   5,000 of today's operations of every kind and outcome, 2,000 pending credits,
   500 dead letters and 100,000 settled outbox rows of past days;
4. the pending credits are made due now (the busy-day bench parks them in a long
   backoff): a restarted kiosk's sender starts draining them to the demo's in-process
   simulator at once, as after a restart that follows an outage.

Seeding takes ~3 s on the standard machine (a 38 MB database); a start drains (and so
changes) what it finds: make one folder and give each start a copy (``copy_folder``).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.busy_day import DEAD_ROWS, PENDING_ROWS, SETTLED_ROWS, TODAY_ROWS, seed  # noqa: E402

KIOSK = [sys.executable, "-m", "kiosk", "--demo", "--smoke"]


def plain_start(home: Path, env: dict[str, str] | None = None) -> None:
    """One start of the demo kiosk on ``home`` (creates what a first start creates)."""
    base = dict(env or os.environ, QT_QPA_PLATFORM="offscreen", LOYALTY_KIOSK_HOME=str(home))
    done = subprocess.run(KIOSK, cwd=ROOT, env=base, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise SystemExit(f"the plain start failed ({done.returncode}):\n{done.stderr[-2000:]}")


async def _seed_as_the_demo(home: Path) -> dict[str, int]:
    from kiosk.core.settings.layers import load_settings
    from kiosk.core.settings.paths import ENV_HOME, resolve_paths
    from kiosk.wiring import build_counter

    paths = resolve_paths({ENV_HOME: str(home)})
    counter = await build_counter(load_settings(paths), paths, demo=True)
    try:
        assert counter.outbox is not None
        binding = counter.outbox.binding

        def fill(conn: object) -> dict[str, int]:
            import sqlite3

            assert isinstance(conn, sqlite3.Connection)
            seed(conn, binding)
            now = time.time()
            conn.execute(
                "UPDATE outbox_rows SET next_attempt_at = ? WHERE state = 'pending'", (now,)
            )
            states = dict(
                conn.execute("SELECT state, COUNT(*) FROM outbox_rows GROUP BY state").fetchall()
            )
            states["journal"] = conn.execute("SELECT COUNT(*) FROM journal").fetchone()[0]
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            return states

        return await counter.worker.run(fill)
    finally:
        await counter.close()


def midday_folder(home: Path, env: dict[str, str] | None = None) -> dict[str, int]:
    """Make ``home`` a demo kiosk's folder in the middle of a busy day (module doc);
    the counts of its rows (outbox rows by state, and ``journal``)."""
    plain_start(home, env)
    counts = asyncio.run(_seed_as_the_demo(home))
    if counts.get("pending") != PENDING_ROWS or counts.get("dead") != DEAD_ROWS:
        raise SystemExit(f"busy_seed: unexpected rows {counts}")
    return counts


def copy_folder(template: Path, into: Path) -> Path:
    """A copy of a seeded folder (each start drains its pending credits)."""
    shutil.copytree(template, into, dirs_exist_ok=True)
    return into


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.splitlines()[2].strip(), file=sys.stderr)
        return 2
    home = Path(sys.argv[1])
    started = time.perf_counter()
    counts = midday_folder(home)
    print(
        f"seeded {home} in {time.perf_counter() - started:.0f} s ({TODAY_ROWS} operations, "
        f"{PENDING_ROWS} pending, {DEAD_ROWS} dead, {SETTLED_ROWS} settled): {counts}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
