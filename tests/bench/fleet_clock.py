"""An asyncio event loop on a virtual clock, for fleet benches (``fleet_scale.py``).

``VirtualLoop.time()`` is a virtual clock that stands still while anything can run
and jumps to the next timer when nothing can: every ``asyncio.sleep``, ``call_later``,
``asyncio.timeout`` and limiter wait costs no real time, so two hundred kiosks'
hour-long backoffs and one-second windows run in seconds of wall time, the same way
on every run (given the same seeds).

Work handed to a thread (``run_in_executor``: each kiosk's ``DatabaseWorker``,
its real SQLite file) runs at once in the loop's own thread instead: it costs no
virtual time (a kiosk's own disk costs the merchant's window nothing), and events
come in the same order on every run with the same seeds (threads would finish in the
order the machine's load decides, and the order decides who wins a window's last
place). Sockets are not virtual: a loop with real network I/O would see its timeouts
fire at once, so the bench talks to the simulator in process (``SimTransport``).
"""

from __future__ import annotations

import asyncio
import math
import selectors
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

T = TypeVar("T")

# With no timer at all, the loop waits for I/O at most this long per look.
IDLE_LOOK = 1.0


class _VirtualSelector(selectors.BaseSelector):
    """The loop's selector: a real poll, then a jump of the virtual clock."""

    def __init__(self, inner: selectors.BaseSelector, loop: VirtualLoop) -> None:
        self._inner = inner
        self._loop = loop

    def register(self, fileobj: Any, events: int, data: Any = None) -> selectors.SelectorKey:
        return self._inner.register(fileobj, events, data)

    def unregister(self, fileobj: Any) -> selectors.SelectorKey:
        return self._inner.unregister(fileobj)

    def modify(self, fileobj: Any, events: int, data: Any = None) -> selectors.SelectorKey:
        return self._inner.modify(fileobj, events, data)

    def get_map(self) -> Any:
        return self._inner.get_map()

    def get_key(self, fileobj: Any) -> selectors.SelectorKey:
        return self._inner.get_key(fileobj)

    def close(self) -> None:
        self._inner.close()

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        if time.monotonic() > self._loop.deadline:
            self._loop.stop()  # checked at every turn of the loop: a bench stops by itself
        ready = self._inner.select(0)
        if ready or timeout == 0:
            return ready
        if timeout is None:  # nothing scheduled: only I/O (the loop's own pipe) can wake us
            return self._inner.select(IDLE_LOOK)
        self._loop.advance(timeout)
        return []


class VirtualLoop(asyncio.SelectorEventLoop):
    def __init__(self, start: float = 0.0, wall_limit: float = math.inf) -> None:
        super().__init__()
        self._virtual = start
        self.deadline = time.monotonic() + wall_limit
        self._selector = _VirtualSelector(self._selector, self)  # type: ignore[has-type]

    def time(self) -> float:
        return self._virtual

    def advance(self, seconds: float) -> None:
        self._virtual += max(0.0, seconds)

    def run_in_executor(  # type: ignore[override]
        self, executor: Executor | None, func: Callable[..., T], *args: Any
    ) -> asyncio.Future[T]:
        """Run ``func`` at once, in the loop's thread: the same order of events on every
        run (threads would finish in the order the machine's load decides). Its result
        is handed over at the loop's next turn, so the awaiting task yields as it would
        for a thread (a task looping on its database alone never starves the others)."""
        future: asyncio.Future[T] = self.create_future()
        try:
            result = func(*args)
        except BaseException as error:  # handed to the awaiting code
            self.call_soon(_settle, future, None, error)
        else:
            self.call_soon(_settle, future, result, None)
        return future


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class WallLimit(Exception):
    """The run passed its real-time limit (``run_virtual``'s ``wall_limit``)."""


def run_virtual(main: Callable[[], Any], start: float = 0.0, wall_limit: float = math.inf) -> Any:
    """``asyncio.run(main())`` on a fresh ``VirtualLoop``; ``WallLimit`` when it runs
    longer than ``wall_limit`` real seconds (its tasks are then left unfinished)."""
    loop = VirtualLoop(start, wall_limit)
    try:
        asyncio.set_event_loop(loop)
        try:
            return loop.run_until_complete(main())
        except RuntimeError as error:
            if time.monotonic() > loop.deadline:
                raise WallLimit(f"stopped after {wall_limit:g} s of real time") from error
            raise
    finally:
        try:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.run_until_complete(loop.shutdown_default_executor())
        finally:
            asyncio.set_event_loop(None)
            loop.close()
