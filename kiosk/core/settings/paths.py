"""Where the kiosk keeps its files.

| what | Windows | Linux |
|---|---|---|
| machine-wide settings (IT) | ``%PROGRAMDATA%\\LoyaltyKiosk\\kiosk.ini`` | ``/etc/loyalty-kiosk/kiosk.ini`` |
| manager's overrides | user config dir / ``settings.json`` | ``~/.config/loyalty-kiosk/settings.json`` |
| database (journal, outbox) | user data dir / ``kiosk.sqlite3`` | ``~/.local/share/loyalty-kiosk/kiosk.sqlite3`` |
| training's database | user data dir / ``kiosk-training.sqlite3`` | beside ``kiosk.sqlite3`` |
| logs | user log dir | ``~/.local/state/loyalty-kiosk/log`` |

User folders come from platformdirs. Every location can be moved by an
environment variable, and ``LOYALTY_KIOSK_HOME`` moves all of them under one
folder (tests, demos, portable runs), so nothing touches the real folders:

- ``LOYALTY_KIOSK_HOME``: ``<home>/machine/kiosk.ini``, ``<home>/config``,
  ``<home>/data``, ``<home>/log``;
- ``LOYALTY_KIOSK_MACHINE_SETTINGS`` (a file), ``LOYALTY_KIOSK_CONFIG_DIR``,
  ``LOYALTY_KIOSK_DATA_DIR``, ``LOYALTY_KIOSK_LOG_DIR``: one location each,
  stronger than ``LOYALTY_KIOSK_HOME``.

Nothing here creates a folder until ``KioskPaths.ensure_dirs`` is called.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PureWindowsPath

import platformdirs

ENV_HOME = "LOYALTY_KIOSK_HOME"
ENV_MACHINE_SETTINGS = "LOYALTY_KIOSK_MACHINE_SETTINGS"
ENV_CONFIG_DIR = "LOYALTY_KIOSK_CONFIG_DIR"
ENV_DATA_DIR = "LOYALTY_KIOSK_DATA_DIR"
ENV_LOG_DIR = "LOYALTY_KIOSK_LOG_DIR"

APP_DIR_WINDOWS = "LoyaltyKiosk"
APP_DIR_POSIX = "loyalty-kiosk"
MACHINE_SETTINGS_NAME = "kiosk.ini"
OVERRIDES_NAME = "settings.json"
DATABASE_NAME = "kiosk.sqlite3"
TRAINING_DATABASE_NAME = "kiosk-training.sqlite3"
KIOSK_ID_NAME = "kiosk-id"


@dataclass(frozen=True)
class KioskPaths:
    machine_settings: Path
    config_dir: Path
    data_dir: Path
    log_dir: Path

    @property
    def overrides(self) -> Path:
        """The manager's local settings overrides (JSON)."""
        return self.config_dir / OVERRIDES_NAME

    @property
    def database(self) -> Path:
        """The kiosk's SQLite file: journal and outbox (production and QA)."""
        return self.data_dir / DATABASE_NAME

    @property
    def training_database(self) -> Path:
        """Training mode's own journal and outbox: a training credit never shows in the
        real Today nor in its figures."""
        return self.data_dir / TRAINING_DATABASE_NAME

    def database_for(self, environment: str) -> Path:
        """The SQLite file of ``environment`` (``training``, ``qa``, ``production``)."""
        return self.training_database if environment == "training" else self.database

    @property
    def kiosk_id(self) -> Path:
        """The installation's persistent random id."""
        return self.data_dir / KIOSK_ID_NAME

    def ensure_dirs(self) -> None:
        """Create the user folders (never the machine-wide one: that is the installer's)."""
        for folder in (self.config_dir, self.data_dir, self.log_dir):
            folder.mkdir(parents=True, exist_ok=True)


def machine_settings_path(
    env: Mapping[str, str] | None = None, platform: str | None = None
) -> Path:
    """The default machine-wide settings file for ``platform`` (``sys.platform``)."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    if platform.startswith("win"):
        program_data = env.get("PROGRAMDATA") or r"C:\ProgramData"
        return Path(PureWindowsPath(program_data, APP_DIR_WINDOWS, MACHINE_SETTINGS_NAME))
    if platform == "darwin":
        return Path("/Library/Application Support", APP_DIR_WINDOWS, MACHINE_SETTINGS_NAME)
    return Path("/etc", APP_DIR_POSIX, MACHINE_SETTINGS_NAME)


def resolve_paths(env: Mapping[str, str] | None = None, platform: str | None = None) -> KioskPaths:
    """The kiosk's locations, honouring the ``LOYALTY_KIOSK_*`` variables of ``env``."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    home = env.get(ENV_HOME)
    if home:
        base = Path(home)
        machine = base / "machine" / MACHINE_SETTINGS_NAME
        config, data, log = base / "config", base / "data", base / "log"
    else:
        app = APP_DIR_WINDOWS if platform in ("win32", "darwin") else APP_DIR_POSIX
        machine = machine_settings_path(env, platform)
        config = Path(platformdirs.user_config_dir(app, appauthor=False, roaming=False))
        data = Path(platformdirs.user_data_dir(app, appauthor=False, roaming=False))
        log = Path(platformdirs.user_log_dir(app, appauthor=False))
    return KioskPaths(
        machine_settings=_env_path(env, ENV_MACHINE_SETTINGS, machine),
        config_dir=_env_path(env, ENV_CONFIG_DIR, config),
        data_dir=_env_path(env, ENV_DATA_DIR, data),
        log_dir=_env_path(env, ENV_LOG_DIR, log),
    )


def _env_path(env: Mapping[str, str], name: str, default: Path) -> Path:
    value = env.get(name)
    return Path(value) if value else default
