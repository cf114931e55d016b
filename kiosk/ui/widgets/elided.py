"""One line of text that may not fit (a client's name, an email, a level, a QR's name).

``ElidedLabel`` shows its text whole when it has the room, and cut with "…" when not,
the whole text then in its tooltip and its accessible name. Its minimum width is a
few characters, so a long name gives way to the buttons beside it instead of pushing
them out of the window ("Change client" cut to "nge cli", issue #14); its size hint
is the whole text, so it takes the room it needs when there is some. Nothing in it
is tuned to one language or one font size: the widths come from its font.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

KEEP_CHARS = 3  # by default a label gets as narrow as about three characters and "…"


class ElidedLabel(QLabel):
    """``text()`` is the whole text; ``shown_text()`` what is drawn; ``elided()`` says
    whether it was cut."""

    def __init__(
        self,
        text: str = "",
        parent: QWidget | None = None,
        *,
        mode: Qt.TextElideMode = Qt.TextElideMode.ElideRight,
        keep_chars: int = KEEP_CHARS,
    ) -> None:
        """``keep_chars``: a text this long (in average characters of its font) is never
        cut, a longer one is cut down to about that many."""
        super().__init__(parent)
        self._full = ""
        self._mode = mode
        self._keep = keep_chars
        self.setTextFormat(Qt.TextFormat.PlainText)  # text from people: never rich text
        self.setWordWrap(False)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setText(text)

    def text(self) -> str:  # the whole text, not the part drawn
        return self._full

    def shown_text(self) -> str:
        return super().text()

    def elided(self) -> bool:
        return super().text() != self._full

    def setText(self, text: str) -> None:
        if text == self._full and self.shown_text():
            return
        self._full = text
        self._elide()
        self.updateGeometry()

    def _room(self) -> int:
        return self.contentsRect().width() - 2 * self.margin()

    def _elide(self) -> None:
        full = self._full
        shown = full
        if full and self.fontMetrics().horizontalAdvance(full) > self._room():
            shown = self.fontMetrics().elidedText(full, self._mode, max(0, self._room()))
        if super().text() != shown:
            super().setText(shown)
        cut = shown != full
        self.setToolTip(full if cut else "")
        self.setAccessibleName(full)

    def _extra(self) -> int:
        margins = self.contentsMargins()
        return margins.left() + margins.right() + 2 * self.margin()

    def _height(self) -> int:
        margins = self.contentsMargins()
        return self.fontMetrics().height() + margins.top() + margins.bottom() + 2 * self.margin()

    def sizeHint(self) -> QSize:
        width = self.fontMetrics().horizontalAdvance(self._full) + self._extra() + 1
        return QSize(width, self._height())

    def minimumSizeHint(self) -> QSize:
        metrics = self.fontMetrics()
        whole = metrics.horizontalAdvance(self._full)
        keep = metrics.averageCharWidth() * self._keep + metrics.horizontalAdvance("…")
        return QSize(min(whole, keep) + self._extra() + 1, self._height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (
            QEvent.Type.FontChange,
            QEvent.Type.StyleChange,
        ):
            self._elide()
            self.updateGeometry()
