"""The money exchange's amount: typed with the keypad or the keyboard, read in the
store's locale and echoed back formatted before anything is sent.

Laid out as the Points screen's amount: left, the amount (in the preview's format,
whole, its font shrunk to fit when it must) over the same keypad; right, what the
exchange is and its button. A digit past the largest amount is refused at the key,
with the reason, in the right column (the keys never move, and the left column leaves
the screen's banner its room at 1024x768, issue #21)."""

from __future__ import annotations

from decimal import Decimal

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from kiosk.core.amounts import AmountError, AmountLocale, AmountProblem, format_amount, parse_amount
from kiosk.ui.messages import amount_text
from kiosk.ui.theme import PRIMARY_PX, current_palette
from kiosk.ui.widgets.amount_entry import AmountField
from kiosk.ui.widgets.busy_button import BusyButton
from kiosk.ui.widgets.keypad import Keypad

KEYPAD_MAX_WIDTH = 520
KEYPAD_MAX_HEIGHT = 4 * 112 + 3 * 8
ERROR_PX = 16


class MoneyPanel(QWidget):
    """Emits ``requested(amount)`` with a valid amount when the main button is tapped."""

    requested = Signal(object)  # Decimal

    def __init__(self, locale: AmountLocale, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.amount_locale = locale
        self.heading = QLabel(self.tr("Exchange points for money"))
        self.heading.setProperty("role", "heading")
        self.heading.setWordWrap(True)
        self.explain = QLabel(
            self.tr(
                "Type the amount of money the client takes. The points are debited at the "
                "program's rate; the merchant may set a minimum."
            )
        )
        self.explain.setWordWrap(True)
        self.explain.setProperty("role", "muted")
        self.amount = AmountField(locale)
        self.amount.setObjectName("moneyAmount")
        self.amount.setAccessibleName(self.tr("Amount of money"))
        self.amount.textChanged.connect(self._echo)
        self.amount.returnPressed.connect(self.submit)
        self.amount.refused.connect(self._show_error)
        self.echo = QLabel()
        self.echo.setProperty("role", "muted")
        self.echo.setWordWrap(True)
        self.echo.setStyleSheet("font-size: 22px;")
        self.error = QLabel()
        self.error.setProperty("role", "field-error")
        self.error.setWordWrap(True)
        self.error.setStyleSheet(f"font-size: {ERROR_PX}px;")
        self.error.hide()
        self.exchange = BusyButton(self.tr("Exchange money"), primary=True)
        self.exchange.setMinimumHeight(PRIMARY_PX)
        self.exchange.clicked.connect(self.submit)
        self.keypad = Keypad(locale.decimal_separator)
        self.keypad.setMaximumHeight(KEYPAD_MAX_HEIGHT)
        self.keypad.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.keypad.pressed.connect(self._key)
        left_box = QWidget()
        left_box.setMaximumWidth(KEYPAD_MAX_WIDTH)
        left = QVBoxLayout(left_box)
        left.setContentsMargins(0, 0, 0, 0)
        left.setSpacing(8)
        left.addWidget(self.amount)
        left.addWidget(self.keypad, 1)
        right = QVBoxLayout()
        right.setSpacing(12)
        right.addWidget(self.heading)
        right.addWidget(self.explain)
        right.addSpacing(8)
        right.addWidget(self.echo)
        right.addWidget(self.error)
        right.addStretch(1)
        right.addWidget(self.exchange)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(24)
        layout.addWidget(left_box, 3)
        layout.addLayout(right, 2)
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
        self.amount.press(key)

    def _echo(self) -> None:
        self._show_error("")
        text = self.amount.text()
        try:
            amount = parse_amount(text, self.amount_locale)
        except AmountError:
            self.echo.setText("" if text.strip() else self.tr("No amount yet"))
            return
        # The amount is said above the button, not on it: the largest one would not fit
        # a button in a 1024 px window.
        formatted = format_amount(amount, self.amount_locale)
        self.echo.setText(self.tr("The client takes %1").replace("%1", formatted))

    def _show_error(self, text: str) -> None:
        """``text`` under the amount, the field marked invalid ("": neither). Runs at
        every keystroke: the field is restyled only when its mark changes."""
        self.error.setText(text)
        self.error.setVisible(bool(text))
        invalid = "true" if text else "false"
        if self.amount.property("invalid") != invalid:
            self.amount.setProperty("invalid", invalid)
            danger = current_palette().danger
            self.amount.setStyleSheet(
                f"#moneyAmount {{ border: 2px solid {danger}; }}" if text else ""
            )
