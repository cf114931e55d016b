"""The kiosk's health in one small JSON line: what the heartbeat posts and
``loyalty-kiosk-cli --status --json`` prints (for Intune Remediations or any script).

Only the kiosk's own figures: its id, version, environment and branch, whether the
service answered, the credits waiting and the oldest one's age, when the service last
answered and the free disk. Never a client's data, the key or an address with a
token. The line stays under ``MAX_LINE`` characters (Intune keeps 2,048 of a
remediation script's output).

The running counter writes its status to ``STATUS_FILE`` in the data folder at each
look (``kiosk.core.fleet.heartbeat``); the command reads the database and the disk
itself and takes ``online`` and ``last_success`` from that file when it is recent
(``null`` when no counter ran lately).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from kiosk import __version__
from kiosk.core.storage import free_bytes, write_atomically

MAX_LINE = 2048
STATUS_FILE = "fleet-status.json"
FRESH_SECONDS = 15 * 60  # a status file older than this: no counter running lately
_TEXT = 64  # characters kept of each text field


def _short(text: str | None) -> str | None:
    return None if text is None else str(text)[:_TEXT]


def iso(moment: float | None) -> str | None:
    if moment is None:
        return None
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class KioskStatus:
    kiosk_id: str | None
    version: str
    environment: str
    branch: int | None
    online: bool | None  # None: not known (no counter running)
    pending_credits: int | None  # None: the database cannot be read
    oldest_pending_seconds: int | None
    last_success: str | None  # UTC, ISO 8601: the service's last answer
    disk_free_mb: int | None
    at: str | None = None  # when this status was taken

    @property
    def healthy(self) -> bool:
        return self.online is not False and (self.pending_credits is not None)

    def to_json(self) -> str:
        fields = asdict(self)
        for key in ("kiosk_id", "version", "environment", "last_success", "at"):
            fields[key] = _short(fields[key])
        line = json.dumps(fields, separators=(",", ":"), ensure_ascii=True)
        assert len(line) < MAX_LINE  # every field is a bounded number or a cut text
        return line

    @classmethod
    def from_json(cls, text: str) -> KioskStatus | None:
        try:
            data = json.loads(text[:MAX_LINE])
            return cls(**{k: data.get(k) for k in cls.__dataclass_fields__})
        except (ValueError, TypeError):
            return None


@dataclass(frozen=True)
class Outbox:
    pending: int | None
    oldest_seconds: int | None


def outbox_of(database: Path, now: float | None = None) -> Outbox:
    """The credits waiting in ``database`` (read-only; a missing file: none)."""
    if not database.exists():
        return Outbox(0, None)
    now = time.time() if now is None else now
    try:
        conn = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True, timeout=5.0)
    except sqlite3.Error:
        return Outbox(None, None)
    try:
        from kiosk.core.outbox.store import OutboxStore

        has_table = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'outbox_rows'"
        ).fetchone()
        if not has_table:
            return Outbox(0, None)
        counts = OutboxStore(conn).counts()
    except sqlite3.Error:
        return Outbox(None, None)
    finally:
        conn.close()
    oldest = counts.oldest_pending_at
    return Outbox(counts.pending, None if oldest is None else max(0, int(now - oldest)))


def disk_free_mb(folder: Path) -> int | None:
    free = free_bytes(folder)
    return None if free is None else free // (1024 * 1024)


def save_status(data_dir: Path, status: KioskStatus) -> None:
    """The running counter's latest status, for the command (a failure is not the
    counter's concern: the caller logs it once)."""
    write_atomically(data_dir / STATUS_FILE, status.to_json() + "\n")


def last_saved(data_dir: Path, now: float | None = None) -> KioskStatus | None:
    """The status the counter saved, when it is recent."""
    path = data_dir / STATUS_FILE
    now = time.time() if now is None else now
    with contextlib.suppress(OSError):
        if now - path.stat().st_mtime <= FRESH_SECONDS:
            return KioskStatus.from_json(path.read_text(encoding="utf-8"))
    return None


def status_now(
    *,
    kiosk_id: str | None,
    environment: str,
    branch: int | None,
    database: Path,
    data_dir: Path,
    online: bool | None = None,
    last_success: float | None = None,
    now: float | None = None,
) -> KioskStatus:
    now = time.time() if now is None else now
    outbox = outbox_of(database, now)
    return KioskStatus(
        kiosk_id=kiosk_id,
        version=__version__,
        environment=environment,
        branch=branch,
        online=online,
        pending_credits=outbox.pending,
        oldest_pending_seconds=outbox.oldest_seconds,
        last_success=iso(last_success),
        disk_free_mb=disk_free_mb(data_dir),
        at=iso(now),
    )


def with_running_counter(status: KioskStatus, saved: KioskStatus | None) -> KioskStatus:
    """What only the running counter knows (``online``, ``last_success``), from its file."""
    if saved is None:
        return status
    return replace(status, online=saved.online, last_success=saved.last_success)
