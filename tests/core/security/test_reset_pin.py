"""IT's PIN commands: ``reset-pin`` (clear, or set IT's PIN) and ``hash-pin``."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from kiosk.cli import pin as P
from kiosk.cli.args import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from kiosk.core.security import lock as L
from kiosk.core.security.lock import ManagerLock, ScryptParams, verify_pin
from kiosk.core.settings import layers as S
from kiosk.core.settings.layers import load_settings
from kiosk.core.settings.paths import KioskPaths

FAST = ScryptParams(n=2**4, r=1, p=1)
INI_UTF16 = (
    "; written by the installer\r\n[connection]\r\nenvironment = training\r\n\r\n"
    "[kiosk]\r\nkiosk_mode = true ; full screen\r\n\r\n[lock]\r\nlocked = environment\r\n"
)


@pytest.fixture
def paths(tmp_path: Path) -> KioskPaths:
    return KioskPaths(
        tmp_path / "machine" / "kiosk.ini", tmp_path / "config", tmp_path / "data", tmp_path / "log"
    )


def lock_for(paths: KioskPaths) -> ManagerLock:
    return ManagerLock.for_paths(load_settings(paths), paths, params=FAST)


def test_reset_clears_a_pin_set_on_the_kiosk_and_keeps_the_file(paths: KioskPaths) -> None:
    paths.machine_settings.parent.mkdir(parents=True)
    paths.machine_settings.write_bytes(b"\xff\xfe" + INI_UTF16.encode("utf-16-le"))
    lock = lock_for(paths)
    asyncio.run(lock.set_pin("1470"))
    assert lock_for(paths).has_pin()
    out, err = io.StringIO(), io.StringIO()
    assert P.reset_pin(paths, out=out, err=err) == EXIT_OK
    data = paths.machine_settings.read_bytes()
    assert data.startswith(b"\xff\xfe")
    text = data[2:].decode("utf-16-le")
    value = S.MANAGER_PIN_HASH.parse(load_settings(paths).get(S.MANAGER_PIN_HASH))
    assert value is not None
    assert value.startswith(L.RESET_PREFIX)
    expected = INI_UTF16.replace(
        "kiosk_mode = true ; full screen\r\n",
        f"kiosk_mode = true ; full screen\r\n{P.KEY} = {value}\r\n",
    )
    assert text == expected  # nothing else changed, same line ends
    assert not lock_for(paths).has_pin()  # first run again: the next manager sets one
    assert "Restart the kiosk" in out.getvalue()
    assert err.getvalue() == ""


def test_reset_replaces_the_value_once_and_appends_the_section(paths: KioskPaths) -> None:
    paths.machine_settings.parent.mkdir(parents=True)
    ini = "# café\n[kiosk]\nmanager_pin_hash = old\nMANAGER_PIN_HASH: older\n[display]\ntheme = dark\n"
    paths.machine_settings.write_bytes(ini.encode("cp1252"))
    P.set_ini_value(paths.machine_settings, "kiosk", "manager_pin_hash", "reset$1$ab")
    text = paths.machine_settings.read_bytes().decode("cp1252")
    assert text == "# café\n[kiosk]\nmanager_pin_hash = reset$1$ab\n[display]\ntheme = dark\n"
    other = paths.machine_settings.with_name("other.ini")
    other.write_text("[counter]\nidle_timeout_seconds = 60\n", encoding="utf-8")
    P.set_ini_value(other, "kiosk", "manager_pin_hash", "x")
    assert (
        other.read_text()
        == "[counter]\nidle_timeout_seconds = 60\n\n[kiosk]\nmanager_pin_hash = x\n"
    )


def test_reset_starts_the_count_again_and_a_planted_hash_never_counts(
    paths: KioskPaths, expect_log: Callable[[str], None]
) -> None:
    """#22 item 2c: a hash the kiosk's account writes in its settings.json is not IT's
    PIN, neither before nor after reset-pin (which edits only IT's file)."""
    expect_log(r"wrong manager PIN \(\d+ in a row\)")
    expect_log("manager_pin_hash: only IT may set this")
    paths.machine_settings.parent.mkdir(parents=True)
    paths.machine_settings.write_text(f"[kiosk]\n{P.KEY} = {L.hash_pin('5820', FAST)}\n")
    lock = lock_for(paths)
    for _ in range(3):
        asyncio.run(lock.attempt("0000"))
    assert lock_for(paths).failures == 3
    paths.config_dir.mkdir(parents=True)
    old = L.hash_pin("1111", FAST)
    paths.overrides.write_text(
        json.dumps({"version": 1, "settings": {"manager_pin_hash": old, "theme": "dark"}})
    )
    planted = lock_for(paths)
    assert planted.failures == 3
    checked = planted.pins.current()
    assert checked is not None
    assert checked != old
    assert verify_pin("5820", checked)
    out = io.StringIO()
    assert P.reset_pin(paths, out=out, err=io.StringIO()) == EXIT_OK
    assert (paths.data_dir / L.LOCKOUT_FILE).exists()  # nothing deleted: IT's value moved
    assert "The count of wrong PINs starts again" in out.getvalue()
    assert str(paths.overrides) not in out.getvalue()  # nobody's settings.json is IT's word
    again = lock_for(paths)
    assert not again.has_pin()
    assert again.failures == 0


def test_without_administrator_rights_nothing_changes(
    paths: KioskPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*args: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(P, "set_ini_value", refused)
    (paths.data_dir).mkdir(parents=True)
    (paths.data_dir / L.LOCKOUT_FILE).write_text('{"version": 1, "failures": 7}')
    err = io.StringIO()
    assert P.reset_pin(paths, out=io.StringIO(), err=err) == EXIT_FAILED
    assert "administrator" in err.getvalue()
    assert (paths.data_dir / L.LOCKOUT_FILE).exists()


def test_reset_with_a_new_pin_from_it(paths: KioskPaths) -> None:
    out = io.StringIO()
    code = P.reset_pin(
        paths, new_pin=True, stdin=io.StringIO("5820371946\n"), out=out, err=io.StringIO()
    )
    assert code == EXIT_OK
    stored = load_settings(paths).get(S.MANAGER_PIN_HASH)
    assert stored is not None
    assert verify_pin("5820371946", stored)
    assert "5820371946" not in out.getvalue()
    assert "5820371946" not in paths.machine_settings.read_text()
    assert asyncio.run(lock_for(paths).attempt("5820371946")).outcome is L.Outcome.OK


@pytest.mark.parametrize(
    "typed", ["98", "1234567890123", "12a4\n", "1234567890\n5678901234\n", "", "48260", "482603917"]
)
def test_a_pin_that_is_not_10_to_12_digits_is_refused(paths: KioskPaths, typed: str) -> None:
    err = io.StringIO()
    assert P.reset_pin(paths, new_pin=True, stdin=io.StringIO(typed), err=err) == EXIT_USAGE
    assert not paths.machine_settings.exists()
    assert P.print_pin_hash(io.StringIO(typed), io.StringIO(), err) == EXIT_USAGE
    if typed.strip():
        assert typed.strip().splitlines()[0] not in err.getvalue()


def test_hash_pin_prints_the_ini_line(paths: KioskPaths) -> None:
    out = io.StringIO()
    assert P.print_pin_hash(io.StringIO("4826039175\n"), out, io.StringIO()) == EXIT_OK
    section, line = out.getvalue().splitlines()
    assert section == "[kiosk]"
    key, value = (part.strip() for part in line.split("=", 1))
    assert key == "manager_pin_hash"
    assert verify_pin("4826039175", value)
    assert S.MANAGER_PIN_HASH.parse(value) == value
    assert "4826039175" not in out.getvalue().replace(value, "")


@pytest.mark.parametrize(
    "typed", ["0000000000", "0123456789", "9876543210", "7777777777", "1212121212", "1234512345"]
)
def test_it_cannot_choose_a_pin_anyone_tries_first(paths: KioskPaths, typed: str) -> None:
    err = io.StringIO()
    assert P.print_pin_hash(io.StringIO(typed + "\n"), io.StringIO(), err) == EXIT_USAGE
    assert "among the first anyone tries" in err.getvalue()
    code = P.reset_pin(paths, new_pin=True, stdin=io.StringIO(typed), err=io.StringIO())
    assert code == EXIT_USAGE
    assert not paths.machine_settings.exists()


@pytest.mark.parametrize("typed", ["4826", "48260391"])
def test_it_cannot_hash_a_pin_an_offline_search_finds(paths: KioskPaths, typed: str) -> None:
    """#22 item 3: kiosk.ini (readable by every user) holds the hash; IT's PIN has 10
    to 12 digits, and the refusal says why."""
    err = io.StringIO()
    assert P.print_pin_hash(io.StringIO(typed + "\n"), io.StringIO(), err) == EXIT_USAGE
    assert "10 to 12 digits" in err.getvalue()
    assert "offline search" in err.getvalue()
    assert typed not in err.getvalue()
    assert P.reset_pin(paths, new_pin=True, stdin=io.StringIO(typed), err=err) == EXIT_USAGE
    assert not paths.machine_settings.exists()
