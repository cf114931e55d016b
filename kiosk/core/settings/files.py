"""Reading and writing the two settings files (see ``docs/settings.md``), and settings errors.

- The machine-wide INI file (IT): sections and ``key = value`` lines, UTF-8 or
  UTF-16 with a byte-order mark, or the Windows ANSI code page (what Inno
  Setup's ``SetIniString`` writes). A file that cannot be parsed is refused:
  guessing around it could drop IT's locks.
- The manager's overrides (JSON): ``{"version": 1, "settings": {key: value}}``,
  written atomically. A damaged one is ignored with a warning (the manager can
  set the values again).

Either file holding something that looks like an API key or another secret is
refused with ``SecretInSettingsError``, and the log names the entry, never its
value.
"""

from __future__ import annotations

import configparser
import contextlib
import json
import logging
import os
import re
from collections.abc import Mapping
from pathlib import Path

_log = logging.getLogger(__name__)

OVERRIDES_VERSION = 1
_SECRET_WORDS = ("apikey", "secret", "token", "password", "passwd")


class SettingsError(Exception):
    """A settings problem the person configuring the kiosk must fix."""


class SecretInSettingsError(SettingsError):
    """A settings file holds an API key (or another secret): it was not loaded."""

    def __init__(self, path: Path, entry: str) -> None:
        self.path = path
        self.entry = entry
        super().__init__(
            f"{path} contains {entry!r}, which looks like an API key or other secret. "
            "Remove it from the file: the API key is kept only in the operating system's "
            "keyring and is entered from the manager screen. The file was not loaded."
        )


class InvalidSettingError(SettingsError, ValueError):
    def __init__(self, key: str, reason: str) -> None:
        self.key = key
        self.reason = reason
        super().__init__(f"{key}: {reason}")


class SettingLockedError(SettingsError):
    """The manager tried to change a setting that only IT may change."""

    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(f"{key} is set by IT in the machine-wide settings file")


class SettingsValidationError(SettingsError):
    def __init__(self, errors: Mapping[str, str]) -> None:
        self.errors = dict(errors)
        super().__init__("; ".join(f"{key}: {reason}" for key, reason in self.errors.items()))


def looks_secret(name: str) -> bool:
    squashed = re.sub(r"[^a-z0-9]", "", name.lower())
    return any(word in squashed for word in _SECRET_WORDS)


def _refuse(path: Path, entry: str) -> SecretInSettingsError:
    error = SecretInSettingsError(path, entry)
    _log.warning("%s", error)
    return error


def _decode(data: bytes) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _secret_in_ini(text: str) -> str | None:
    """The first ``[section] key`` that looks like a secret, read line by line (so a
    file that is also broken in other ways is still refused for the right reason)."""
    section = ""
    for line in text.splitlines():
        header = re.match(r"\s*\[([^\]]*)\]", line)
        if header:
            section = header.group(1).strip()
            continue
        entry = re.match(r"\s*([^=:;#\s][^=:]*?)\s*(?:[=:]|$)", line)
        if entry and (looks_secret(entry.group(1)) or looks_secret(section + entry.group(1))):
            return f"[{section}] {entry.group(1)}"
    return None


def read_machine_file(
    path: Path, sections: Mapping[str, str]
) -> tuple[dict[str, object], list[tuple[str, str]]]:
    """(raw values by setting key, ignored entries as (key, reason)) of the INI file.

    ``sections`` maps each known key to its section. A missing file is empty.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}, []
    except OSError as error:
        raise SettingsError(f"{path} cannot be read: {error.strerror}") from None
    text = _decode(data)
    secret = _secret_in_ini(text)
    if secret is not None:
        raise _refuse(path, secret)
    parser = configparser.ConfigParser(
        interpolation=None, default_section="\0", inline_comment_prefixes=(";", "#")
    )
    try:
        parser.read_string(text, source=str(path))
    except configparser.Error as error:
        raise SettingsError(f"{path} is not a valid settings file: {error.message}") from None
    values: dict[str, object] = {}
    ignored: list[tuple[str, str]] = []
    for section in parser.sections():
        for option in parser.options(section):
            expected = sections.get(option)
            if expected is None:
                ignored.append((option, f"unknown setting in [{section}] of {path}, ignored"))
            elif expected != section.lower():
                ignored.append((option, f"belongs in [{expected}], not [{section}]; ignored"))
            else:
                values[option] = parser.get(section, option)
    for key, reason in ignored:
        _log.warning("settings (machine): %s: %s", key, reason)
    return values, ignored


def _secret_entry(value: object, prefix: str = "") -> str | None:
    if isinstance(value, dict):
        for key, inner in value.items():
            name = f"{prefix}{key}"
            if looks_secret(str(key)):
                return name
            found = _secret_entry(inner, name + ".")
            if found:
                return found
    return None


def read_overrides_file(path: Path) -> dict[str, object]:
    """The manager's overrides by key, raw (validated by the caller). Missing: empty."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as error:
        _log.warning("settings (manager): %s cannot be read (%s); ignored", path, error)
        return {}
    try:
        document = json.loads(text)
    except ValueError:
        _log.warning("settings (manager): %s is not valid JSON; ignored", path)
        return {}
    secret = _secret_entry(document)
    if secret is not None:
        raise _refuse(path, secret)
    settings = document.get("settings") if isinstance(document, dict) else None
    if not isinstance(settings, dict):
        _log.warning('settings (manager): %s has no "settings" object; ignored', path)
        return {}
    return {str(key): value for key, value in settings.items()}


def write_overrides_file(path: Path, values: Mapping[str, object]) -> None:
    """Replace the overrides file atomically (a crash leaves the old or the new one)."""
    import tempfile  # only when saving: kept off the start-up path

    path.parent.mkdir(parents=True, exist_ok=True)
    document = {"version": OVERRIDES_VERSION, "settings": dict(sorted(values.items()))}
    fd, temp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(document, handle, indent=2, ensure_ascii=False)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
