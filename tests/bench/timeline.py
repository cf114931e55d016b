"""What ran inside the worst stalls (``ui_stall.py --timeline``).

The stall probe says how late a tick came and in which step; this says what the UI
thread did meanwhile: every top-level Qt event delivery (``QApplication.notify``) and
every asyncio callback (qasync delivers them all as the same timer event, so the
callback is named apart: a task by its coroutine, a plain callback by its function)
of at least ``MIN_MS``, with when it started relative to the stall. Both hooks cost
time of their own (a Python frame per event), so the stalls of such a run are longer
than the counter's; read it for what, not for how much.
"""

from __future__ import annotations

import asyncio
import asyncio.events
import time
from dataclasses import dataclass
from typing import Any

MIN_MS = 0.3


@dataclass(frozen=True)
class Span:
    start: float  # perf_counter s
    end: float
    what: str
    step: str


def callback_name(handle: asyncio.Handle) -> str:
    callback = getattr(handle, "_callback", None)
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        coro = owner.get_coro()
        return f"task {getattr(coro, '__qualname__', type(coro).__name__)}"
    return f"callback {getattr(callback, '__qualname__', repr(callback))}"


class Timeline:
    """Spans of the UI thread's work; ``install()`` hooks asyncio's handles."""

    def __init__(self) -> None:
        self.spans: list[Span] = []
        self.step = ""
        self._original: Any = None

    def install(self) -> None:
        original = asyncio.events.Handle._run
        self._original = original
        timeline = self

        def timed_run(handle: asyncio.Handle) -> None:
            started = time.perf_counter()
            try:
                original(handle)
            finally:
                timeline.add(started, time.perf_counter(), callback_name(handle))

        asyncio.events.Handle._run = timed_run  # type: ignore[method-assign]

    def uninstall(self) -> None:
        if self._original is not None:
            asyncio.events.Handle._run = self._original  # type: ignore[method-assign]

    def add(self, start: float, end: float, what: str) -> None:
        if (end - start) * 1000 >= MIN_MS:
            self.spans.append(Span(start, end, what, self.step))

    def inside(self, start: float, end: float) -> list[Span]:
        return [s for s in self.spans if s.end > start and s.start < end]

    def text(self, gaps: list[tuple[float, float, float, str]]) -> str:
        """``gaps``: (ms late, gap start, gap end, step label) of the stalls to explain."""
        lines = ["what ran in the worst stalls (ms from the last tick before it; hooks on):"]
        for late, start, end, label in gaps:
            lines.append(f"  {late:5.1f} ms late, {label}:")
            for span in self.inside(start, end):
                lines.append(
                    f"    +{(span.start - start) * 1000:5.1f}  {(span.end - span.start) * 1000:5.2f} ms"
                    f"  {span.what}  [{span.step}]"
                )
        return "\n".join(lines)
