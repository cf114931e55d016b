"""What the kiosk's database keeps, and for how long: applied at start and then daily.

- **Journal rows**: ``journal_retention_days`` calendar days (today counts as one,
  default 30); a pending row stays whatever its age (``Journal.purge``).
- **Settled outbox rows** (sent, voided, discarded; their body already masked):
  deleted ``SETTLED_DAYS`` (30) days after they settled.
- **Dead letters**: kept until a manager sends them again or discards them, but their
  body's personal data (email, document, names, phone, birthday) is blanked
  ``dead_letter_days`` after they died: the journal's retention, at least
  ``MIN_DEAD_LETTER_DAYS`` (7) so one can still be sent again after a long weekend.
  From then on it can be discarded, no longer sent.

SQLite's ``secure_delete`` is on (``kiosk.core.db``), so what goes is zeroed in the
file; each pass that changed something ends with a WAL checkpoint (TRUNCATE), so it
leaves the ``-wal`` file too.

``Upkeep.run`` is the long-running task (``kiosk.wiring.Counter.start_checks``
starts it after "ready"): a pass at once, then one whenever a day has passed since
the last, checked every hour (a kiosk runs for days; a machine that slept catches
up within the hour). It is supervised: a pass that fails is logged and the task
starts again. Its clock and sleep are injectable: tests never wait.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from kiosk.core.db import DatabaseWorker, checkpoint
from kiosk.core.journal import Journal
from kiosk.core.outbox.store import OutboxStore
from kiosk.core.supervise import supervised

log = logging.getLogger(__name__)

DAY = 86_400.0
SETTLED_DAYS = 30
MIN_DEAD_LETTER_DAYS = 7
CHECK_EVERY = 3_600.0


@dataclass(frozen=True)
class Retention:
    journal_days: int = 30  # the journal_retention_days setting
    settled_days: int = SETTLED_DAYS

    @property
    def dead_letter_days(self) -> int:
        return max(MIN_DEAD_LETTER_DAYS, self.journal_days)


@dataclass(frozen=True)
class Tidied:
    journal: int = 0  # journal rows deleted
    settled: int = 0  # settled outbox rows deleted
    redacted: int = 0  # dead letters whose personal data was blanked

    @property
    def changed(self) -> bool:
        return bool(self.journal or self.settled or self.redacted)


def tidy(conn: sqlite3.Connection, retention: Retention, now: float) -> Tidied:
    """One pass, in the database thread (``now``: epoch seconds)."""
    at = datetime.fromtimestamp(now, UTC)
    journal = Journal(conn, now=lambda: at).purge(retention.journal_days)
    store = OutboxStore(conn)
    settled = store.purge(now - retention.settled_days * DAY)
    redacted = store.redact_dead(now - retention.dead_letter_days * DAY)
    done = Tidied(journal, settled, redacted)
    if done.changed:
        checkpoint(conn)
    return done


class Upkeep:
    """Applies ``retention`` to the database of ``worker``: now, and daily."""

    def __init__(
        self,
        worker: DatabaseWorker,
        retention: Retention,
        *,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.worker = worker
        self.retention = retention
        self._clock = clock
        self._sleep = sleep
        self.last: float | None = None  # when the last pass ran
        self.passes = 0

    async def once(self) -> Tidied:
        now = self._clock()
        retention = self.retention
        done = await self.worker.run(lambda conn: tidy(conn, retention, now))
        self.last, self.passes = now, self.passes + 1
        if done.changed:
            log.info(
                "retention: %d journal row(s) and %d settled outbox row(s) deleted, "
                "%d dead letter(s) redacted",
                done.journal,
                done.settled,
                done.redacted,
            )
        return done

    def due(self) -> bool:
        return self.last is None or self._clock() - self.last >= DAY

    async def _loop(self) -> None:
        while True:
            if self.due():
                await self.once()
            await self._sleep(CHECK_EVERY)

    async def run(self) -> None:
        """For the counter's life (cancel it to stop); a failing pass is logged and
        the loop starts again (``kiosk.core.supervise``)."""
        await supervised(self._loop, name="retention", sleep=self._sleep)
