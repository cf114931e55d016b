"""``loyalty-kiosk --diagnostics``: a zip for support that never carries the key.

The key is stored in a test keyring and also planted in a log file (as a leaked
line would be); neither it nor the PIN hash nor an email may be in the zip.
"""

from __future__ import annotations

import uuid
import zipfile
from pathlib import Path

import pytest

from kiosk.__main__ import main
from kiosk.cli.args import EXIT_OK
from kiosk.cli.diagnostics import masked_settings_file
from kiosk.core.security.secrets import SERVICE, entry_name
from kiosk.core.settings.paths import KioskPaths
from tests.deploy.conftest import ExpectLog, MemoryKeyring, write_ini

pytestmark = pytest.mark.usefixtures("home")
PIN_HASH = "scrypt$16384$8$1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA=="
EMAIL = "ana.perez@example.com"


def diagnostics(capsys: pytest.CaptureFixture[str], out: Path, *argv: str) -> dict[str, str]:
    assert main([*argv, "--diagnostics", "--out", str(out)]) == EXIT_OK
    said = capsys.readouterr().out
    written = Path(said.split("diagnostics written: ", 1)[1].split(" (")[0].strip())
    assert written.parent == out or written == out
    with zipfile.ZipFile(written) as archive:
        assert archive.testzip() is None
        return {name: archive.read(name).decode() for name in archive.namelist()}


def test_training_zip_has_every_part(
    home: KioskPaths, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home.log_dir.mkdir(parents=True)
    (home.log_dir / "kiosk.log").write_text("2025-05-02 INFO kiosk: started\n")
    (home.log_dir / "kiosk.log.1").write_text("2025-05-01 INFO kiosk: older\n")
    files = diagnostics(capsys, tmp_path / "out" / "", "--demo")
    assert {
        "README.txt",
        "self-test.txt",
        "versions.txt",
        "settings.txt",
        "paths.txt",
        "logs/kiosk.log",
        "logs/kiosk.log.1",
    } <= set(files)
    assert "result: OK" in files["self-test.txt"]
    assert "qt 6." in files["versions.txt"]
    assert "keyring backend" in files["versions.txt"]
    assert "environment = training    (default, locked)" in files["settings.txt"]
    assert "older" in files["logs/kiosk.log.1"]


def test_the_zip_never_holds_the_key_the_pin_hash_or_client_data(
    home: KioskPaths,
    tmp_path: Path,
    memory_keyring: MemoryKeyring,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
) -> None:
    expect_log("self-test failed")
    expect_log("GET /external/branch")
    key = f"key-{uuid.uuid4().hex}"  # never registered by another test
    url = "http://127.0.0.1:9"  # nothing listens: the self-test fails, the zip is still written
    write_ini(
        home,
        f"[connection]\nenvironment = production\nproduction_url = {url}\n"
        f"[kiosk]\nmanager_pin_hash = {PIN_HASH}\n",
    )
    memory_keyring.set_password(SERVICE, entry_name("production", url), key)
    home.log_dir.mkdir(parents=True)
    (home.log_dir / "kiosk.log").write_text(
        f"2025-05-02 ERROR kiosk: a leaked header x-api-key: {key}\n"
        f"2025-05-02 INFO kiosk: client {EMAIL} credited\n"
    )
    files = diagnostics(capsys, tmp_path)
    everything = "\n".join(files.values())
    assert key not in everything
    assert PIN_HASH not in everything
    assert EMAIL not in everything
    assert "manager_pin_hash = (set)" in files["settings.txt"]
    assert "manager_pin_hash = <removed>" in files["settings/kiosk.ini"]
    assert "a leaked header x-api-key: ***" in files["logs/kiosk.log"]
    assert "FAIL  api" in files["self-test.txt"]


def test_a_failing_self_test_still_writes_the_zip_and_says_so(
    home: KioskPaths,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
) -> None:
    expect_log("self-test failed")
    write_ini(home, "[connection]\nbranch_id = 77\n")
    assert main(["--demo", "--diagnostics", "--out", str(tmp_path / "d.zip")]) == EXIT_OK
    assert "the self-test failed" in capsys.readouterr().out
    with zipfile.ZipFile(tmp_path / "d.zip") as archive:
        report = archive.read("self-test.txt").decode()
    assert "FAIL  branch" in report
    assert "branch 77" in report


def test_masking_of_settings_files() -> None:
    ini = "[kiosk]\nmanager_pin_hash = abc$def\n; note\n[api]\napi_key: k\nbranch_id = 3\n"
    assert masked_settings_file(ini).splitlines() == [
        "[kiosk]",
        "manager_pin_hash = <removed>",
        "; note",
        "[api]",
        "api_key: <removed>",
        "branch_id = 3",
    ]
    json_text = '{\n  "settings": {\n    "manager_pin_hash": "x$y",\n    "theme": "dark"\n  }\n}'
    assert '"manager_pin_hash": "<removed>",' in masked_settings_file(json_text)
    assert '"theme": "dark"' in masked_settings_file(json_text)


def test_the_zip_carries_the_kept_crash_records(
    home: KioskPaths, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue #28, item 4: the spool goes to support with the zip, scrubbed."""
    import sys

    from kiosk.core.fleet.crashes import CrashSpool, crash_event

    try:
        raise ZeroDivisionError(f"share for {EMAIL}")
    except ZeroDivisionError:
        kind, error, tb = sys.exc_info()
        assert kind is not None
        assert error is not None
        event = crash_event(kind, error, tb, environment="training", kiosk_id="0a1b2c3d")
    kept = CrashSpool.in_data(home.for_training().data_dir).keep(event)
    files = diagnostics(capsys, tmp_path, "--demo")
    record = files[f"crashes/{kept.name}"]
    assert "ZeroDivisionError" in record
    assert EMAIL not in record
