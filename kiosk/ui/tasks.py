"""Screen tasks: "latest wins" by name, all cancelled when the screen goes away.

A new search cancels the previous one (``start("search", ...)``); leaving or
closing a screen cancels everything it started, so no answer lands on a screen
that is no longer shown.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

log = logging.getLogger(__name__)


class ScreenTasks:
    def __init__(self, on_error: Callable[[BaseException], None]) -> None:
        self._tasks: dict[str, asyncio.Task[Any]] = {}
        self._on_error = on_error

    def start(self, name: str, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        previous = self._tasks.get(name)
        if previous is not None and not previous.done():
            previous.cancel()
        task = asyncio.get_event_loop().create_task(coro, name=name)
        self._tasks[name] = task
        # A task cancelled before its first step never runs its coroutine: close it,
        # or Python warns that it was never awaited (a no-op once it has run).
        task.add_done_callback(lambda _: coro.close())
        task.add_done_callback(self._finished)
        return task

    def current(self, name: str) -> asyncio.Task[Any] | None:
        return self._tasks.get(name)

    def running(self, name: str) -> bool:
        task = self._tasks.get(name)
        return task is not None and not task.done()

    def cancel(self, name: str) -> None:
        task = self._tasks.pop(name, None)
        if task is not None and not task.done():
            task.cancel()

    def cancel_all(self) -> None:
        for name in list(self._tasks):
            self.cancel(name)

    def _finished(self, task: asyncio.Task[Any]) -> None:
        if self._tasks.get(task.get_name()) is task:
            del self._tasks[task.get_name()]
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            self._on_error(error)
