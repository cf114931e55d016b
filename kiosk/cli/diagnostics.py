"""``loyalty-kiosk --diagnostics [--out PATH]``: one zip for support.

Contents (all text, all passed through the log redaction again)::

    README.txt        what this is, when, which machine and user
    self-test.txt     the self-test report (kiosk.core.selfcheck)
    versions.txt      app, Python, Qt, PySide6, httpx, keyring and its backend, OS
    settings.txt      effective settings, the layer each comes from, locks, problems
    settings/         the settings files as found, PIN hash and secret-looking entries removed
    logs/             kiosk.log and its rotated files
    crashes/          the crash records kept offline (kiosk.core.fleet.crashes), scrubbed

Never the API key (it is registered with the redaction before anything is copied,
so even a stray copy in a log is masked), never the PIN hash, never the database.
``--out`` is the zip's path or a folder for it; default: the current folder (the
temporary folder when that is not writable).
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import importlib
import importlib.metadata
import os
import platform
import re
import sqlite3
import sys
import tempfile
import zipfile
from datetime import datetime
from pathlib import Path

from kiosk import __version__
from kiosk.api.logsafety import redact, register_secret
from kiosk.cli.selftest import self_test
from kiosk.core.fleet.crashes import CrashSpool
from kiosk.core.logs import LOG_NAME
from kiosk.core.security.secrets import load_api_key
from kiosk.core.settings import layers as S
from kiosk.core.settings.files import looks_secret
from kiosk.core.settings.layers import Environment, SettingsError, load_settings, machine_file
from kiosk.core.settings.paths import KioskPaths

REMOVED = "<removed>"
_INI_ENTRY = re.compile(r"^(\s*)([^=:;#\s\[][^=:]*?)(\s*[=:]\s*)(.*)$")
_JSON_ENTRY = re.compile(r'^(\s*")([^"]+)("\s*:\s*)(.*?)(,?)$')


def default_name(now: datetime | None = None) -> str:
    now = now or datetime.now()
    host = re.sub(r"[^A-Za-z0-9_-]", "_", platform.node() or "kiosk")
    return f"loyalty-kiosk-diagnostics-{host}-{now:%Y%m%d-%H%M%S}.zip"


def target_path(out: str | None) -> Path:
    if out:
        path = Path(out)
        if path.is_dir() or out.endswith(("/", "\\")):
            return path / default_name()
        return path
    folder = Path.cwd()
    if not os.access(folder, os.W_OK):
        folder = Path(tempfile.gettempdir())
    return folder / default_name()


def _secret_entry(name: str) -> bool:
    return looks_secret(name) or name.strip().lower() == S.MANAGER_PIN_HASH.key


def masked_settings_file(text: str) -> str:
    """An INI or JSON settings file without PIN hash or secret-looking values, redacted."""
    lines: list[str] = []
    for line in text.splitlines():
        ini, jsn = _INI_ENTRY.match(line), _JSON_ENTRY.match(line)
        if jsn and _secret_entry(jsn.group(2)):
            line = f'{jsn.group(1)}{jsn.group(2)}{jsn.group(3)}"{REMOVED}"{jsn.group(5)}'
        elif ini and not jsn and _secret_entry(ini.group(2)):
            line = f"{ini.group(1)}{ini.group(2)}{ini.group(3)}{REMOVED}"
        lines.append(redact(line))
    return "\n".join(lines) + "\n"


def settings_summary(paths: KioskPaths) -> str:
    machine = machine_file(paths)  # IT's file, wherever the variables point
    lines = [
        f"machine-wide file: {machine} ({'found' if machine.exists() else 'missing'})",
        f"manager overrides: {paths.overrides} ({'found' if paths.overrides.exists() else 'none'})",
        "",
    ]
    try:
        settings = load_settings(paths)
    except SettingsError as error:
        return "\n".join([*lines, f"settings cannot be loaded: {error}"]) + "\n"
    for key, value in settings.values().items():
        if key == S.MANAGER_PIN_HASH.key:
            value = "(set)" if value else "(not set)"
        shown = ", ".join(map(str, value)) if isinstance(value, tuple) else value
        lock = ", locked" if settings.is_locked(key) else ""
        lines.append(f"{key} = {shown}    ({settings.source(key).value}{lock})")
    lines += ["", *(f"problem ({p.layer.value}) {p.key}: {p.message}" for p in settings.problems)]
    return redact("\n".join(lines)) + "\n"


def _version(name: str) -> str:
    """A package's version: its ``__version__`` (the bundle carries little metadata)."""
    try:
        module = importlib.import_module(name)
    except ImportError:
        return "not installed"
    version = getattr(module, "__version__", None)
    if isinstance(version, str):
        return version
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def versions() -> str:
    lines = [
        f"loyalty-kiosk {__version__}"
        + (" (frozen bundle)" if getattr(sys, "frozen", False) else " (source)"),
        f"executable {sys.executable}",
        f"python {sys.version.split()[0]} ({platform.python_implementation()})",
        f"os {platform.platform()} ({platform.machine()})",
        f"sqlite {sqlite3.sqlite_version}",
    ]
    try:
        from PySide6 import __version__ as pyside
        from PySide6.QtCore import qVersion

        lines.append(f"qt {qVersion()}, PySide6 {pyside}")
    except ImportError as error:  # pragma: no cover - PySide6 is a dependency
        lines.append(f"qt not importable: {error}")
    for name in ("httpx", "keyring", "truststore", "certifi", "qasync", "platformdirs"):
        lines.append(f"{name} {_version(name)}")
    try:
        import keyring

        backend = keyring.get_keyring()
        lines.append(f"keyring backend {type(backend).__module__}.{type(backend).__name__}")
    except Exception as error:  # a broken keyring is what support must see
        lines.append(f"keyring backend unavailable: {type(error).__name__}")
    return "\n".join(lines) + "\n"


def _register_stored_key(paths: KioskPaths) -> None:
    """Mask the stored key in everything copied (it is never read into the zip)."""
    with contextlib.suppress(Exception):
        settings = load_settings(paths)
        environment = settings.get(S.ENVIRONMENT)
        if environment is not Environment.TRAINING:
            key = load_api_key(environment.value, settings.base_url() or "")
            if key:
                register_secret(key)


def _text(data: bytes) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    return data.decode("utf-8-sig", errors="replace")


def _redacted_log(path: Path) -> str:
    text = path.read_bytes().decode("utf-8", errors="replace")
    return "\n".join(redact(line) for line in text.splitlines()) + "\n"


def write_diagnostics(paths: KioskPaths, *, demo: bool, out: str | None) -> tuple[Path, bool]:
    """(the zip written, whether the self-test passed)."""
    _register_stored_key(paths)
    try:
        report = asyncio.run(self_test(paths, demo=demo))
        passed, report_text = report.ok, report.text()
    except Exception as error:  # the zip is most needed when things are broken
        passed, report_text = (
            False,
            f"the self-test could not run: {type(error).__name__}: {error}\n",
        )
    target = target_path(out)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    try:
        user = getpass.getuser()
    except Exception:
        user = "?"
    with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(
            "README.txt",
            (
                f"Loyalty Kiosk diagnostics, {datetime.now():%Y-%m-%d %H:%M:%S}, machine "
                f"{platform.node()}, user {user}{' (training)' if demo else ''}.\n"
                "Logs and settings are redacted: no API key, no PIN hash, no client data.\n"
            ),
        )
        archive.writestr("self-test.txt", redact(report_text))
        archive.writestr("versions.txt", redact(versions()))
        archive.writestr("settings.txt", settings_summary(paths))
        archive.writestr(
            "paths.txt",
            "\n".join(
                f"{name}: {value}"
                for name, value in (
                    ("machine settings", paths.machine_settings),
                    ("config", paths.config_dir),
                    ("data", paths.data_dir),
                    ("logs", paths.log_dir),
                )
            )
            + "\n",
        )
        for source, name in (
            (machine_file(paths), "kiosk.ini"),
            (paths.overrides, "settings.json"),
        ):
            with contextlib.suppress(OSError):
                archive.writestr(
                    f"settings/{name}", masked_settings_file(_text(source.read_bytes()))
                )
        for log in sorted(paths.log_dir.glob(f"{LOG_NAME}*")):
            with contextlib.suppress(OSError):
                archive.writestr(f"logs/{log.name}", _redacted_log(log))
        for record in CrashSpool.in_data(paths.data_dir).records():
            with contextlib.suppress(OSError):  # scrubbed when kept; redacted once more
                archive.writestr(f"crashes/{record.name}", redact(_text(record.read_bytes())))
    os.replace(partial, target)
    return target, passed
