"""The events IT alerts on (issue #28, item 2): fixed ids and texts, documented, written
to every writer; a writer that fails never disturbs the counter."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest

from kiosk.core.fleet.events import (
    EventId,
    FleetEvent,
    FleetEvents,
    JournalWriter,
    Level,
    LogWriter,
)
from tests.core.fleet.event_ids import documented_ids

DOC = Path(__file__).resolve().parents[3] / "docs" / "troubleshooting.md"


class FakeWriter:
    def __init__(self) -> None:
        self.events: list[FleetEvent] = []

    def write(self, event: FleetEvent) -> None:
        self.events.append(event)


class BrokenWriter:
    def write(self, event: FleetEvent) -> None:
        raise OSError(1722, "the RPC server is unavailable")


def test_each_event_has_its_id_level_and_text() -> None:
    fake = FakeWriter()
    events = FleetEvents([fake])
    events.started("0.1.0", "production", 12)
    events.stopped(0)
    events.stopped(16)
    events.startup_error(21, "no_api_key", "No API key for production")
    events.outbox_stuck(7, 45)
    events.key_refused("production")
    events.disk_nearly_full(120, "C:\\Users\\kiosk\\AppData\\Local\\LoyaltyKiosk")
    events.crash("ZeroDivisionError", "kiosk/ui/counter.py:10")
    got = [(e.id, e.level) for e in fake.events]
    assert got == [
        (100, Level.INFORMATION),
        (101, Level.INFORMATION),
        (101, Level.ERROR),
        (221, Level.ERROR),
        (300, Level.WARNING),
        (301, Level.ERROR),
        (302, Level.WARNING),
        (303, Level.ERROR),
    ]
    texts = [e.text for e in fake.events]
    assert texts[0] == "Loyalty Kiosk 0.1.0 started: environment production, branch 12."
    assert texts[2] == "Loyalty Kiosk stopped: exit code 16."
    assert texts[4] == "Credits not sent: 7 pending, the oldest for 45 minutes."
    assert all(1 <= e.id <= 1000 for e in fake.events)  # EventCreate.exe's range


def test_a_failing_writer_is_logged_once_and_the_others_still_write(
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = FakeWriter()
    events = FleetEvents([BrokenWriter(), fake])
    with caplog.at_level("INFO", logger="kiosk.fleet"):
        events.stopped(0)
        events.stopped(1)
    assert len(fake.events) == 2
    failures = [r for r in caplog.records if "BrokenWriter failed" in r.getMessage()]
    assert len(failures) == 1


def test_the_log_writer_writes_one_line(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("INFO", logger="kiosk.fleet"):
        FleetEvents([LogWriter()]).outbox_stuck(3, 31)
    assert "event 300 warning: Credits not sent: 3 pending, the oldest for 31 minutes." in (
        caplog.text
    )


def test_the_journal_gets_the_native_protocol(tmp_path: Path) -> None:
    path = str(tmp_path / "journal.socket")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as journal:
        journal.bind(path)
        JournalWriter(path).write(
            FleetEvent(EventId.KEY_REFUSED, Level.ERROR, "refused\nsecond line")
        )
        datagram = journal.recv(4096).decode()
    assert datagram.splitlines() == [
        "MESSAGE=refused second line",
        "PRIORITY=3",
        "SYSLOG_IDENTIFIER=loyalty-kiosk",
        "LOYALTY_KIOSK_EVENT=301",
    ]


def test_every_event_id_is_documented_for_it() -> None:
    text = DOC.read_text(encoding="utf-8")
    table = {
        int(m[1]) for m in re.finditer(r"^\| `(\d+)` \| (?:information|warning|error)", text, re.M)
    }
    assert set(documented_ids()) - {EventId.PRINTER_ERROR} <= table
    assert int(EventId.PRINTER_ERROR) in table
