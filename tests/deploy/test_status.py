"""``loyalty-kiosk-cli --status --json`` (issue #28, item 3): the heartbeat's line for
Intune Remediations or any script, under 2,048 characters; the outbox read now, the
running counter's connection from its last look."""

from __future__ import annotations

import json
import time

import pytest

from kiosk.__main__ import main
from kiosk.cli.args import EXIT_FAILED, EXIT_OK
from kiosk.core.fleet.status import KioskStatus, save_status
from kiosk.core.settings.paths import KioskPaths
from tests.deploy.test_selftest import add_row

pytestmark = pytest.mark.usefixtures("home")


def status_line(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    code = main([*argv, "--status", "--json"])
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert len(out) < 2048
    return code, json.loads(out)


def test_no_counter_ran_lately_the_line_says_what_it_can(
    home: KioskPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    add_row(home, "pending", time.time() - 300)
    code, status = status_line(capsys, "--demo")
    assert code == EXIT_OK
    assert status["environment"] == "training"
    assert status["version"]
    assert status["pending_credits"] == 1
    assert 299 <= int(status["oldest_pending_seconds"]) <= 330  # type: ignore[call-overload]
    assert status["online"] is None
    assert status["last_success"] is None
    assert isinstance(status["disk_free_mb"], int)
    assert set(status) == {
        "kiosk_id",
        "version",
        "environment",
        "branch",
        "online",
        "pending_credits",
        "oldest_pending_seconds",
        "last_success",
        "disk_free_mb",
        "at",
    }


def test_the_running_counters_connection_is_taken_from_its_last_look(
    home: KioskPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    training = home.for_training()
    saved = KioskStatus(
        kiosk_id="0a1b2c3d",
        version="0.1.0",
        environment="training",
        branch=1,
        online=False,
        pending_credits=0,
        oldest_pending_seconds=None,
        last_success="2026-11-27T21:00:00Z",
        disk_free_mb=1,
    )
    training.data_dir.mkdir(parents=True)
    save_status(training.data_dir, saved)
    code, status = status_line(capsys, "--demo")
    assert code == EXIT_FAILED  # offline: Intune's remediation sees it
    assert status["online"] is False
    assert status["last_success"] == "2026-11-27T21:00:00Z"


def test_the_plain_status_is_one_line_per_field(
    home: KioskPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--demo", "--status"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "environment: training\n" in out
    assert "pending_credits: 0\n" in out
