"""Crash records kept offline: an unexpected error is written, scrubbed, to a bounded
spool in the data folder; ``--diagnostics`` adds the spool to its zip; with IT's
``crash_report_dsn`` the spool is uploaded when the service is online, then emptied.

A record is a Sentry event (``exception`` with its frames: file, function, line), so
the upload is the record inside a Sentry envelope, one plain HTTPS POST with httpx
(no Sentry SDK: it sends at once and keeps nothing on disk, ``docs/design/dependencies.md``).
Scrubbed: no local variables, no source lines, the error's message through the log
redaction (no key, no ``register_url``, emails and documents masked) with every quoted
value and long number masked too (a client's name or card in a message), cut short.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import time
import traceback
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from kiosk import __version__
from kiosk.api import logsafety
from kiosk.core.settings.dsn import Dsn
from kiosk.core.storage import write_atomically

log = logging.getLogger(__name__)

SPOOL_DIR = "crashes"
MAX_RECORDS = 20
MAX_BYTES = 256 * 1024  # the whole spool
MAX_FRAMES = 40
MAX_MESSAGE = 300
CLIENT = f"loyalty-kiosk/{__version__}"
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_LONG_NUMBER = re.compile(r"\d{6,}")


def scrub(message: str) -> str:
    text = logsafety.redact(message)
    text = _QUOTED.sub("'***'", text)
    return _LONG_NUMBER.sub("***", text)[:MAX_MESSAGE]


def _module_path(filename: str) -> str:
    """The file as a path inside the program (``kiosk/ui/counter.py``), never the
    machine's folders (a user name)."""
    parts = Path(filename).parts
    for root in ("kiosk", "site-packages", "lib"):
        if root in parts:
            index = len(parts) - 1 - parts[::-1].index(root)
            return "/".join(parts[index + (root != "kiosk") :])
    return Path(filename).name


def crash_event(
    kind: type[BaseException],
    error: BaseException,
    tb: TracebackType | None,
    *,
    environment: str,
    kiosk_id: str | None,
    now: float | None = None,
) -> dict[str, Any]:
    frames = [
        {"filename": _module_path(f.filename), "function": f.name, "lineno": f.lineno}
        for f in traceback.extract_tb(tb)[-MAX_FRAMES:]
    ]
    return {
        "event_id": uuid.uuid4().hex,
        "timestamp": time.time() if now is None else now,
        "platform": "python",
        "level": "error",
        "release": f"loyalty-kiosk@{__version__}",
        "environment": environment,
        "tags": {"kiosk_id": (kiosk_id or "")[:64]},
        "exception": {
            "values": [
                {
                    "type": kind.__name__[:100],
                    "value": scrub(str(error)),
                    "stacktrace": {"frames": frames},
                }
            ]
        },
    }


@dataclass(frozen=True)
class CrashSpool:
    """The spool folder, bounded by count and bytes (the oldest records go first)."""

    folder: Path
    max_records: int = MAX_RECORDS
    max_bytes: int = MAX_BYTES

    @classmethod
    def in_data(cls, data_dir: Path) -> CrashSpool:
        return cls(data_dir / SPOOL_DIR)

    def records(self) -> list[Path]:
        with contextlib.suppress(OSError):
            return sorted(self.folder.glob("*.json"))
        return []

    def keep(self, event: dict[str, Any]) -> Path:
        name = f"{int(event['timestamp'] * 1000):015d}-{event['event_id']}.json"
        path = self.folder / name
        write_atomically(path, json.dumps(event, separators=(",", ":")))
        self._bound()
        return path

    def _bound(self) -> None:
        records = self.records()
        sizes = {p: p.stat().st_size for p in records}
        while records and (
            len(records) > self.max_records or sum(sizes[p] for p in records) > self.max_bytes
        ):
            oldest = records.pop(0)
            with contextlib.suppress(OSError):
                oldest.unlink()

    def read(self, path: Path) -> dict[str, Any] | None:
        try:
            value = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return value if isinstance(value, dict) else None


def envelope(event: dict[str, Any], dsn: Dsn) -> bytes:
    """One event in Sentry's envelope format (a header line, an item header, the event)."""
    body = json.dumps(event, separators=(",", ":")).encode("utf-8")
    header = {"event_id": event.get("event_id"), "sent_at": _iso(time.time())}
    item = {"type": "event", "length": len(body), "content_type": "application/json"}
    return b"\n".join([json.dumps(header).encode(), json.dumps(item).encode(), body]) + b"\n"


def _iso(moment: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(moment))


async def upload(
    spool: CrashSpool,
    dsn_text: str,
    *,
    transport: Any = None,
    seconds: float = 10.0,
) -> int:
    """Send the kept records (oldest first), deleting each one the endpoint took; the
    count sent. Stops at the first failure (the rest wait for the next time)."""
    import httpx

    dsn = Dsn.parse(dsn_text)
    sent = 0
    records: Sequence[Path] = spool.records()
    if not records:
        return 0
    async with httpx.AsyncClient(transport=transport, timeout=seconds) as client:
        for path in records:
            event = spool.read(path)
            if event is None:
                with contextlib.suppress(OSError):
                    path.unlink()
                continue
            answer = await client.post(
                dsn.envelope_url,
                content=envelope(event, dsn),
                headers={
                    "Content-Type": "application/x-sentry-envelope",
                    "X-Sentry-Auth": dsn.auth_header(CLIENT),
                    "User-Agent": CLIENT,
                },
            )
            if answer.status_code >= 300:
                raise httpx.HTTPStatusError(
                    f"crash upload: HTTP {answer.status_code}",
                    request=answer.request,
                    response=answer,
                )
            with contextlib.suppress(OSError):
                path.unlink()
            sent += 1
    return sent
