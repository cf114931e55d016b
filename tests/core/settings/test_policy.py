"""#28 item 1: IT's policies (Group Policy, Intune) are the top layer of the settings:
policy > kiosk.ini > the manager's settings; a key set by policy is locked."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from kiosk.core.settings import layers as s
from kiosk.core.settings import policy as p
from kiosk.core.settings.layers import (
    Environment,
    InvalidSettingError,
    Language,
    Layer,
    SettingLockedError,
    load_settings,
)
from kiosk.core.settings.paths import KioskPaths, resolve_paths

ExpectLog = Callable[[str], None]

MACHINE_INI = """\
[connection]
environment = qa
qa_url = https://qa.loyalty.example.com
branch_id = 12

[counter]
idle_timeout_seconds = 120

[display]
language = es

[lock]
locked = manager_pin_hash
"""


@pytest.fixture
def paths(tmp_path: Path) -> KioskPaths:
    found = resolve_paths({"LOYALTY_KIOSK_HOME": str(tmp_path)})
    found.machine_settings.parent.mkdir(parents=True, exist_ok=True)
    found.machine_settings.write_text(MACHINE_INI, encoding="utf-8")
    found.config_dir.mkdir(parents=True, exist_ok=True)
    found.overrides.write_text(
        json.dumps({"version": 1, "settings": {"idle_timeout_seconds": 45, "theme": "dark"}})
    )
    return found


def registry(**values: object) -> p.MappingPolicy:
    """What Group Policy leaves under the key: text (REG_SZ) and numbers (REG_DWORD)."""
    return p.MappingPolicy(values)


def test_policy_beats_kiosk_ini_which_beats_the_manager(
    paths: KioskPaths, expect_log: ExpectLog
) -> None:
    expect_log(r"idle_timeout_seconds: set by policy; the local value is ignored")
    settings = load_settings(
        paths,
        registry(
            environment="production",
            production_url="https://api.loyalty.example.com",
            branch_id=7,  # REG_DWORD
            idle_timeout_seconds=300,
            kiosk_mode=1,
        ),
    )
    assert settings.get(s.ENVIRONMENT) is Environment.PRODUCTION  # policy over kiosk.ini
    assert settings.base_url() == "https://api.loyalty.example.com"
    assert settings.get(s.BRANCH_ID) == 7
    assert settings.get(s.IDLE_TIMEOUT) == 300  # policy over the manager's 45
    assert settings.get(s.KIOSK_MODE) is True
    assert settings.source(s.IDLE_TIMEOUT) is Layer.POLICY
    assert settings.get(s.LANGUAGE) is Language.ES  # no policy: kiosk.ini's
    assert settings.source(s.THEME) is Layer.MANAGER  # neither: the manager's
    assert settings.origin(s.BRANCH_ID) == (
        "branch_id set by your organization's policy in "
        "HKLM\\Software\\Policies\\Loyalty\\LoyaltyKiosk"
    )


def test_a_setting_set_by_policy_is_locked(paths: KioskPaths, expect_log: ExpectLog) -> None:
    expect_log(r"(idle_timeout_seconds|theme): set by policy")
    settings = load_settings(paths, registry(idle_timeout_seconds="300", theme="light"))
    for key in ("idle_timeout_seconds", "theme"):
        assert settings.is_locked(key)
        with pytest.raises(SettingLockedError):
            settings.set_override(key, "dark" if key == "theme" else 60)
    assert not settings.is_locked(s.LANGUAGE)
    assert [(x.layer, x.key) for x in settings.problems] == [
        (Layer.MANAGER, "idle_timeout_seconds"),  # the manager's values, ignored
        (Layer.MANAGER, "theme"),
    ]


def test_policy_locks_add_to_kiosk_ini_locks(paths: KioskPaths) -> None:
    settings = load_settings(paths, registry(locked="language, branch_id"))
    assert settings.is_locked(s.LANGUAGE)
    assert settings.is_locked(s.BRANCH_ID)
    assert settings.listed_in_locks(s.MANAGER_PIN_HASH)  # kiosk.ini's lock stays
    assert not settings.is_locked(s.THEME)


def test_bad_policy_values_are_ignored_and_reported(
    paths: KioskPaths, expect_log: ExpectLog
) -> None:
    for pattern in (
        "idle_timeout_seconds: must be between",
        "colour: unknown",
        "theme: longer than",
    ):
        expect_log(pattern)
    expect_log("manager_pin_hash: not a policy")
    expect_log("branch_id: must be text")
    settings = load_settings(
        paths,
        p.MappingPolicy(
            {
                "idle_timeout_seconds": 5,
                "colour": "red",
                "theme": "x" * (p.MAX_TEXT + 1),
                "manager_pin_hash": "scrypt$16384$8$1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA==",
                "branch_id": b"\x01",  # REG_BINARY
            }
        ),
    )
    assert settings.get(s.IDLE_TIMEOUT) == 45  # the layers below apply
    assert settings.get(s.BRANCH_ID) == 12
    assert settings.get(s.MANAGER_PIN_HASH) is None
    assert {x.key for x in settings.problems if x.layer is Layer.POLICY} == {
        "idle_timeout_seconds",
        "colour",
        "theme",
        "manager_pin_hash",
        "branch_id",
    }
    assert not settings.is_locked(s.IDLE_TIMEOUT)


def test_an_unknown_environment_by_policy_stops_the_start(paths: KioskPaths) -> None:
    with pytest.raises(InvalidSettingError, match=r"environment: must be one of .*policy"):
        load_settings(paths, registry(environment="prod"))


def test_a_production_url_refused_by_policy_says_where(
    paths: KioskPaths, expect_log: ExpectLog
) -> None:
    expect_log("production_url: must use https")
    settings = load_settings(
        paths, registry(environment="production", production_url="http://api.example.com")
    )
    with pytest.raises(InvalidSettingError, match=r"production_url: must use https.*policy"):
        settings.base_url()


def test_elsewhere_than_windows_there_is_no_policy_store(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(p.sys, "platform", "linux")
    assert p.system_policy().read() == p.PolicyValues()
    monkeypatch.setattr(p.sys, "platform", "win32")
    assert isinstance(p.system_policy(), p.RegistryPolicy)
    assert p.POLICY_KEY.startswith("Software\\Policies\\")
    assert "\\Microsoft\\" not in p.POLICY_KEY + "\\"  # Intune refuses those keys


# --- a kiosk set up for real credits by policy keeps its files where IT put them ----------


@pytest.mark.parametrize("environment", ["production", "qa", "prod"])
def test_a_real_environment_by_policy_pins_it_s_file_and_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, expect_log: ExpectLog, environment: str
) -> None:
    """With production chosen by policy and no environment in kiosk.ini (the installer's
    header alone), a cashier's variables move neither IT's file (its PIN hash, its locks)
    nor the folders of the wrong-PIN count."""
    expect_log("the (LOYALTY_KIOSK_\\* )?variables .*(are )?ignored")
    fixed = tmp_path / "ProgramData" / "LoyaltyKiosk" / "kiosk.ini"
    fixed.parent.mkdir(parents=True)
    fixed.write_text("; written by the installer\n", encoding="utf-8")
    own = tmp_path / "mine" / "kiosk.ini"
    cashier = {
        "LOYALTY_KIOSK_HOME": str(tmp_path / "home"),
        "LOYALTY_KIOSK_MACHINE_SETTINGS": str(own),
    }
    monkeypatch.setattr(p, "system_policy", lambda: registry(environment=environment))
    assert resolve_paths(cashier, platform="linux", fixed=fixed) == resolve_paths(
        {}, platform="linux", fixed=fixed
    )
    monkeypatch.setattr(s, "machine_settings_path", lambda: fixed)
    moved = KioskPaths(own, tmp_path / "c", tmp_path / "d", tmp_path / "l")
    assert s.machine_file(moved) == fixed


def test_training_by_policy_leaves_the_variables_to_tests_and_demos(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixed = tmp_path / "ProgramData" / "LoyaltyKiosk" / "kiosk.ini"
    own = tmp_path / "mine" / "kiosk.ini"
    monkeypatch.setattr(p, "system_policy", lambda: registry(environment="training"))
    found = resolve_paths(
        {"LOYALTY_KIOSK_MACHINE_SETTINGS": str(own)}, platform="linux", fixed=fixed
    )
    assert found.machine_settings == own
    monkeypatch.setattr(s, "machine_settings_path", lambda: fixed)
    assert s.machine_file(found) == own


# --- reading the registry (a stand-in for winreg: this runs on Linux too) ----------------


class FakeRegistry:
    """The few ``winreg`` names the reader uses, over one key's values."""

    HKEY_LOCAL_MACHINE = "HKLM"
    KEY_READ, KEY_WOW64_64KEY = 0x20019, 0x0100
    REG_SZ, REG_EXPAND_SZ, REG_BINARY, REG_DWORD, REG_MULTI_SZ = 1, 2, 3, 4, 7

    def __init__(self, keys: dict[str, list[tuple[str, object, int]]], denied: bool = False):
        self.keys, self.denied = keys, denied
        self.opened: list[tuple[str, str, int]] = []

    def OpenKey(self, root: str, key: str, reserved: int, access: int) -> FakeHandle:
        self.opened.append((root, key, access))
        if self.denied:
            raise PermissionError(5, "Access is denied")
        if key not in self.keys:
            raise FileNotFoundError(2, "The system cannot find the file specified")
        return FakeHandle(self.keys[key])

    def EnumValue(self, handle: FakeHandle, index: int) -> tuple[str, object, int]:
        if index >= len(handle.values):
            raise OSError(259, "No more data is available")
        return handle.values[index]


class FakeHandle:
    def __init__(self, values: list[tuple[str, object, int]]) -> None:
        self.values = values

    def __enter__(self) -> FakeHandle:
        return self

    def __exit__(self, *_: object) -> None:
        return None


def test_the_registry_reader_reads_text_and_numbers_under_the_policy_key(
    paths: KioskPaths, expect_log: ExpectLog
) -> None:
    expect_log("theme: must be text")
    expect_log("idle_timeout_seconds: set by policy")  # the manager's 45 (the fixture's)
    fake = FakeRegistry(
        {
            p.POLICY_KEY: [
                ("environment", "production", FakeRegistry.REG_SZ),
                ("production_url", "https://api.loyalty.example.com", FakeRegistry.REG_EXPAND_SZ),
                (
                    "Idle_Timeout_Seconds",
                    300,
                    FakeRegistry.REG_DWORD,
                ),  # names are not case sensitive
                ("kiosk_mode", 1, FakeRegistry.REG_DWORD),
                ("theme", b"\x01", FakeRegistry.REG_BINARY),
            ]
        }
    )
    source = p.RegistryPolicy(registry=fake)
    settings = load_settings(paths, source)
    assert fake.opened == [
        ("HKLM", p.POLICY_KEY, FakeRegistry.KEY_READ | FakeRegistry.KEY_WOW64_64KEY)
    ]
    assert settings.get(s.ENVIRONMENT) is Environment.PRODUCTION
    assert settings.base_url() == "https://api.loyalty.example.com"
    assert settings.get(s.IDLE_TIMEOUT) == 300
    assert settings.get(s.KIOSK_MODE) is True
    assert settings.source(s.THEME) is Layer.MANAGER  # the binary value is ignored
    assert [(x.layer, x.key) for x in settings.problems] == [
        (Layer.POLICY, "theme"),
        (Layer.MANAGER, "idle_timeout_seconds"),
    ]


def test_no_policy_key_is_no_policy() -> None:
    assert p.RegistryPolicy(registry=FakeRegistry({})).read() == p.PolicyValues()


def test_an_unreadable_policy_key_is_logged(expect_log: ExpectLog) -> None:
    expect_log("policy: cannot read .* no policy applies")
    denied = FakeRegistry({p.POLICY_KEY: []}, denied=True)
    assert p.RegistryPolicy(registry=denied).read() == p.PolicyValues()
