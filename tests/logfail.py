"""Fail a test on an unexpected WARNING or ERROR log record (after qutebrowser's logfail).

A test that expects a log line says so: ``expect_log(r"regex")`` (fixture) allows
records whose message matches. Everything else at WARNING or above, from any
logger, fails the test at teardown with the offending lines.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator

import pytest


class _Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def expect_log(_log_guard: list[re.Pattern[str]]) -> Callable[[str], None]:
    def allow(pattern: str) -> None:
        _log_guard.append(re.compile(pattern))

    return allow


@pytest.fixture(autouse=True)
def _log_guard() -> Iterator[list[re.Pattern[str]]]:
    allowed: list[re.Pattern[str]] = []
    collector = _Collector()
    root = logging.getLogger()
    root.addHandler(collector)
    try:
        yield allowed
    finally:
        root.removeHandler(collector)
    bad = [r for r in collector.records if not any(p.search(r.getMessage()) for p in allowed)]
    if bad:
        lines = "\n".join(f"  {r.levelname} {r.name}: {r.getMessage()}" for r in bad)
        pytest.fail(f"unexpected log records:\n{lines}", pytrace=False)
