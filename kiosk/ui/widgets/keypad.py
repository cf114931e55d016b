"""The big numeric keypad: 3x4 keys, the locale's decimal separator and backspace.

One layout for every pad of the kiosk (amounts, money, the manager's PIN): 1-2-3 on
top, as on the card terminal beside it, not 7-8-9 as on a calculator."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QPushButton, QSizePolicy, QWidget

from kiosk.ui.icons import icon
from kiosk.ui.theme import current_palette

BACKSPACE = "\b"
# The digit rows, top to bottom; the last row is the separator (or a pad's own key), 0
# and backspace.
KEY_ORDER = ("1", "2", "3", "4", "5", "6", "7", "8", "9")


class Keypad(QWidget):
    """Emits ``pressed(key)``: a digit, the decimal separator, or ``BACKSPACE``."""

    pressed = Signal(str)

    def __init__(self, decimal_separator: str = ",", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        grid = QGridLayout(self)
        grid.setSpacing(8)
        grid.setContentsMargins(0, 0, 0, 0)
        keys = [*KEY_ORDER, decimal_separator, "0", BACKSPACE]
        self.buttons: dict[str, QPushButton] = {}
        for index, key in enumerate(keys):
            button = QPushButton("" if key == BACKSPACE else key)
            button.setProperty("role", "key")
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
            button.setAutoRepeat(key == BACKSPACE)
            if key == BACKSPACE:
                button.setIcon(icon("backspace", current_palette().text))
                button.setIconSize(button.iconSize() * 1.6)
                button.setAccessibleName(self.tr("Delete"))
            button.clicked.connect(lambda _=False, k=key: self.pressed.emit(k))
            grid.addWidget(button, index // 3, index % 3)
            self.buttons[key] = button
