"""The fleet pieces in the running app (issue #28, items 2-4): a training counter built
as the app builds it starts its watch after "ready", posts its heartbeat to a loopback
collector and writes "started"; an unexpected error keeps a scrubbed crash record and
writes the crash event."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from kiosk.core.fleet import counter_watch, running
from kiosk.core.fleet.crashes import CrashSpool
from kiosk.core.fleet.events import FleetEvent, FleetEvents
from kiosk.core.settings.layers import load_settings
from kiosk.core.settings.paths import resolve_paths
from kiosk.ui.crash import ExceptionReporter
from kiosk.wiring import build_counter
from tests.core.fleet.collector import collector
from tests.qt_async import until


class FakeWriter:
    def __init__(self) -> None:
        self.events: list[FleetEvent] = []

    def write(self, event: FleetEvent) -> None:
        self.events.append(event)


@pytest.fixture
def fake_events(monkeypatch: pytest.MonkeyPatch) -> FakeWriter:
    fake = FakeWriter()
    monkeypatch.setattr(running, "_EVENTS", [FleetEvents([fake])])
    monkeypatch.setattr(running, "_STARTED", [])
    return fake


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("LOYALTY_KIOSK_HOME", str(tmp_path))
    monkeypatch.setenv("LOYALTY_KIOSK_MACHINE_SETTINGS", str(tmp_path / "machine.ini"))
    return tmp_path


def test_a_ready_counter_posts_its_heartbeat_and_says_started(
    home: Path,
    fake_events: FakeWriter,
    arun: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(counter_watch, "FIRST_LOOK", 0.0)
    paths = resolve_paths()
    with collector() as hc:
        (home / "machine.ini").write_text(
            "[connection]\nenvironment = training\n"
            f"[fleet]\nheartbeat_url = {hc.url}/ping/kiosk-7\nheartbeat_interval_seconds = 60\n",
            encoding="utf-8",
        )
        settings = load_settings(paths)

        async def scenario() -> None:
            counter = await build_counter(settings, paths, demo=False)
            try:
                counter.start_checks()
                running.start_fleet(counter, settings, paths)
                await until(lambda: hc.received, timeout=20, message="no heartbeat")
            finally:
                await counter.stop_background()
                await counter.close()
            assert counter.watching is not None
            assert counter.watching.done()  # stopped with the counter

        arun(scenario())
    path, _, body = hc.received[0]
    assert path == "/ping/kiosk-7"
    sent = json.loads(body)
    assert sent["environment"] == "training"
    assert sent["online"] is True
    assert sent["pending_credits"] == 0
    assert sent["branch"] is not None
    assert [e.id for e in fake_events.events] == [100]
    assert "started: environment training" in fake_events.events[0].text


def test_an_unexpected_error_keeps_a_scrubbed_record_and_writes_the_crash_event(
    tmp_path: Path, fake_events: FakeWriter, qtbot: QtBot, expect_log: Callable[[str], None]
) -> None:
    expect_log("unexpected failure")
    paths = resolve_paths({"LOYALTY_KIOSK_HOME": str(tmp_path)})
    shown: list[str] = []
    reporter = ExceptionReporter(
        shown.append, keep=running.keep_crash(None, paths, "production", "k-42")
    )
    try:
        raise LookupError("no client ana@example.com with document 30123456")
    except LookupError:
        reporter.hook(*sys.exc_info())  # type: ignore[arg-type]
    assert shown
    records = CrashSpool.in_data(paths.data_dir).records()
    assert len(records) == 1
    text = records[0].read_text()
    assert "LookupError" in text
    assert "ana@example.com" not in text
    assert "30123456" not in text
    assert [e.id for e in fake_events.events] == [303]
    assert "LookupError at test_running.py:" in fake_events.events[0].text


def test_a_key_the_service_refuses_after_the_start_is_an_event(
    home: Path,
    fake_events: FakeWriter,
    arun: Callable[..., Any],
    expect_log: Callable[[str], None],
) -> None:
    """A restarted counter opens on its remembered branch and checks it afterwards: a
    refused key there is event 301 (IT's alert), not only a log line."""
    expect_log(r"branch \d+: the service refused it \(auth\)")
    paths = resolve_paths()
    settings = load_settings(paths)

    async def scenario() -> None:
        counter = await build_counter(settings, paths, demo=True, api_key="revoked-key")
        try:
            counter.start_checks()
            await until(lambda: fake_events.events, timeout=20, message="no event")
        finally:
            await counter.close()

    arun(scenario())
    assert [e.id for e in fake_events.events] == [301]
    assert "refused this kiosk's API key for training" in fake_events.events[0].text
