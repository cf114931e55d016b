"""The kiosk's self-test: can this kiosk credit? One result per check, for IT.

``await run_checks(paths, training=...)`` checks, in order (a check whose
prerequisite failed is skipped, saying which):

1. ``settings``: the settings files are found and valid, and the environment has
   its base URL;
2. ``storage``: what the start needs on disk: the data, config and log folders exist
   (or can be made) and this account can write them; the data folder's disk has at
   least 50 MB free (else "disk full");
3. ``keyring``: a secure keyring is usable and holds a key for that environment
   (skipped in training: the simulator needs no key);
4. ``api``: the API answers and accepts the key (``GET /external/branch``);
5. ``branch``: the bound branch is one of the key's merchant's branches;
6. ``validation-qr``: the chosen validation QR is active, and of that branch;
7. ``database``: the kiosk's SQLite file passes ``PRAGMA integrity_check``, and the
   outbox has no dead-letter row and nothing pending for more than a day.

No Qt here. Nothing is kept: ``storage`` writes a small file in each folder and deletes
it (and makes a missing folder, as the start would); the database is opened without
creating it. The key never appears in a result: details go through the log redaction.
"""

from __future__ import annotations

import getpass
import platform
import sqlite3
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from pathlib import Path

import httpx

from kiosk import __version__
from kiosk.api import logsafety
from kiosk.api.client import LoyaltyClient
from kiosk.api.errors import ApiError, ErrorKind
from kiosk.api.models.staff import Branch
from kiosk.api.retry import RetryPolicy
from kiosk.api.transport import Timeouts
from kiosk.core.db import MIGRATIONS, schema_version
from kiosk.core.security.secrets import KeyringUnavailable, load_api_key, usable_backend
from kiosk.core.settings import layers as S
from kiosk.core.settings.layers import Environment, Settings, SettingsError, load_settings
from kiosk.core.settings.paths import KioskPaths
from kiosk.core.storage import MIN_FREE_BYTES, check_folder, free_bytes, megabytes

QUICK_TIMEOUTS = Timeouts(default=10.0, operation=15.0, connect=5.0)
NO_RETRY = RetryPolicy(delays=())
TRAINING_URL = "http://training.sim"


class Status(StrEnum):
    OK = "OK"
    FAIL = "FAIL"
    SKIP = "SKIP"


@dataclass(frozen=True)
class Check:
    name: str
    status: Status
    detail: str

    def line(self) -> str:
        return f"{self.status.value:<5} {self.name:<14} {logsafety.redact(self.detail)}"


@dataclass
class Report:
    environment: str
    checks: list[Check] = field(default_factory=list)
    started: datetime = field(default_factory=datetime.now)

    @property
    def failed(self) -> list[Check]:
        return [c for c in self.checks if c.status is Status.FAIL]

    @property
    def ok(self) -> bool:
        return not self.failed

    def text(self) -> str:
        head = (
            f"Loyalty Kiosk {__version__} self-test, {self.started:%Y-%m-%d %H:%M:%S}, "
            f"user {_user()} on {platform.node() or '?'}, environment {self.environment}"
        )
        skipped = sum(c.status is Status.SKIP for c in self.checks)
        if self.ok:
            result = f"result: OK ({len(self.checks)} checks, {skipped} skipped)"
        else:
            names = ", ".join(c.name for c in self.failed)
            result = f"result: FAIL ({len(self.failed)} of {len(self.checks)} failed: {names})"
        return "\n".join([head, *(c.line() for c in self.checks), result]) + "\n"


def _user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no user name in the environment (a service account)
        return "?"


KeyLoader = Callable[[str, str], str | None]


async def run_checks(
    paths: KioskPaths,
    *,
    training: bool,
    transport: httpx.AsyncBaseTransport | None = None,
    training_key: str | None = None,
    load_key: KeyLoader = load_api_key,
    require_file: bool = True,
) -> Report:
    """Every check; ``transport`` reaches the API (the simulator in training).

    ``require_file``: a kiosk without any settings file fails (it would run in
    training by default, silently); ``--demo`` does not need one.
    """
    settings_check, settings = check_settings(paths, training=training, require_file=require_file)
    environment = (
        Environment.TRAINING if training or settings is None else settings.get(S.ENVIRONMENT)
    )
    report = Report(environment.value, [settings_check])
    storage_check = check_storage(paths)
    report.checks.append(storage_check)
    base_url: str | None = None
    if settings is not None and settings_check.status is Status.OK:
        base_url = TRAINING_URL if environment is Environment.TRAINING else settings.base_url()
    key: str | None = None
    if environment is Environment.TRAINING:
        key = training_key
        report.checks.append(
            Check("keyring", Status.SKIP, "training: no keyring read (the simulator's own key)")
        )
    elif base_url is None:
        report.checks.append(Check("keyring", Status.SKIP, "needs valid settings"))
    else:
        keyring_check, key = check_keyring(environment.value, base_url, load_key)
        report.checks.append(keyring_check)
    if settings is None or base_url is None or not key:
        why = "needs valid settings" if base_url is None else "needs an API key"
        report.checks += [Check(n, Status.SKIP, why) for n in ("api", "branch", "validation-qr")]
    else:
        report.checks += await check_api(settings, base_url, key, transport, training=training)
    database = paths.database_for(environment.value)  # training has its own file
    report.checks.append(check_database(database, writable=storage_check.status is Status.OK))
    return report


def check_settings(
    paths: KioskPaths, *, training: bool, require_file: bool = True
) -> tuple[Check, Settings | None]:
    overrides = paths.overrides
    try:
        settings = load_settings(paths)
    except SettingsError as error:
        return Check("settings", Status.FAIL, str(error)), None
    machine = settings.machine_path or paths.machine_settings
    found = [str(p) for p in (machine, overrides) if p.exists()]
    if not found and require_file:
        return Check(
            "settings",
            Status.FAIL,
            f"no settings file: {machine} is missing (the installer writes it; "
            "without it the kiosk runs in training)",
        ), settings
    if settings.problems:
        listed = "; ".join(
            f"{p.key}: {p.message} ({p.layer.value}{f', line {p.line}' if p.line else ''})"
            for p in settings.problems
        )
        return Check("settings", Status.FAIL, f"ignored entries: {listed}"), settings
    environment = Environment.TRAINING if training else settings.get(S.ENVIRONMENT)
    try:
        base_url = settings.base_url() if environment is not Environment.TRAINING else None
    except SettingsError as error:
        return Check("settings", Status.FAIL, str(error)), settings
    parts = [
        ", ".join(found) if found else "no settings file (defaults)",
        f"environment {environment.value}",
    ]
    if base_url:
        parts.append(base_url)
    branch = settings.get(S.BRANCH_ID)
    parts.append(f"branch {branch}" if branch is not None else "no branch set")
    return Check("settings", Status.OK, "; ".join(parts)), settings


LINUX_KEYRING = (
    "on Linux the key is kept by the Secret Service of this account's session "
    "(gnome-keyring: its file ~/.local/share/keyrings/login.keyring, unlocked at login "
    "by pam_gnome_keyring; docs/troubleshooting.md, 'The keyring on Linux')"
)


def _keyring_hint() -> str:
    return f"; {LINUX_KEYRING}" if sys.platform.startswith("linux") else ""


def check_keyring(environment: str, base_url: str, load_key: KeyLoader) -> tuple[Check, str | None]:
    """The keyring of the account running the self-test (named: the kiosk's own account
    must run it, an administrator's keyring is another one)."""
    user = _user()
    try:
        backend = usable_backend()
        key = load_key(environment, base_url)
    except KeyringUnavailable as error:
        return Check("keyring", Status.FAIL, f"{error} (account {user}){_keyring_hint()}"), None
    name = f"{type(backend).__module__}.{type(backend).__name__}"
    if not key:
        return Check(
            "keyring",
            Status.FAIL,
            f"{name}: no API key stored for {environment} ({base_url}) in the keyring "
            f"of {user}: run 'loyalty-kiosk-cli provision' as this user{_keyring_hint()}",
        ), None
    logsafety.register_secret(key)
    return Check(
        "keyring", Status.OK, f"{name}: a key is stored for {environment} in the keyring of {user}"
    ), key


def _api_failure(error: ApiError, base_url: str) -> str:
    if error.message.startswith("cannot reach "):  # the host and the likely cause already
        return error.message
    hints = {
        ErrorKind.AUTH: "the key was refused: provision the key of this environment",
        ErrorKind.NETWORK: f"cannot reach {base_url}: check the network, proxy and firewall",
        ErrorKind.TIMEOUT: f"{base_url} did not answer in time",
        ErrorKind.TLS: "the server's certificate is not trusted: install the proxy's root "
        "certificate in Windows' store",
        ErrorKind.RATE_LIMITED: "rate limited: try again in a minute",
    }
    return f"{hints.get(error.kind, 'the API failed')} ({error})"


async def check_api(
    settings: Settings,
    base_url: str,
    key: str,
    transport: httpx.AsyncBaseTransport | None,
    *,
    training: bool,
) -> list[Check]:
    branch_id = settings.get(S.BRANCH_ID)
    # No branch header: the lists are the merchant's whole, so a QR or branch of
    # the wrong branch is named as such.
    api = LoyaltyClient(base_url, key, transport=transport, timeouts=QUICK_TIMEOUTS, retry=NO_RETRY)
    try:
        try:
            started = time.perf_counter()
            branches = await api.list_branches()
            took = (time.perf_counter() - started) * 1000
        except ApiError as error:
            return [
                Check("api", Status.FAIL, _api_failure(error, base_url)),
                Check("branch", Status.SKIP, "needs the API"),
                Check("validation-qr", Status.SKIP, "needs the API"),
            ]
        answered = (
            f"the training simulator answered in {took:.0f} ms"
            if training
            else f"{base_url} accepted the key in {took:.0f} ms"
        )
        api_check = Check("api", Status.OK, f"{answered}; {len(branches)} branch(es)")
        branch_check, branch = _branch(branches, branch_id, training=training)
        return [api_check, branch_check, await _qr(api, settings.get(S.VALIDATION_QR_ID), branch)]
    finally:
        await api.aclose()


def _branch(
    branches: tuple[Branch, ...], branch_id: int | None, *, training: bool
) -> tuple[Check, Branch | None]:
    ids = ", ".join(str(b.id) for b in branches) or "none"
    if branch_id is None:
        if training and branches:
            first = branches[0]
            return Check(
                "branch",
                Status.OK,
                f"training uses the first branch: {first.id} {first.name or ''}",
            ), first
        return Check(
            "branch", Status.FAIL, f"branch_id is not set (this key's branches: {ids})"
        ), None
    for branch in branches:
        if branch.id == branch_id:
            return Check("branch", Status.OK, f"{branch.id} {branch.name or ''}".strip()), branch
    return Check(
        "branch",
        Status.FAIL,
        f"branch {branch_id} is not a branch of this key's merchant (its branches: {ids})",
    ), None


async def _qr(api: LoyaltyClient, qr_id: int | None, branch: Branch | None) -> Check:
    if qr_id is None:
        return Check("validation-qr", Status.SKIP, "validation_qr_id is not set")
    try:
        qrs = await api.list_validation_qrs(max_wait=5.0)
    except ApiError as error:
        return Check("validation-qr", Status.FAIL, _api_failure(error, api.base_url))
    for qr in qrs:
        if qr.id == qr_id:
            if branch is not None and qr.branch_id not in (None, branch.id):
                return Check(
                    "validation-qr",
                    Status.FAIL,
                    f"QR {qr_id} belongs to branch {qr.branch_id}, not {branch.id}",
                )
            return Check("validation-qr", Status.OK, f"QR {qr_id} {qr.name or ''}".strip())
    active = ", ".join(str(q.id) for q in qrs) or "none"
    return Check(
        "validation-qr",
        Status.FAIL,
        f"QR {qr_id} is not an active validation QR (active: {active})",
    )


def check_storage(paths: KioskPaths) -> Check:
    """The folders the start writes, and the free space of the data folder's disk."""
    problems = [
        found
        for folder in (paths.data_dir, paths.config_dir, paths.log_dir)
        if (found := check_folder(folder)) is not None
    ]
    free = free_bytes(paths.data_dir)
    parts: list[str] = []
    if any(p.disk_full for p in problems) or (free is not None and free < MIN_FREE_BYTES):
        shown = megabytes(free) if free is not None else "no space"
        parts.append(
            f"disk full: {shown} free on the disk of {paths.data_dir} (the kiosk needs "
            f"{megabytes(MIN_FREE_BYTES)}): free space on this disk; nothing queued is lost"
        )
    parts += [
        f"{p.folder} is {p.why}: the kiosk cannot start; give {_user()} write access to it"
        for p in problems
        if not p.disk_full
    ]
    if parts:
        return Check("storage", Status.FAIL, "; ".join(parts))
    room = f", {megabytes(free)} free" if free is not None else ""
    return Check(
        "storage",
        Status.OK,
        f"{paths.data_dir} writable{room}; config and log folders writable",
    )


def check_database(path: Path, *, writable: bool = True) -> Check:
    if not path.exists():
        if not writable:
            return Check("database", Status.SKIP, f"{path} cannot be created: see storage")
        return Check("database", Status.OK, f"{path} not created yet (nothing queued)")
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True, timeout=5.0)
    except sqlite3.Error as error:
        return Check("database", Status.FAIL, f"{path} cannot be opened: {error}")
    try:
        rows = [str(r[0]) for r in conn.execute("PRAGMA integrity_check(20)").fetchall()]
        if rows != ["ok"]:
            return Check(
                "database",
                Status.FAIL,
                f"{path} is damaged: {'; '.join(rows[:3])} (keep the file for support)",
            )
        version = schema_version(conn)
        if version > len(MIGRATIONS):
            return Check(
                "database",
                Status.FAIL,
                f"schema version {version} is newer than this app ({len(MIGRATIONS)})",
            )
        return _outbox(conn, path, version)
    except sqlite3.Error as error:
        return Check("database", Status.FAIL, f"{path} cannot be read: {error}")
    finally:
        conn.close()


def _outbox(conn: sqlite3.Connection, path: Path, version: int) -> Check:
    head = f"{path.name} integrity ok, schema v{version}"
    try:
        from kiosk.core.outbox.store import OutboxStore
        from kiosk.core.outbox.types import STALE_AFTER
    except ImportError:  # a build without the outbox
        return Check("database", Status.OK, f"{head}; no outbox in this version")
    has_table = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'outbox_rows'"
    ).fetchone()
    if not has_table:
        return Check("database", Status.OK, f"{head}; outbox not created yet (next start)")
    counts = OutboxStore(conn).counts()
    detail = f"{head}; outbox: {counts.pending} pending, {counts.dead} dead-letter"
    problems: list[str] = []
    if counts.dead:
        problems.append("dead-letter rows need a manager (Manager > Outbox: retry or discard)")
    if counts.oldest_pending_at is not None:
        age = time.time() - counts.oldest_pending_at
        if age > STALE_AFTER:
            problems.append(
                f"the oldest pending credit has waited {age / 3600:.0f} h: the kiosk "
                "cannot send (network, key or branch changed)"
            )
    if problems:
        return Check("database", Status.FAIL, f"{detail}; {'; '.join(problems)}")
    return Check("database", Status.OK, detail)
