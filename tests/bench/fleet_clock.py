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
import selectors
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
        ready = self._inner.select(0)
        if ready or timeout == 0:
            return ready
        if timeout is None:  # nothing scheduled: only I/O (the loop's own pipe) can wake us
            return self._inner.select(IDLE_LOOK)
        self._loop.advance(timeout)
        return []


class VirtualLoop(asyncio.SelectorEventLoop):
    def __init__(self, start: float = 0.0) -> None:
        super().__init__()
        self._virtual = start
        self._selector = _VirtualSelector(self._selector, self)  # type: ignore[has-type]

    def time(self) -> float:
        return self._virtual

    def advance(self, seconds: float) -> None:
        self._virtual += max(0.0, seconds)

    def run_in_executor(  # type: ignore[override]
        self, executor: Executor | None, func: Callable[..., T], *args: Any
    ) -> asyncio.Future[T]:
        """Run ``func`` at once, in the loop's thread: the same order of events on every
        run (threads would finish in the order the machine's load decides)."""
        future: asyncio.Future[T] = self.create_future()
        try:
            future.set_result(func(*args))
        except BaseException as error:  # handed to the awaiting code
            future.set_exception(error)
        return future


def run_virtual(main: Callable[[], Any], start: float = 0.0) -> Any:
    """``asyncio.run(main())`` on a fresh ``VirtualLoop``."""
    loop = VirtualLoop(start)
    try:
        asyncio.set_event_loop(loop)
        return loop.run_until_complete(main())
    finally:
        try:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.run_until_complete(loop.shutdown_default_executor())
        finally:
            asyncio.set_event_loop(None)
            loop.close()
