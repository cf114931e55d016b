"""``loyalty-kiosk provision``: the key from stdin or a deleted file, checked, stored, never shown.

Runs the real command (``kiosk.__main__.main``) against the simulator over loopback
HTTP, with an in-memory keyring set explicitly (``memory_keyring``).
"""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest

from kiosk.__main__ import main
from kiosk.api.redact import key_fingerprint
from kiosk.cli.args import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from kiosk.core.db import open_database
from kiosk.core.security.secrets import SERVICE, entry_name
from kiosk.core.settings import layers as S
from kiosk.core.settings.layers import load_settings
from kiosk.core.settings.paths import KioskPaths
from tests.conftest import MAIN_KEY, OTHER_KEY
from tests.deploy.conftest import ExpectLog, MemoryKeyring, write_ini

pytestmark = pytest.mark.usefixtures("home")


def production(paths: KioskPaths, url: str, extra: str = "") -> None:
    write_ini(paths, f"[connection]\nenvironment = production\nproduction_url = {url}\n{extra}")


def provision(monkeypatch: pytest.MonkeyPatch, argv: list[str], stdin: str = "") -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return main(["provision", *argv])


def stored(backend: MemoryKeyring, environment: str, url: str) -> str | None:
    return backend.entries.get((SERVICE, entry_name(environment, url)))


def everything_shown(capsys: pytest.CaptureFixture[str], paths: KioskPaths) -> str:
    captured = capsys.readouterr()
    logs = "".join(p.read_text() for p in paths.log_dir.glob("kiosk.log*"))
    return captured.out + captured.err + logs


def test_key_from_stdin_is_checked_stored_and_never_shown(
    home: KioskPaths,
    sim_url: str,
    memory_keyring: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    production(home, sim_url, "branch_id = 2\n")
    assert provision(monkeypatch, [], f"{MAIN_KEY}\n") == EXIT_OK
    assert stored(memory_keyring, "production", sim_url) == MAIN_KEY
    shown = everything_shown(capsys, home)
    assert MAIN_KEY not in shown
    assert f"sha:{key_fingerprint(MAIN_KEY)}" in shown
    assert "branch 2" in shown
    assert "is stored" in shown


def test_key_file_is_deleted_after_reading(
    home: KioskPaths,
    sim_url: str,
    memory_keyring: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    production(home, sim_url)
    key_file = tmp_path / "kiosk.key"
    key_file.write_text(f"\ufeff  {MAIN_KEY}  \r\n\r\n", encoding="utf-8")
    assert provision(monkeypatch, ["--key-file", str(key_file), "--branch", "3"]) == EXIT_OK
    assert not key_file.exists()
    assert stored(memory_keyring, "production", sim_url) == MAIN_KEY
    assert load_settings(home).get(S.BRANCH_ID) == 3  # bound in the manager's overrides
    shown = everything_shown(capsys, home)
    assert MAIN_KEY not in shown
    assert f"the key file {key_file} was deleted" in shown


@pytest.mark.parametrize("content", ["", "two\nlines-of-keys\n", "has a space in it"])
def test_a_key_file_without_one_key_is_refused_and_kept(
    home: KioskPaths,
    sim_url: str,
    memory_keyring: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    content: str,
    expect_log: ExpectLog,
) -> None:
    expect_log("provision failed")
    production(home, sim_url)
    key_file = tmp_path / "kiosk.key"
    key_file.write_text(content, encoding="utf-8")
    assert provision(monkeypatch, ["--key-file", str(key_file)]) == EXIT_USAGE
    assert key_file.read_text(encoding="utf-8") == content  # nothing stored: nothing deleted
    assert memory_keyring.entries == {}
    assert f"the key file {key_file} was kept" in capsys.readouterr().err


def test_a_refused_key_fails_and_stores_nothing(
    home: KioskPaths,
    sim_url: str,
    memory_keyring: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
) -> None:
    expect_log("provision failed")
    expect_log(r"GET /external/branch")
    production(home, sim_url)
    bad = "not-a-real-key-7f3a9c"
    assert provision(monkeypatch, [], bad) == EXIT_FAILED
    assert memory_keyring.entries == {}
    shown = everything_shown(capsys, home)
    assert "refused" in shown
    assert bad not in shown


def test_a_key_on_the_command_line_is_refused_without_echo(
    home: KioskPaths,
    sim_url: str,
    memory_keyring: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
) -> None:
    expect_log("provision failed")
    production(home, sim_url)
    assert provision(monkeypatch, [MAIN_KEY], MAIN_KEY) == EXIT_USAGE
    assert memory_keyring.entries == {}
    shown = everything_shown(capsys, home)
    assert "never taken from the command line" in shown
    assert MAIN_KEY not in shown


def test_argparse_errors_mask_what_looks_like_a_key(capsys: pytest.CaptureFixture[str]) -> None:
    token = "k3y-that-was-pasted-in-the-wrong-place-0123456789"
    with pytest.raises(SystemExit) as exit_info:
        main([token])
    assert exit_info.value.code == EXIT_USAGE
    err = capsys.readouterr().err
    assert "<not shown>" in err
    assert token not in err


def test_a_branch_of_another_merchant_is_refused_before_storing(
    home: KioskPaths,
    sim_url: str,
    memory_keyring: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
) -> None:
    expect_log("provision failed")
    expect_log(r"GET /external/branch/4")
    production(home, sim_url)
    assert provision(monkeypatch, ["--branch", "4"], OTHER_KEY) == EXIT_OK  # the other's own
    memory_keyring.entries.clear()
    assert provision(monkeypatch, ["--branch", "4"], MAIN_KEY) == EXIT_FAILED
    assert memory_keyring.entries == {}
    assert "branch 4 is not a branch of this key's merchant" in capsys.readouterr().err


def test_a_locked_branch_is_not_changed(
    home: KioskPaths,
    sim_url: str,
    memory_keyring: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
) -> None:
    expect_log("provision failed")
    production(home, sim_url, "branch_id = 1\n[lock]\nlocked = branch_id\n")
    assert provision(monkeypatch, ["--branch", "2"], MAIN_KEY) == EXIT_USAGE
    assert "locked by IT" in capsys.readouterr().err
    assert memory_keyring.entries == {}
    assert provision(monkeypatch, [], MAIN_KEY) == EXIT_OK  # the locked branch itself is fine


def test_training_needs_no_key(
    home: KioskPaths,
    memory_keyring: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
) -> None:
    expect_log("provision failed")
    write_ini(home, "[connection]\nenvironment = training\n")
    assert provision(monkeypatch, [], MAIN_KEY) == EXIT_USAGE
    assert "needs no API key" in capsys.readouterr().err


def test_no_secure_keyring_fails(
    home: KioskPaths,
    sim_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
) -> None:
    import keyring
    from keyring.backends import fail

    expect_log("provision failed")
    production(home, sim_url)
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())  # type: ignore[no-untyped-call]
    try:
        assert provision(monkeypatch, [], MAIN_KEY) == EXIT_FAILED
    finally:
        keyring.set_keyring(previous)
    assert "no secure keyring" in capsys.readouterr().err


def test_a_key_is_not_rotated_while_credits_wait_for_the_old_one(
    home: KioskPaths,
    sim_url: str,
    memory_keyring: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
) -> None:
    expect_log("provision failed")
    production(home, sim_url, "branch_id = 1\n")
    conn = open_database(home.database)
    conn.execute(
        "INSERT INTO outbox_rows (kind, external_id, body, state, created_at, next_attempt_at,"
        " environment, base_url, key_fingerprint, branch_id) VALUES"
        " ('credit', 'K-1', '{}', 'pending', 0, 0, 'production', ?, ?, 1)",
        (sim_url, key_fingerprint("the-old-key-123")),
    )
    conn.close()
    assert provision(monkeypatch, [], MAIN_KEY) == EXIT_FAILED
    assert "still bound to the current key" in capsys.readouterr().err
    assert memory_keyring.entries == {}
    assert provision(monkeypatch, ["--force"], MAIN_KEY) == EXIT_OK
    assert stored(memory_keyring, "production", sim_url) == MAIN_KEY
    with sqlite3.connect(home.database) as check:  # the waiting row is untouched
        assert check.execute("SELECT COUNT(*) FROM outbox_rows").fetchone() == (1,)


def test_the_managers_file_cannot_send_the_key_elsewhere(
    home: KioskPaths,
    sim_url: str,
    memory_keyring: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
) -> None:
    """#22 item 1: the kiosk account's settings.json names another server; the key is
    checked where IT's file says, and the output says which URL and from where."""
    expect_log("only IT may set this")
    production(home, sim_url, "branch_id = 2\n")
    home.config_dir.mkdir(parents=True, exist_ok=True)
    home.overrides.write_text(
        json.dumps(
            {
                "version": 1,
                "settings": {
                    "production_url": "https://attacker.example.test",
                    "environment": "qa",
                },
            }
        )
    )
    assert provision(monkeypatch, [], f"{MAIN_KEY}\n") == EXIT_OK
    assert stored(memory_keyring, "production", sim_url) == MAIN_KEY
    out = capsys.readouterr().out
    assert (
        f"checking the key at {sim_url} (production_url set by IT in {home.machine_settings}, line 3)"
        in out
    )
    assert "attacker" not in out
