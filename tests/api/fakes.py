"""Clocks for tests that must never wait for real.

- ``FakeClock``: ``sleep(d)`` records ``d``, moves the clock on by ``d`` and
  returns at once. For sequential code (retries against the simulator).
- ``VirtualTime``: ``sleep(d)`` parks the caller until ``run`` moves the clock
  to its deadline, earliest first, once every task is idle. For concurrent code
  without real I/O (the limiter).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class FakeClock:
    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self.sleeps: list[float] = []

    def time(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += max(0.0, seconds)
        await asyncio.sleep(0)


class VirtualTime:
    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    def time(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + seconds, next(self._seq), future))
        await future

    def run(self, coro: Coroutine[Any, Any, T], *, idle_rounds: int = 30) -> T:
        async def drive() -> T:
            task = asyncio.ensure_future(coro)
            while not task.done():
                for _ in range(idle_rounds):
                    await asyncio.sleep(0)
                    if task.done():
                        break
                else:
                    self._wake_next()
            return task.result()

        return asyncio.run(drive())

    def _wake_next(self) -> None:
        while self._sleepers and self._sleepers[0][2].done():
            heapq.heappop(self._sleepers)  # cancelled sleepers
        if not self._sleepers:
            raise AssertionError("deadlock: every task waits and nobody sleeps")
        deadline = self._sleepers[0][0]
        self.now = max(self.now, deadline)
        while self._sleepers and self._sleepers[0][0] <= self.now:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)
