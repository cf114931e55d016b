"""The PIN pad: the kiosk's keypad (``kiosk.ui.widgets.keypad``: 1-2-3 on top, like a
card terminal, "Clear" bottom left) and masked dots.

The digits typed live only in this widget's memory until ``take()`` hands them
over (and forgets them); no label, accessible name or log ever shows them. A
physical keyboard works too: digits, Backspace, Escape (clear) and Enter.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QKeyEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QPushButton, QSizePolicy, QVBoxLayout, QWidget

from kiosk.core.security.lock import PIN_MAX
from kiosk.ui.theme import KEY_PX, current_palette
from kiosk.ui.widgets.keypad import BACKSPACE, Keypad

DOT_PX = 22
KEY_PX_MIN = 64  # a key's least height: the pad fits under a question at 1024x768


class PinDots(QWidget):
    """One dot per digit typed (filled), up to the longest PIN; never the digits."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.count = 0
        self.error = False
        self.setMinimumHeight(DOT_PX + 16)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_count(self, count: int, *, error: bool = False) -> None:
        self.count = count
        self.error = error
        self.setAccessibleDescription(self.tr("%n digits typed", "", count))
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(PIN_MAX * (DOT_PX + 14), DOT_PX + 16)

    def paintEvent(self, event: QPaintEvent) -> None:
        palette = current_palette()
        color = QColor(palette.danger if self.error else palette.text)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        gap = 14
        shown = max(self.count, 4)
        width = shown * DOT_PX + (shown - 1) * gap
        left = (self.width() - width) / 2
        top = (self.height() - DOT_PX) / 2
        for index in range(shown):
            rect = QRectF(left + index * (DOT_PX + gap), top, DOT_PX, DOT_PX)
            painter.setPen(QPen(color if index < self.count else QColor(palette.border), 2))
            painter.setBrush(color if index < self.count else Qt.GlobalColor.transparent)
            painter.drawEllipse(rect)
        painter.end()


class PinPad(QWidget):
    """Emits ``changed(count)`` on each key and ``submitted()`` on Enter."""

    changed = Signal(int)
    submitted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._digits = ""
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.dots = PinDots()
        # The kiosk's one keypad layout (1-2-3 on top); its bottom-left key is "Clear".
        clear = self.tr("Clear")
        self.keypad = Keypad(clear)
        self.keypad.pressed.connect(self._pressed)
        self._clear_key = clear
        buttons = self.keypad.buttons
        self.keys: dict[str, QPushButton] = {
            **{key: button for key, button in buttons.items() if key.isdigit()},
            "clear": buttons[clear],
            "back": buttons[BACKSPACE],
        }
        size = f"min-height: {KEY_PX_MIN - 20}px; min-width: {KEY_PX + 16}px;"
        for button in self.keys.values():  # 64 px tall at least (a thumb's key), 92 wide
            button.setStyleSheet(size)
        self.keys["back"].setIconSize(QSize(36, 36))
        self.keys["clear"].setStyleSheet(f"font-size: 20px; {size}")
        # The keys' least height is the pad's: a layout short of room takes it from
        # elsewhere instead of cutting the bottom row (the style sheet's min-height
        # reaches the buttons, not the layouts' sums; issue #14 at 1024x768).
        spacing = self.keypad.layout().spacing()
        self.keypad.setMinimumHeight(4 * KEY_PX_MIN + 3 * spacing)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(10)
        layout.addWidget(self.dots)
        layout.addWidget(self.keypad, 1)

    def _pressed(self, key: str) -> None:
        if key == BACKSPACE:
            self.backspace()
        elif key == self._clear_key:
            self.clear()
        else:
            self.press(key)

    @property
    def count(self) -> int:
        return len(self._digits)

    def press(self, digit: str) -> None:
        if len(self._digits) < PIN_MAX and digit.isascii() and digit.isdigit():
            self._digits += digit
            self._changed()

    def backspace(self) -> None:
        if self._digits:
            self._digits = self._digits[:-1]
            self._changed()

    def clear(self) -> None:
        if self._digits or self.dots.error:
            self._digits = ""
            self._changed()

    def take(self) -> str:
        """The digits typed; the pad forgets them."""
        digits, self._digits = self._digits, ""
        self._changed()
        return digits

    def show_error(self) -> None:
        self.dots.set_count(self.count, error=True)

    def set_keys_enabled(self, enabled: bool) -> None:
        for button in self.keys.values():
            button.setEnabled(enabled)

    def _changed(self) -> None:
        self.dots.set_count(self.count)
        self.changed.emit(self.count)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self.keys["0"].isEnabled():
            event.ignore()
            return
        key = event.key()
        if Qt.Key.Key_0 <= key <= Qt.Key.Key_9:
            self.press(event.text())
        elif key == Qt.Key.Key_Backspace:
            self.backspace()
        elif key == Qt.Key.Key_Escape:
            self.clear()
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.submitted.emit()
        else:
            super().keyPressEvent(event)
