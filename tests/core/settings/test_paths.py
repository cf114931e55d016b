"""Where the kiosk keeps its files: platform defaults and the LOYALTY_KIOSK_* overrides."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path, PureWindowsPath

import pytest

from kiosk.core.settings.machine_guard import known_program_data
from kiosk.core.settings.paths import machine_settings_path, resolve_paths


def test_home_moves_everything(tmp_path: Path) -> None:
    found = resolve_paths({"LOYALTY_KIOSK_HOME": str(tmp_path)}, platform="win32")
    assert found.machine_settings == tmp_path / "machine" / "kiosk.ini"
    assert (found.config_dir, found.data_dir, found.log_dir) == (
        tmp_path / "config",
        tmp_path / "data",
        tmp_path / "log",
    )
    assert found.database == tmp_path / "data" / "kiosk.sqlite3"
    assert found.overrides == tmp_path / "config" / "settings.json"
    assert found.kiosk_id == tmp_path / "data" / "kiosk-id"
    assert not any(tmp_path.iterdir())  # resolving creates nothing
    found.ensure_dirs()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config", "data", "log"]


def test_single_variables_beat_home(tmp_path: Path) -> None:
    found = resolve_paths(
        {
            "LOYALTY_KIOSK_HOME": str(tmp_path / "home"),
            "LOYALTY_KIOSK_MACHINE_SETTINGS": str(tmp_path / "it.ini"),
            "LOYALTY_KIOSK_DATA_DIR": str(tmp_path / "db"),
        }
    )
    assert found.machine_settings == tmp_path / "it.ini"
    assert found.data_dir == tmp_path / "db"
    assert found.config_dir == tmp_path / "home" / "config"


def test_machine_wide_file_per_platform() -> None:
    windows = machine_settings_path("win32", program_data=lambda: r"D:\PD")
    assert PureWindowsPath(str(windows)) == PureWindowsPath(r"D:\PD\LoyaltyKiosk\kiosk.ini")
    assert machine_settings_path("linux") == Path("/etc/loyalty-kiosk/kiosk.ini")


def test_programdata_from_the_environment_never_chooses_its_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """#22 item 4: the kiosk's account sets PROGRAMDATA (and platformdirs' override) for
    itself; IT's file stays where the shell's known folder is."""
    monkeypatch.setenv("PROGRAMDATA", r"C:\Users\kiosk\Desktop\fake")
    monkeypatch.setenv("WIN_PD_OVERRIDE_COMMON_APPDATA", r"C:\Users\kiosk\Desktop\fake")
    windows = machine_settings_path("win32", program_data=lambda: r"C:\ProgramData")
    assert PureWindowsPath(str(windows)) == PureWindowsPath(
        r"C:\ProgramData\LoyaltyKiosk\kiosk.ini"
    )
    found = resolve_paths({"PROGRAMDATA": r"C:\Users\kiosk\fake"}, platform="win32")
    assert "fake" not in str(found.machine_settings)
    # The shell's answer, or the fixed folder when it cannot answer: never a variable.
    assert known_program_data(lambda: r"E:\PD") == r"E:\PD"
    assert known_program_data(_failing_shell) == r"C:\ProgramData"


def _failing_shell() -> str:
    raise OSError("SHGetKnownFolderPath failed")


def test_training_keeps_its_own_settings_and_lock_folders(tmp_path: Path) -> None:
    """#22 item 5: --demo's settings.json, PIN and count are not the real kiosk's."""
    real = resolve_paths({"LOYALTY_KIOSK_HOME": str(tmp_path)})
    training = real.for_training()
    assert training.machine_settings == real.machine_settings  # IT's locks hold
    assert training.overrides == tmp_path / "config" / "training" / "settings.json"
    assert training.data_dir == tmp_path / "data" / "training"
    assert training.log_dir == real.log_dir
    assert training.for_training() == training


@pytest.mark.parametrize("environment", ["production", "qa", "prod?"])
def test_folder_variables_are_ignored_on_a_kiosk_it_set_up(
    tmp_path: Path, environment: str, expect_log: Callable[[str], None]
) -> None:
    """#22 item 2b: LOYALTY_KIOSK_DATA_DIR / CONFIG_DIR / HOME would start a fresh count
    of wrong PINs in folders of the account's choosing; on a production (or qa) kiosk
    they are ignored."""
    expect_log("the LOYALTY_KIOSK_\\* variables are ignored")
    fixed = tmp_path / "etc" / "kiosk.ini"
    fixed.parent.mkdir()
    fixed.write_text(f"[connection]\nenvironment = {environment}\n")
    env = {
        "LOYALTY_KIOSK_HOME": str(tmp_path / "home"),
        "LOYALTY_KIOSK_DATA_DIR": str(tmp_path / "fresh-data"),
        "LOYALTY_KIOSK_CONFIG_DIR": str(tmp_path / "fresh-config"),
    }
    found = resolve_paths(env, platform="linux", fixed=fixed)
    assert found == resolve_paths({}, platform="linux", fixed=fixed)
    assert found.machine_settings == fixed
    assert "fresh" not in str(found.data_dir)
    assert "fresh" not in str(found.config_dir)


def test_folder_variables_still_move_a_training_or_unset_kiosk(tmp_path: Path) -> None:
    fixed = tmp_path / "etc" / "kiosk.ini"
    env = {"LOYALTY_KIOSK_DATA_DIR": str(tmp_path / "db")}
    assert resolve_paths(env, platform="linux", fixed=fixed).data_dir == tmp_path / "db"
    fixed.parent.mkdir()
    fixed.write_text("[connection]\nenvironment = training\n")
    assert resolve_paths(env, platform="linux", fixed=fixed).data_dir == tmp_path / "db"


def test_default_user_folders_come_from_platformdirs() -> None:
    found = resolve_paths({}, platform="linux")
    assert found.machine_settings == Path("/etc/loyalty-kiosk/kiosk.ini")
    for folder in (found.config_dir, found.data_dir, found.log_dir):
        assert folder.is_absolute()
        assert "loyalty-kiosk" in folder.parts
