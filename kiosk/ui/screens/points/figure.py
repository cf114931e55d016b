"""A figure the cashier reads before crediting (the preview's amount and total): whole,
in the largest font that fits its width, down to ``min_px``; never cut, never "…".

The Points screen's right column is about 300 px wide at 1024x768: "$ 9.999.999,00"
at the preview's 34 px did not fit and was cut to ``$ 9.999.999,0(`` (issue #21)."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QFont, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


class FigureLabel(QLabel):
    """One line of figures in ``max_px`` (or smaller, to fit whole), ``weight``, ``color``."""

    def __init__(
        self,
        max_px: int,
        min_px: int,
        *,
        color: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._max, self._min = max_px, min_px
        self._color = color
        self._px = 0
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self._fit()

    @property
    def font_px(self) -> int:
        return self._px

    def setText(self, text: str) -> None:
        if text != self.text():
            super().setText(text)
            self._fit()

    def _font(self, px: int) -> QFont:
        font = QFont(self.font())
        font.setPixelSize(px)
        font.setWeight(QFont.Weight.Bold)
        return font

    def _width_at(self, px: int) -> int:
        return QFontMetrics(self._font(px)).horizontalAdvance(self.text()) + 2

    def _fit(self) -> None:
        room = self.contentsRect().width()
        px = self._max
        while px > self._min and self._width_at(px) > room:
            px -= 1
        if px != self._px:
            self._px = px
            color = f" color: {self._color};" if self._color else ""
            self.setStyleSheet(f"font-size: {px}px; font-weight: 700;{color}")

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def sizeHint(self) -> QSize:
        height = QFontMetrics(self._font(self._max)).height()
        return QSize(self._width_at(self._max), height)

    def minimumSizeHint(self) -> QSize:
        height = QFontMetrics(self._font(self._max)).height()
        return QSize(self._width_at(self._min), height)
