"""The money exchange's amount: typed with the keypad or the keyboard, read in the
store's locale and echoed back formatted before anything is sent."""

from __future__ import annotations

from decimal import Decimal

from PySide6.QtCore import QRegularExpression, Qt, Signal
from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from kiosk.core.amounts import AmountError, AmountLocale, AmountProblem, format_amount, parse_amount
from kiosk.ui.messages import amount_text
from kiosk.ui.theme import KEY_PX, PRIMARY_PX
from kiosk.ui.widgets.busy_button import BusyButton
from kiosk.ui.widgets.keypad import BACKSPACE, Keypad


class MoneyPanel(QWidget):
    """Emits ``requested(amount)`` with a valid amount when the main button is tapped."""

    requested = Signal(object)  # Decimal

    def __init__(self, locale: AmountLocale, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.amount_locale = locale
        self.heading = QLabel(self.tr("Exchange points for money"))
        self.heading.setProperty("role", "heading")
        self.explain = QLabel(
            self.tr(
                "Type the amount of money the client takes. The points are debited at the "
                "program's rate; the merchant may set a minimum."
            )
        )
        self.explain.setWordWrap(True)
        self.explain.setProperty("role", "muted")
        self.amount = QLineEdit()
        self.amount.setProperty("role", "big")
        self.amount.setPlaceholderText(format_amount(Decimal(0), locale))
        self.amount.setStyleSheet("font-size: 56px; font-weight: 600; min-height: 80px;")
        self.amount.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.amount.setValidator(
            QRegularExpressionValidator(QRegularExpression(r"[$\s]*[0-9.,]{0,16}"), self)
        )
        self.amount.setAccessibleName(self.tr("Amount of money"))
        self.amount.textChanged.connect(self._echo)
        self.amount.returnPressed.connect(self.submit)
        self.echo = QLabel()
        self.echo.setProperty("role", "muted")
        self.echo.setStyleSheet("font-size: 22px;")
        self.error = QLabel()
        self.error.setProperty("role", "field-error")
        self.error.setWordWrap(True)
        self.error.hide()
        self.exchange = BusyButton(self.tr("Exchange money"), primary=True)
        self.exchange.setMinimumHeight(PRIMARY_PX)
        self.exchange.clicked.connect(self.submit)
        self.keypad = Keypad(locale.decimal_separator)
        self.keypad.setFixedWidth(3 * (KEY_PX + 44) + 2 * 8)
        self.keypad.setFixedHeight(4 * KEY_PX + 3 * 8)
        self.keypad.pressed.connect(self._key)
        left = QVBoxLayout()
        left.setSpacing(12)
        left.addWidget(self.heading)
        left.addWidget(self.explain)
        left.addSpacing(8)
        left.addWidget(self.amount)
        left.addWidget(self.echo)
        left.addWidget(self.error)
        left.addStretch(1)
        left.addWidget(self.exchange)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(32)
        layout.addLayout(left, 1)
        layout.addWidget(self.keypad, 0, Qt.AlignmentFlag.AlignTop)
        self._echo()

    def value(self) -> Decimal:
        """The typed amount; ``AmountError`` when it is not one."""
        return parse_amount(self.amount.text(), self.amount_locale)

    def submit(self) -> None:
        if self.exchange.busy:
            return
        try:
            amount = self.value()
        except AmountError as error:
            empty = error.problem is AmountProblem.EMPTY
            self._show_error(self.tr("Type the amount of money.") if empty else amount_text(error))
            return
        self._show_error("")
        self.requested.emit(amount)

    def clear(self) -> None:
        self.amount.clear()
        self._show_error("")

    def _key(self, key: str) -> None:
        if key == BACKSPACE:
            self.amount.backspace()
        else:
            self.amount.insert(key)

    def _echo(self) -> None:
        self._show_error("")
        text = self.amount.text()
        try:
            amount = parse_amount(text, self.amount_locale)
        except AmountError:
            self.echo.setText("" if text.strip() else self.tr("No amount yet"))
            self.exchange.setText(self.tr("Exchange money"))
            return
        formatted = format_amount(amount, self.amount_locale)
        self.echo.setText(self.tr("The client takes %1").replace("%1", formatted))
        self.exchange.setText(self.tr("Exchange %1").replace("%1", formatted))

    def _show_error(self, text: str) -> None:
        """``text`` under the amount, the field marked invalid ("": neither). Runs at
        every keystroke: the field is re-polished only when its mark changes."""
        self.error.setText(text)
        self.error.setVisible(bool(text))
        invalid = "true" if text else "false"
        if self.amount.property("invalid") != invalid:
            self.amount.setProperty("invalid", invalid)
            self.amount.style().unpolish(self.amount)
            self.amount.style().polish(self.amount)
