"""A button that shows a spinner and refuses taps while its request runs."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QPushButton, QWidget

from kiosk.ui.theme import current_palette


class BusyButton(QPushButton):
    """``set_busy(True)`` disables the button and draws a spinner beside its text."""

    def __init__(
        self, text: str = "", parent: QWidget | None = None, *, primary: bool = False
    ) -> None:
        super().__init__(text, parent)
        if primary:
            self.setProperty("role", "primary")
        self._busy = False
        self._angle = 0
        self._timer = QTimer(self)
        self._timer.setInterval(60)
        self._timer.timeout.connect(self._spin)

    @property
    def busy(self) -> bool:
        return self._busy

    def set_busy(self, busy: bool) -> None:
        self.setEnabled(not busy)
        self._show_busy(busy)

    def _show_busy(self, busy: bool) -> None:
        self._busy = busy
        if busy:
            self._timer.start()
        else:
            self._timer.stop()
        self.update()

    def _spin(self) -> None:
        self._angle = (self._angle + 30) % 360
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._busy:
            return
        side = min(self.height() - 20, 28)
        rect = QRectF(16, (self.height() - side) / 2, side, side)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(QColor(current_palette().muted), 3)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        painter.drawArc(rect, -self._angle * 16, 270 * 16)
        painter.end()
