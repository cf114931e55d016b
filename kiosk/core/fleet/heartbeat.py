"""The counter's fleet watch: after "ready", once a minute, it looks at the kiosk's
health (``kiosk.core.fleet.status``), keeps it for ``--status --json``, writes the
events IT alerts on when something turns bad (outbox stuck, disk nearly full, the key
refused), POSTs the status to IT's ``heartbeat_url`` every ``heartbeat_interval_seconds``
and uploads the kept crash records when the service answers.

Nothing here may disturb the counter: the look runs off the event loop, every call
has a timeout, a failure is logged once (and its end once), and the watch never
raises.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.core.fleet.crashes import CrashSpool, upload
from kiosk.core.fleet.events import FleetEvents
from kiosk.core.fleet.status import KioskStatus, save_status
from kiosk.core.storage import MIN_FREE_BYTES

log = logging.getLogger(__name__)

LOOK_SECONDS = 60.0
POST_SECONDS = 10.0  # the heartbeat's and the upload's whole timeout
DISK_WARN_MB = 4 * MIN_FREE_BYTES // (1024 * 1024)  # 200 MB: IT has time to act


@dataclass
class WatchConfig:
    heartbeat_url: str | None = None
    heartbeat_seconds: float = 300.0
    stuck_minutes: int = 30
    crash_dsn: str | None = None
    data_dir: Path | None = None  # where the status is kept for the command
    look_seconds: float = LOOK_SECONDS


class FleetWatch:
    def __init__(
        self,
        config: WatchConfig,
        events: FleetEvents,
        look: Callable[[], Awaitable[KioskStatus]],
        *,
        spool: CrashSpool | None = None,
        refusals: Callable[[], int] = lambda: 0,
        transport: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.events = events
        self._look = look
        self.spool = spool
        self._refusals = refusals
        self._transport = transport
        self._clock = clock
        self._next_beat = 0.0
        self._stuck = self._disk_low = False
        self._refused_seen = 0
        self._failing: set[str] = set()
        self.beats = 0
        self.last: KioskStatus | None = None

    async def run(self) -> None:
        while True:
            await self.look_once()
            await asyncio.sleep(self.config.look_seconds)

    async def look_once(self) -> None:
        """One look; every failure is logged once and the watch goes on."""
        try:
            status = await self._look()
        except Exception as error:  # a look that fails is not the counter's problem
            self._failed("look", error)
            return
        self._recovered("look")
        self.last = status
        if self.config.data_dir is not None:
            try:
                await asyncio.to_thread(save_status, self.config.data_dir, status)
            except OSError as error:
                self._failed("status file", error)
        self._alerts(status)
        now = self._clock()
        if self.config.heartbeat_url and now >= self._next_beat:
            self._next_beat = now + self.config.heartbeat_seconds
            await self._beat(self.config.heartbeat_url, status)
        if self.config.crash_dsn and self.spool is not None and status.online:
            await self._upload(self.config.crash_dsn, self.spool)

    def _alerts(self, status: KioskStatus) -> None:
        oldest = status.oldest_pending_seconds
        stuck = oldest is not None and oldest >= self.config.stuck_minutes * 60
        if stuck and not self._stuck:
            self.events.outbox_stuck(status.pending_credits or 0, (oldest or 0) // 60)
        self._stuck = stuck
        low = status.disk_free_mb is not None and status.disk_free_mb < DISK_WARN_MB
        if low and not self._disk_low and self.config.data_dir is not None:
            self.events.disk_nearly_full(status.disk_free_mb or 0, str(self.config.data_dir))
        self._disk_low = low
        refused = self._refusals()
        if refused > self._refused_seen:
            self.events.key_refused(status.environment)
        self._refused_seen = refused

    async def _beat(self, url: str, status: KioskStatus) -> None:
        import httpx

        try:
            async with httpx.AsyncClient(
                transport=self._transport, timeout=POST_SECONDS, follow_redirects=False
            ) as client:
                answer = await asyncio.wait_for(
                    client.post(
                        url,
                        content=status.to_json().encode("ascii"),
                        headers={"Content-Type": "application/json"},
                    ),
                    POST_SECONDS,
                )
            if answer.status_code >= 300:
                raise RuntimeError(f"HTTP {answer.status_code}")
        except Exception as error:  # the heartbeat's failure is the collector's business
            self._failed("heartbeat", error)
            return
        self.beats += 1
        self._recovered("heartbeat")

    async def _upload(self, dsn: str, spool: CrashSpool) -> None:
        try:
            sent = await asyncio.wait_for(upload(spool, dsn, transport=self._transport), 60)
        except Exception as error:  # kept for the next time
            self._failed("crash upload", error)
            return
        self._recovered("crash upload")
        if sent:
            log.info("crash upload: %d record(s) sent", sent)

    def _failed(self, what: str, error: BaseException) -> None:
        if what not in self._failing:
            self._failing.add(what)
            log.warning("fleet: %s failed (%s); the counter is not affected", what, _why(error))

    def _recovered(self, what: str) -> None:
        if what in self._failing:
            self._failing.discard(what)
            log.info("fleet: %s works again", what)


def _why(error: BaseException) -> str:
    """The failure's kind and its first words (never a URL: it may hold a token)."""
    from kiosk.api import logsafety

    text = str(error).split(" for url ")[0].split("\n")[0]
    return logsafety.redact(f"{type(error).__name__}: {text}")[:200]
