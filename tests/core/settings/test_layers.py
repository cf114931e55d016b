"""Settings: declarations, layers, IT locks, validation, secrets refused; the docs table."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from kiosk.core.amounts import AmountLocale
from kiosk.core.settings import layers as s
from kiosk.core.settings.layers import (
    SETTINGS,
    Environment,
    InvalidSettingError,
    Layer,
    SecretInSettingsError,
    SettingLockedError,
    Settings,
    SettingsError,
    SettingsValidationError,
    Theme,
    Who,
    load_settings,
)
from kiosk.core.settings.paths import KioskPaths, resolve_paths

ExpectLog = Callable[[str], None]
DOCS = Path(__file__).resolve().parents[3] / "docs" / "settings.md"

MACHINE_INI = """\
; written by the installer
[connection]
environment = production
production_url = https://api.loyalty.example.com/
branch_id = 12

[counter]
point_items = 12, 37 5
idle_timeout_seconds = 120   ; two minutes

[kiosk]
kiosk_mode = yes

[lock]
locked = environment, branch_id
"""


@pytest.fixture
def paths(tmp_path: Path) -> KioskPaths:
    return resolve_paths({"LOYALTY_KIOSK_HOME": str(tmp_path)})


def write_machine(paths: KioskPaths, text: str, encoding: str = "utf-8") -> None:
    paths.machine_settings.parent.mkdir(parents=True, exist_ok=True)
    paths.machine_settings.write_bytes(text.encode(encoding))


def write_overrides(paths: KioskPaths, values: object) -> None:
    paths.config_dir.mkdir(parents=True, exist_ok=True)
    paths.overrides.write_text(json.dumps({"version": 1, "settings": values}))


# --- declarations ----------------------------------------------------------------------


def test_every_default_survives_its_own_parser() -> None:
    for key, setting in SETTINGS.items():
        assert setting.key == key
        as_json = json.loads(json.dumps(s._json_value(setting.default)))
        assert setting.parse(as_json) == setting.default, key


def test_defaults() -> None:
    settings = Settings()
    assert settings.get(s.ENVIRONMENT) is Environment.TRAINING
    assert settings.get(s.IDLE_TIMEOUT) == 90
    assert settings.get(s.MANAGER_IDLE_TIMEOUT) == 900
    assert settings.get(s.AMOUNT_LOCALE) is AmountLocale.ES_AR
    assert settings.get(s.POINT_ITEMS) == ()
    assert settings.get(s.BRANCH_ID) is None
    assert settings.base_url() is None  # training: the simulator in process
    assert all(settings.source(key) is Layer.DEFAULT for key in SETTINGS)
    assert settings.problems == []


# --- layers and locks --------------------------------------------------------------------


def test_layers(paths: KioskPaths) -> None:
    write_machine(paths, MACHINE_INI)
    write_overrides(paths, {"theme": "dark", "idle_timeout_seconds": 60})
    settings = load_settings(paths)
    assert settings.get(s.ENVIRONMENT) is Environment.PRODUCTION
    assert settings.base_url() == "https://api.loyalty.example.com"
    assert settings.get(s.BRANCH_ID) == 12
    assert settings.get(s.POINT_ITEMS) == (12, 37, 5)
    assert settings.get(s.KIOSK_MODE) is True
    assert settings.get(s.THEME) is Theme.DARK
    assert settings.get(s.IDLE_TIMEOUT) == 60  # the manager's beats IT's 120
    assert settings.source("idle_timeout_seconds") is Layer.MANAGER
    assert settings.source(s.BRANCH_ID) is Layer.MACHINE
    assert settings.source(s.LANGUAGE) is Layer.DEFAULT
    assert settings.values()["branch_id"] == 12
    assert settings.problems == []


def test_locked_and_it_only_settings(paths: KioskPaths, expect_log: ExpectLog) -> None:
    expect_log(r"branch_id: locked by IT")
    write_machine(paths, MACHINE_INI)
    write_overrides(paths, {"branch_id": 99})  # set before IT locked it
    settings = load_settings(paths)
    assert settings.get(s.BRANCH_ID) == 12
    assert [p.key for p in settings.problems] == ["branch_id"]
    for key in ("environment", "branch_id", "kiosk_mode", "journal_retention_days", "locked"):
        assert settings.is_locked(key)
        with pytest.raises(SettingLockedError, match=key):
            settings.set_override(key, SETTINGS[key].default)
        with pytest.raises(SettingLockedError):
            settings.clear_override(key)
    assert not settings.is_locked("theme")
    with pytest.raises(SettingLockedError):
        settings.set_overrides({"theme": "dark", "environment": "qa"})
    assert not paths.overrides.read_text().count("dark")  # nothing written


def test_star_locks_everything(paths: KioskPaths) -> None:
    write_machine(paths, "[lock]\nlocked = *\n")
    settings = load_settings(paths)
    assert all(settings.is_locked(key) for key in SETTINGS)
    with pytest.raises(SettingLockedError):
        settings.set_override(s.THEME, "dark")


def test_manager_overrides_are_saved_and_reload(paths: KioskPaths) -> None:
    settings = load_settings(paths)
    settings.set_override(s.THEME, "dark")
    settings.set_override("point_items", [5, 3, 9])
    settings.set_overrides({"amount_locale": "en-US", "validation_qr_id": "4"})
    assert settings.get(s.POINT_ITEMS) == (5, 3, 9)
    reloaded = load_settings(paths)
    assert reloaded.values() == settings.values()
    assert reloaded.get(s.AMOUNT_LOCALE) is AmountLocale.EN_US
    assert reloaded.get(s.VALIDATION_QR_ID) == 4
    stored = json.loads(paths.overrides.read_text())
    assert stored["version"] == 1
    assert stored["settings"]["point_items"] == [5, 3, 9]
    reloaded.clear_override(s.THEME)
    assert load_settings(paths).get(s.THEME) is Theme.LIGHT
    assert [p.name for p in paths.config_dir.iterdir()] == ["settings.json"]


def test_in_memory_settings_save_nothing() -> None:
    settings = Settings()
    settings.set_override(s.THEME, "dark")
    assert settings.get(s.THEME) is Theme.DARK


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("branch_id", "0"),
        ("branch_id", -3),
        ("branch_id", "12a"),
        ("branch_id", True),
        ("point_items", "1, 2, 1"),
        ("point_items", "1, x"),
        ("point_items", ",".join(str(n) for n in range(1, 62))),
        ("idle_timeout_seconds", "5"),
        ("idle_timeout_seconds", 3601),
        ("idle_timeout_seconds", "90.5"),
        ("manager_idle_timeout_seconds", 30),
        ("manager_idle_timeout_seconds", 901),  # PCI DSS 8.2.8: at most 15 minutes
        ("amount_locale", "fr-FR"),
        ("on_screen_keyboard", "sometimes"),
        ("language", "de"),
        ("theme", "purple"),
    ],
)
def test_invalid_values_are_refused_per_key(key: str, value: object) -> None:
    settings = Settings()
    with pytest.raises(InvalidSettingError) as caught:
        settings.set_override(key, value)
    assert caught.value.key == key
    assert str(caught.value).startswith(f"{key}: ")
    assert settings.source(key) is Layer.DEFAULT


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("environment", "prod"),
        ("production_url", "ftp://api.example.com"),
        ("production_url", "http://api.example.com"),
        ("production_url", "https://user:pw@api.example.com"),
        ("production_url", "https://api.example.com/?x=1"),
        ("production_url", "api.example.com"),
        ("manager_pin_hash", "1234"),
        ("manager_pin_hash", "not a hash"),
    ],
)
def test_invalid_values_of_it_are_refused_per_key(
    key: str, value: str, expect_log: ExpectLog
) -> None:
    expect_log(f"{key}: ")
    if key == "environment":
        with pytest.raises(InvalidSettingError) as caught:
            Settings({key: value})
        assert caught.value.key == key
        return
    settings = Settings({key: value})
    assert settings.source(key) is Layer.DEFAULT
    assert [p.key for p in settings.problems] == [key]


def test_valid_edge_values() -> None:
    settings = Settings(
        {
            "qa_url": "http://localhost:8000/",
            "manager_pin_hash": "scrypt$16384$8$1$c2FsdA==$aGFzaA==",
        }
    )
    assert settings.get(s.QA_URL) == "http://localhost:8000"
    settings.set_override(s.BRANCH_ID, "")
    assert settings.get(s.BRANCH_ID) is None
    settings.set_override(s.ON_SCREEN_KEYBOARD, " ALWAYS ")
    assert settings.get(s.ON_SCREEN_KEYBOARD).value == "always"
    assert settings.get(s.MANAGER_PIN_HASH) == "scrypt$16384$8$1$c2FsdA==$aGFzaA=="


def test_batch_reports_every_bad_key_and_saves_nothing(paths: KioskPaths) -> None:
    settings = load_settings(paths)
    with pytest.raises(SettingsValidationError) as caught:
        settings.set_overrides({"theme": "dark", "idle_timeout_seconds": 1, "language": "xx"})
    assert set(caught.value.errors) == {"idle_timeout_seconds", "language"}
    assert settings.get(s.THEME) is Theme.LIGHT
    assert not paths.overrides.exists()
    with pytest.raises(SettingsError, match="unknown setting"):
        settings.set_override("colour", "red")


def test_base_url_needs_the_environments_url() -> None:
    settings = Settings({"environment": "qa"})
    with pytest.raises(InvalidSettingError, match="qa_url"):
        settings.base_url()
    assert Settings({"environment": "qa", "qa_url": "https://qa.example.com"}).base_url() == (
        "https://qa.example.com"
    )


# --- the files -------------------------------------------------------------------------------


def test_unknown_misplaced_and_invalid_entries_are_ignored_with_a_warning(
    paths: KioskPaths, expect_log: ExpectLog, caplog: pytest.LogCaptureFixture
) -> None:
    for pattern in (
        "colour: unknown",
        "theme: belongs in",
        "branch_id: must be",
        "kiosk_mode: only IT",
        "wallpaper: unknown",
        "cannot lock",
    ):
        expect_log(pattern)
    write_machine(
        paths,
        "[display]\ncolour = red\n[counter]\ntheme = dark\n"
        "[connection]\nbranch_id = twelve\n[lock]\nlocked = nothing_like_this\n",
    )
    write_overrides(paths, {"kiosk_mode": True, "wallpaper": "cats"})
    settings = load_settings(paths)
    assert settings.get(s.THEME) is Theme.LIGHT
    assert settings.get(s.BRANCH_ID) is None
    assert settings.get(s.KIOSK_MODE) is False
    assert {p.key for p in settings.problems} == {
        "colour",
        "theme",
        "branch_id",
        "kiosk_mode",
        "wallpaper",
        "nothing_like_this",
    }
    assert "twelve" not in caplog.text  # reasons never echo values


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "cp1252"])
def test_machine_file_encodings(paths: KioskPaths, encoding: str) -> None:
    write_machine(paths, "[connection]\r\nbranch_id=7\r\n; Sucursal Peñalolén\r\n", encoding)
    assert load_settings(paths).get(s.BRANCH_ID) == 7


@pytest.mark.parametrize(
    "text",
    ["[connection]\nbranch_id\n", "branch_id = 3\n", "[counter]\ntheme=a\ntheme=b\n"],
)
def test_a_broken_machine_file_is_refused(paths: KioskPaths, text: str) -> None:
    write_machine(paths, text)
    with pytest.raises(SettingsError, match="not a valid settings file"):
        load_settings(paths)


@pytest.mark.parametrize(
    "entry",
    [
        ("connection", "api_key"),
        ("connection", "API-Key"),
        ("connection", "x_api_key"),
        ("api", "key"),
        ("kiosk", "token"),
        ("kiosk", "client_secret"),
        ("kiosk", "password"),
    ],
)
def test_a_machine_file_holding_a_secret_is_refused(
    paths: KioskPaths,
    entry: tuple[str, str],
    expect_log: ExpectLog,
    caplog: pytest.LogCaptureFixture,
) -> None:
    expect_log("looks like an API key")
    section, key = entry
    write_machine(paths, f"[display]\ntheme = dark\n[{section}]\n{key} = SECRET-VALUE-42\n")
    with pytest.raises(SecretInSettingsError) as caught:
        load_settings(paths)
    assert key.lower() in str(caught.value).lower()
    assert "keyring" in str(caught.value)
    assert "Remove it" in str(caught.value)
    assert "SECRET-VALUE-42" not in str(caught.value)
    assert "SECRET-VALUE-42" not in caplog.text
    assert "looks like an API key" in caplog.text


def test_a_secret_is_refused_even_in_a_broken_file(
    paths: KioskPaths, expect_log: ExpectLog
) -> None:
    expect_log("looks like an API key")
    write_machine(paths, "[connection]\nbranch_id\n[connection]\nApiKey: SECRET\n")
    with pytest.raises(SecretInSettingsError, match="ApiKey"):
        load_settings(paths)


@pytest.mark.parametrize(
    "document",
    [
        {"version": 1, "settings": {"theme": "dark", "api_key": "SECRET-VALUE-42"}},
        {"version": 1, "settings": {"theme": "dark"}, "apiKey": "SECRET-VALUE-42"},
        {"version": 1, "settings": {"connection": {"X-API-KEY": "SECRET-VALUE-42"}}},
    ],
)
def test_an_overrides_file_holding_a_secret_is_refused(
    paths: KioskPaths, document: object, expect_log: ExpectLog, caplog: pytest.LogCaptureFixture
) -> None:
    expect_log("looks like an API key")
    paths.config_dir.mkdir(parents=True)
    paths.overrides.write_text(json.dumps(document))
    with pytest.raises(SecretInSettingsError):
        load_settings(paths)
    assert "SECRET-VALUE-42" not in caplog.text


@pytest.mark.parametrize("content", [b"{not json", b'["a list"]', b'{"version": 1}', b"\xff\xfe"])
def test_a_damaged_overrides_file_is_ignored(
    paths: KioskPaths, content: bytes, expect_log: ExpectLog
) -> None:
    expect_log(r"settings \(manager\): .*ignored")
    paths.config_dir.mkdir(parents=True)
    paths.overrides.write_bytes(content)
    settings = load_settings(paths)
    assert settings.get(s.THEME) is Theme.LIGHT
    settings.set_override(s.THEME, "dark")  # and the manager can write a good one
    assert load_settings(paths).get(s.THEME) is Theme.DARK


# --- the IT documentation ------------------------------------------------------------------


def _documented_default(value: object) -> str:
    if value is None:
        return "(none)"
    if value == ():
        return "(empty)"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, s.StrEnum):
        return f"`{value.value}`"
    return f"`{value}`"


def test_docs_table_matches_the_declarations() -> None:
    rows = {}
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        found = re.match(r"\| `(\w+)` \| `\[(\w+)\]` \| [^|]+ \| ([^|]+) \| ([^|]+) \|", line)
        if found:
            key, section, default, who = found.groups()
            rows[key] = (section, default.strip(), who.strip())
    assert set(rows) == set(SETTINGS)
    for key, setting in SETTINGS.items():
        who = "IT, manager" if setting.who == Who.BOTH else "IT"
        assert rows[key] == (setting.section, _documented_default(setting.default), who), key
