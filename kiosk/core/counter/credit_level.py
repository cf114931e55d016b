"""After a credit: the client's level, read again until the service has assigned it.

Level assignment is automatic and asynchronous in the contract: right after a credit
the client may still show the old level (the simulator assigns it a second later).
The credit's own re-read (the new balance) may therefore show the old level.
``follow_level`` then reads the program's levels once; only when the client's
accumulated points reach another level than the one shown (a promotion is due) does
it read the client again, up to ``LEVEL_DELAYS`` times (about 2 s in all), until the
level changes. Each read updates the session's client, so the client card shows the
new level; the answer says which level it was and which it is now.

A credit that promotes no one costs one read of the levels and no wait. Reads that
fail end the follow-up quietly: the card then shows the new level at the next search.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from kiosk.api.errors import ApiError
from kiosk.api.models.catalog import Level
from kiosk.api.models.clients import Client
from kiosk.core.session import CounterSession

log = logging.getLogger(__name__)

LEVEL_DELAYS: tuple[float, ...] = (0.5, 0.7, 0.8)
"""Waits before each new read of the client (three tries over ~2 s)."""

Sleep = Callable[[float], Awaitable[None]]


class LevelReader(Protocol):
    def iter_levels(self) -> AsyncIterator[Level]: ...


async def all_levels(api: LevelReader) -> tuple[Level, ...]:
    """Every level of the program, lowest first (the API's default order): the
    counter's follow-up after a credit and the manager's pages read them alike."""
    levels = [level async for level in api.iter_levels()]
    return tuple(sorted(levels, key=lambda level: level.min_points))


@dataclass(frozen=True)
class LevelChange:
    client_id: int
    before: str | None  # the level's name before the credit (None: no level)
    after: str | None


def level_id(client: Client) -> int | None:
    return client.level.id if client.level is not None else None


def level_name(client: Client) -> str | None:
    return client.level.name if client.level is not None else None


def due_level(levels: Iterable[Level], accumulated: int) -> Level | None:
    """The highest level reached with ``accumulated`` points (``None``: none)."""
    reached = [level for level in levels if level.min_points <= accumulated]
    return max(reached, key=lambda level: (level.min_points, level.id), default=None)


def _change(before: Client, now: Client) -> LevelChange | None:
    if level_id(now) == level_id(before):
        return None
    return LevelChange(before.id, level_name(before), level_name(now))


async def follow_level(
    session: CounterSession,
    before: Client,
    *,
    sleep: Sleep = asyncio.sleep,
    delays: tuple[float, ...] = LEVEL_DELAYS,
) -> LevelChange | None:
    """The level change a credit brought to ``before`` (the client as it was before
    the credit), once the service shows it; ``None`` when there is none (or it did not
    show in time, or another client is at the counter now)."""
    current = session.client
    if current is None or current.id != before.id:
        return None
    change = _change(before, current)
    if change is not None or current.accumulated_points is None:
        return change
    try:
        levels = await session.call(lambda: all_levels(session.api))
    except ApiError as error:
        log.info("level after a credit: the levels could not be read: %s", error)
        return None
    due = due_level(levels, current.accumulated_points)
    if (due.id if due is not None else None) == level_id(current):
        return None
    for delay in delays:
        await sleep(delay)
        if session.client is None or session.client.id != before.id:
            return None
        fresh = await session.refresh_client()
        if fresh is None or fresh.id != before.id:
            return None
        change = _change(before, fresh)
        if change is not None:
            log.info("level after a credit: %s -> %s", change.before, change.after)
            return change
    log.info("level after a credit: still not assigned after %d reads", len(delays))
    return None
