"""Building blocks of the settings screen: a titled card, and a field row with its
"set by IT" note and its validation message."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QColor, QIntValidator, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionComboBox,
    QStylePainter,
    QVBoxLayout,
    QWidget,
)

from kiosk.ui.icons import pixmap
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.wheel_safe import WheelSafeComboBox

TOUCH = 48


class TouchCombo(WheelSafeComboBox):
    """A combo box at touch size with a drawn chevron (the style sheet hides Qt's arrow).
    The wheel over it scrolls the page, focused or not (``wheel_safe``). Its width
    does not follow its longest entry: a text wider than the box ends with "…", and the
    tooltip holds the whole text."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMinimumHeight(TOUCH)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(12)
        self.setStyleSheet(
            "QComboBox { padding-right: 40px; }"
            "QComboBox::drop-down { border: none; width: 40px; }"
            f"QComboBox QAbstractItemView::item {{ min-height: {TOUCH}px; }}"
        )
        # The list's entries at touch size: the style sheet's item height reaches them
        # through a styled delegate only (the default one drew them 29 px tall).
        self.setItemDelegate(QStyledItemDelegate(self))
        self.currentTextChanged.connect(self.setToolTip)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QStylePainter(self)
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        if self.currentIndex() < 0 and self.placeholderText():
            option.currentText = self.placeholderText()
        field = self.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox,
            option,
            QStyle.SubControl.SC_ComboBoxEditField,
            self,
        )
        option.currentText = self.fontMetrics().elidedText(
            option.currentText, Qt.TextElideMode.ElideRight, max(0, field.width() - 4)
        )
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)
        painter.end()
        palette = current_palette()
        chevron = QPainter(self)
        chevron.setRenderHint(QPainter.RenderHint.Antialiasing)
        color = palette.text if self.isEnabled() else palette.border
        pen = QPen(QColor(color), 2.5)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        chevron.setPen(pen)
        x, y = self.width() - 24.0, self.height() / 2
        chevron.drawPolyline([QPointF(x - 6, y - 3), QPointF(x, y + 3), QPointF(x + 6, y - 3)])
        chevron.end()


class Stepper(QWidget):
    """A whole number: typed, or stepped with large "-" and "+" keys. What is typed is
    checked by the screen (a number out of range gets a field message)."""

    def __init__(self, low: int, high: int, step: int, unit: str = "") -> None:
        super().__init__()
        self.low, self.high, self.step = low, high, step
        self.edit = QLineEdit()
        self.edit.setValidator(QIntValidator(0, high * 10, self.edit))
        self.edit.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.edit.setFixedWidth(120)
        self.edit.setMinimumHeight(TOUCH)
        self.minus = QPushButton("\u2212")
        self.plus = QPushButton("+")
        self.unit = QLabel(unit)
        self.unit.setProperty("role", "muted")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(8)
        for button, steps in ((self.minus, -1), (self.plus, 1)):
            button.setStyleSheet("font-size: 24px; min-height: 40px; min-width: 36px;")
            button.setAutoRepeat(True)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.clicked.connect(lambda _=False, n=steps: self.step_by(n))
        layout.addWidget(self.minus)
        layout.addWidget(self.edit)
        layout.addWidget(self.plus)
        layout.addWidget(self.unit)
        layout.addStretch(1)

    def value(self) -> int:
        """The number typed (-1 when there is none)."""
        text = self.edit.text().strip()
        return int(text) if text.isdigit() else -1

    def setValue(self, value: int) -> None:
        self.edit.setText(str(value))

    def step_by(self, steps: int) -> None:
        current = self.value() if self.value() >= 0 else self.low
        self.setValue(min(self.high, max(self.low, current + steps * self.step)))

    def set_read_only(self, read_only: bool) -> None:
        self.edit.setReadOnly(read_only)
        self.minus.setVisible(not read_only)
        self.plus.setVisible(not read_only)


class SectionCard(QFrame):
    """A white card with a heading; rows go in ``self.rows``."""

    def __init__(self, title: str, note: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "card")
        heading = QLabel(title)
        heading.setProperty("role", "heading")
        self.rows = QVBoxLayout(self)
        self.rows.setContentsMargins(24, 16, 24, 20)
        self.rows.setSpacing(12)
        self.rows.addWidget(heading)
        if note:
            hint = QLabel(note)
            hint.setProperty("role", "muted")
            hint.setWordWrap(True)
            self.rows.addWidget(hint)


class FieldRow(QWidget):
    """The title above the control, then a "Set by IT" (or "Set by your organization")
    note and an error message. (Above,
    not beside: a long title in any language and the control both get the full width of
    the card, at 1024 px as at 1280 px.) The error goes as soon as the control is edited
    (``fixed`` then tells the screen)."""

    fixed = Signal()

    def __init__(self, title: str, control: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.control = control
        self.title = QLabel(title)
        self.title.setWordWrap(True)
        self.title.setStyleSheet("font-weight: 600;")
        self.title.setBuddy(control)
        control.setMinimumHeight(TOUCH)
        self.locked_note = QWidget()
        note_layout = QHBoxLayout(self.locked_note)
        note_layout.setContentsMargins(0, 0, 0, 0)
        note_layout.setSpacing(6)
        badge = QLabel()
        badge.setPixmap(pixmap("manager", current_palette().muted, 18))
        self.locked_text = QLabel(self.tr("Set by IT"))
        self.locked_text.setProperty("role", "hint")
        self.locked_text.setWordWrap(True)
        note_layout.addWidget(badge)
        note_layout.addWidget(self.locked_text, 1)
        self.locked_note.hide()
        self.error = QLabel()
        self.error.setProperty("role", "field-error")
        self.error.setWordWrap(True)
        self.error.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 4)
        layout.setSpacing(6)
        layout.addWidget(self.title)
        layout.addWidget(control)
        layout.addWidget(self.locked_note)
        layout.addWidget(self.error)
        self.locked = False
        self._watch_edits(control)

    def _watch_edits(self, control: QWidget) -> None:
        """Typing, a step, a choice or a tap in the control clears its error."""
        for edit in [control, *control.findChildren(QLineEdit)]:
            if isinstance(edit, QLineEdit):
                edit.textEdited.connect(self._edited)
        for combo in [control, *control.findChildren(QComboBox)]:
            if isinstance(combo, QComboBox):
                combo.activated.connect(self._edited)
        for button in control.findChildren(QPushButton):
            button.clicked.connect(self._edited)

    def _edited(self, *_: object) -> None:
        if self.error.isHidden():
            return
        self.set_error(None)
        self.fixed.emit()

    def set_locked(self, locked: bool, *, by_organization: bool = False) -> None:
        """Read-only with a note "Set by IT", or "Set by your organization" for a value
        set by policy (Group Policy, Intune); the value stays visible."""
        self.locked = locked
        set_read_only(self.control, locked)
        self.locked_text.setText(
            self.tr("Set by your organization") if by_organization else self.tr("Set by IT")
        )
        self.locked_note.setVisible(locked)

    def set_error(self, text: str | None) -> None:
        self.error.setText(text or "")
        self.error.setVisible(bool(text))
        widget = self.control.edit if isinstance(self.control, Stepper) else self.control
        if isinstance(widget, QLineEdit):
            widget.setProperty("invalid", bool(text))
            widget.style().unpolish(widget)
            widget.style().polish(widget)


def set_read_only(widget: QWidget, read_only: bool) -> None:
    if isinstance(widget, Stepper):
        widget.set_read_only(read_only)
    elif isinstance(widget, QLineEdit | QAbstractSpinBox):
        widget.setReadOnly(read_only)
        widget.setFocusPolicy(Qt.FocusPolicy.NoFocus if read_only else Qt.FocusPolicy.StrongFocus)
        if isinstance(widget, QAbstractSpinBox):
            widget.setButtonSymbols(
                QAbstractSpinBox.ButtonSymbols.NoButtons
                if read_only
                else QAbstractSpinBox.ButtonSymbols.UpDownArrows
            )
    elif isinstance(widget, QComboBox):
        widget.setEnabled(not read_only)
    else:
        for child in widget.findChildren(QWidget):
            child.setEnabled(not read_only)
