"""Where the kiosk keeps its files: platform defaults and the LOYALTY_KIOSK_* overrides."""

from __future__ import annotations

from pathlib import Path, PureWindowsPath

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
    windows = machine_settings_path({"PROGRAMDATA": r"D:\PD"}, platform="win32")
    assert PureWindowsPath(str(windows)) == PureWindowsPath(r"D:\PD\LoyaltyKiosk\kiosk.ini")
    default = machine_settings_path({}, platform="win32")
    assert PureWindowsPath(str(default)) == PureWindowsPath(
        r"C:\ProgramData\LoyaltyKiosk\kiosk.ini"
    )
    assert machine_settings_path({}, platform="linux") == Path("/etc/loyalty-kiosk/kiosk.ini")


def test_default_user_folders_come_from_platformdirs() -> None:
    found = resolve_paths({}, platform="linux")
    assert found.machine_settings == Path("/etc/loyalty-kiosk/kiosk.ini")
    for folder in (found.config_dir, found.data_dir, found.log_dir):
        assert folder.is_absolute()
        assert "loyalty-kiosk" in folder.parts
