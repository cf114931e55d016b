"""A row of touch "chips": one choice among a few (sort order, a filter's value).

Friendlier than a drop-down on a touch counter: every choice is visible and at least
48 px tall; tapping one emits ``chosen(value)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QScroller,
    QSizePolicy,
    QWidget,
)

CHIP_STYLE = "QPushButton { min-height: 28px; padding: 8px 14px; font-size: 16px; }"


class ChoiceChips(QWidget):
    chosen = Signal(object)

    def __init__(self, label: str, choices: Sequence[tuple[Any, str]]) -> None:
        super().__init__()
        self.values: list[Any] = []
        self.buttons: list[QPushButton] = []
        self.group = QButtonGroup(self)
        self.group.setExclusive(True)
        outer = QHBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(6)
        self.label = QLabel(label)
        self.label.setProperty("role", "muted")
        self.label.setVisible(bool(label))
        outer.addWidget(self.label)
        if label:
            outer.addSpacing(4)
        # The chips scroll sideways (a swipe on touch) when the row is narrower than
        # them, so a long row never forces the window wider than the screen.
        inner = QWidget()
        layout = QHBoxLayout(inner)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        self.scroll = QScrollArea()
        self.scroll.setWidget(inner)
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.scroll.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.scroll.setFixedHeight(64)
        self.scroll.setMinimumWidth(120)
        QScroller.grabGesture(self.scroll.viewport(), QScroller.ScrollerGestureType.TouchGesture)
        outer.addWidget(self.scroll, 1)
        for value, text in choices:
            button = QPushButton(text)
            button.setCheckable(True)
            button.setProperty("role", "tile")
            button.setStyleSheet(CHIP_STYLE)
            button.setMinimumHeight(48)
            button.clicked.connect(lambda _=False, v=value: self._clicked(v))
            self.group.addButton(button)
            layout.addWidget(button)
            self.values.append(value)
            self.buttons.append(button)
        layout.addStretch(1)
        if self.buttons:
            self.buttons[0].setChecked(True)

    def _clicked(self, value: Any) -> None:
        self.chosen.emit(value)

    def value(self) -> Any:
        for value, button in zip(self.values, self.buttons, strict=True):
            if button.isChecked():
                return value
        return None

    def set_value(self, value: Any) -> None:
        """Check the chip of ``value`` without emitting ``chosen``."""
        for current, button in zip(self.values, self.buttons, strict=True):
            if current == value:
                button.setChecked(True)

    def button_for(self, value: Any) -> QPushButton:
        return self.buttons[self.values.index(value)]

    def set_choices_enabled(self, enabled: bool) -> None:
        for button in self.buttons:
            button.setEnabled(enabled)
