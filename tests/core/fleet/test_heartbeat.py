"""The health heartbeat (issue #28, item 3): a small JSON status POSTed to IT's
collector over real loopback HTTP; failures are logged once and never raise; no
client data or key; the same line as ``--status --json``, under 2,048 characters."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kiosk.core.fleet.events import FleetEvent, FleetEvents
from kiosk.core.fleet.heartbeat import FleetWatch, WatchConfig
from kiosk.core.fleet.status import MAX_LINE, STATUS_FILE, KioskStatus, last_saved
from tests.core.fleet.collector import collector

STATUS = KioskStatus(
    kiosk_id="k-" + "9" * 30,
    version="0.1.0",
    environment="production",
    branch=12,
    online=True,
    pending_credits=3,
    oldest_pending_seconds=125,
    last_success="2026-11-27T22:00:00Z",
    disk_free_mb=41210,
    at="2026-11-27T22:01:00Z",
)


class Events:
    def __init__(self) -> None:
        self.got: list[FleetEvent] = []

    def write(self, event: FleetEvent) -> None:
        self.got.append(event)


def watch_for(
    status: KioskStatus, url: str | None, tmp_path: Path, **config: Any
) -> tuple[FleetWatch, Events]:
    fake = Events()

    async def look() -> KioskStatus:
        return status

    watch = FleetWatch(
        WatchConfig(heartbeat_url=url, data_dir=tmp_path, **config), FleetEvents([fake]), look
    )
    return watch, fake


def test_the_heartbeat_posts_the_status_to_a_collector(
    tmp_path: Path, arun: Callable[..., Any]
) -> None:
    with collector() as hc:
        watch, _ = watch_for(STATUS, hc.url + "/ping/5d1b", tmp_path)
        arun(watch.look_once())
        arun(watch.look_once())  # not due again before the interval
    assert len(hc.received) == 1
    path, headers, body = hc.received[0]
    assert path == "/ping/5d1b"
    assert headers["Content-Type"] == "application/json"
    sent = json.loads(body)
    assert sent == {
        "kiosk_id": STATUS.kiosk_id,
        "version": "0.1.0",
        "environment": "production",
        "branch": 12,
        "online": True,
        "pending_credits": 3,
        "oldest_pending_seconds": 125,
        "last_success": "2026-11-27T22:00:00Z",
        "disk_free_mb": 41210,
        "at": "2026-11-27T22:01:00Z",
    }
    assert len(body) < MAX_LINE
    assert last_saved(tmp_path) == STATUS  # what --status --json reads
    assert (tmp_path / STATUS_FILE).read_text().strip() == body.decode()


def test_a_failing_collector_is_logged_once_and_never_raises(
    tmp_path: Path, arun: Callable[..., Any], expect_log: Callable[[str], None]
) -> None:
    expect_log(r"fleet: heartbeat failed \(RuntimeError: HTTP 503\); the counter is not affected")
    with collector() as hc:
        hc.status = 503
        watch, _ = watch_for(STATUS, hc.url + "/ping/x", tmp_path, heartbeat_seconds=0)
        for _ in range(3):
            arun(watch.look_once())
        assert watch.beats == 0
        hc.status = 200
        arun(watch.look_once())
    assert watch.beats == 1
    assert len(hc.received) == 4


def test_an_unreachable_collector_does_not_raise(
    tmp_path: Path, arun: Callable[..., Any], expect_log: Callable[[str], None]
) -> None:
    expect_log("fleet: heartbeat failed .*ConnectError")
    watch, _ = watch_for(STATUS, "http://127.0.0.1:9/ping", tmp_path)
    arun(watch.look_once())
    assert watch.beats == 0


@pytest.mark.parametrize(
    ("status", "event"),
    [
        (KioskStatus(**{**STATUS.__dict__, "oldest_pending_seconds": 31 * 60}), 300),
        (KioskStatus(**{**STATUS.__dict__, "disk_free_mb": 120}), 302),
    ],
)
def test_outbox_stuck_and_disk_nearly_full_are_written_once(
    status: KioskStatus, event: int, tmp_path: Path, arun: Callable[..., Any]
) -> None:
    watch, fake = watch_for(status, None, tmp_path, stuck_minutes=30)
    for _ in range(3):
        arun(watch.look_once())
    assert [e.id for e in fake.got] == [event]


def test_no_event_on_a_healthy_kiosk(tmp_path: Path, arun: Callable[..., Any]) -> None:
    watch, fake = watch_for(STATUS, None, tmp_path)
    arun(watch.look_once())
    assert fake.got == []


def test_the_line_stays_short_with_the_longest_values() -> None:
    long = KioskStatus(
        kiosk_id="x" * 5000,
        version="9" * 500,
        environment="e" * 500,
        branch=2**63,
        online=False,
        pending_credits=10**12,
        oldest_pending_seconds=10**12,
        last_success="z" * 500,
        disk_free_mb=10**12,
        at="a" * 500,
    )
    assert len(long.to_json()) < 2048
