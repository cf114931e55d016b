"""Text that may not fit (a client's name, an email, a reward's name, a branch): shown
whole when it has the room, cut with "…" when not, the whole text then in its tooltip
and always in its accessible name. Plain text, never rich text (it comes from the
server or a person). ``text()`` is the whole text, ``shown_text()`` what is drawn,
``elided()`` whether it was cut; ``hint``, if given, follows in the tooltip.

- ``ElidedLabel``: one line that asks for its text's width and gives way when there is
  none. Its minimum width is a few characters, so a long name gives way to the buttons
  beside it instead of pushing them out of the window ("Change client" cut to "nge
  cli", issue #14); its size hint is the whole text, so it takes the room it needs
  when there is some.
- ``ElidedLines``: up to ``lines`` lines broken at spaces, the last one cut, in the
  width its layout gives it (its text asks for none: a tile, a column of facts).

Nothing in them is tuned to one language or one font size: the widths come from the
font.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

KEEP_CHARS = 3  # by default a label gets as narrow as about three characters and "…"


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


class _Elided(QLabel):
    """What both share: the whole text, what is drawn of it, the tooltip."""

    def __init__(self, parent: QWidget | None, hint: str) -> None:
        super().__init__(parent)
        self._full = ""
        self._cut = False
        self._hint = hint
        self.setTextFormat(Qt.TextFormat.PlainText)  # text from people: never rich text

    def text(self) -> str:  # the whole text, not the part drawn
        return self._full

    def shown_text(self) -> str:
        return super().text()

    def elided(self) -> bool:
        return self._cut

    def setText(self, text: str) -> None:
        if text == self._full and self.shown_text():
            return
        self._full = text
        self._elide()
        self.updateGeometry()

    def _fitted(self) -> tuple[str, bool]:
        """What is drawn at the label's width, and whether that cut the text."""
        raise NotImplementedError

    def _elide(self) -> None:
        shown, self._cut = self._fitted()
        if super().text() != shown:
            super().setText(shown)
        tip = [self._full] if self._cut else []
        self.setToolTip("\n".join([*tip, *([self._hint] if self._hint else [])]))
        self.setAccessibleName(self._full)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._elide()
            self.updateGeometry()


class ElidedLabel(_Elided):
    """One line: whole when it fits, else cut (``mode``) down to about ``keep_chars``."""

    def __init__(
        self,
        text: str = "",
        parent: QWidget | None = None,
        *,
        mode: Qt.TextElideMode = Qt.TextElideMode.ElideRight,
        keep_chars: int = KEEP_CHARS,
        hint: str = "",
    ) -> None:
        """``keep_chars``: a text this long (in average characters of its font) is never
        cut, a longer one is cut down to about that many."""
        super().__init__(parent, hint)
        self._mode = mode
        self._keep = keep_chars
        self.setWordWrap(False)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setText(text)

    def _room(self) -> int:
        return self.contentsRect().width() - 2 * self.margin()

    def _fitted(self) -> tuple[str, bool]:
        full = self._full
        if full and self.fontMetrics().horizontalAdvance(full) > self._room():
            shown = self.fontMetrics().elidedText(full, self._mode, max(0, self._room()))
            return shown, shown != full
        return full, False

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


class ElidedLines(_Elided):
    """Up to ``lines`` lines in the width its layout gives it; the last one cut."""

    def __init__(self, lines: int = 2, parent: QWidget | None = None, *, hint: str = "") -> None:
        super().__init__(parent, hint)
        self._lines = max(1, lines)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def _fitted(self) -> tuple[str, bool]:
        width = self.contentsRect().width()
        shown = elide_lines(self._full, self.fontMetrics(), width, self._lines)
        return shown, shown.replace("\n", " ") != " ".join(self._full.split())

    def _height(self) -> int:
        margins = self.contentsMargins()
        return self.fontMetrics().lineSpacing() * self._lines + margins.top() + margins.bottom()

    def sizeHint(self) -> QSize:
        margins = self.contentsMargins()
        width = self.fontMetrics().horizontalAdvance(self._full) + margins.left() + margins.right()
        return QSize(width, self._height())

    def minimumSizeHint(self) -> QSize:
        return QSize(self.fontMetrics().averageCharWidth() * 4, self._height())
