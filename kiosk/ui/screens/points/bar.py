"""The Points screen's top bar: the amount / point-items toggle, "Refresh items",
and the optional ticket number (with its problem, when it has one)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from kiosk.core.counter.sale import SaleMode
from kiosk.core.counter.tickets import MAX_TICKET_LENGTH
from kiosk.ui.icons import icon
from kiosk.ui.theme import current_palette


class ModeBar(QWidget):
    mode_chosen = Signal(str)  # a SaleMode value
    refresh_requested = Signal()
    ticket_edited = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        p = current_palette()
        self.amount_tab = self._segment(self.tr("Amount"), "money")
        self.items_tab = self._segment(self.tr("Point items"), "coins")
        self.tabs = QButtonGroup(self)
        self.tabs.setExclusive(True)
        for tab in (self.amount_tab, self.items_tab):
            self.tabs.addButton(tab)
        self.amount_tab.clicked.connect(lambda: self.mode_chosen.emit(SaleMode.AMOUNT.value))
        self.items_tab.clicked.connect(lambda: self.mode_chosen.emit(SaleMode.ITEMS.value))
        self.refresh = QPushButton(self.tr("Refresh items"))
        self.refresh.setIcon(icon("refresh", p.text, p.border))
        self.refresh.setMinimumHeight(48)
        self.refresh.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.refresh.clicked.connect(self.refresh_requested.emit)
        label = QLabel(self.tr("Ticket no. (optional)"))
        label.setProperty("role", "muted")
        self.ticket = QLineEdit()
        self.ticket.setMaxLength(MAX_TICKET_LENGTH + 8)
        self.ticket.setPlaceholderText(self.tr("e.g. 0003-00012345"))
        self.ticket.setMinimumWidth(200)
        self.ticket.setMinimumHeight(48)
        self.ticket.setAccessibleName(self.tr("Ticket number"))
        self.ticket.textEdited.connect(self.ticket_edited.emit)
        label.setBuddy(self.ticket)
        self.ticket_problem = QLabel()
        self.ticket_problem.setProperty("role", "field-error")
        self.ticket_problem.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.ticket_problem.hide()
        row = QHBoxLayout()
        row.setSpacing(8)
        row.addWidget(self.amount_tab)
        row.addWidget(self.items_tab)
        row.addStretch(1)
        row.addWidget(label)
        row.addWidget(self.ticket)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addLayout(row)
        layout.addWidget(self.ticket_problem)
        self.setStyleSheet(
            "QPushButton[segment='true'] { min-height: 36px;"
            " border-radius: 24px; font-size: 18px; min-width: 120px; }"
            f"QPushButton[segment='true']:checked {{ background: {p.accent};"
            f" color: {p.accent_text}; border-color: {p.accent}; }}"
        )

    def _segment(self, text: str, icon_name: str) -> QPushButton:
        button = QPushButton(text)
        button.setCheckable(True)
        button.setProperty("segment", "true")
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        button.setIcon(icon(icon_name, current_palette().text))
        return button

    def show_mode(self, mode: SaleMode) -> None:
        items = mode is SaleMode.ITEMS
        (self.items_tab if items else self.amount_tab).setChecked(True)
        self.refresh.setVisible(items)

    def show_ticket(self, text: str) -> None:
        if self.ticket.text() != text:
            self.ticket.setText(text)

    def show_ticket_problem(self, text: str) -> None:
        self.ticket_problem.setText(text)
        self.ticket_problem.setVisible(bool(text))

    def set_working(self, working: bool) -> None:
        for widget in (self.amount_tab, self.items_tab, self.refresh, self.ticket):
            widget.setEnabled(not working)
