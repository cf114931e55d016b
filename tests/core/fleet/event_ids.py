"""Every Event Log id the kiosk writes, for the tests that check the docs and the
installer (the start-up errors' ids come from the start-up card's exit codes)."""

from __future__ import annotations

from collections.abc import Iterator

from kiosk.core.fleet.events import EventId
from kiosk.ui.startup_error import ExitCode


def documented_ids() -> Iterator[int]:
    """Every id the kiosk writes (the start-up errors' by their exit codes)."""
    for event in EventId:
        if event is not EventId.STARTUP_ERROR:
            yield int(event)
    for code in ExitCode:
        if code not in (ExitCode.CLOSED, ExitCode.NOT_SET_UP):
            yield EventId.STARTUP_ERROR + int(code)
