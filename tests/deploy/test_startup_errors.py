"""A bad day for IT, tried as IT would (issue #18): the real program started on a kiosk
home IT broke, offscreen. Every start-up error ends in the error screen (its text on
standard error with ``--smoke``), a log line and a documented exit code, never a
Python traceback; closed by ``--shutdown`` as Shell Launcher's machine would, the
kiosk still ends with the code of what went wrong.

The screen itself (both languages, both counter sizes) is tried in
``tests/ui/test_startup_error.py``.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from kiosk.__main__ import main
from kiosk.cli.args import EXIT_OK
from kiosk.core.settings.paths import KioskPaths
from kiosk.ui.startup_error import ExitCode
from tests.deploy.conftest import read_only_folder, write_ini

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = "[connection]\nenvironment = production\nproduction_url = {url}\nbranch_id = 1\n"


def start(home: KioskPaths, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kiosk", *args],
        cwd=ROOT,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def logged(home: KioskPaths) -> str:
    log = home.log_dir / "kiosk.log"
    return log.read_text(encoding="utf-8") if log.exists() else ""


@pytest.mark.parametrize(
    ("ini", "code", "where", "says"),
    [
        (
            PRODUCTION.format(url="http://api.example.com"),
            ExitCode.SETTING_VALUE,
            ", line 3",
            "production_url: must use https",
        ),
        (bytes(range(256)), ExitCode.SETTINGS_FILE, "", "not a text settings file"),
        (
            "[connection]\nenvironment = qa\n[connection]\nbranch_id = 1\n",
            ExitCode.SETTINGS_FILE,
            ", line 3",
            "[connection] appears twice",
        ),
        (
            "[connection]\nenvironment = production\napi_key = lk_live_0a1b2c3d4e5f6a7b8c9d\n",
            ExitCode.SECRET_IN_FILE,
            ", line 3",
            "rotate this key",
        ),
        (
            "[connection]\nenvironment = Production!\n",
            ExitCode.SETTING_VALUE,
            ", line 2",
            "must be one of",
        ),
    ],
    ids=["http-url", "binary", "duplicate-section", "api-key", "invalid-environment"],
)
def test_a_broken_kiosk_ini_ends_in_the_error_screen_and_its_code(
    home: KioskPaths, ini: str | bytes, code: ExitCode, where: str, says: str
) -> None:
    home.machine_settings.parent.mkdir(parents=True)
    home.machine_settings.write_bytes(ini if isinstance(ini, bytes) else ini.encode())
    run = start(home, "--smoke")
    assert run.returncode == code, run.stderr
    assert "Traceback" not in run.stderr
    assert "The kiosk cannot start" in run.stderr
    assert f"File: {home.machine_settings}{where}\n" in run.stderr
    assert says in run.stderr
    assert f"Exit code {int(code)}." in run.stderr
    assert f"start-up error {int(code)} " in logged(home)
    assert "lk_live_0a1b2c3d4e5f6a7b8c9d" not in run.stderr + logged(home)


def test_no_secure_keyring_ends_in_its_code(home: KioskPaths) -> None:
    write_ini(home, PRODUCTION.format(url="https://api.example.com"))
    run = start(home, "--smoke", PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
    assert run.returncode == ExitCode.NO_KEYRING, run.stderr
    assert "Traceback" not in run.stderr
    assert "This account has no secure place to keep the API key." in run.stderr
    assert "start-up error 13 " in logged(home)


def test_a_read_only_data_folder_ends_in_its_code_and_fails_the_self_test(
    home: KioskPaths, tmp_path: Path
) -> None:
    with read_only_folder(tmp_path) as folder:
        run = start(home, "--demo", "--smoke", LOYALTY_KIOSK_DATA_DIR=str(folder))
        test = start(home, "--demo", "--self-test", LOYALTY_KIOSK_DATA_DIR=str(folder))
    assert run.returncode == ExitCode.FOLDER_NOT_WRITABLE, run.stderr
    assert "Traceback" not in run.stderr
    assert f"Folder: {folder / 'training'}\n" in run.stderr  # --demo's own
    assert "write access to this folder" in run.stderr
    assert test.returncode == 1, test.stdout
    lines = {line.split()[1]: line for line in test.stdout.splitlines()[1:-1]}
    assert lines["storage"].startswith("FAIL")
    assert f"{folder / 'training'} is not writable by this account" in lines["storage"]
    assert lines["database"].startswith("SKIP")  # not "OK not created yet"


def test_closed_by_it_the_error_screen_still_ends_with_its_code(home: KioskPaths) -> None:
    """Shell Launcher reads the code when the window goes: an error screen closed by
    ``--shutdown`` (or its button) ends with the error's code, not 0."""
    write_ini(home, "[kiosk]\nkiosk_mode = true\n[kiosk]\n")
    app = subprocess.Popen(
        [sys.executable, "-m", "kiosk"],
        cwd=ROOT,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while "start-up error 10 " not in logged(home):
            assert app.poll() is None, "the kiosk exited without waiting"
            assert time.monotonic() < deadline, "no start-up error logged"
            time.sleep(0.1)
        assert main(["--shutdown", "--wait", "30"]) == EXIT_OK
        assert app.wait(30) == ExitCode.SETTINGS_FILE
    finally:
        if app.poll() is None:
            app.kill()
            app.wait(10)


def test_a_kiosk_without_its_key_shows_the_start_up_error_before_any_pin(
    home: KioskPaths,
) -> None:
    """No key yet is a start-up error naming the fix (issue #28, item 6): not a manager
    PIN pad that never mentions the key."""
    write_ini(home, PRODUCTION.format(url="https://api.example.com"))
    run = start(home, "--smoke", PYTHON_KEYRING_BACKEND="tests.ui.fake_keyring.MemoryKeyring")
    assert run.returncode == ExitCode.NO_API_KEY == 21, run.stderr
    assert "This account's keyring has no API key for this kiosk." in run.stderr
    assert "No API key for production in this account's keyring (" in run.stderr
    assert "): run `loyalty-kiosk-cli provision` as this account" in run.stderr
    assert "Exit code 21." in run.stderr
    assert "start-up error 21 no_api_key" in logged(home)
    assert "Traceback" not in run.stderr


@pytest.mark.skipif(
    sys.platform != "linux" or not hasattr(os, "geteuid") or os.geteuid() != 0,
    reason="mounts a small tmpfs (root on Linux)",
)
def test_a_disk_already_full_at_start_is_a_full_disk_not_a_damaged_database(
    home: KioskPaths, tmp_path: Path
) -> None:
    """A real full disk under an existing database: SQLite says "disk I/O error"; the
    kiosk says disk full (15), not "send the file to support" (16)."""
    disk = tmp_path / "small-disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)]).returncode:
        pytest.skip("tmpfs cannot be mounted here")
    try:
        data = disk / "data"
        first = start(home, "--demo", "--smoke", LOYALTY_KIOSK_DATA_DIR=str(data))
        assert first.returncode == 0, first.stderr  # a kiosk that ran here before
        for number, size in enumerate((65536, 4096, 512, 1)):  # to the last byte
            filler = (disk / f"filler-{number}").open("wb", buffering=0)
            with filler, contextlib.suppress(OSError):
                while True:
                    filler.write(b"\0" * size)
        run = start(home, "--demo", "--smoke", LOYALTY_KIOSK_DATA_DIR=str(data))
    finally:
        subprocess.run(["umount", str(disk)], check=False)
    assert run.returncode == ExitCode.DISK_FULL, run.stderr
    assert "The disk is full." in run.stderr
    assert "send the zip and this file to support" not in run.stderr


def test_a_log_folder_that_cannot_be_written_is_named_and_said_unlogged(
    home: KioskPaths, tmp_path: Path
) -> None:
    """The log goes to the console then; the screen names the log folder."""
    with read_only_folder(tmp_path) as folder:
        log_dir = folder / "log"
        run = start(home, "--demo", "--smoke", LOYALTY_KIOSK_LOG_DIR=str(log_dir))
    assert run.returncode == ExitCode.FOLDER_NOT_WRITABLE, run.stderr
    assert f"no log file: {log_dir} cannot be written" in run.stderr
    assert f"Folder: {log_dir}\n" in run.stderr
    assert "The log could not be written. Exit code 14." in run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize(
    ("ini", "says"),
    [
        (
            PRODUCTION.format(url="http://api.example.com"),
            "production_url: must use https (plain http only for localhost); ignored "
            "(machine, line 3)",
        ),
        ("[connection]\nenvironment = prod\n", "environment: must be one of production, qa"),
        ("[kiosk]\n[kiosk]\n", ", line 2: not a valid settings file"),
    ],
    ids=["http-url", "invalid-environment", "duplicate-section"],
)
def test_the_self_test_says_the_same_with_the_line(
    home: KioskPaths,
    capsys: pytest.CaptureFixture[str],
    expect_log: Callable[[str], None],
    ini: str,
    says: str,
) -> None:
    expect_log("self-test failed")
    expect_log("must use https")
    write_ini(home, ini)
    assert main(["--self-test"]) == 1
    [line] = [x for x in capsys.readouterr().out.splitlines() if x.startswith("FAIL  settings")]
    assert says in line


def test_a_start_up_error_and_the_stop_are_events_for_it(home: KioskPaths) -> None:
    """Issue #28, item 2: the same events the Event Log gets are in the log elsewhere."""
    write_ini(home, PRODUCTION.format(url="https://api.example.com"))
    run = start(home, "--smoke", PYTHON_KEYRING_BACKEND="tests.ui.fake_keyring.MemoryKeyring")
    assert run.returncode == ExitCode.NO_API_KEY, run.stderr
    log = logged(home)
    assert "event 221 error: Loyalty Kiosk cannot start: start-up error 21 (no_api_key): " in log
    assert "event 101 error: Loyalty Kiosk stopped: exit code 21." in log
