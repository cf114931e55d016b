"""A wrapped label that keeps the height its width needs.

A screen whose layout does not ask for height-for-width (a ``PageStack``, a box whose
other items stretch) would otherwise squash a wrapped text when the window is short
of room (1024x768, a long name, Spanish): its last lines cut off. ``FitLabel`` sets
its minimum height to what its text needs at its width, so the window gives way
elsewhere first.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRect, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget


class FitLabel(QLabel):
    """A word-wrapped ``QLabel`` whose minimum height follows its text and width."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setText(text)

    def setText(self, text: str) -> None:
        super().setText(text)
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fit()  # the style sheet's font came after the text

    def _fit(self) -> None:
        width = self.contentsRect().width()
        if width <= 0:
            return
        # The font's own measure: QLabel.heightForWidth() asked a line more here.
        flags = Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignLeft
        text = self.fontMetrics().boundingRect(QRect(0, 0, width, 100_000), flags, self.text())
        margins = self.contentsMargins()
        needed = text.height() + margins.top() + margins.bottom()
        if needed != self.minimumHeight():
            self.setMinimumHeight(needed)
