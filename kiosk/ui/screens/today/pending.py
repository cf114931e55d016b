"""The Pending list of the Today screen: the outbox's waiting and dead-letter rows.

Each row: its age, what it is (credit or cancel), the client (masked), its
reference (external id), attempts, and the last error in plain words; "Retry now"
makes every waiting row due now; "Discard" on a dead letter (behind the manager's
PIN, asked by the screen) gives it up. A row waiting over 24 hours shows a warning
for the manager. Rows are never dropped silently: only a manager's discard.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from kiosk.core.amounts import AmountLocale, format_amount
from kiosk.core.counter.credit_outbox import entry_error
from kiosk.core.outbox.queue import OutboxEntry, RowKind, RowState
from kiosk.ui.icons import icon
from kiosk.ui.messages import error_text
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.busy_button import BusyButton
from kiosk.ui.widgets.layouts import ContentColumns, read_only_table

DISARM_MS = 5000  # an armed Discard goes back to normal after this long

CONTEXT = "PendingTable"
HEADERS = (
    QT_TRANSLATE_NOOP("PendingTable", "Waiting"),
    QT_TRANSLATE_NOOP("PendingTable", "Operation"),
    QT_TRANSLATE_NOOP("PendingTable", "Client"),
    QT_TRANSLATE_NOOP("PendingTable", "Reference"),
    QT_TRANSLATE_NOOP("PendingTable", "Tries"),
    QT_TRANSLATE_NOOP("PendingTable", "Last error"),
    "",
)
KIND_TEXT = {
    RowKind.CREDIT: QT_TRANSLATE_NOOP("PendingTable", "Credit"),
    RowKind.CANCEL: QT_TRANSLATE_NOOP("PendingTable", "Cancel"),
}
REFUSED = QT_TRANSLATE_NOOP("PendingTable", "Refused: %1")
SENDING = QT_TRANSLATE_NOOP("PendingTable", "Sending…")
AGE, KIND, CLIENT, REFERENCE, TRIES, ERROR, ACTION = range(len(HEADERS))
ROW_PX = 88


def _t(text: object) -> str:
    return QCoreApplication.translate(CONTEXT, str(text))


def age_text(seconds: float) -> str:
    minutes = int(seconds // 60)
    if minutes < 1:
        return _t(QT_TRANSLATE_NOOP("PendingTable", "under a minute"))
    if minutes < 60:
        return _t(QT_TRANSLATE_NOOP("PendingTable", "%1 min")).replace("%1", str(minutes))
    hours = minutes // 60
    if hours < 48:
        return _t(QT_TRANSLATE_NOOP("PendingTable", "%1 h")).replace("%1", str(hours))
    return _t(QT_TRANSLATE_NOOP("PendingTable", "%1 days")).replace("%1", str(hours // 24))


def error_of(entry: OutboxEntry) -> str:
    """The last error in plain words (a dead letter: the API's reason)."""
    if entry.state is RowState.SENDING:
        return _t(SENDING)
    error = entry_error(entry.last_error)
    if error is None:
        return ""
    text = error_text(error)
    return _t(REFUSED).replace("%1", text) if entry.state is RowState.DEAD else text


class PendingTable(QTableWidget):
    """``discard_requested(row_id)`` when a dead letter's "Discard" is tapped."""

    discard_requested = Signal(int)

    def __init__(
        self, parent: QWidget | None = None, *, amount_locale: AmountLocale = AmountLocale.ES_AR
    ) -> None:
        super().__init__(0, len(HEADERS), parent)
        self.amount_locale = amount_locale
        self.entries: list[OutboxEntry] = []
        self.discard_buttons: dict[int, QPushButton] = {}
        self.setHorizontalHeaderLabels([_t(h) if h else "" for h in HEADERS])
        read_only_table(self, word_wrap=True)
        self.verticalHeader().setDefaultSectionSize(ROW_PX)
        header = self.horizontalHeader()
        header.setHighlightSections(False)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        # Fitted to the contents when they change (show_entries), not at every layout.
        fitted = [c for c in range(len(HEADERS)) if c not in (ERROR, REFERENCE, ACTION)]
        self.fitter = ContentColumns(self, lambda: fitted)
        header.setSectionResizeMode(ERROR, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(REFERENCE, QHeaderView.ResizeMode.Fixed)
        self.setColumnWidth(REFERENCE, 200)  # the id's end tells rows apart; full in its tooltip
        self.setTextElideMode(Qt.TextElideMode.ElideLeft)
        header.setSectionResizeMode(ACTION, QHeaderView.ResizeMode.Fixed)
        self.setColumnWidth(ACTION, 150)
        self._actions_enabled = True

    def show_entries(self, entries: Sequence[OutboxEntry]) -> None:
        self.entries = list(entries)
        self.discard_buttons = {}
        self.setRowCount(0)
        self.setRowCount(len(self.entries))
        p = current_palette()
        for row, entry in enumerate(self.entries):
            cells = (
                age_text(entry.age),
                self._operation(entry),
                entry.client,
                entry.external_id,
                str(entry.attempts),
                error_of(entry),
            )
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if column == ERROR and entry.state is RowState.DEAD:
                    item.setForeground(QColor(p.danger))
                if column == AGE and entry.stale:
                    item.setForeground(QColor(p.danger))
                if column == ERROR:
                    item.setToolTip(entry.last_error or "")
                if column == REFERENCE:
                    item.setToolTip(entry.external_id)
                self.setItem(row, column, item)
            if entry.state is RowState.DEAD:
                self.setCellWidget(row, ACTION, self._discard_button(entry))
        self.fitter.fit()

    def _operation(self, entry: OutboxEntry) -> str:
        """The operation over what was sold ($ 1.234,56, or 3 units): which sale waits."""
        kind = _t(KIND_TEXT[entry.kind])
        if entry.amount is not None:
            amount = format_amount(Decimal(str(entry.amount)), self.amount_locale)
            return f"{kind}\n{amount}"
        if entry.units is not None:
            units = self.tr("%n unit(s)", "", entry.units)
            return f"{kind}\n{units}"
        return kind

    def _discard_button(self, entry: OutboxEntry) -> QPushButton:
        button = QPushButton(self.tr("Discard"))
        button.setProperty("role", "danger")
        button.setEnabled(self._actions_enabled)
        button.setStyleSheet("QPushButton { min-height: 24px; padding: 4px 14px; margin: 4px; }")
        button.clicked.connect(lambda _=False, row_id=entry.id: self._discard_tapped(row_id))
        self.discard_buttons[entry.id] = button
        return button

    def _discard_tapped(self, row_id: int) -> None:
        """Two taps: the first arms the button ("Tap again to discard") for a few
        seconds; only the second asks for the discard (then the manager's PIN)."""
        button = self.discard_buttons.get(row_id)
        if button is None:
            return
        if button.property("armed"):
            button.setProperty("armed", False)
            button.setText(self.tr("Discard"))
            self.discard_requested.emit(row_id)
            return
        button.setProperty("armed", True)
        button.setText(self.tr("Tap again to discard"))

        def disarm() -> None:
            still = self.discard_buttons.get(row_id)
            if still is button and button.property("armed"):
                button.setProperty("armed", False)
                button.setText(self.tr("Discard"))

        QTimer.singleShot(DISARM_MS, button, disarm)

    def set_actions_enabled(self, enabled: bool) -> None:
        self._actions_enabled = enabled
        for button in self.discard_buttons.values():
            button.setEnabled(enabled)

    def entry(self, row_id: int) -> OutboxEntry | None:
        return next((e for e in self.entries if e.id == row_id), None)


class PendingPanel(QWidget):
    """The list, its summary and warning, and "Retry now"."""

    def __init__(
        self, parent: QWidget | None = None, *, amount_locale: AmountLocale = AmountLocale.ES_AR
    ) -> None:
        super().__init__(parent)
        p = current_palette()
        self.summary = QLabel()
        self.summary.setProperty("role", "muted")
        self.summary.setWordWrap(True)
        self.warning = QLabel()
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet(f"color: {p.danger}; font-weight: 600;")
        self.warning.hide()
        self.retry = BusyButton(self.tr("Retry now"))
        self.retry.setIcon(icon("refresh", p.accent))
        self.retry.setMinimumHeight(48)
        self.table = PendingTable(amount_locale=amount_locale)
        self.empty = QLabel(
            self.tr("Nothing waiting: every credit and cancel of this kiosk has been sent.")
        )
        self.empty.setProperty("role", "muted")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        top = QHBoxLayout()
        texts = QVBoxLayout()
        texts.addWidget(self.summary)
        texts.addWidget(self.warning)
        top.addLayout(texts, 1)
        top.addWidget(self.retry, 0, Qt.AlignmentFlag.AlignBottom)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(12)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.empty, 1)

    def show_entries(self, pending: Sequence[OutboxEntry], dead: Sequence[OutboxEntry]) -> None:
        entries = [*dead, *pending]
        self.table.show_entries(entries)
        self.table.setVisible(bool(entries))
        self.empty.setVisible(not entries)
        parts = [self.tr("%n waiting to be sent", "", len(pending))] if pending or not dead else []
        if dead:
            parts.append(self.tr("%n refused by the server: a manager must discard", "", len(dead)))
        self.summary.setText(" · ".join(parts))
        self.retry.setEnabled(bool(pending))
        stale = [e for e in pending if e.stale]
        self.warning.setVisible(bool(stale))
        if stale:
            self.warning.setText(
                self.tr(
                    "%n operation(s) waiting for more than 24 hours. Manager: check the "
                    "connection and the server, or call support.",
                    "",
                    len(stale),
                )
            )
