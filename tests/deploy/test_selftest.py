"""``loyalty-kiosk --self-test``: one line per check, a non-zero exit when one fails.

Training runs against the in-process simulator with no keyring; production runs
against the simulator over loopback HTTP with the key in a test keyring.
"""

from __future__ import annotations

import re
import time

import pytest

from kiosk.__main__ import main
from kiosk.cli.args import EXIT_FAILED, EXIT_OK
from kiosk.core.db import MIGRATIONS, open_database
from kiosk.core.security.pin_hash import ScryptParams, hash_pin
from kiosk.core.security.secrets import SERVICE, entry_name
from kiosk.core.settings.paths import KioskPaths
from tests.conftest import MAIN_KEY
from tests.deploy.conftest import ExpectLog, MemoryKeyring, write_ini

pytestmark = pytest.mark.usefixtures("home")
PIN_HASH = hash_pin("5820", ScryptParams(n=2**4, r=1, p=1))
LINE = re.compile(r"^(OK|FAIL|SKIP)\s+(\S+)\s+(.*)$")


def self_test(
    capsys: pytest.CaptureFixture[str], *argv: str
) -> tuple[int, dict[str, tuple[str, str]]]:
    code = main([*argv, "--self-test"])
    out = capsys.readouterr().out
    checks = {m[2]: (m[1], m[3]) for m in map(LINE.match, out.splitlines()) if m}
    assert list(checks) == [
        "settings",
        "storage",
        "keyring",
        "api",
        "branch",
        "validation-qr",
        "database",
        "manager-pin",
    ]
    assert out.rstrip().splitlines()[-1].startswith("result: OK" if code == 0 else "result: FAIL")
    return code, checks


def production(paths: KioskPaths, url: str, extra: str = "", *, pin: bool = True) -> None:
    """A production kiosk; with IT's manager PIN unless ``pin`` is False."""
    kiosk = f"\n[kiosk]\nmanager_pin_hash = {PIN_HASH}\n" if pin else ""
    write_ini(
        paths, f"[connection]\nenvironment = production\nproduction_url = {url}\n{extra}{kiosk}"
    )


def store(backend: MemoryKeyring, url: str, key: str = MAIN_KEY) -> None:
    backend.set_password(SERVICE, entry_name("production", url), key)


def test_training_passes_without_keyring_or_settings(capsys: pytest.CaptureFixture[str]) -> None:
    code, checks = self_test(capsys, "--demo")
    assert code == EXIT_OK
    assert checks["keyring"][0] == "SKIP"
    assert checks["api"][0] == "OK"
    assert "3 branch(es)" in checks["api"][1]
    assert checks["branch"] == ("OK", "training uses the first branch: 1 Sucursal Centro")
    assert checks["validation-qr"][0] == "SKIP"


@pytest.mark.parametrize(
    ("qr", "status", "says"),
    [
        (1, "OK", "QR 1 Caja principal"),
        (2, "FAIL", "belongs to branch 2, not 1"),
        (4, "FAIL", "not an active validation QR"),  # deactivated in the seed
        (99, "FAIL", "not an active validation QR (active: 1, 2, 3)"),
    ],
)
def test_the_chosen_qr_must_be_active_and_of_the_branch(
    home: KioskPaths,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
    qr: int,
    status: str,
    says: str,
) -> None:
    expect_log("self-test failed")
    write_ini(home, f"[connection]\nbranch_id = 1\n[counter]\nvalidation_qr_id = {qr}\n")
    code, checks = self_test(capsys, "--demo")
    assert checks["validation-qr"][0] == status
    assert says in checks["validation-qr"][1]
    assert code == (EXIT_OK if status == "OK" else EXIT_FAILED)


def test_production_with_a_stored_key_passes_and_never_shows_it(
    home: KioskPaths,
    sim_url: str,
    memory_keyring: MemoryKeyring,
    capsys: pytest.CaptureFixture[str],
) -> None:
    production(home, sim_url, "branch_id = 3\n[counter]\nvalidation_qr_id = 3\n")
    store(memory_keyring, sim_url)
    code = main(["--self-test"])
    out = capsys.readouterr().out
    assert code == EXIT_OK, out
    assert "SKIP" not in out
    assert "FAIL" not in out
    assert "MemoryKeyring: a key is stored for production" in out
    assert MAIN_KEY not in out
    assert MAIN_KEY not in (home.log_dir / "kiosk.log").read_text()


@pytest.mark.parametrize(
    ("key", "url", "failed", "says"),
    [
        (None, None, "keyring", "no API key stored for production"),
        ("wrong-key-for-this-api", None, "api", "the key was refused"),
        (MAIN_KEY, "http://127.0.0.1:9", "api", "cannot reach http://127.0.0.1:9"),
    ],
)
def test_key_and_api_failures(
    home: KioskPaths,
    sim_url: str,
    memory_keyring: MemoryKeyring,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
    key: str | None,
    url: str | None,
    failed: str,
    says: str,
) -> None:
    expect_log("self-test failed")
    expect_log("GET /external/branch")
    url = url or sim_url
    production(home, url, "branch_id = 1\n")
    if key:
        store(memory_keyring, url, key)
    code, checks = self_test(capsys)
    assert code == EXIT_FAILED
    assert checks[failed][0] == "FAIL"
    assert says in checks[failed][1]
    assert checks["branch"][0] == "SKIP"  # needs what failed


def test_a_branch_of_another_merchant_fails(
    home: KioskPaths,
    sim_url: str,
    memory_keyring: MemoryKeyring,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
) -> None:
    expect_log("self-test failed")
    production(home, sim_url, "branch_id = 4\n")
    store(memory_keyring, sim_url)
    code, checks = self_test(capsys)
    assert code == EXIT_FAILED
    assert checks["branch"] == (
        "FAIL",
        "branch 4 is not a branch of this key's merchant (its branches: 1, 2, 3)",
    )


def test_settings_problems_fail(
    home: KioskPaths,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
) -> None:
    expect_log("self-test failed")
    expect_log("settings")
    code, checks = self_test(capsys)
    assert code == EXIT_FAILED
    assert "no settings file" in checks["settings"][1]
    write_ini(home, "[connection]\nenvironment = production\n")
    assert "production_url: not set" in self_test(capsys)[1]["settings"][1]
    write_ini(home, "[counter]\nidle_timeout_seconds = 5\n")
    assert "idle_timeout_seconds" in self_test(capsys, "--demo")[1]["settings"][1]
    write_ini(home, "[api]\nkey = abc\n")
    assert "looks like an API key" in self_test(capsys, "--demo")[1]["settings"][1]


def add_row(paths: KioskPaths, state: str, created_at: float) -> None:
    training = paths.for_training().training_database  # --demo checks training's own file
    training.parent.mkdir(parents=True, exist_ok=True)
    conn = open_database(training)
    conn.execute(
        "INSERT INTO outbox_rows (kind, external_id, body, state, created_at, next_attempt_at,"
        " environment, base_url, key_fingerprint, branch_id) VALUES"
        " ('credit', ?, '{}', ?, ?, 0, 'training', 'http://training.sim', 'x', 1)",
        (f"K-{state}-{created_at}", state, created_at),
    )
    conn.close()


def test_outbox_counts_and_health(
    home: KioskPaths,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
) -> None:
    expect_log("self-test failed")
    add_row(home, "pending", time.time())
    code, checks = self_test(capsys, "--demo")
    assert code == EXIT_OK
    assert checks["database"] == (
        "OK",
        f"kiosk-training.sqlite3 integrity ok, schema v{MIGRATIONS[-1].version}; outbox: 1 pending, 0 dead-letter",
    )
    add_row(home, "dead", time.time())
    code, checks = self_test(capsys, "--demo")
    assert code == EXIT_FAILED
    assert "1 dead-letter" in checks["database"][1]
    assert "need a manager" in checks["database"][1]


def test_a_credit_pending_for_more_than_a_day_fails(
    home: KioskPaths,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
) -> None:
    expect_log("self-test failed")
    add_row(home, "pending", time.time() - 30 * 3600)
    code, checks = self_test(capsys, "--demo")
    assert code == EXIT_FAILED
    assert "has waited 30 h" in checks["database"][1]


def test_a_damaged_database_fails(
    home: KioskPaths,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
) -> None:
    expect_log("self-test failed")
    damaged = home.for_training().training_database
    damaged.parent.mkdir(parents=True)
    damaged.write_bytes(b"SQLite format 3\x00" + b"\x13" * 4096)
    code, checks = self_test(capsys, "--demo")
    assert code == EXIT_FAILED
    assert checks["database"][0] == "FAIL"


def test_production_without_its_pin_fails_and_says_how_to_set_one(
    home: KioskPaths,
    sim_url: str,
    memory_keyring: MemoryKeyring,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
) -> None:
    expect_log("self-test failed")
    production(home, sim_url, "branch_id = 3\n", pin=False)
    store(memory_keyring, sim_url)
    code, checks = self_test(capsys)
    assert code == EXIT_FAILED
    status, says = checks["manager-pin"]
    assert status == "FAIL"
    assert "Manager, cancels and discards are refused" in says
    assert "reset-pin --new-pin" in says
    assert [name for name, (s, _) in checks.items() if s == "FAIL"] == ["manager-pin"]


def test_the_pin_check_tells_a_locked_pin_and_training(
    home: KioskPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert self_test(capsys, "--demo")[1]["manager-pin"] == (
        "OK",
        "training: the first person at Manager chooses it",
    )
    write_ini(home, f"[kiosk]\nmanager_pin_hash = {PIN_HASH}\n[lock]\nlocked = manager_pin_hash\n")
    status, says = self_test(capsys, "--demo")[1]["manager-pin"]
    assert (status, says) == (
        "OK",
        f"manager_pin_hash set by IT in {home.machine_settings}, line 2, locked",
    )
    assert PIN_HASH not in says


def test_a_pin_hash_in_the_accounts_own_file_is_not_reported_as_its(
    home: KioskPaths,
    sim_url: str,
    memory_keyring: MemoryKeyring,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
) -> None:
    """#22 item 2c: a manager_pin_hash written into settings.json gives no PIN, and the
    self-test says so (the settings line names the entry ignored), never "set by IT"."""
    expect_log("self-test failed")
    expect_log("manager_pin_hash: only IT may set this")
    production(home, sim_url, "branch_id = 3\n", pin=False)
    store(memory_keyring, sim_url)
    home.config_dir.mkdir(parents=True, exist_ok=True)
    home.overrides.write_text(
        '{"version": 1, "settings": {"manager_pin_hash": "%s"}}' % PIN_HASH  # noqa: UP031
    )
    code, checks = self_test(capsys)
    assert code == EXIT_FAILED
    assert checks["manager-pin"][0] == "FAIL"
    assert "set by IT" not in checks["manager-pin"][1]
    assert checks["settings"][0] == "FAIL"
    assert "manager_pin_hash: only IT may set this" in checks["settings"][1]


def test_production_checks_its_own_database_not_trainings(
    home: KioskPaths,
    sim_url: str,
    memory_keyring: MemoryKeyring,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
) -> None:
    expect_log("self-test failed")
    damaged = home.for_training().training_database
    damaged.parent.mkdir(parents=True)
    damaged.write_bytes(b"SQLite format 3\x00" + b"\x13" * 4096)
    open_database(home.database).close()
    production(home, sim_url, "branch_id = 3\n")
    store(memory_keyring, sim_url)
    code, checks = self_test(capsys)
    assert checks["database"][0] == "OK"
    assert checks["database"][1].startswith("kiosk.sqlite3 integrity ok")
    assert code == EXIT_OK
    assert self_test(capsys, "--demo")[1]["database"][0] == "FAIL"  # training's own file


def test_training_says_one_thing_about_the_key(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue #28, item 6: "needs no API key" then "accepted the key" contradicted itself."""
    code, checks = self_test(capsys, "--demo")
    assert code == EXIT_OK
    assert checks["keyring"] == ("SKIP", "training: no keyring read (the simulator's own key)")
    assert checks["api"][1].startswith("the training simulator answered in ")
    assert "accepted the key" not in checks["api"][1]


def test_the_keyring_check_names_the_account_and_the_linux_store(
    home: KioskPaths,
    sim_url: str,
    memory_keyring: MemoryKeyring,
    capsys: pytest.CaptureFixture[str],
    expect_log: ExpectLog,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Which account's keyring was read (an administrator's own is another one), and
    on Linux where a key is kept without Windows' Credential Manager."""
    import getpass
    import sys

    expect_log("self-test failed")
    monkeypatch.setattr(getpass, "getuser", lambda: "caja01")
    monkeypatch.setattr(sys, "platform", "linux")
    production(home, sim_url, "branch_id = 3\n")
    code, checks = self_test(capsys)
    assert code == EXIT_FAILED
    status, says = checks["keyring"]
    assert status == "FAIL"
    assert "in the keyring of caja01" in says
    assert "Secret Service of this account's session" in says
    assert "~/.local/share/keyrings/login.keyring" in says
    store(memory_keyring, sim_url)
    code, checks = self_test(capsys)
    assert checks["keyring"][1].endswith("a key is stored for production in the keyring of caja01")
