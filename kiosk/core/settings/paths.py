"""Where the kiosk keeps its files.

| what | Windows | Linux |
|---|---|---|
| machine-wide settings (IT) | ``%PROGRAMDATA%\\LoyaltyKiosk\\kiosk.ini`` | ``/etc/loyalty-kiosk/kiosk.ini`` |
| manager's overrides | user config dir / ``settings.json`` | ``~/.config/loyalty-kiosk/settings.json`` |
| database (journal, outbox) | user data dir / ``kiosk.sqlite3`` | ``~/.local/share/loyalty-kiosk/kiosk.sqlite3`` |
| training's database | user data dir / ``kiosk-training.sqlite3`` | beside ``kiosk.sqlite3`` |
| ``--demo``'s own settings, lock, database | ``training`` inside the config and data dirs | the same |
| logs | user log dir | ``~/.local/state/loyalty-kiosk/log`` |

User folders come from platformdirs; Windows' ProgramData from the shell's known
folder (``kiosk.core.settings.machine_guard``), never from ``%PROGRAMDATA%``. Every
location can be moved by an environment variable, and ``LOYALTY_KIOSK_HOME`` moves
all of them under one folder (tests, demos, portable runs), so nothing touches the
real folders:

- ``LOYALTY_KIOSK_HOME``: ``<home>/machine/kiosk.ini``, ``<home>/config``,
  ``<home>/data``, ``<home>/log``;
- ``LOYALTY_KIOSK_MACHINE_SETTINGS`` (a file), ``LOYALTY_KIOSK_CONFIG_DIR``,
  ``LOYALTY_KIOSK_DATA_DIR``, ``LOYALTY_KIOSK_LOG_DIR``: one location each,
  stronger than ``LOYALTY_KIOSK_HOME``.

On a machine IT set up for real credits (IT's file at its fixed place chooses
production or qa, or cannot be read) every one of these variables is ignored: the
kiosk's account may set them for itself, and they would move the count of wrong PINs,
the PIN set on the kiosk and IT's file to folders it chooses (``resolve_paths``).

Nothing here creates a folder until ``KioskPaths.ensure_dirs`` is called.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
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
TRAINING_DIR = "training"
ENV_NAMES = (ENV_HOME, ENV_MACHINE_SETTINGS, ENV_CONFIG_DIR, ENV_DATA_DIR, ENV_LOG_DIR)

_log = logging.getLogger(__name__)


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

    def for_training(self) -> KioskPaths:
        """Training's own folders (``--demo``, the Start menu's training icon): its
        settings, its manager PIN and count of wrong PINs, its database and simulator
        world, in a ``training`` folder inside the config and data folders. IT's file is
        the same (its locks hold); nothing training saves reaches the real kiosk's
        ``settings.json`` or manager lock."""
        if self.config_dir.name == TRAINING_DIR and self.data_dir.name == TRAINING_DIR:
            return self
        return replace(
            self, config_dir=self.config_dir / TRAINING_DIR, data_dir=self.data_dir / TRAINING_DIR
        )

    def ensure_dirs(self) -> None:
        """Create the user folders (never the machine-wide one: that is the installer's)."""
        for folder in (self.config_dir, self.data_dir, self.log_dir):
            folder.mkdir(parents=True, exist_ok=True)


def machine_settings_path(
    platform: str | None = None, *, program_data: Callable[[], str] | None = None
) -> Path:
    """The machine-wide settings file for ``platform`` (``sys.platform``). On Windows its
    folder is the shell's ``FOLDERID_ProgramData`` (``program_data``), never the
    ``PROGRAMDATA`` variable: any account may set that for itself."""
    platform = sys.platform if platform is None else platform
    if platform.startswith("win"):
        from kiosk.core.settings.machine_guard import known_program_data

        base = (program_data or known_program_data)()
        return Path(PureWindowsPath(base, APP_DIR_WINDOWS, MACHINE_SETTINGS_NAME))
    if platform == "darwin":
        return Path("/Library/Application Support", APP_DIR_WINDOWS, MACHINE_SETTINGS_NAME)
    return Path("/etc", APP_DIR_POSIX, MACHINE_SETTINGS_NAME)


def resolve_paths(
    env: Mapping[str, str] | None = None,
    platform: str | None = None,
    *,
    fixed: Path | None = None,
) -> KioskPaths:
    """The kiosk's locations, honouring the ``LOYALTY_KIOSK_*`` variables of ``env``,
    except on a machine IT set up for real credits (``it_environment``): there every
    variable is ignored, so the kiosk's account cannot move its lockout count, its PIN
    file or IT's file elsewhere. ``fixed``: IT's file (default: its fixed place)."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    fixed = machine_settings_path(platform) if fixed is None else fixed
    if any(env.get(name) for name in ENV_NAMES):
        environment = it_environment(fixed)
        if environment is not None:
            _log.warning(
                "settings: %s is IT's file for %s; the LOYALTY_KIOSK_* variables are ignored",
                fixed,
                environment,
            )
            env = {}
    home = env.get(ENV_HOME)
    if home:
        base = Path(home)
        machine = base / "machine" / MACHINE_SETTINGS_NAME
        config, data, log = base / "config", base / "data", base / "log"
    else:
        app = APP_DIR_WINDOWS if platform in ("win32", "darwin") else APP_DIR_POSIX
        machine = fixed
        config = Path(platformdirs.user_config_dir(app, appauthor=False, roaming=False))
        data = Path(platformdirs.user_data_dir(app, appauthor=False, roaming=False))
        log = Path(platformdirs.user_log_dir(app, appauthor=False))
    return KioskPaths(
        machine_settings=_env_path(env, ENV_MACHINE_SETTINGS, machine),
        config_dir=_env_path(env, ENV_CONFIG_DIR, config),
        data_dir=_env_path(env, ENV_DATA_DIR, data),
        log_dir=_env_path(env, ENV_LOG_DIR, log),
    )


def it_environment(fixed: Path) -> str | None:
    """The environment IT chose for real credits, by policy (Group Policy, Intune) or in
    its file at its fixed place (production, qa, or ``"this kiosk"`` when the file
    cannot be read or the policy's value is not one); ``None`` when neither chooses one
    (no file, or training: demos, tests, portable runs)."""
    from kiosk.core.settings import policy
    from kiosk.core.settings.files import machine_environment

    by_policy = policy.system_policy().read().values.get("environment")
    if isinstance(by_policy, str) and by_policy.strip().lower() not in ("", "training"):
        chosen = by_policy.strip().lower()
        return chosen if chosen in ("production", "qa") else "this kiosk"
    environment = machine_environment(fixed)
    if environment is None or environment in ("", "training"):
        return None
    return environment if environment != "?" else "this kiosk"


def _env_path(env: Mapping[str, str], name: str, default: Path) -> Path:
    value = env.get(name)
    return Path(value) if value else default
