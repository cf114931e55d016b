"""``loyalty-kiosk provision``: check the API key and store it in this account's keyring.

Run it as the account the kiosk runs under (the keyring is per account)::

    type key.txt | loyalty-kiosk-cli provision --branch 12
    loyalty-kiosk-cli provision --key-file \\\\server\\share\\kiosk-07.key   (deleted after reading)
    loyalty-kiosk-cli provision          (at a console: asks, without echo)

The key is read from standard input or from ``--key-file`` (deleted after
reading, whatever happens next), never from the command line, and never printed
or logged. It is checked with ``GET /external/branch`` against the configured
environment's base URL; ``--branch`` (or the configured ``branch_id``) must be one
of that merchant's branches. Only then is it stored. ``--branch`` is saved in the
manager's overrides unless IT locked ``branch_id``.

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
from kiosk.cli.args import EXIT_FAILED, EXIT_OK, EXIT_USAGE
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


class ProvisionError(Exception):
    def __init__(self, message: str, code: int = EXIT_FAILED) -> None:
        super().__init__(message)
        self.code = code


def read_key(key_file: str | None, stdin: TextIO | None) -> tuple[str, list[str]]:
    """(the key, warnings). The key file is deleted even when it holds no valid key."""
    warnings: list[str] = []
    if key_file:
        path = Path(key_file)
        problem: str | None = None
        try:
            text = path.read_text(encoding="utf-8-sig")
        except FileNotFoundError:
            raise ProvisionError(f"key file {path} not found", EXIT_USAGE) from None
        except (OSError, UnicodeDecodeError) as error:
            text, problem = "", f"key file {path} cannot be read ({type(error).__name__})"
        try:
            path.unlink(missing_ok=True)
        except OSError as error:
            warnings.append(
                f"key file {path} could not be deleted ({error.strerror}): delete it now"
            )
        if problem is not None:
            raise ProvisionError("; ".join([problem, *warnings]), EXIT_USAGE)
    elif stdin is None:
        raise ProvisionError("no standard input: pipe the key in, or use --key-file", EXIT_USAGE)
    elif stdin.isatty():
        text = getpass.getpass("API key (not shown): ")
    else:
        text = stdin.read()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) != 1 or not _KEY.fullmatch(lines[0]):
        raise ProvisionError(
            "no API key read: give exactly one line with the key "
            "(8 to 512 visible characters, no spaces)",
            EXIT_USAGE,
        )
    return lines[0], warnings


def _target(settings: Settings, environment: str | None) -> tuple[Environment, str]:
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
    return chosen, url


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
            "or use --key-file, and rotate a key typed there",
            EXIT_USAGE,
        )
    key, warnings = read_key(args.key_file, stdin)
    logsafety.register_secret(key)
    try:
        settings = load_settings(paths)
    except SettingsError as error:
        raise ProvisionError(str(error), EXIT_USAGE) from None
    environment, base_url = _target(settings, args.environment)
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
            f"{paths.machine_settings}: change it there",
            EXIT_USAGE,
        )
    stranded = _stranded(paths.database, environment.value, base_url, key)
    if stranded and not args.force:
        raise ProvisionError(
            f"{stranded} credit(s) in the outbox are still bound to the current "
            "key; they are sent only with it. Let the kiosk send them (self-test: "
            "0 pending) or, if the old key is already revoked, use --force"
        )
    async with LoyaltyClient(
        base_url, key, transport=transport, timeouts=QUICK_TIMEOUTS, retry=NO_RETRY
    ) as api:
        listed, branch_line = await _check(api, branch_id)
    try:
        replaced = load_api_key(environment.value, base_url) not in (None, key)
        store_api_key(environment.value, base_url, key)
    except KeyringUnavailable as error:
        raise ProvisionError(f"{error}") from None
    if args.branch is not None and args.branch != settings.get(S.BRANCH_ID):
        try:
            settings.set_override(S.BRANCH_ID, args.branch)
        except (SettingsError, OSError) as error:
            raise ProvisionError(
                f"key stored, but the branch could not be saved: {error}"
            ) from None
    lines = [
        *(f"warning: {w}" for w in warnings),
        f"OK: the key (sha:{key_fingerprint(key)}) {'replaced the previous one' if replaced else 'is stored'} "
        f"in the keyring of {_user()} for {environment.value} ({base_url})",
        f"{branch_line}; this key's branches: {listed}",
    ]
    if out is not None:
        out.write("\n".join(lines) + "\n")
    return EXIT_OK


def _user() -> str:
    try:
        return getpass.getuser()
    except Exception:
        return "this account"
