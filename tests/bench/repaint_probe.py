"""Full repaints of the counter's window, timed in each state of a scripted session
(``ui_stall.py --repaint N``).

A slow turn of the counter is an answer's callback followed by the paint of what it
changed, often most of the window; this times that paint alone, synchronously
(``QWidget.repaint()``: every child of the window painted into the backing store),
``N`` times at the start of each step (the screen as the previous step left it), and
keeps the median. Unlike the stall probe it does not depend on when a timer falls
due, but it does follow the machine's speed: on this shared machine two runs of the
same tree minutes apart differed more than two trees did, so compare trees only with
runs alternated (or A/B inside one process). The repaints themselves stall the loop:
the stall figures of a run with ``--repaint`` are not the counter's.
"""

from __future__ import annotations

import statistics
import time

from PySide6.QtWidgets import QWidget


class RepaintTimer:
    """``measure(step)`` repaints ``window`` ``times`` times; ``text()`` lists the medians."""

    def __init__(self, window: QWidget, times: int) -> None:
        self.window, self.times = window, times
        self.medians: dict[str, float] = {}  # the state (the step about to start) -> ms

    def measure(self, step: str) -> None:
        if not step or not self.window.isVisible():
            return
        spent = []
        for _ in range(self.times):
            started = time.perf_counter()
            self.window.repaint()
            spent.append((time.perf_counter() - started) * 1000)
        self.medians[step] = statistics.median(spent)

    def text(self) -> str:
        if not self.medians:
            return "full repaints: none timed"
        lines = [f"full repaint of the window (median of {self.times}), at the start of:"]
        lines += [f"  {step:22s} {ms:6.2f} ms" for step, ms in self.medians.items()]
        values = list(self.medians.values())
        lines.append(
            f"  {'(mean over states)':22s} {statistics.fmean(values):6.2f} ms, "
            f"max {max(values):.2f} ms"
        )
        return "\n".join(lines)
