"""Panels of the Points screen: the typed amount over its keypad, the preview's
breakdown, and the full-width result of a credit."""

from __future__ import annotations

from decimal import Decimal

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from kiosk.api.models.points import Preview
from kiosk.core.amounts import AmountLocale, format_amount, format_points
from kiosk.core.counter.sale import CreditOutcome, CreditStatus
from kiosk.ui.icons import pixmap, set_pixmap
from kiosk.ui.screens.points.figure import FigureLabel
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.amount_entry import AmountDisplay
from kiosk.ui.widgets.busy_button import BusyButton
from kiosk.ui.widgets.fit_label import FitLabel
from kiosk.ui.widgets.keypad import Keypad

KEYPAD_MAX_WIDTH = 520
KEYPAD_MAX_HEIGHT = 4 * 112 + 3 * 8


class AmountPad(QWidget):
    """The amount as typed (in the preview's format, 64 px digits or smaller to fit)
    over the 3x4 keypad. ``problem`` says why a key was refused; the screen shows it
    beside the pad (in the right column), so the pad's height leaves the banner its
    room at 1024x768 (issue #21)."""

    def __init__(self, locale: AmountLocale, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.amount_locale = locale
        p = current_palette()
        self.display = QFrame()
        self.display.setProperty("role", "card")
        self.amount = AmountDisplay(locale)
        self.amount.setAccessibleName(self.tr("Purchase amount"))
        self.problem = QLabel()
        self.problem.setProperty("role", "field-error")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet(f"color: {p.danger}; font-size: 17px; font-weight: 600;")
        inner = QVBoxLayout(self.display)
        inner.setContentsMargins(20, 4, 20, 4)
        inner.setSpacing(0)
        inner.addWidget(self.amount)
        self.keypad = Keypad(locale.decimal_separator)
        self.keypad.setMaximumHeight(KEYPAD_MAX_HEIGHT)
        column = QWidget()
        column.setMaximumWidth(KEYPAD_MAX_WIDTH)
        stack = QVBoxLayout(column)
        stack.setContentsMargins(0, 0, 0, 0)
        stack.setSpacing(8)
        stack.addWidget(self.display)
        stack.addWidget(self.keypad, 1)
        stack.addStretch(0)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(column)
        self.show_problem("")

    def show_text(self, text: str) -> None:
        self.amount.show_text(text)

    def show_problem(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.setVisible(bool(text))


class PreviewCard(QFrame):
    """What the credit will give: the amount echoed back, base points, bonuses, total.
    Every text of it is read before the credit, so none is cut: the names wrap (a
    merchant's long level name takes another line), the figures shrink to fit."""

    def __init__(self, locale: AmountLocale, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.amount_locale = locale
        self.setProperty("role", "card")
        p = current_palette()
        self.heading = QLabel(self.tr("Preview: nothing credited yet"))
        self.heading.setProperty("role", "muted")
        self.heading.setWordWrap(True)
        self.amount = FigureLabel(34, 18)
        self.amount.setAccessibleName(self.tr("Amount to credit"))
        self.units = QLabel()
        self.units.setProperty("role", "muted")
        self.units.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.base = QLabel()
        self.level_name = FitLabel(self.tr("Level bonus"))
        self.level = QLabel()
        self.rules = QLabel()
        self.total = FigureLabel(30, 18, color=p.accent)
        grid = QGridLayout()
        grid.setHorizontalSpacing(16)
        grid.setVerticalSpacing(4)
        grid.setColumnStretch(0, 1)  # the names give way: they wrap
        rows: list[tuple[QLabel, QLabel]] = [
            (FitLabel(self.tr("Base points")), self.base),
            (self.level_name, self.level),
            (FitLabel(self.tr("Point rules bonus")), self.rules),
        ]
        for row, (name, value) in enumerate(rows):
            name.setProperty("role", "muted")
            name.setTextFormat(Qt.TextFormat.PlainText)  # a level's name is the merchant's
            value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
            grid.addWidget(name, row, 0)
            grid.addWidget(value, row, 1)
        line = QFrame()
        line.setFixedHeight(1)
        line.setStyleSheet(f"background: {p.border};")
        total_name = QLabel(self.tr("Total"))
        total_name.setStyleSheet("font-size: 22px; font-weight: 600;")
        self.total.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        # The total on its own row: in the grid its width took the names' room.
        total_row = QHBoxLayout()
        total_row.setSpacing(16)
        total_row.addWidget(total_name)
        total_row.addWidget(self.total, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 8, 20, 8)
        layout.setSpacing(2)
        self.units.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        layout.addWidget(self.heading)
        layout.addWidget(self.amount)
        layout.addWidget(self.units)  # under the amount: a narrow column holds both
        layout.addSpacing(4)
        layout.addLayout(grid)
        layout.addSpacing(2)
        layout.addWidget(line)
        layout.addLayout(total_row)

    def show_preview(self, preview: Preview, amount: Decimal | None, units: int) -> None:
        points, locale = preview.points, self.amount_locale
        if amount is None and points.amount:
            amount = Decimal(str(points.amount))
        self.amount.setText(format_amount(amount, locale) if amount is not None else "")
        self.amount.setVisible(amount is not None)
        self.units.setText(self.tr("%n units", "", units) if units else "")
        self.units.setVisible(bool(units))
        self.base.setText(format_points(points.initial or 0, locale))
        level = preview.level
        if level is not None and level.name and level.points_multiplier:
            multiplier = f"{level.points_multiplier:g}".replace(".", locale.decimal_separator)
            self.level_name.setText(
                self.tr("Level bonus (%1 ×%2)").replace("%1", level.name).replace("%2", multiplier)
            )
        elif level is not None and level.name:
            self.level_name.setText(self.tr("Level bonus (%1)").replace("%1", level.name))
        else:
            self.level_name.setText(self.tr("Level bonus"))
        self.level.setText("+" + format_points(points.level_bonus or 0, locale))
        self.rules.setText("+" + format_points(points.rules_bonus or 0, locale))
        self.total.setText(self.tr("%1 pts").replace("%1", format_points(points.total, locale)))


class CreditResultView(QFrame):
    """The full-width result: points given and the new balance, or "already credited"."""

    new_sale = Signal()

    def __init__(self, locale: AmountLocale, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.amount_locale = locale
        self.setProperty("role", "card")
        p = current_palette()
        self.icon = QLabel()
        self.icon.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.headline = QLabel()
        self.headline.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.headline.setWordWrap(True)
        self.balance = QLabel()
        self.balance.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.balance.setWordWrap(True)
        self.balance.setStyleSheet("font-size: 26px; font-weight: 600;")
        self.level = QLabel()  # "New level: Plata", once the service shows it
        self.level.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.level.setWordWrap(True)
        self.level.setTextFormat(Qt.TextFormat.PlainText)
        self.level.setStyleSheet(f"font-size: 26px; font-weight: 700; color: {p.success};")
        policy = self.level.sizePolicy()
        policy.setRetainSizeWhenHidden(True)  # its room is kept: "New sale" never moves
        self.level.setSizePolicy(policy)
        self.level.hide()
        self.details = QLabel()
        self.details.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.details.setWordWrap(True)
        self.details.setProperty("role", "muted")
        self.next = BusyButton(self.tr("New sale"), primary=True)
        self.next.setStyleSheet("min-width: 320px; min-height: 48px;")
        self.next.clicked.connect(self.new_sale.emit)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.next)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(32, 24, 32, 24)
        layout.setSpacing(12)
        layout.addStretch(1)
        layout.addWidget(self.icon)
        layout.addWidget(self.headline)
        layout.addWidget(self.balance)
        layout.addWidget(self.level)
        layout.addWidget(self.details)
        layout.addSpacing(16)
        layout.addLayout(buttons)
        layout.addStretch(1)

    def show_outcome(
        self, outcome: CreditOutcome, amount: Decimal | None, units: int, ticket: str | None
    ) -> None:
        p, locale = current_palette(), self.amount_locale
        self.level.hide()
        alarm = outcome.other_client is not None  # red: the service named another client
        self.balance.setStyleSheet(
            "font-size: 26px; font-weight: 600;" + (f" color: {p.danger};" if alarm else "")
        )
        facts: list[str] = []
        if amount is not None:
            facts.append(format_amount(amount, locale))
        if units:
            facts.append(self.tr("%n units", "", units))
        if ticket:
            facts.append(self.tr("Ticket %1").replace("%1", ticket))
        if outcome.status is CreditStatus.PENDING:
            self._show_pending(outcome, facts)
            return
        if outcome.status is CreditStatus.ALREADY_CREDITED:
            set_pixmap(self.icon, pixmap("info", p.accent, 72))
            self.headline.setText(self.tr("This ticket was already credited"))
            self.headline.setStyleSheet("font-size: 40px; font-weight: 700;")
            self.balance.setText(self.tr("No new points were given."))
        else:
            set_pixmap(self.icon, pixmap("success", p.success, 72))
            if outcome.points is not None:
                points = format_points(outcome.points, locale)
                self.headline.setText(self.tr("+%1 points").replace("%1", points))
            else:  # credited, the figure unknown (confirmed by a duplicate, no preview)
                self.headline.setText(self.tr("Points credited"))
            self.headline.setStyleSheet(f"font-size: 64px; font-weight: 700; color: {p.success};")
            if outcome.balance is not None:
                self.balance.setText(
                    self.tr("New balance: %1 points").replace(
                        "%1", format_points(outcome.balance, locale)
                    )
                )
            else:
                self.balance.setText(self.tr("Credited. The new balance shows on the next search."))
            if outcome.confirmed_by_duplicate:
                facts.append(self.tr("confirmed after a lost answer, credited once"))
        if outcome.other_client is not None:  # the service named another client
            self.balance.setText(
                self.tr(
                    "The service credited another client account (#%1), not this client. "
                    "Call a manager to check where the points went."
                ).replace("%1", str(outcome.other_client))
            )
        self.details.setText(" · ".join(facts))
        self.details.setVisible(bool(facts))

    def show_level(self, name: str | None) -> None:
        """The client's level changed with this credit (``None``: no level now)."""
        self.level.setText(
            self.tr("New level: %1").replace("%1", name) if name else self.tr("No level now")
        )
        self.level.show()

    def _show_pending(self, outcome: CreditOutcome, facts: list[str]) -> None:
        """The "pending" receipt: kept in the outbox, sent automatically, never lost."""
        p, locale = current_palette(), self.amount_locale
        set_pixmap(self.icon, pixmap("outbox", p.accent, 72))
        self.headline.setText(self.tr("Saved: the credit will be sent automatically."))
        self.headline.setStyleSheet("font-size: 34px; font-weight: 700;")
        lines = [self.tr("%n pending.", "", max(1, outcome.pending))]
        if outcome.points is not None:
            lines.append(
                self.tr("About %1 points, credited once it is sent.").replace(
                    "%1", format_points(outcome.points, locale)
                )
            )
        self.balance.setText(" ".join(lines))
        facts.append(self.tr("Reference %1").replace("%1", outcome.external_id))
        self.details.setText(" · ".join(facts))
        self.details.setVisible(True)
