"""The small fixed set of events IT's monitoring alerts on.

Each event has a fixed id, a level and one line of English text (``docs/troubleshooting.md``,
"Events for IT's monitoring", lists them). Where they go (``default_writers``):

- Windows: the Application log, source ``LoyaltyKiosk`` (the installer registers it with
  Windows' generic message file ``EventCreate.exe``, which shows the text as it is for
  ids 1-1000), written with ``ReportEventW`` through ctypes (no pywin32);
- Linux: the systemd journal when its socket exists (the native protocol, one
  datagram, no new dependency);
- everywhere: the kiosk's log (``event 300 outbox stuck: …``).

A writer that fails is logged once and never raises: an event must not disturb the
counter. Tests use a writer of their own (``FleetEvents(writers=[...])``).
"""

from __future__ import annotations

import logging
import os
import socket
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import ClassVar, Protocol

log = logging.getLogger("kiosk.fleet")

SOURCE = "LoyaltyKiosk"
JOURNAL_SOCKET = "/run/systemd/journal/socket"
TEXT_LIMIT = 1000  # characters of one event's text


class Level(StrEnum):
    INFORMATION = "information"
    WARNING = "warning"
    ERROR = "error"


class EventId(IntEnum):
    """Fixed ids (1-1000: the range Windows' generic message file shows as text)."""

    STARTED = 100
    STOPPED = 101
    STARTUP_ERROR = 200  # + the exit code: 201, 210-216, 221, 222
    OUTBOX_STUCK = 300
    KEY_REFUSED = 301
    DISK_NEARLY_FULL = 302
    CRASH = 303
    PRINTER_ERROR = 304  # reserved: once the kiosk prints


@dataclass(frozen=True)
class FleetEvent:
    id: int
    level: Level
    text: str

    def line(self) -> str:
        return f"event {self.id} {self.level.value}: {self.text}"


class EventWriter(Protocol):
    def write(self, event: FleetEvent) -> None: ...


def _one_line(text: str) -> str:
    return " ".join(text.split())[:TEXT_LIMIT]


class LogWriter:
    """The kiosk's log (INFO: the event's level is in the line, the log's own errors
    are already there)."""

    def write(self, event: FleetEvent) -> None:
        log.info("%s", event.line())


class JournalWriter:
    """The systemd journal's native protocol over its datagram socket."""

    PRIORITY: ClassVar[dict[Level, int]] = {Level.INFORMATION: 6, Level.WARNING: 4, Level.ERROR: 3}

    def __init__(self, path: str = JOURNAL_SOCKET) -> None:
        self.path = path

    @classmethod
    def available(cls, path: str = JOURNAL_SOCKET) -> bool:
        return sys.platform.startswith("linux") and os.path.exists(path)

    def write(self, event: FleetEvent) -> None:
        fields = {
            "MESSAGE": event.text,
            "PRIORITY": str(self.PRIORITY[event.level]),
            "SYSLOG_IDENTIFIER": "loyalty-kiosk",
            "LOYALTY_KIOSK_EVENT": str(event.id),
        }
        datagram = "".join(f"{key}={_one_line(value)}\n" for key, value in fields.items())
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.sendto(datagram.encode("utf-8"), self.path)


class WindowsEventLog:  # pragma: no cover - Windows only (the Windows workflow runs it)
    """``ReportEventW`` into the Application log under ``SOURCE``."""

    TYPES: ClassVar[dict[Level, int]] = {
        Level.INFORMATION: 0x0004,
        Level.WARNING: 0x0002,
        Level.ERROR: 0x0001,
    }

    def __init__(self) -> None:
        import ctypes
        from ctypes import wintypes

        self._ctypes = ctypes
        advapi = ctypes.WinDLL("advapi32", use_last_error=True)  # type: ignore[attr-defined]
        self._register = advapi.RegisterEventSourceW
        self._register.argtypes = [wintypes.LPCWSTR, wintypes.LPCWSTR]
        self._register.restype = wintypes.HANDLE
        self._report = advapi.ReportEventW
        self._report.argtypes = [
            wintypes.HANDLE,
            wintypes.WORD,
            wintypes.WORD,
            wintypes.DWORD,
            wintypes.LPVOID,
            wintypes.WORD,
            wintypes.DWORD,
            ctypes.POINTER(wintypes.LPCWSTR),
            wintypes.LPVOID,
        ]
        self._report.restype = wintypes.BOOL
        self._deregister = advapi.DeregisterEventSource
        self._deregister.argtypes = [wintypes.HANDLE]

    def write(self, event: FleetEvent) -> None:
        ctypes = self._ctypes
        from ctypes import wintypes

        handle = self._register(None, SOURCE)
        if not handle:
            raise OSError(ctypes.get_last_error(), "RegisterEventSourceW failed")
        try:
            strings = (wintypes.LPCWSTR * 1)(_one_line(event.text))
            ok = self._report(
                handle, self.TYPES[event.level], 0, event.id, None, 1, 0, strings, None
            )
            if not ok:
                raise OSError(ctypes.get_last_error(), "ReportEventW failed")
        finally:
            self._deregister(handle)


def default_writers() -> list[EventWriter]:
    """The log always; the Event Log on Windows, the journal on Linux when it runs."""
    writers: list[EventWriter] = [LogWriter()]
    try:
        if sys.platform == "win32":  # pragma: no cover - Windows only
            writers.append(WindowsEventLog())
        elif JournalWriter.available():
            writers.append(JournalWriter())
    except Exception as error:  # no system log: the kiosk's log still has them
        log.info("events: no system event log (%s)", type(error).__name__)
    return writers


class FleetEvents:
    """The kiosk's events, each written to every writer; a writer that fails is
    logged once (by its kind) and skipped, never raised."""

    def __init__(self, writers: Sequence[EventWriter] | None = None) -> None:
        self.writers = list(default_writers() if writers is None else writers)
        self._failed: set[str] = set()

    def write(self, event: FleetEvent) -> None:
        for writer in self.writers:
            try:
                writer.write(event)
            except Exception as error:  # never disturb the counter
                name = type(writer).__name__
                if name not in self._failed:
                    self._failed.add(name)
                    log.info("events: %s failed (%s); its events are skipped", name, error)

    def started(self, version: str, environment: str, branch: int | None) -> None:
        where = f"branch {branch}" if branch is not None else "no branch"
        self.write(
            FleetEvent(
                EventId.STARTED,
                Level.INFORMATION,
                f"Loyalty Kiosk {version} started: environment {environment}, {where}.",
            )
        )

    def stopped(self, exit_code: int) -> None:
        level = Level.INFORMATION if exit_code == 0 else Level.ERROR
        self.write(
            FleetEvent(EventId.STOPPED, level, f"Loyalty Kiosk stopped: exit code {exit_code}.")
        )

    def startup_error(self, exit_code: int, name: str, detail: str) -> None:
        self.write(
            FleetEvent(
                EventId.STARTUP_ERROR + exit_code,
                Level.ERROR,
                f"Loyalty Kiosk cannot start: start-up error {exit_code} ({name}): {detail}",
            )
        )

    def outbox_stuck(self, pending: int, oldest_minutes: int) -> None:
        self.write(
            FleetEvent(
                EventId.OUTBOX_STUCK,
                Level.WARNING,
                f"Credits not sent: {pending} pending, the oldest for {oldest_minutes} minutes.",
            )
        )

    def key_refused(self, environment: str) -> None:
        self.write(
            FleetEvent(
                EventId.KEY_REFUSED,
                Level.ERROR,
                f"The loyalty service refused this kiosk's API key for {environment}: "
                "provision a valid key (loyalty-kiosk-cli provision).",
            )
        )

    def disk_nearly_full(self, free_mb: int, folder: str) -> None:
        self.write(
            FleetEvent(
                EventId.DISK_NEARLY_FULL,
                Level.WARNING,
                f"Disk nearly full: {free_mb} MB free on the disk of {folder}.",
            )
        )

    def crash(self, kind: str, where: str) -> None:
        self.write(
            FleetEvent(
                EventId.CRASH,
                Level.ERROR,
                f"Unexpected error in the counter: {kind} at {where} (a crash record was kept).",
            )
        )
