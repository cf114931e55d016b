"""Reading and writing the two settings files (see ``docs/settings.md``), and settings errors.

- The machine-wide INI file (IT): sections and ``key = value`` lines, UTF-8 or
  UTF-16 with a byte-order mark, or the Windows ANSI code page (what Inno
  Setup's ``SetIniString`` writes). A file that cannot be parsed is refused
  (``SettingsFileError``, naming the file and the line): guessing around it could
  drop IT's locks. Each entry's line is kept, so a problem names its line.
- The manager's overrides (JSON): ``{"version": 1, "settings": {key: value}}``,
  written atomically. A damaged one is ignored with a warning (the manager can
  set the values again).

Either file holding something that looks like an API key or another secret is
refused with ``SecretInSettingsError``, and the log names the entry, never its
value.
"""

from __future__ import annotations

import configparser
import json
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

_log = logging.getLogger(__name__)

OVERRIDES_VERSION = 1
_SECRET_WORDS = ("apikey", "secret", "token", "password", "passwd")


class SettingsError(Exception):
    """A settings problem the person configuring the kiosk must fix.

    ``path`` and ``line`` (1-based) say where, when a file is to blame; ``what`` is
    the message without them (for a screen that shows the place on its own)."""

    def __init__(
        self,
        message: str,
        *,
        path: Path | None = None,
        line: int | None = None,
        what: str | None = None,
    ) -> None:
        super().__init__(message)
        self.path = path
        self.line = line
        self.what = what or message


class FileProblem(StrEnum):
    """Why a settings file could not be read at all."""

    UNREADABLE = "unreadable"  # the operating system refused to read it
    NOT_TEXT = "not_text"  # binary (a copied .lnk, a zip, a damaged file)
    SYNTAX = "syntax"  # a line that is neither [section] nor key = value
    DUPLICATE_SECTION = "duplicate_section"
    DUPLICATE_KEY = "duplicate_key"
    UNSAFE = "unsafe"  # IT's file or its folder may be changed by users


class SettingsFileError(SettingsError):
    """The machine-wide file cannot be read: nothing of it was used."""

    def __init__(
        self, path: Path, problem: FileProblem, detail: str, line: int | None = None
    ) -> None:
        self.problem = problem
        where = f"{path}, line {line}" if line is not None else str(path)
        super().__init__(f"{where}: {detail}", path=path, line=line, what=detail)


class SecretInSettingsError(SettingsError):
    """A settings file holds an API key (or another secret): it was not loaded."""

    def __init__(self, path: Path, entry: str, line: int | None = None) -> None:
        self.entry = entry
        where = f"{path}, line {line}," if line is not None else str(path)
        advice = (
            "Remove it from the file and rotate this key (it was kept in a plain file): "
            "the API key is kept only in the operating system's keyring "
            "(loyalty-kiosk-cli provision). The file was not loaded."
        )
        super().__init__(
            f"{where} contains {entry!r}, which looks like an API key or other secret. {advice}",
            path=path,
            line=line,
            what=f"{entry!r} looks like an API key or other secret. {advice}",
        )


class InvalidSettingError(SettingsError, ValueError):
    def __init__(
        self, key: str, reason: str, *, path: Path | None = None, line: int | None = None
    ) -> None:
        self.key = key
        self.reason = reason
        where = ""
        if path is not None:
            where = f" ({path}, line {line})" if line is not None else f" ({path})"
        super().__init__(f"{key}: {reason}{where}", path=path, line=line, what=f"{key}: {reason}")


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


def _refuse(path: Path, entry: str, line: int | None = None) -> SecretInSettingsError:
    error = SecretInSettingsError(path, entry, line)
    _log.warning("%s", error)
    return error


_HEADER = re.compile(r"\s*\[([^\]]*)\]")
_ENTRY = re.compile(r"\s*([^=:;#\s\[][^=:]*?)\s*(?:[=:]|$)")


def _decode(path: Path, data: bytes) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            raise _not_text(path) from None
    elif b"\0" in data:  # UTF-16 without its mark, or no text at all
        raise _not_text(path)
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("cp1252", errors="replace")
    controls = sum(1 for c in text if (ord(c) < 32 and c not in "\t\r\n\f") or c == "\ufffd")
    if controls > max(2, len(text) // 100):
        raise _not_text(path)
    return text


def _not_text(path: Path) -> SettingsFileError:
    return SettingsFileError(
        path,
        FileProblem.NOT_TEXT,
        "not a text settings file (binary content: a damaged or wrong file)",
    )


@dataclass
class MachineFile:
    """What the machine-wide file holds: raw values by setting key, the line of each,
    and the entries ignored as (key, reason)."""

    values: dict[str, object] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    ignored: list[tuple[str, str]] = field(default_factory=list)


def _entry_lines(text: str) -> dict[tuple[str, str], int]:
    """The line (1-based) of each ``[section] key``, its first occurrence."""
    found: dict[tuple[str, str], int] = {}
    section = ""
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            section = header.group(1).strip().lower()
            continue
        entry = _ENTRY.match(line)
        if entry:
            found.setdefault((section, entry.group(1).strip().lower()), number)
    return found


def _secret_in_ini(text: str) -> tuple[str, int] | None:
    """The first ``[section] key`` that looks like a secret and its line, read line by
    line (so a file that is also broken in other ways is still refused for the right
    reason)."""
    section = ""
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            section = header.group(1).strip()
            continue
        entry = _ENTRY.match(line)
        if entry and (looks_secret(entry.group(1)) or looks_secret(section + entry.group(1))):
            return f"[{section}] {entry.group(1)}", number
    return None


def _parse_error(path: Path, error: configparser.Error) -> SettingsFileError:
    if isinstance(error, configparser.DuplicateSectionError):
        return SettingsFileError(
            path,
            FileProblem.DUPLICATE_SECTION,
            f"not a valid settings file: the section [{error.section}] appears twice "
            "(merge the two into one)",
            error.lineno,
        )
    if isinstance(error, configparser.DuplicateOptionError):
        return SettingsFileError(
            path,
            FileProblem.DUPLICATE_KEY,
            f"not a valid settings file: {error.option} appears twice in [{error.section}] "
            "(keep one)",
            error.lineno,
        )
    if isinstance(error, configparser.MissingSectionHeaderError):
        return SettingsFileError(
            path,
            FileProblem.SYNTAX,
            "not a valid settings file: an entry comes before any [section] header",
            error.lineno,
        )
    line: int | None = None
    if isinstance(error, configparser.ParsingError) and error.errors:
        line = error.errors[0][0]
    return SettingsFileError(
        path,
        FileProblem.SYNTAX,
        "not a valid settings file: a line is neither a [section] header nor key = value",
        line,
    )


def read_machine_file(path: Path, sections: Mapping[str, str]) -> MachineFile:
    """The INI file's values, their lines and the entries ignored.

    ``sections`` maps each known key to its section. A missing file is empty.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return MachineFile()
    except OSError as error:
        raise SettingsFileError(
            path, FileProblem.UNREADABLE, f"cannot be read ({error.strerror})"
        ) from None
    text = _decode(path, data)
    secret = _secret_in_ini(text)
    if secret is not None:
        raise _refuse(path, *secret)
    parser = configparser.ConfigParser(
        interpolation=None, default_section="\0", inline_comment_prefixes=(";", "#")
    )
    try:
        parser.read_string(text, source=str(path))
    except configparser.Error as error:
        raise _parse_error(path, error) from None
    lines = _entry_lines(text)
    found = MachineFile()
    for section in parser.sections():
        for option in parser.options(section):
            expected = sections.get(option)
            line = lines.get((section.strip().lower(), option))
            at = f" (line {line})" if line is not None else ""
            if expected is None:
                found.ignored.append(
                    (option, f"unknown setting in [{section}] of {path}{at}, ignored")
                )
            elif expected != section.lower():
                found.ignored.append(
                    (option, f"belongs in [{expected}], not [{section}]{at}; ignored")
                )
            else:
                found.values[option] = parser.get(section, option)
                if line is not None:
                    found.lines[option] = line
    for key, reason in found.ignored:
        _log.warning("settings (machine): %s: %s", key, reason)
    return found


def machine_environment(path: Path) -> str | None:
    """``[connection] environment`` of an INI file as written, in lower case: ``""``
    when the file sets none, ``None`` when there is no file, ``"?"`` when it cannot be
    read. Read without logging (a glance, not a load)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError:
        return "?"
    try:
        text = _decode(path, data)
    except SettingsFileError:
        return "?"
    section = ""
    for line in text.splitlines():
        header = _HEADER.match(line)
        if header:
            section = header.group(1).strip().lower()
            continue
        entry = re.match(r"\s*environment\s*[=:]\s*([^;#]*)", line, re.IGNORECASE)
        if entry and section == "connection":
            return entry.group(1).strip().lower()
    return ""


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
    from kiosk.core.storage import write_atomically  # only when saving: off the start-up path

    document = {"version": OVERRIDES_VERSION, "settings": dict(sorted(values.items()))}
    write_atomically(path, json.dumps(document, indent=2, ensure_ascii=False) + "\n")
