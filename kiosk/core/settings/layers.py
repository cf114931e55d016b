"""The kiosk's settings: each declared once, typed, with its default and who may change it.

Four layers, the later winning: the defaults below < the machine-wide INI file
that IT provisions (``kiosk.core.settings.paths``; Inno Setup writes it with
``SetIniString``) < the manager's local overrides (JSON in the user config
folder, written by the manager screens) < IT's policies (Group Policy or Intune,
``kiosk.core.settings.policy``). IT can lock keys (``[lock] locked``, in the file or
by policy): a locked key keeps IT's value and the manager cannot override it; a key
set by policy is always locked. So: policy > ``kiosk.ini`` > the manager's settings.
Settings marked ``Who.IT`` are for the machine file only: where the API key goes
(``environment``, ``production_url``, ``qa_url``) and ``manager_pin_hash`` among them,
so nothing the kiosk's account writes in its ``settings.json`` changes them. The full table and
the file format are in ``docs/settings.md``.

The API key is never a setting: it lives in the OS keyring. A settings file
that holds anything looking like one is refused (``SecretInSettingsError``)
with a warning naming the entry to remove, never its value.

What the start cannot do without is an error naming the file and the line, never a
silent default: an ``environment`` in the machine-wide file that is not production,
qa or training (``InvalidSettingError`` at load: falling back to training would let
the first person at the screen choose the PIN), and a base URL that was ignored as
invalid (``base_url`` says why, not "not set"). On a machine IT set up, the
variables that move the machine-wide file do not move it (``machine_file``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Flag, StrEnum, auto
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

from kiosk.core.amounts import AmountLocale
from kiosk.core.settings import files
from kiosk.core.settings import policy as policies
from kiosk.core.settings.dsn import sentry_dsn
from kiosk.core.settings.files import InvalidSettingError as InvalidSettingError
from kiosk.core.settings.files import SecretInSettingsError as SecretInSettingsError
from kiosk.core.settings.files import SettingLockedError as SettingLockedError
from kiosk.core.settings.files import SettingsError as SettingsError
from kiosk.core.settings.files import SettingsValidationError as SettingsValidationError
from kiosk.core.settings.machine_guard import check_machine_file
from kiosk.core.settings.paths import KioskPaths, it_environment, machine_settings_path
from kiosk.core.settings.policy import PolicySource
from kiosk.core.settings.values import Environment as Environment
from kiosk.core.settings.values import Language as Language
from kiosk.core.settings.values import OnScreenKeyboard as OnScreenKeyboard
from kiosk.core.settings.values import Theme as Theme
from kiosk.core.settings.values import (
    boolean,
    choice,
    id_list,
    integer,
    key_list,
    optional_id,
    pin_hash,
    url,
)

_log = logging.getLogger(__name__)

T = TypeVar("T")
ALL_KEYS = "*"


class Who(Flag):
    """Who may change a setting: IT in the machine-wide file, the manager on screen."""

    IT = auto()
    MANAGER = auto()
    BOTH = IT | MANAGER


class Layer(StrEnum):
    DEFAULT = "default"
    MACHINE = "machine"
    MANAGER = "manager"
    POLICY = "policy"


@dataclass(frozen=True, eq=False)
class Setting(Generic[T]):
    key: str  # the INI option (in ``section``) and the JSON key
    section: str
    default: T
    who: Who
    parse: Callable[[object], T]  # INI text or JSON value -> typed value; ValueError says why
    doc: str
    policy: bool = True  # IT may set it by policy (build/policy_templates.py)


SETTINGS: dict[str, Setting[Any]] = {}


def _declare(
    key: str,
    section: str,
    default: T,
    who: Who,
    parse: Callable[[object], T],
    doc: str,
    *,
    policy: bool = True,
) -> Setting[T]:
    setting = Setting(key, section, default, who, parse, doc, policy)
    SETTINGS[key] = setting
    return setting


ENVIRONMENT = _declare(
    "environment",
    "connection",
    Environment.TRAINING,
    Who.IT,
    choice(Environment),
    "Where credits go: production, qa or training (the built-in simulator).",
)
PRODUCTION_URL = _declare(
    "production_url",
    "connection",
    cast(str | None, None),
    Who.IT,
    url,
    "Base URL of the production API (https).",
)
QA_URL = _declare(
    "qa_url",
    "connection",
    cast(str | None, None),
    Who.IT,
    url,
    "Base URL of the QA API (https).",
)
BRANCH_ID = _declare(
    "branch_id",
    "connection",
    cast(int | None, None),
    Who.BOTH,
    optional_id,
    "The branch this kiosk belongs to (an id from GET /external/branch).",
)
VALIDATION_QR_ID = _declare(
    "validation_qr_id",
    "counter",
    cast(int | None, None),
    Who.BOTH,
    optional_id,
    "The validation QR whose rotating code the Code screen shows.",
)
POINT_ITEMS = _declare(
    "point_items",
    "counter",
    cast(tuple[int, ...], ()),
    Who.BOTH,
    id_list,
    "Point items shown as counter buttons, in order (ids, comma-separated).",
)
IDLE_TIMEOUT = _declare(
    "idle_timeout_seconds",
    "counter",
    90,
    Who.BOTH,
    integer(15, 3600),
    "Idle seconds after which the counter clears the client (15-3600).",
)
AMOUNT_LOCALE = _declare(
    "amount_locale",
    "counter",
    AmountLocale.ES_AR,
    Who.BOTH,
    choice(AmountLocale),
    "How amounts are typed and shown: es-AR (1.234,56) or en-US (1,234.56).",
)
ON_SCREEN_KEYBOARD = _declare(
    "on_screen_keyboard",
    "counter",
    OnScreenKeyboard.AUTO,
    Who.BOTH,
    choice(OnScreenKeyboard),
    "The kiosk's own keyboard: auto (touch devices), always or never.",
)
LANGUAGE = _declare(
    "language",
    "display",
    Language.AUTO,
    Who.BOTH,
    choice(Language),
    "auto (follows the system), en or es.",
)
THEME = _declare(
    "theme",
    "display",
    Theme.LIGHT,
    Who.BOTH,
    choice(Theme),
    "light or dark.",
)
KIOSK_MODE = _declare(
    "kiosk_mode",
    "kiosk",
    False,
    Who.IT,
    boolean,
    "Full screen, frameless, cannot be left without the manager PIN.",
)
AUTOSTART = _declare(
    "autostart",
    "kiosk",
    False,
    Who.IT,
    boolean,
    "Start the kiosk when the user logs in.",
    policy=False,  # Setup makes the Startup shortcut from it (/AUTOSTART=); the kiosk never reads it
)
MANAGER_IDLE_TIMEOUT = _declare(
    "manager_idle_timeout_seconds",
    "kiosk",
    900,
    Who.BOTH,
    integer(60, 900),
    "Idle seconds after which manager mode locks again (60-900; PCI DSS 8.2.8: 15 min).",
)
MANAGER_PIN_HASH = _declare(
    "manager_pin_hash",
    "kiosk",
    cast(str | None, None),
    Who.IT,
    pin_hash,
    "Salted hash of the manager PIN (never the PIN itself).",
    policy=False,  # kiosk.ini only: reset-pin writes it there and a new value restarts the count
)
JOURNAL_RETENTION_DAYS = _declare(
    "journal_retention_days",
    "journal",
    30,
    Who.IT,
    integer(1, 366),
    "Days the journal keeps its rows (1-366).",
)
LOCKED_KEYS = _declare(
    "locked",
    "lock",
    cast(tuple[str, ...], ()),
    Who.IT,
    key_list,
    "Settings the manager cannot change (comma-separated keys, or * for all).",
)
HEARTBEAT_URL = _declare(
    "heartbeat_url",
    "fleet",
    cast(str | None, None),
    Who.IT,
    url,
    "Where the kiosk POSTs its health status (https; Healthchecks, Uptime Kuma push).",
)
HEARTBEAT_INTERVAL = _declare(
    "heartbeat_interval_seconds",
    "fleet",
    300,
    Who.IT,
    integer(60, 3600),
    "Seconds between two heartbeats (60-3600).",
)
OUTBOX_STUCK_MINUTES = _declare(
    "outbox_stuck_minutes",
    "fleet",
    30,
    Who.IT,
    integer(5, 1440),
    "Minutes a credit may wait before the outbox-stuck event (5-1440).",
)
CRASH_REPORT_DSN = _declare(
    "crash_report_dsn",
    "fleet",
    cast(str | None, None),
    Who.IT,
    sentry_dsn,
    "A Sentry DSN the kept crash records are uploaded to (https; none: kept only).",
)


@dataclass(frozen=True)
class SettingProblem:
    """Something in a settings file that was ignored (shown to the manager, logged)."""

    layer: Layer
    key: str
    message: str
    line: int | None = None  # in the machine-wide file


def _setting(key: str | Setting[Any]) -> Setting[Any]:
    if isinstance(key, Setting):
        return key
    try:
        return SETTINGS[key]
    except KeyError:
        raise SettingsError(f"unknown setting {key!r}") from None


def _json_value(value: object) -> object:
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, tuple):
        return list(value)
    return value


class Settings:
    """The effective settings: defaults < machine-wide file < manager overrides < policy
    (a key in the file that IT locked, or set by policy, is not overridden)."""

    def __init__(
        self,
        machine: Mapping[str, object] | None = None,
        overrides: Mapping[str, object] | None = None,
        *,
        overrides_path: Path | None = None,
        problems: list[SettingProblem] | None = None,
        machine_path: Path | None = None,
        machine_lines: Mapping[str, int] | None = None,
        policy: Mapping[str, object] | None = None,
        policy_where: str = "policy",
    ) -> None:
        self.problems: list[SettingProblem] = list(problems or [])
        self.machine_path = machine_path  # the machine-wide file read (None: in memory)
        self.policy_where = policy_where  # where the policies were read, in words for IT
        self._lines = dict(machine_lines or {})
        self._refused: dict[str, tuple[Layer, str]] = {}  # key -> the first invalid value's why
        self._policy = self._validated(
            {k: str(v) if isinstance(v, int) else v for k, v in (policy or {}).items()},
            Layer.POLICY,
        )
        self._machine = self._validated(machine or {}, Layer.MACHINE)
        locked = set(cast(tuple[str, ...], self._machine.get(LOCKED_KEYS.key, ())))
        locked |= set(cast(tuple[str, ...], self._policy.get(LOCKED_KEYS.key, ())))
        locked |= self._policy.keys()
        self._all_locked = ALL_KEYS in locked
        self._locked = frozenset(locked & SETTINGS.keys())
        for key in sorted(locked - SETTINGS.keys() - {ALL_KEYS}):
            self._problem(Layer.MACHINE, key, "cannot lock an unknown setting")
        self._overrides: dict[str, object] = {}
        for key, value in self._validated(overrides or {}, Layer.MANAGER).items():
            if key in self._policy:
                self._problem(Layer.MANAGER, key, "set by policy; the local value is ignored")
            elif self.is_locked(key):
                self._problem(Layer.MANAGER, key, "locked by IT; the local value is ignored")
            else:
                self._overrides[key] = value
        self._overrides_path = overrides_path

    @classmethod
    def load(
        cls,
        machine_file: Path | None,
        overrides_file: Path | None,
        policy: PolicySource | None = None,
    ) -> Settings:
        """Read both files (a missing file is an empty layer) and IT's policies (this
        system's store unless ``policy`` is given: ``kiosk.core.settings.policy``)."""
        source = policy if policy is not None else policies.system_policy()
        found_policy = source.read()
        problems: list[SettingProblem] = []
        for key, why in found_policy.ignored:
            _log.warning("settings (policy): %s: %s; ignored (%s)", key, why, source.where)
            problems.append(SettingProblem(Layer.POLICY, key, f"{why}; ignored"))
        found = files.MachineFile()
        if machine_file is not None:
            found = files.read_machine_file(machine_file, SETTINGS_SECTIONS)
            problems += [SettingProblem(Layer.MACHINE, key, why) for key, why in found.ignored]
        overrides: dict[str, object] = {}
        if overrides_file is not None:
            overrides = files.read_overrides_file(overrides_file)
        return cls(
            found.values,
            overrides,
            overrides_path=overrides_file,
            problems=problems,
            machine_path=machine_file,
            machine_lines=found.lines,
            policy=found_policy.values,
            policy_where=source.where,
        )

    def _problem(self, layer: Layer, key: str, message: str) -> None:
        line = self._lines.get(key) if layer is Layer.MACHINE else None
        at = f" (line {line})" if line is not None else ""
        _log.warning("settings (%s): %s: %s%s", layer.value, key, message, at)
        self.problems.append(SettingProblem(layer, key, message, line))

    def line_of(self, key: str) -> int | None:
        """The line of ``key`` in the machine-wide file (None: not there)."""
        return self._lines.get(key)

    def _validated(self, raw: Mapping[str, object], layer: Layer) -> dict[str, object]:
        values: dict[str, object] = {}
        for key, value in raw.items():
            setting = SETTINGS.get(key)
            if setting is None:
                self._problem(layer, key, "unknown setting, ignored")
            elif layer is Layer.MANAGER and Who.MANAGER not in setting.who:
                self._problem(layer, key, "only IT may set this (machine-wide file); ignored")
            elif layer is Layer.POLICY and not setting.policy:
                self._problem(layer, key, "not a policy (only in kiosk.ini); ignored")
            else:
                try:
                    values[key] = setting.parse(value)
                except ValueError as error:
                    if layer is Layer.POLICY and setting is ENVIRONMENT:
                        # Never a silent training kiosk: IT meant production or qa.
                        raise InvalidSettingError(
                            key, f"{error} (set by policy in {self.policy_where})"
                        ) from None
                    if layer is Layer.MACHINE and setting is ENVIRONMENT:
                        raise InvalidSettingError(
                            key,
                            str(error),
                            path=self.machine_path,
                            line=self._lines.get(key),
                        ) from None
                    self._refused.setdefault(key, (layer, str(error)))
                    self._problem(layer, key, f"{error}; ignored")
        return values

    def get(self, setting: Setting[T]) -> T:
        key = setting.key
        if key in self._policy:
            return cast(T, self._policy[key])
        if key in self._overrides:
            return cast(T, self._overrides[key])
        if key in self._machine:
            return cast(T, self._machine[key])
        return setting.default

    def source(self, key: str | Setting[Any]) -> Layer:
        """Which layer the effective value comes from."""
        name = _setting(key).key
        if name in self._policy:
            return Layer.POLICY
        if name in self._overrides:
            return Layer.MANAGER
        return Layer.MACHINE if name in self._machine else Layer.DEFAULT

    def origin(self, key: str | Setting[Any]) -> str:
        """Where the effective value of ``key`` comes from, in words for IT: the
        machine-wide file (and its line), the manager's file, or the default."""
        setting = _setting(key)
        layer = self.source(setting)
        if layer is Layer.POLICY:
            return f"{setting.key} set by your organization's policy in {self.policy_where}"
        if layer is Layer.MACHINE:
            line = self._lines.get(setting.key)
            where = str(self.machine_path) if self.machine_path is not None else "memory"
            at = f", line {line}" if line is not None else ""
            return f"{setting.key} set by IT in {where}{at}"
        if layer is Layer.MANAGER:
            return f"{setting.key} set by the manager in {self._overrides_path or 'memory'}"
        return f"{setting.key} not set: its default"

    def is_locked(self, key: str | Setting[Any]) -> bool:
        """True when the manager cannot change it: IT-only, or locked by IT."""
        setting = _setting(key)
        return Who.MANAGER not in setting.who or self._all_locked or setting.key in self._locked

    def listed_in_locks(self, key: str | Setting[Any]) -> bool:
        """Whether IT's ``[lock] locked`` names ``key`` (or ``*``). For an IT-only setting
        whose value the kiosk may build on (``manager_pin_hash``: a manager may change the
        PIN on the kiosk unless IT locks it), this is IT's choice; ``is_locked`` is
        always true for it."""
        return self._all_locked or _setting(key).key in self._locked

    def values(self) -> dict[str, object]:
        """Every effective value, by key (for the manager screen and diagnostics)."""
        return {key: self.get(setting) for key, setting in SETTINGS.items()}

    def base_url(self) -> str | None:
        """The API's base URL for the environment; None for training (the simulator)."""
        environment = self.get(ENVIRONMENT)
        if environment is Environment.TRAINING:
            return None
        setting = PRODUCTION_URL if environment is Environment.PRODUCTION else QA_URL
        value = self.get(setting)
        if value is None:
            refused = self._refused.get(setting.key)
            if refused is not None:  # set, but ignored: say why, not "not set"
                layer, why = refused
                path = self.machine_path if layer is Layer.MACHINE else self._overrides_path
                if layer is Layer.POLICY:
                    why, path = f"{why} (set by policy in {self.policy_where})", None
                line = self._lines.get(setting.key) if layer is Layer.MACHINE else None
                raise InvalidSettingError(
                    setting.key, f"{why}; {environment} needs it", path=path, line=line
                )
            raise InvalidSettingError(
                setting.key, f"not set, and {environment} needs it", path=self.machine_path
            )
        return value

    def set_override(self, key: str | Setting[Any], value: object) -> None:
        """The manager changes one setting (validated, then saved)."""
        setting = _setting(key)
        if self.is_locked(setting):
            raise SettingLockedError(setting.key)
        try:
            parsed = setting.parse(value)
        except ValueError as error:
            raise InvalidSettingError(setting.key, str(error)) from None
        self._save({**self._overrides, setting.key: parsed})

    def set_overrides(self, changes: Mapping[str, object]) -> None:
        """Several changes at once: all valid and saved together, or none."""
        parsed: dict[str, object] = {}
        errors: dict[str, str] = {}
        for key, value in changes.items():
            setting = _setting(key)
            if self.is_locked(setting):
                raise SettingLockedError(setting.key)
            try:
                parsed[setting.key] = setting.parse(value)
            except ValueError as error:
                errors[setting.key] = str(error)
        if errors:
            raise SettingsValidationError(errors)
        self._save({**self._overrides, **parsed})

    def clear_override(self, key: str | Setting[Any]) -> None:
        """Back to the machine-wide or default value."""
        setting = _setting(key)
        if self.is_locked(setting):
            raise SettingLockedError(setting.key)
        self._save({k: v for k, v in self._overrides.items() if k != setting.key})

    def _save(self, overrides: dict[str, object]) -> None:
        if self._overrides_path is not None:
            files.write_overrides_file(
                self._overrides_path, {k: _json_value(v) for k, v in overrides.items()}
            )
        self._overrides = overrides


SETTINGS_SECTIONS: dict[str, str] = {key: s.section for key, s in SETTINGS.items()}
"""Each key's INI section."""


def load_settings(paths: KioskPaths, policy: PolicySource | None = None) -> Settings:
    """The kiosk's settings from IT's policies, its machine-wide file and the manager's
    overrides (``policy``: this system's policy store unless given).

    IT's file at its fixed place is refused (``MachineFileUnsafe``) when users may
    change it or its folder (``kiosk.core.settings.machine_guard``)."""
    chosen = machine_file(paths)
    if chosen == machine_settings_path():
        check_machine_file(chosen)
    return Settings.load(chosen, paths.overrides, policy)


def machine_file(paths: KioskPaths) -> Path:
    """The machine-wide file to read: ``paths.machine_settings``, except on a machine
    IT set up for real credits.

    ``LOYALTY_KIOSK_HOME`` and ``LOYALTY_KIOSK_MACHINE_SETTINGS`` move the file (tests,
    demos, portable runs), and any account may set them for itself. When IT chose
    real credits, by policy or in the file at its fixed place (production, qa, or a
    file that cannot be read), that file is read wherever the variables point: a
    cashier's own kiosk.ini never replaces IT's locks, PIN hash or environment."""
    fixed = machine_settings_path()
    moved = paths.machine_settings
    if moved == fixed:
        return moved
    environment = it_environment(fixed)  # by policy, or in the file at its fixed place
    if environment is None:
        return moved
    _log.warning(
        "settings: %s is IT's file for %s; the variables that point to %s are ignored",
        fixed,
        environment,
        moved,
    )
    return fixed
