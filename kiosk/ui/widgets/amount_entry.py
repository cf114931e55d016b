"""An amount typed at the counter: its display and its keys, one way for every pad.

* ``AmountDisplay`` shows the amount as it is typed in the preview's format
  (``15000`` reads ``$ 15.000,00``), whole: when the window is narrow the font
  shrinks to fit (down to ``MIN_PX``), digits are never cut. Its minimum width holds
  the largest amount allowed at ``MIN_PX``.
* ``amount_key`` maps a key press to what the keypad would send (a digit, the
  locale's separators, the numeric pad's decimal key, Backspace).
* ``next_text`` is the typed text after a key, or ``None`` with the reason when the
  key is refused: a digit past the largest amount allowed never enters the figure.
* ``AmountField``: a display that takes the keyboard itself (the money exchange's
  amount), with ``text()`` / ``setText()`` / ``returnPressed`` like a line edit.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QSize, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics, QKeyEvent, QResizeEvent
from PySide6.QtWidgets import QFrame, QLabel, QSizePolicy, QVBoxLayout, QWidget

from kiosk.core.amounts import (
    MAX_AMOUNT,
    AmountLocale,
    display_amount,
    exceeds_maximum,
    format_amount,
)
from kiosk.ui.theme import AMOUNT_PX, current_palette
from kiosk.ui.widgets.keypad import BACKSPACE

MIN_PX = 28
MAX_TEXT = 16  # characters typed (digits and separators)
ENTER_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


def too_large_text(locale: AmountLocale) -> str:
    return QCoreApplication.translate(
        "AmountEntry", "The largest amount is %1: that digit was not added."
    ).replace("%1", format_amount(MAX_AMOUNT, locale))


def too_long_text() -> str:
    return QCoreApplication.translate("AmountEntry", "That is as many characters as fit.")


def amount_key(event: QKeyEvent, locale: AmountLocale) -> str | None:
    """What the keypad would send for this key press, or ``None``: not an amount key."""
    key, text = event.key(), event.text()
    if key == Qt.Key.Key_Backspace:
        return BACKSPACE
    if text.isdigit() and text.isascii():
        return text
    if text in (".", ",") and event.modifiers() & Qt.KeyboardModifier.KeypadModifier:
        return locale.decimal_separator  # the numeric pad's key is the decimal one
    if text in (locale.decimal_separator, locale.group_separator):
        return text
    return None


def next_text(text: str, key: str, locale: AmountLocale) -> tuple[str, str | None]:
    """``(new text, None)`` after ``key``, or ``(text, why)`` when the key is refused."""
    if key == BACKSPACE:
        return text[:-1], None
    typed = text + key
    if exceeds_maximum(typed, locale):
        return text, too_large_text(locale)
    if len(typed) > MAX_TEXT:
        return text, too_long_text()
    return typed, None


class AmountDisplay(QLabel):
    """The typed amount in the preview's format, in the largest font that fits."""

    def __init__(self, locale: AmountLocale, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.amount_locale = locale
        self.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self._widest = format_amount(MAX_AMOUNT, locale)
        self._px = 0
        self._empty: bool | None = None
        self.show_text("")

    @property
    def font_px(self) -> int:
        return self._px

    def show_text(self, typed: str) -> None:
        """Show ``typed`` (the raw keys) as an amount; muted while nothing is typed."""
        shown = display_amount(typed, self.amount_locale)
        if shown != self.text():
            self.setText(shown)
        empty = not typed
        if empty is not self._empty or not self._px:
            self._empty = empty
            self._px = 0  # restyle
        self._fit()

    def _font(self, px: int) -> QFont:
        font = QFont(self.font())
        font.setPixelSize(px)
        font.setWeight(QFont.Weight.DemiBold)
        return font

    def _width_at(self, text: str, px: int) -> int:
        return QFontMetrics(self._font(px)).horizontalAdvance(text) + 4

    def _fit(self) -> None:
        room = self.contentsRect().width()
        px = AMOUNT_PX
        while px > MIN_PX and self._width_at(self.text(), px) > room:
            px -= 2
        if px != self._px:
            self._px = px
            color = f" color: {current_palette().muted};" if self._empty else ""
            self.setStyleSheet(f"font-size: {px}px; font-weight: 600;{color}")

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def minimumSizeHint(self) -> QSize:
        margins = self.contentsMargins()
        extra = margins.left() + margins.right()
        height = QFontMetrics(self._font(AMOUNT_PX)).height()
        return QSize(self._width_at(self._widest, MIN_PX) + extra, height)

    def sizeHint(self) -> QSize:
        hint = self.minimumSizeHint()
        return QSize(self._width_at(self._widest, AMOUNT_PX), hint.height())


class AmountField(QFrame):
    """An amount display that takes the keyboard: digits and separators as the keypad,
    Backspace, Enter (``returnPressed``). A refused key emits ``refused(why)``."""

    textChanged = Signal(str)
    returnPressed = Signal()
    refused = Signal(str)

    def __init__(self, locale: AmountLocale, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.amount_locale = locale
        self._text = ""
        self.setProperty("role", "card")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.display = AmountDisplay(locale)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 8, 20, 8)
        layout.addWidget(self.display)

    def text(self) -> str:
        return self._text

    def setText(self, text: str) -> None:
        if text != self._text:
            self._text = text
            self.display.show_text(text)
            self.textChanged.emit(text)

    def clear(self) -> None:
        self.setText("")

    def press(self, key: str) -> None:
        """A key of the keypad (or the keyboard's, mapped by ``amount_key``)."""
        text, why = next_text(self._text, key, self.amount_locale)
        if why is not None:
            self.refused.emit(why)
            return
        self.setText(text)

    def backspace(self) -> None:
        self.press(BACKSPACE)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in ENTER_KEYS:
            self.returnPressed.emit()
            return
        key = amount_key(event, self.amount_locale)
        if key is None:
            super().keyPressEvent(event)
            return
        self.press(key)
