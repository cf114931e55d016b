"""``loyalty-kiosk provision``: check the API key and store it in this account's keyring.

Run it as the account the kiosk runs under (the keyring is per account)::

    type key.txt | loyalty-kiosk-cli provision --branch 12
    loyalty-kiosk-cli provision --key-file \\\\server\\share\\kiosk-07.key   (deleted once stored)
    loyalty-kiosk-cli provision          (at a console: asks, without echo)

The key is read from standard input or from ``--key-file``, never from the command
line, and never printed or logged. It is checked with ``GET /external/branch``
against the environment's base URL from IT's machine-wide file (the manager's
``settings.json`` cannot set it), and the command first prints that URL and the
file and line it came from; ``--branch`` (or the configured
``branch_id``) must be one of that merchant's branches. Only then is it stored.
``--branch`` is saved in the manager's overrides unless IT locked ``branch_id``.

The key file is deleted only once the key is stored in the keyring (the output says
so); when anything fails before, it is kept, and the message says that too: the
file may be the only copy of the key. A ``--key-file`` value that does not look
like a path (no folder, no extension: perhaps the key itself) is never shown.

A key is refused while the outbox still holds credits bound to another key for
the same server (they would never be sent): wait until the self-test shows 0
pending, or pass ``--force`` when the old key is already revoked.
"""

from __future__ import annotations

import getpass
import re
import sqlite3
from argparse import Namespace
from pathlib import Path
from typing import TextIO

import httpx

from kiosk.api import logsafety
from kiosk.api.client import LoyaltyClient
from kiosk.api.errors import ApiError, ErrorKind, Resource
from kiosk.api.redact import key_fingerprint
from kiosk.cli.args import EXIT_FAILED, EXIT_OK, EXIT_USAGE, NOT_SHOWN, ROTATE
from kiosk.core.security.secrets import (
    KeyringUnavailable,
    load_api_key,
    store_api_key,
    usable_backend,
)
from kiosk.core.selfcheck import NO_RETRY, QUICK_TIMEOUTS
from kiosk.core.settings import layers as S
from kiosk.core.settings.layers import Environment, Settings, SettingsError, load_settings
from kiosk.core.settings.paths import KioskPaths

_KEY = re.compile(r"[\x21-\x7e]{8,512}")
_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,5}$")


class ProvisionError(Exception):
    def __init__(self, message: str, code: int = EXIT_FAILED) -> None:
        super().__init__(message)
        self.code = code


def shown_path(given: str) -> str:
    """``given`` as typed when it looks like a path (a folder or an extension), else
    ``<not shown>``: a value given where a key may stand is never echoed."""
    looks_like_path = any(sep in given for sep in "/\\") or _EXTENSION.search(given)
    return given if looks_like_path else NOT_SHOWN


def read_key(key_file: str | None, stdin: TextIO | None) -> str:
    """The key. A key file is only read here (``delete_key_file``, once stored)."""
    if key_file:
        path = Path(key_file)
        try:
            text = path.read_text(encoding="utf-8-sig")
        except FileNotFoundError:
            shown = shown_path(key_file)
            hint = "" if shown != NOT_SHOWN else f"; {ROTATE}"
            raise ProvisionError(f"key file {shown} not found{hint}", EXIT_USAGE) from None
        except (OSError, UnicodeDecodeError) as error:
            raise ProvisionError(
                f"key file {shown_path(key_file)} cannot be read ({type(error).__name__})",
                EXIT_USAGE,
            ) from None
    elif stdin is None:
        raise ProvisionError("no standard input: pipe the key in, or use --key-file", EXIT_USAGE)
    elif stdin.isatty():
        text = getpass.getpass("API key (not shown): ")
    else:
        text = stdin.read()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) != 1 or not _KEY.fullmatch(lines[0]):
        kept = f"; the key file {shown_path(key_file)} was kept" if key_file else ""
        raise ProvisionError(
            "no API key read: give exactly one line with the key "
            f"(8 to 512 visible characters, no spaces){kept}",
            EXIT_USAGE,
        )
    return lines[0]


def delete_key_file(key_file: str) -> str:
    """Delete the key file once the key is stored; the line that says so."""
    shown = shown_path(key_file)
    try:
        Path(key_file).unlink(missing_ok=True)
    except OSError as error:
        return (
            f"warning: the key file {shown} could not be deleted ({error.strerror}): delete it now"
        )
    return f"the key file {shown} was deleted (the key is in the keyring now)"


def _target(settings: Settings, environment: str | None) -> tuple[Environment, str, str]:
    """(environment, base URL, where the URL came from): always IT's machine-wide file."""
    chosen = Environment(environment) if environment else settings.get(S.ENVIRONMENT)
    if chosen is Environment.TRAINING:
        raise ProvisionError(
            "the kiosk is set to training, which needs no API key: set "
            "environment (production or qa) in kiosk.ini first",
            EXIT_USAGE,
        )
    setting = S.PRODUCTION_URL if chosen is Environment.PRODUCTION else S.QA_URL
    url = settings.get(setting)
    if not url:
        raise ProvisionError(
            f"{setting.key} is not set: the installer's /BASEURL= or /QAURL= writes it", EXIT_USAGE
        )
    return chosen, url, settings.origin(setting)


def _stranded(database: Path, environment: str, base_url: str, key: str) -> int:
    """Outbox rows still to send for this server with another key."""
    if not database.exists():
        return 0
    try:
        from kiosk.core.outbox.store import OutboxStore
    except ImportError:  # a build without the outbox
        return 0
    conn = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True, timeout=5.0)
    try:
        bindings = OutboxStore(conn).unsettled_bindings()
    except sqlite3.OperationalError:  # no outbox table yet
        return 0
    finally:
        conn.close()
    mine = key_fingerprint(key)
    return sum(
        n
        for b, n in bindings
        if b.environment == environment
        and b.base_url == base_url.rstrip("/")
        and b.key_fingerprint != mine
    )


async def _check(api: LoyaltyClient, branch_id: int | None) -> tuple[str, str]:
    """(branches summary, branch line) or ProvisionError."""
    try:
        branches = await api.list_branches()
    except ApiError as error:
        if error.kind is ErrorKind.AUTH:
            raise ProvisionError(
                f"the key was refused by {api.base_url} ({error.status}): is it "
                "the key of this environment?"
            ) from None
        if error.message.startswith("cannot reach "):  # the host and the likely cause
            raise ProvisionError(f"the key could not be checked: {error.message}") from None
        raise ProvisionError(f"the key could not be checked: {error}") from None
    listed = ", ".join(f"{b.id} {b.name or ''}".strip() for b in branches) or "none"
    if branch_id is None:
        return listed, "no branch bound yet: run again with --branch ID"
    try:
        branch = await api.get_branch(branch_id)
    except ApiError as error:
        if error.kind is ErrorKind.NOT_FOUND and error.resource in (Resource.BRANCH, None):
            raise ProvisionError(
                f"branch {branch_id} is not a branch of this key's merchant "
                f"(its branches: {listed}); key not stored"
            ) from None
        raise ProvisionError(f"branch {branch_id} could not be checked: {error}") from None
    return listed, f"branch {branch.id} {branch.name or ''}".strip()


async def provision(
    args: Namespace,
    paths: KioskPaths,
    *,
    stdin: TextIO | None,
    out: TextIO | None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> int:
    """Raises ``ProvisionError`` (message for the console, exit code) on any failure."""
    if getattr(args, "stray", None):
        raise ProvisionError(
            "the key is never taken from the command line (it would stay in "
            "the shell history and process list): pipe it on standard input "
            f"or use --key-file; {ROTATE}",
            EXIT_USAGE,
        )
    key = read_key(args.key_file, stdin)
    logsafety.register_secret(key)
    try:
        stored = await _provision(args, paths, key, transport, out)
    except ProvisionError as error:
        if args.key_file:  # it may be the only copy of the key
            error.args = (
                f"{error}; nothing was stored, the key file {shown_path(args.key_file)} was kept",
            )
        raise
    lines = [*stored, *([delete_key_file(args.key_file)] if args.key_file else [])]
    if out is not None:
        out.write("\n".join(lines) + "\n")
    return EXIT_OK


async def _provision(
    args: Namespace,
    paths: KioskPaths,
    key: str,
    transport: httpx.AsyncBaseTransport | None,
    out: TextIO | None,
) -> list[str]:
    """Check and store ``key``; the lines that say what was done."""
    try:
        settings = load_settings(paths)
    except SettingsError as error:
        raise ProvisionError(str(error), EXIT_USAGE) from None
    environment, base_url, origin = _target(settings, args.environment)
    try:
        usable_backend()
    except KeyringUnavailable as error:
        raise ProvisionError(f"{error}: the key cannot be stored safely") from None
    branch_id = args.branch if args.branch is not None else settings.get(S.BRANCH_ID)
    if (
        args.branch is not None
        and args.branch != settings.get(S.BRANCH_ID)
        and settings.is_locked(S.BRANCH_ID)
    ):
        raise ProvisionError(
            f"branch_id is locked by IT to {settings.get(S.BRANCH_ID)} in "
            f"{settings.machine_path or paths.machine_settings}: change it there",
            EXIT_USAGE,
        )
    stranded = _stranded(paths.database, environment.value, base_url, key)
    if stranded and not args.force:
        raise ProvisionError(
            f"{stranded} credit(s) in the outbox are still bound to the current "
            "key; they are sent only with it. Let the kiosk send them (self-test: "
            "0 pending) or, if the old key is already revoked, use --force"
        )
    _say(out, f"checking the key at {base_url} ({origin})")
    async with LoyaltyClient(
        base_url, key, transport=transport, timeouts=QUICK_TIMEOUTS, retry=NO_RETRY
    ) as api:
        listed, branch_line = await _check(api, branch_id)
    try:
        replaced = load_api_key(environment.value, base_url) not in (None, key)
        store_api_key(environment.value, base_url, key)
    except KeyringUnavailable as error:
        raise ProvisionError(f"{error}") from None
    lines = [
        f"OK: the key (sha:{key_fingerprint(key)}) {'replaced the previous one' if replaced else 'is stored'} "
        f"in the keyring of {_user()} for {environment.value} ({base_url})",
        f"{branch_line}; this key's branches: {listed}",
    ]
    if args.branch is not None and args.branch != settings.get(S.BRANCH_ID):
        try:
            settings.set_override(S.BRANCH_ID, args.branch)
        except (SettingsError, OSError) as error:
            lines.append(f"warning: the key is stored, but the branch could not be saved: {error}")
    return lines


def _say(stream: TextIO | None, text: str) -> None:
    if stream is not None:
        stream.write(text + "\n")
        stream.flush()


def _user() -> str:
    try:
        return getpass.getuser()
    except Exception:
        return "this account"
