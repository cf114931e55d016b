"""The counter app itself: one per user, closed by ``--shutdown`` (kiosk/app.py wiring)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from kiosk.__main__ import main
from kiosk.cli.args import EXIT_NOT_RUNNING, EXIT_OK
from kiosk.core.settings.paths import KioskPaths

ROOT = Path(__file__).resolve().parents[2]


def test_shutdown_closes_the_running_counter_and_a_second_start_defers(home: KioskPaths) -> None:
    app = subprocess.Popen(
        [sys.executable, "-m", "kiosk", "--demo"],
        cwd=ROOT,
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        log = home.log_dir / "kiosk.log"
        while "point items" not in (log.read_text() if log.exists() else ""):
            assert app.poll() is None, "the counter exited"
            assert time.monotonic() < deadline, "the counter did not get ready"
            time.sleep(0.1)
        second = subprocess.run(
            [sys.executable, "-m", "kiosk", "--demo"],
            cwd=ROOT,
            timeout=60,
            env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
            capture_output=True,
        )
        assert second.returncode == 0
        assert app.poll() is None
        assert main(["--shutdown", "--wait", "30"]) == EXIT_OK
        assert app.wait(10) == 0
        assert main(["--shutdown"]) == EXIT_NOT_RUNNING
    finally:
        if app.poll() is None:
            app.kill()
            app.wait(10)
