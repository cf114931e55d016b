"""A row of touch "chips": one choice among a few (sort order, a filter's value).

Friendlier than a drop-down on a touch counter: every choice is visible and at least
48 px tall; tapping one emits ``chosen(value)``. The chips wrap onto more lines when
the row is narrower than them (``FlowLayout``), so a chip's text is never cut, in
any language; a chip wider than the whole row elides with its full text in a
tooltip.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QLabel,
    QLayout,
    QLayoutItem,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
    QWidgetItem,
)

CHIP_STYLE = "QPushButton { min-height: 28px; padding: 8px 14px; font-size: 16px; }"


class FlowLayout(QLayout):
    """Items left to right, wrapping onto the next line when the width runs out."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def insert_widget(self, index: int, widget: QWidget) -> None:
        self.addChildWidget(widget)
        self._items.insert(index, QWidgetItem(widget))
        self.invalidate()

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._place(QRect(0, 0, width, 0), apply=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._place(rect, apply=True)

    def sizeHint(self) -> QSize:
        width = sum(i.sizeHint().width() for i in self._shown()) + self._spacing * max(
            0, len(self._shown()) - 1
        )
        height = max((i.sizeHint().height() for i in self._shown()), default=0)
        return QSize(width, height)

    def minimumSize(self) -> QSize:
        # Never wider than one chip's minimum: the row wraps instead of widening the window.
        width = max((i.minimumSize().width() for i in self._shown()), default=0)
        height = max((i.minimumSize().height() for i in self._shown()), default=0)
        return QSize(width, height)

    def _shown(self) -> list[QLayoutItem]:
        return [i for i in self._items if not (i.widget() and i.widget().isHidden())]

    def _place(self, rect: QRect, *, apply: bool) -> int:
        x, y, line = rect.x(), rect.y(), 0
        for item in self._shown():
            hint = item.sizeHint()
            width = min(hint.width(), rect.width())
            if x > rect.x() and x + width > rect.right() + 1:
                x, y, line = rect.x(), y + line + self._spacing, 0
            if apply:
                item.setGeometry(QRect(QPoint(x, y), QSize(width, hint.height())))
            x += width + self._spacing
            line = max(line, hint.height())
        return y + line - rect.y()


class FitButton(QPushButton):
    """A button whose text elides (full text in the tooltip) only when the layout
    cannot give it the width of its text; ``set_full_text`` changes the text."""

    def __init__(self, text: str = "") -> None:
        super().__init__(text)
        self.full_text = text

    def set_full_text(self, text: str) -> None:
        self.full_text = text
        self.setText(text)
        self._elide()

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        shown = self.text()
        if shown != self.full_text:  # the hint of the whole text, not the elided one
            metrics = self.fontMetrics()
            extra = metrics.horizontalAdvance(self.full_text) - metrics.horizontalAdvance(shown)
            hint.setWidth(hint.width() + max(0, extra))
        return hint

    def minimumSizeHint(self) -> QSize:
        return QSize(48, max(48, super().minimumSizeHint().height()))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._elide()  # the style sheet's font came after the first resize

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._elide()

    def _elide(self) -> None:
        if self.width() >= self.sizeHint().width():
            elided = self.full_text  # the whole text fits
        else:
            metrics = self.fontMetrics()
            padding = super().sizeHint().width() - metrics.horizontalAdvance(self.text())
            room = max(0, self.width() - padding)
            elided = metrics.elidedText(self.full_text, Qt.TextElideMode.ElideRight, room)
        cut = elided != self.full_text
        if self.text() != elided:
            self.setText(elided)
        self.setToolTip(self.full_text if cut else "")
        self.setProperty("elided", cut)


class Chip(FitButton):
    """A checkable chip (one choice)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.setCheckable(True)
        self.setProperty("role", "tile")
        self.setStyleSheet(CHIP_STYLE)
        self.setMinimumHeight(48)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)


class ChoiceChips(QWidget):
    chosen = Signal(object)

    def __init__(self, label: str, choices: Sequence[tuple[Any, str]]) -> None:
        super().__init__()
        self.values: list[Any] = []
        self.buttons: list[QPushButton] = []
        self.group = QButtonGroup(self)
        self.group.setExclusive(True)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(4)
        self.label = QLabel(label)
        self.label.setProperty("role", "muted")
        self.label.setWordWrap(True)
        self.label.setVisible(bool(label))
        outer.addWidget(self.label)
        self.flow = FlowLayout(spacing=6)
        outer.addLayout(self.flow)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        for value, text in choices:
            button = Chip(text)
            button.clicked.connect(lambda _=False, v=value: self._clicked(v))
            self.group.addButton(button)
            self.flow.addWidget(button)
            self.values.append(value)
            self.buttons.append(button)
        if self.buttons:
            self.buttons[0].setChecked(True)

    def add_button(self, button: QPushButton) -> None:
        """Another button in the chips' flow (not a choice: the sort direction)."""
        self.flow.addWidget(button)

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

    def text_of(self, value: Any) -> str:
        for current, button in zip(self.values, self.buttons, strict=True):
            if current == value and isinstance(button, Chip):
                return button.full_text
        return ""

    def button_for(self, value: Any) -> QPushButton:
        return self.buttons[self.values.index(value)]

    def set_choices_enabled(self, enabled: bool) -> None:
        for button in self.buttons:
            button.setEnabled(enabled)
