"""The fleet pieces of the running app (``kiosk.app``): the process's writer of IT's
events, the watch started after "ready", and the crash record of an unexpected error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kiosk.core.fleet.events import FleetEvents

_EVENTS: list[FleetEvents] = []
_STARTED: list[bool] = []


def fleet_events() -> FleetEvents:
    """The process's writer of IT's events (``kiosk.core.fleet.events``), made at its
    first event: after "ready", or at a start-up error."""
    if not _EVENTS:
        _EVENTS.append(FleetEvents())
    return _EVENTS[0]


def start_fleet(counter: Any, settings: Any, paths: Any) -> None:
    """After "ready": the started event, then the fleet watch (outbox stuck, disk nearly
    full, the key refused, the heartbeat, the crash upload) for the counter's life."""
    from kiosk import __version__
    from kiosk.core.fleet.counter_watch import watch_counter

    config = counter.session.config
    events = fleet_events()
    if not _STARTED:  # once a process: not again when the counter is rebuilt
        _STARTED.append(True)
        events.started(__version__, config.environment, config.branch.id)
    _, counter.watching = watch_counter(
        counter.session,
        lambda: counter.sender,
        settings,
        paths,
        paths.database_for(config.environment),
        events,
    )


def keep_crash(settings: Any, paths: Any, environment: str, kiosk_id: str | None) -> Any:
    """What the exception reporter does with an unexpected error besides showing it:
    a scrubbed crash record in the spool and the crash event."""

    def keep(kind: type[BaseException], error: BaseException, tb: Any) -> None:
        import traceback

        from kiosk.core.fleet.crashes import CrashSpool, crash_event

        frames = traceback.extract_tb(tb)
        where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
        event = crash_event(kind, error, tb, environment=environment, kiosk_id=kiosk_id)
        CrashSpool.in_data(paths.data_dir).keep(event)
        fleet_events().crash(kind.__name__, where)

    return keep
