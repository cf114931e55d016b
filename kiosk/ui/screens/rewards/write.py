"""A write that leaving the screen must not cut half-way (an exchange, a delivery),
and the exchange that runs as one.

A screen's tasks are cancelled when it is left or reset. A write without
idempotency key cancelled while its request is out may still happen on the
server, with nobody to read the answer, journal it or show it. ``PendingWrite``
runs the write (and its journal row) in a task of its own; the screen awaits it
through ``asyncio.shield`` so its own task can be cancelled while the write goes
on, and awaits it again when it is shown again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from decimal import Decimal
from typing import Any, Generic, TypeVar

from kiosk.api.models.clients import Client
from kiosk.core.counter.rewards import (
    ExchangeDone,
    RewardCard,
    exchange_money,
    exchange_reward,
    journal_exchange,
)
from kiosk.core.session import CounterSession

log = logging.getLogger(__name__)

T = TypeVar("T")


class PendingWrite(Generic[T]):
    def __init__(self, name: str, coro: Coroutine[Any, Any, T], owner: int | None = None) -> None:
        self.name = name
        self.owner = owner  # whose write it is (the client's id), to show it only to them
        self.task: asyncio.Task[T] = asyncio.get_event_loop().create_task(coro, name=name)
        self.task.add_done_callback(self._finished)

    @property
    def running(self) -> bool:
        return not self.task.done()

    async def result(self) -> T:
        """The write's result (or its failure); cancelling the caller leaves it running."""
        return await asyncio.shield(self.task)

    def _finished(self, task: asyncio.Task[T]) -> None:
        # Read the outcome so a failure nobody awaited is not reported as "never retrieved";
        # the screen that awaits it shows it.
        if not task.cancelled() and task.exception() is not None:
            log.info("%s ended with %s", self.name, task.exception())


async def exchange_and_journal(
    session: CounterSession, client: Client, card: RewardCard | None, amount: Decimal | None
) -> ExchangeDone:
    """An exchange (for ``card``'s reward, or for ``amount`` of money) and its journal
    row: run inside a ``PendingWrite``, to the end even if the screen is left."""
    api = session.api
    if card is not None:
        done = await session.call(lambda: exchange_reward(api, client, card))
    else:
        assert amount is not None
        done = await session.call(lambda: exchange_money(api, client, amount))
    try:
        await journal_exchange(session.journal, client, done)
    except Exception:
        log.exception("could not write the exchange to today's journal")
    else:
        session.notify_journal()
    return done
