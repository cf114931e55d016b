"""Crash records kept offline (issue #28, item 4): scrubbed, bounded, uploaded to a
Sentry-style endpoint over real loopback HTTP when one is set."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kiosk.api import logsafety
from kiosk.core.fleet.crashes import CrashSpool, crash_event, upload
from kiosk.core.settings.dsn import Dsn, sentry_dsn
from tests.core.fleet.collector import collector

KEY = "lk_live_9f8e7d6c5b4a39281706"


def raised(error: BaseException) -> tuple[type[BaseException], BaseException, Any]:
    try:
        raise error
    except BaseException:
        kind, value, tb = sys.exc_info()
        assert kind is not None
        assert value is not None
        return kind, value, tb


def test_a_crash_record_keeps_no_key_url_or_client_data() -> None:
    logsafety.register_secret(KEY)
    logsafety.register_secret_url("https://register.example.com/r/abc123secret")
    try:
        error = ValueError(
            f"client 'Santiago Pérez' ana@example.com doc 30123456 key {KEY} "
            "url https://register.example.com/r/abc123secret"
        )
        event = crash_event(*raised(error), environment="production", kiosk_id="k-1")
    finally:
        logsafety.forget_secret(KEY)
    text = json.dumps(event)
    for secret in (KEY, "abc123secret", "Santiago", "ana@example.com", "30123456"):
        assert secret not in text
    value = event["exception"]["values"][0]
    assert value["type"] == "ValueError"
    frame = value["stacktrace"]["frames"][-1]
    assert frame["function"] == "raised"
    assert frame["filename"] == "test_crashes.py"
    assert "vars" not in frame
    assert str(Path.home()) not in text


def test_the_spool_is_bounded_by_count_and_bytes(tmp_path: Path) -> None:
    spool = CrashSpool(tmp_path / "crashes", max_records=5, max_bytes=100_000)
    for n in range(8):
        spool.keep(
            crash_event(
                *raised(RuntimeError(f"n{n}")), environment="qa", kiosk_id=None, now=1000.0 + n
            )
        )
    kept = spool.records()
    assert len(kept) == 5
    assert [spool.read(p)["exception"]["values"][0]["value"] for p in kept] == [  # type: ignore[index]
        f"n{n}" for n in range(3, 8)
    ]
    small = CrashSpool(tmp_path / "small", max_records=50, max_bytes=2_000)
    for n in range(10):
        small.keep(
            crash_event(
                *raised(RuntimeError("x" * 200)), environment="qa", kiosk_id=None, now=2000.0 + n
            )
        )
    assert sum(p.stat().st_size for p in small.records()) <= 2_000
    assert small.records()


def test_the_dsn_setting() -> None:
    assert sentry_dsn("https://abc@o1.ingest.sentry.io/42") == "https://abc@o1.ingest.sentry.io/42"
    assert sentry_dsn("") is None
    for bad in (
        "https://o1.ingest.sentry.io/42",  # no key
        "https://abc:secret@o1.ingest.sentry.io/42",  # a secret part
        "http://abc@sentry.example.com/42",  # plain http off this machine
        "https://abc@o1.ingest.sentry.io/project",
    ):
        with pytest.raises(ValueError, match=r"Sentry DSN|https"):
            sentry_dsn(bad)
    dsn = Dsn.parse("https://pub@sentry.example.com:8443/sub/7")
    assert dsn.envelope_url == "https://sentry.example.com:8443/sub/api/7/envelope/"


def test_the_spool_is_uploaded_as_sentry_envelopes_then_emptied(
    tmp_path: Path, arun: Callable[..., Any]
) -> None:
    spool = CrashSpool(tmp_path / "crashes")
    for n in range(2):
        spool.keep(crash_event(*raised(KeyError(n)), environment="production", kiosk_id="k-9"))
    with collector() as sentry:
        dsn = sentry.url.replace("http://", "http://pubkey@") + "/42"
        assert arun(upload(spool, dsn)) == 2
    assert spool.records() == []
    assert len(sentry.received) == 2
    path, headers, body = sentry.received[0]
    assert path == "/api/42/envelope/"
    assert headers["Content-Type"] == "application/x-sentry-envelope"
    assert "sentry_key=pubkey" in headers["X-Sentry-Auth"]
    header, item, event = (json.loads(line) for line in body.decode().splitlines())
    assert item["type"] == "event"
    assert item["length"] == len(body.decode().splitlines()[2].encode())
    assert header["event_id"] == event["event_id"]
    assert event["exception"]["values"][0]["type"] == "KeyError"


def test_a_refused_upload_keeps_the_records(tmp_path: Path, arun: Callable[..., Any]) -> None:
    spool = CrashSpool(tmp_path / "crashes")
    spool.keep(crash_event(*raised(KeyError(1)), environment="qa", kiosk_id=None))
    with collector() as sentry:
        sentry.status = 429
        with pytest.raises(Exception, match="HTTP 429"):
            arun(upload(spool, sentry.url.replace("http://", "http://k@") + "/1"))
    assert len(spool.records()) == 1
