"""``--self-test`` checks what the start needs on disk (issue #18, a bad day for IT): the
folders the kiosk writes, and room on the data folder's disk. A read-only data folder
or a full disk fails the self-test (exit 1) instead of "OK database not created yet".
"""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

import pytest

from kiosk.core import storage
from kiosk.core.settings.paths import KioskPaths
from tests.deploy.conftest import ExpectLog, read_only_folder
from tests.deploy.test_selftest import self_test

pytestmark = pytest.mark.usefixtures("home")
MB = 1024 * 1024


def test_a_healthy_kiosk_says_where_and_how_much_room(
    home: KioskPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    _, checks = self_test(capsys, "--demo")
    status, says = checks["storage"]
    assert status == "OK"
    assert says.startswith(f"{home.for_training().data_dir} writable, ")  # --demo's own
    assert " MB free; config and log folders writable" in says
    assert not list(home.data_dir.glob(".write-check-*"))  # nothing kept


def test_a_full_disk_says_disk_full(
    home: KioskPaths,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    expect_log: ExpectLog,
) -> None:
    expect_log("self-test failed")
    monkeypatch.setattr(
        storage, "disk_usage", lambda folder: storage.DiskUsage(64_000 * MB, 63_988 * MB, 12 * MB)
    )
    code, checks = self_test(capsys, "--demo")
    assert code == 1
    status, says = checks["storage"]
    assert status == "FAIL"
    assert says.startswith(f"disk full: 12 MB free on the disk of {home.data_dir}")
    assert "the kiosk needs 50 MB" in says


def test_a_read_only_data_folder_fails_what_the_start_needs(
    home: KioskPaths,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    expect_log: ExpectLog,
) -> None:
    expect_log("self-test failed")
    with read_only_folder(tmp_path) as folder:
        monkeypatch.setenv("LOYALTY_KIOSK_DATA_DIR", str(folder))
        code, checks = self_test(capsys, "--demo")
    assert code == 1
    status, says = checks["storage"]
    assert status == "FAIL"
    assert f"{folder / 'training'} is not writable by this account" in says  # --demo's own
    assert "the kiosk cannot start" in says
    assert checks["database"][0] == "SKIP"


def test_what_is_a_full_disk_and_what_is_a_refused_write() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("PRAGMA max_page_count = 1")
    with pytest.raises(sqlite3.OperationalError) as full:
        conn.executescript("CREATE TABLE t (x); INSERT INTO t VALUES (zeroblob(10000));")
    conn.close()
    assert storage.is_disk_full(full.value)
    assert storage.is_disk_full(OSError(errno.ENOSPC, "No space left on device"))
    wrapped = RuntimeError("saving the sale")
    wrapped.__cause__ = OSError(errno.ENOSPC, "No space left on device")
    assert storage.is_disk_full(wrapped)
    assert not storage.is_disk_full(PermissionError(errno.EACCES, "denied"))
    assert storage.is_write_denied(PermissionError(errno.EACCES, "denied"))
    assert storage.is_write_denied(OSError(errno.EROFS, "Read-only file system"))
    assert storage.is_write_denied(sqlite3.OperationalError("attempt to write a readonly database"))
    assert not storage.is_write_denied(RuntimeError("boom"))
