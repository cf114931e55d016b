"""The fleet watch of a running counter: what it looks at (the session's connection,
the outbox in the database, the disk) and when the service last answered.

Started by the app after "ready" (``watch_counter``), never before: the start-up
budget is the cashier's. Its first look waits ``FIRST_LOOK`` seconds.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiosk.core.fleet.crashes import CrashSpool
from kiosk.core.fleet.events import FleetEvents
from kiosk.core.fleet.heartbeat import FleetWatch, WatchConfig
from kiosk.core.fleet.status import KioskStatus, status_now
from kiosk.core.settings import layers as S

if TYPE_CHECKING:
    from kiosk.core.session import CounterSession
    from kiosk.core.settings.layers import Settings
    from kiosk.core.settings.paths import KioskPaths

FIRST_LOOK = 5.0
AUTH = "auth"  # the sender's failure kind for a refused key (``ErrorKind.AUTH``)


class Answers:
    """When the service last answered this counter (its own calls or the outbox's)."""

    def __init__(self, session: CounterSession, clock: Callable[[], float] = time.time) -> None:
        self.session = session
        self.clock = clock
        self.at: float | None = None
        session.busy_changed.connect(self._busy)
        session.online_changed.connect(self.note)

    def note(self, answered: bool) -> None:
        if answered:
            self.at = self.clock()

    def _busy(self, busy: bool) -> None:
        if not busy:  # the call's outcome is set just after: look at the next turn
            asyncio.get_running_loop().call_soon(lambda: self.note(self.session.online))


def watch_counter(
    session: CounterSession,
    sender: Callable[[], Any],
    settings: Settings,
    paths: KioskPaths,
    database: Path,
    events: FleetEvents,
    *,
    transport: Any = None,
) -> tuple[FleetWatch, asyncio.Task[None]]:
    answers = Answers(session)
    reached = getattr(sender(), "reached", None)
    if reached is not None:
        reached.connect(answers.note)

    async def look() -> KioskStatus:
        config = session.config
        return await asyncio.to_thread(
            status_now,
            kiosk_id=config.kiosk_id,
            environment=config.environment,
            branch=config.branch.id,
            database=database,
            data_dir=paths.data_dir,
            online=session.online,
            last_success=answers.at,
        )

    def refusals() -> int:
        stats = getattr(sender(), "stats", None)
        failures = getattr(stats, "failures", None) or {}
        return int(failures.get(AUTH, 0))

    config = WatchConfig(
        heartbeat_url=settings.get(S.HEARTBEAT_URL),
        heartbeat_seconds=float(settings.get(S.HEARTBEAT_INTERVAL)),
        stuck_minutes=int(settings.get(S.OUTBOX_STUCK_MINUTES)),
        crash_dsn=settings.get(S.CRASH_REPORT_DSN),
        data_dir=paths.data_dir,
    )
    watch = FleetWatch(
        config,
        events,
        look,
        spool=CrashSpool.in_data(paths.data_dir),
        refusals=refusals,
        transport=transport,
    )

    async def run() -> None:
        await asyncio.sleep(FIRST_LOOK)
        await watch.run()

    return watch, asyncio.create_task(run())
