"""A row that puts its two parts side by side when the width allows, one above the other
when it does not (a 1024 px counter, Spanish words): text gets the room it needs without
widths tuned to one language.

``ReflowRow(first, second, side_width=...)``: ``side_width()`` is the width both parts need
side by side (by default the sum of their size hints); below it they stack. The row's
minimum width is that of the stacked form, so a narrow window never scrolls sideways.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QBoxLayout, QWidget

SIDE = QBoxLayout.Direction.LeftToRight
STACKED = QBoxLayout.Direction.TopToBottom


class ReflowRow(QWidget):
    def __init__(
        self,
        first: QWidget,
        second: QWidget,
        *,
        spacing: int = 16,
        side_width: Callable[[], int] | None = None,
        first_stretch: int = 0,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.first, self.second = first, second
        self._side_width = side_width
        self.box = QBoxLayout(SIDE, self)
        self.box.setContentsMargins(0, 0, 0, 0)
        self.box.setSpacing(spacing)
        self.box.addWidget(first, first_stretch)
        self.box.addWidget(second, 1 - first_stretch if first_stretch <= 1 else 0)

    def side_width(self) -> int:
        if self._side_width is not None:
            return self._side_width()
        hints = self.first.sizeHint().width() + self.second.sizeHint().width()
        return hints + self.box.spacing()

    @property
    def stacked(self) -> bool:
        return self.box.direction() == STACKED

    def minimumSizeHint(self) -> QSize:
        first, second = self.first.minimumSizeHint(), self.second.minimumSizeHint()
        width = max(first.width(), second.width(), 0)
        return QSize(width, super().minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.reflow()

    def reflow(self) -> None:
        wanted = STACKED if self.width() < self.side_width() else SIDE
        if self.box.direction() != wanted:
            self.box.setDirection(wanted)
            align = Qt.AlignmentFlag(0) if wanted == STACKED else Qt.AlignmentFlag.AlignTop
            self.box.setAlignment(self.first, align)
            self.updateGeometry()
