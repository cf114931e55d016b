"""What the start cannot do without, named with its file and line (issue #18, a bad day for
IT; issue #17, an invalid environment and the variables that move IT's file).

Each case is what IT would really write: an ``http://`` URL, a binary file, a section or
a key twice, an API key in the file, an environment that does not exist. The errors
carry ``path`` and ``line`` for the start-up screen (``kiosk.ui.startup_error``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from kiosk.core.settings import layers as s
from kiosk.core.settings.files import FileProblem, SettingsFileError
from kiosk.core.settings.layers import (
    Environment,
    InvalidSettingError,
    SecretInSettingsError,
    load_settings,
    machine_file,
)
from kiosk.core.settings.paths import KioskPaths, resolve_paths

ExpectLog = Callable[[str], None]


@pytest.fixture
def paths(tmp_path: Path) -> KioskPaths:
    return resolve_paths({"LOYALTY_KIOSK_HOME": str(tmp_path)})


def write_machine(paths: KioskPaths, data: str | bytes) -> Path:
    paths.machine_settings.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    paths.machine_settings.write_bytes(raw)
    return paths.machine_settings


def test_an_http_url_is_named_with_its_line_not_as_not_set(
    paths: KioskPaths, expect_log: ExpectLog
) -> None:
    expect_log("production_url: must use https")
    path = write_machine(
        paths,
        "[connection]\nenvironment = production\nproduction_url = http://api.example.com\n",
    )
    settings = load_settings(paths)
    [problem] = settings.problems
    assert (problem.key, problem.line) == ("production_url", 3)
    with pytest.raises(InvalidSettingError) as caught:
        settings.base_url()
    error = caught.value
    assert (error.key, error.path, error.line) == ("production_url", path, 3)
    assert "must use https" in str(error)
    assert "not set" not in str(error)


def test_a_url_that_is_really_missing_names_the_file(paths: KioskPaths) -> None:
    path = write_machine(paths, "[connection]\nenvironment = qa\n")
    with pytest.raises(InvalidSettingError, match="qa_url: not set") as caught:
        load_settings(paths).base_url()
    assert (caught.value.path, caught.value.line) == (path, None)


@pytest.mark.parametrize(
    "data",
    [
        bytes(range(256)) * 2,  # random bytes
        b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + b"\x00" * 40,  # a zip copied over it
        "[connection]\nenvironment = qa\n".encode("utf-16-le"),  # UTF-16 without its mark
    ],
)
def test_a_binary_file_is_refused_as_not_text(paths: KioskPaths, data: bytes) -> None:
    path = write_machine(paths, data)
    with pytest.raises(SettingsFileError) as caught:
        load_settings(paths)
    assert caught.value.problem is FileProblem.NOT_TEXT
    assert caught.value.path == path
    assert "not a text settings file" in str(caught.value)


@pytest.mark.parametrize(
    ("text", "problem", "line", "says"),
    [
        (
            "[connection]\nenvironment = qa\n\n[connection]\nbranch_id = 1\n",
            FileProblem.DUPLICATE_SECTION,
            4,
            "[connection] appears twice",
        ),
        (
            "[counter]\ntheme = dark\nidle_timeout_seconds = 60\nidle_timeout_seconds = 90\n",
            FileProblem.DUPLICATE_KEY,
            4,
            "idle_timeout_seconds appears twice",
        ),
        ("branch_id = 3\n", FileProblem.SYNTAX, 1, "before any [section]"),
        (
            "[connection]\nbranch_id = 1\nthis is not an entry\n",
            FileProblem.SYNTAX,
            3,
            "key = value",
        ),
    ],
)
def test_a_broken_file_names_its_line(
    paths: KioskPaths, text: str, problem: FileProblem, line: int, says: str
) -> None:
    path = write_machine(paths, text)
    with pytest.raises(SettingsFileError) as caught:
        load_settings(paths)
    error = caught.value
    assert (error.problem, error.path, error.line) == (problem, path, line)
    assert says in str(error)
    assert f"{path}, line {line}" in str(error)
    assert says in error.what
    assert str(path) not in error.what  # the screen shows the place on its own


def test_a_key_in_the_file_names_its_line_and_says_to_rotate_it(
    paths: KioskPaths, expect_log: ExpectLog, caplog: pytest.LogCaptureFixture
) -> None:
    expect_log("looks like an API key")
    key = "lk_live_4f9a8b7c6d5e4f3a2b1c0d9e"
    path = write_machine(
        paths,
        "; IT\n[connection]\nenvironment = production\napi_key = " + key + "\n",
    )
    with pytest.raises(SecretInSettingsError) as caught:
        load_settings(paths)
    error = caught.value
    assert (error.path, error.line) == (path, 4)
    assert "rotate this key" in str(error)
    assert key not in str(error) + caplog.text


def test_an_invalid_environment_is_an_error_not_training(paths: KioskPaths) -> None:
    path = write_machine(paths, "[connection]\n; production\nenvironment = prod\n")
    with pytest.raises(InvalidSettingError) as caught:
        load_settings(paths)
    error = caught.value
    assert (error.key, error.path, error.line) == ("environment", path, 3)
    assert "production, qa, training" in str(error)


def test_an_invalid_environment_of_the_manager_keeps_it_s_file(
    paths: KioskPaths, expect_log: ExpectLog
) -> None:
    """The manager's overrides cannot turn a production kiosk into anything else."""
    expect_log("environment: only IT may set this")
    write_machine(
        paths,
        "[connection]\nenvironment = production\nproduction_url = https://api.example.com\n",
    )
    paths.config_dir.mkdir(parents=True)
    paths.overrides.write_text(json.dumps({"version": 1, "settings": {"environment": "x"}}))
    assert load_settings(paths).get(s.ENVIRONMENT) is Environment.PRODUCTION


# --- the variables that move IT's file ---------------------------------------------------


@pytest.fixture
def it_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """IT's file at its fixed place (here a folder of the test's own)."""
    fixed = tmp_path / "ProgramData" / "LoyaltyKiosk" / "kiosk.ini"
    fixed.parent.mkdir(parents=True)
    monkeypatch.setattr(s, "machine_settings_path", lambda: fixed)
    # Its owner is this test's account: the rule on who may write it has tests of its own.
    monkeypatch.setattr(s, "check_machine_file", lambda path: None)
    return fixed


@pytest.fixture
def cashier(tmp_path: Path) -> KioskPaths:
    """A kiosk.ini of the cashier's own, pointed to by a variable of their account."""
    own = tmp_path / "mine" / "kiosk.ini"
    own.parent.mkdir()
    own.write_text(
        "[connection]\nenvironment = training\n[kiosk]\nkiosk_mode = false\n", encoding="utf-8"
    )
    return resolve_paths(
        {
            "LOYALTY_KIOSK_HOME": str(tmp_path / "home"),
            "LOYALTY_KIOSK_MACHINE_SETTINGS": str(own),
        }
    )


def test_on_a_production_kiosk_the_variables_do_not_move_it_s_file(
    it_file: Path, cashier: KioskPaths, expect_log: ExpectLog
) -> None:
    expect_log("the variables that point to .* are ignored")
    it_file.write_text(
        "[connection]\nenvironment = production\nproduction_url = https://api.example.com\n"
        "[kiosk]\nkiosk_mode = true\n[lock]\nlocked = *\n",
        encoding="utf-8",
    )
    assert machine_file(cashier) == it_file
    settings = load_settings(cashier)
    assert settings.machine_path == it_file
    assert settings.get(s.ENVIRONMENT) is Environment.PRODUCTION
    assert settings.get(s.KIOSK_MODE) is True
    assert settings.is_locked(s.THEME)


def test_an_unreadable_it_file_is_not_bypassed_either(
    it_file: Path, cashier: KioskPaths, expect_log: ExpectLog
) -> None:
    expect_log("the variables that point to .* are ignored")
    it_file.write_bytes(b"\x00\x01garbage\x00")
    with pytest.raises(SettingsFileError):
        load_settings(cashier)


@pytest.mark.parametrize("text", [None, "[connection]\nenvironment = training\n", "[display]\n"])
def test_training_machines_and_machines_without_it_s_file_follow_the_variables(
    it_file: Path, cashier: KioskPaths, text: str | None
) -> None:
    if text is not None:
        it_file.write_text(text, encoding="utf-8")
    assert machine_file(cashier) == cashier.machine_settings
    assert load_settings(cashier).get(s.ENVIRONMENT) is Environment.TRAINING


def test_the_fixed_place_is_the_platform_s() -> None:
    """Without a test's stand-in, the fixed place is the installer's (nothing there here)."""
    paths = resolve_paths({"LOYALTY_KIOSK_HOME": os.devnull + "-nowhere"})
    expected = paths.machine_settings
    if s.machine_settings_path().exists():  # pragma: no cover - a machine with the kiosk
        pytest.skip("this machine has the kiosk installed")
    assert machine_file(paths) == expected
