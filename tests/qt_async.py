"""Testing async Qt code: pytest-qt + qasync, the recipe every UI test follows.

The problem
    pytest-qt's ``qtbot.waitUntil`` / ``qtbot.waitSignal`` spin a *nested* Qt event
    loop. Called from a coroutine that runs on the qasync loop, that nested loop lets
    qasync step another task (an ``asyncSlot`` handler) while the test's own task is
    still running: ``RuntimeError: Cannot enter into task ... while another task ...
    is being executed``, then a timeout. Called from plain synchronous test code,
    the ``asyncSlot`` handlers find no running asyncio loop at all.

The recipe (fixtures below)
    * ``aloop``: one ``qasync.QEventLoop(qapp)`` per test, installed as the current
      asyncio loop and closed after the test. Tasks still pending at the end fail
      the test (a screen that leaks a request would otherwise leak into the next).
    * ``arun``: drives the test's coroutine on that loop,
      ``arun(scenario())``, with an overall timeout. The test function itself stays
      synchronous; everything that awaits happens inside the coroutine.
    * Inside the coroutine:
        - click and type with ``qtbot.mouseClick`` / ``qtbot.keyClicks`` (they only
          post events; the loop delivers them while the coroutine awaits);
        - wait with ``await until(lambda: label.text() == "ok")`` instead of
          ``qtbot.waitUntil``, and ``await wait_signal(widget.done)`` instead of
          ``qtbot.waitSignal``. Both poll/await on the running loop, never nest one;
        - never call ``dialog.exec()``: show the dialog and await a future resolved
          by its ``finished`` signal (qasync issue #59).
    * Register every widget with ``qtbot.addWidget`` so it is closed after the test.

See ``tests/ui/test_async_recipe.py`` for a button whose ``asyncSlot`` awaits an
HTTP call, tested over the in-process simulator and over loopback HTTP.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, TypeVar

import pytest
import qasync  # binds to PySide6: tests/conftest.py sets QT_API before any import
import shiboken6
from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QApplication

T = TypeVar("T")

DEFAULT_TIMEOUT = 5.0


async def until(
    predicate: Callable[[], object], timeout: float = DEFAULT_TIMEOUT, message: str = ""
) -> None:
    """Await until ``predicate()`` is truthy; AssertionError after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(message or f"condition not met within {timeout:.1f}s")
        await asyncio.sleep(0.01)


async def wait_signal(signal: SignalInstance, timeout: float = DEFAULT_TIMEOUT) -> tuple[Any, ...]:
    """Await the next emission of ``signal`` and return its arguments."""
    future: asyncio.Future[tuple[Any, ...]] = asyncio.get_running_loop().create_future()

    def on_emit(*args: Any) -> None:
        if not future.done():
            future.set_result(args)

    signal.connect(on_emit)
    try:
        return await asyncio.wait_for(future, timeout)
    except TimeoutError:
        raise AssertionError(f"signal not emitted within {timeout:.1f}s") from None
    finally:
        signal.disconnect(on_emit)


@pytest.fixture
def aloop(qapp: QApplication) -> Iterator[asyncio.AbstractEventLoop]:
    """A fresh qasync loop for this test, current while it runs, closed after."""
    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    try:
        yield loop
    finally:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()
        asyncio.set_event_loop(None)
        # The Qt object behind the loop's timers is deleted here, on the GUI thread. The
        # closed loop is garbage in a cycle with it (qasync keeps a handle per sleep,
        # even cancelled, for the sleep's whole delay); collected by a later GC pass on
        # another thread (a test server's, the database's), it could not stop its Qt
        # timers, which then fired on freed memory: a crash in a later test.
        timer = getattr(loop, "_timer", None)
        if timer is not None and shiboken6.isValid(timer):
            shiboken6.delete(timer)
        if pending:
            names = ", ".join(sorted(t.get_name() for t in pending))
            pytest.fail(f"tasks left running at the end of the test: {names}")


@pytest.fixture
def arun(aloop: asyncio.AbstractEventLoop) -> Callable[..., Any]:
    """``arun(coro, timeout=30)``: run the test's coroutine on the test's qasync loop."""

    def run(coro: Coroutine[Any, Any, T], timeout: float = 30.0) -> T:
        return aloop.run_until_complete(asyncio.wait_for(coro, timeout))

    return run
