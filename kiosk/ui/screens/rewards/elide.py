"""A label for text from the server or a person (a reward's name, a client's name):
wrapped on up to ``lines`` lines, the last one elided with "…" when the whole does
not fit, and then the whole text in its tooltip. Plain text, never rich text."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


def elide_lines(text: str, metrics: QFontMetrics, width: int, lines: int) -> str:
    """``text`` broken at spaces into at most ``lines`` lines of ``width`` px, the last
    elided with "…" (a word longer than a line is cut)."""
    words = text.split()
    if width <= 0 or not words:
        return " ".join(words)
    shown: list[str] = []
    while words and len(shown) < lines - 1:
        line = words.pop(0)
        if metrics.horizontalAdvance(line) > width:
            # A word longer than the line: what fits of it, the rest on the next line.
            cut = len(line)
            while cut > 1 and metrics.horizontalAdvance(line[:cut]) > width:
                cut -= 1
            words.insert(0, line[cut:])
            line = line[:cut]
        else:
            while words and metrics.horizontalAdvance(f"{line} {words[0]}") <= width:
                line = f"{line} {words.pop(0)}"
        shown.append(line)
    if words:
        rest = " ".join(words)
        shown.append(metrics.elidedText(rest, Qt.TextElideMode.ElideRight, width))
    return "\n".join(shown)


class ElidedLabel(QLabel):
    """``set_full_text`` rather than ``setText``; ``full_text()`` reads it back."""

    def __init__(self, lines: int = 1, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._full = ""
        self._lines = max(1, lines)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def full_text(self) -> str:
        return self._full

    def set_full_text(self, text: str) -> None:
        self._full = text
        self.updateGeometry()
        self._fit()

    def _fit(self) -> None:
        width = self.contentsRect().width()
        shown = elide_lines(self._full, self.fontMetrics(), width, self._lines)
        super().setText(shown)
        whole = " ".join(self._full.split())
        self.setToolTip(self._full if shown.replace("\n", " ") != whole else "")

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fit()

    def sizeHint(self) -> QSize:
        metrics = self.fontMetrics()
        margins = self.contentsMargins()
        return QSize(
            metrics.horizontalAdvance(self._full) + margins.left() + margins.right(),
            metrics.lineSpacing() * self._lines + margins.top() + margins.bottom(),
        )

    def minimumSizeHint(self) -> QSize:
        metrics = self.fontMetrics()
        margins = self.contentsMargins()
        return QSize(
            metrics.averageCharWidth() * 4,
            metrics.lineSpacing() * self._lines + margins.top() + margins.bottom(),
        )
