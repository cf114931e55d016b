"""A bar that empties until a deadline on the monotonic clock (the wall clock may be wrong)."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QProgressBar, QWidget


class CountdownBar(QProgressBar):
    expired = Signal()

    def __init__(
        self, parent: QWidget | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__(parent)
        self._clock = clock
        self.setTextVisible(False)
        self.setRange(0, 1000)
        self.setValue(0)
        self._deadline = 0.0
        self._total = 1.0
        self._timer = QTimer(self)
        self._timer.setInterval(200)
        self._timer.timeout.connect(self._tick)

    def start(self, seconds: float, total: float | None = None) -> None:
        self._total = max(total or seconds, 0.001)
        self._deadline = self._clock() + max(seconds, 0.0)
        self._timer.start()
        self._tick()

    def stop(self) -> None:
        self._timer.stop()
        self.setValue(0)

    def remaining(self) -> float:
        return max(0.0, self._deadline - self._clock())

    def _tick(self) -> None:
        left = self.remaining()
        self.setValue(round(1000 * left / self._total))
        if left <= 0:
            self._timer.stop()
            self.expired.emit()
