"""Today's operations as a table, newest first, with "Cancel credit" on active credits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import (
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from kiosk.core.amounts import AmountLocale, format_amount, format_points
from kiosk.core.counter.cancel import can_cancel
from kiosk.core.journal import JournalEntry, OperationKind, Outcome
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.layouts import ContentColumns, read_only_table

CONTEXT = "TodayTable"

KIND_TEXT = {
    OperationKind.CREDIT: QT_TRANSLATE_NOOP("TodayTable", "Credit"),
    OperationKind.EXCHANGE: QT_TRANSLATE_NOOP("TodayTable", "Reward exchange"),
    OperationKind.MONEY_EXCHANGE: QT_TRANSLATE_NOOP("TodayTable", "Money exchange"),
    OperationKind.REDEEM: QT_TRANSLATE_NOOP("TodayTable", "Delivery"),
    OperationKind.CANCEL: QT_TRANSLATE_NOOP("TodayTable", "Credit canceled"),
    OperationKind.ENROLLMENT: QT_TRANSLATE_NOOP("TodayTable", "Enrollment"),
}
OUTCOME_TEXT = {
    Outcome.OK: QT_TRANSLATE_NOOP("TodayTable", "Done"),
    Outcome.ALREADY_CREDITED: QT_TRANSLATE_NOOP("TodayTable", "Already credited"),
    Outcome.PENDING: QT_TRANSLATE_NOOP("TodayTable", "Pending"),
    Outcome.FAILED: QT_TRANSLATE_NOOP("TodayTable", "Failed"),
    Outcome.REJECTED: QT_TRANSLATE_NOOP("TodayTable", "Refused"),
    Outcome.VOIDED: QT_TRANSLATE_NOOP("TodayTable", "Voided"),
}
CANCELED = QT_TRANSLATE_NOOP("TodayTable", "Canceled")
CANCEL_PENDING = QT_TRANSLATE_NOOP("TodayTable", "Cancel pending")
HEADERS = (
    QT_TRANSLATE_NOOP("TodayTable", "Time"),
    QT_TRANSLATE_NOOP("TodayTable", "Operation"),
    QT_TRANSLATE_NOOP("TodayTable", "Client"),
    QT_TRANSLATE_NOOP("TodayTable", "Points"),
    QT_TRANSLATE_NOOP("TodayTable", "Amount"),
    QT_TRANSLATE_NOOP("TodayTable", "Ticket"),
    QT_TRANSLATE_NOOP("TodayTable", "Result"),
    "",
)
TIME, KIND, CLIENT, POINTS, AMOUNT, TICKET, RESULT, ACTION = range(len(HEADERS))
ROW_PX = 60
# The client's column tells the rows apart: when the table is too narrow for it (1024
# px with a long operation name), these columns give way, in this order, rather than
# the table scrolling sideways or the client shrinking to "…".
GIVE_WAY = (TICKET, AMOUNT)
CLIENT_MIN_PX = 160


def _t(text: object) -> str:
    return QCoreApplication.translate(CONTEXT, str(text))


def kind_text(entry: JournalEntry) -> str:
    return _t(KIND_TEXT[entry.kind])


def outcome_text(entry: JournalEntry) -> str:
    return _t(CANCELED) if entry.canceled else _t(OUTCOME_TEXT[entry.outcome])


def time_text(entry: JournalEntry) -> str:
    """The kiosk's local time of the operation."""
    return entry.at.astimezone().strftime("%H:%M")


def _color(column: int, look: RowLook) -> str | None:
    """The text colour of a cell (None: the table's)."""
    p = current_palette()
    if column == RESULT and look.alarm:
        return p.danger
    return p.muted if look.muted else None


@dataclass(frozen=True)
class RowLook:
    """What one row shows: compared with the last one to update the row in place."""

    cells: tuple[str, ...]
    muted: bool  # canceled, voided or failed: grey
    alarm: bool  # failed or refused: the result in red
    struck: bool  # canceled: the points struck out
    cancelable: bool  # "Cancel credit" in the row


class JournalTable(QTableWidget):
    """``cancel_requested(entry_id)`` when a row's "Cancel credit" is tapped."""

    cancel_requested = Signal(int)

    def __init__(self, locale: AmountLocale, parent: QWidget | None = None) -> None:
        super().__init__(0, len(HEADERS), parent)
        self.amount_locale = locale
        self.entries: list[JournalEntry] = []
        self.cancel_buttons: dict[int, QPushButton] = {}
        self._looks: dict[int, RowLook] = {}  # by entry id
        self.setHorizontalHeaderLabels([_t(h) if h else "" for h in HEADERS])
        for column in (POINTS, AMOUNT):
            head = self.horizontalHeaderItem(column)
            if head is not None:
                head.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        read_only_table(self, word_wrap=False)
        self.verticalHeader().setDefaultSectionSize(ROW_PX)
        self.verticalScrollBar().setSingleStep(ROW_PX // 2)
        header = self.horizontalHeader()
        header.setHighlightSections(False)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        # Columns fit their contents when those change (show_entries), not at every
        # layout (ContentColumns); the client's column takes the room left.
        fitted = [c for c in range(len(HEADERS)) if c not in (CLIENT, ACTION)]
        self.fitter = ContentColumns(self, lambda: fitted)
        header.setSectionResizeMode(CLIENT, QHeaderView.ResizeMode.Stretch)
        bold = QFont(self.font())
        bold.setBold(True)
        self.setColumnWidth(
            ACTION, QFontMetrics(bold).horizontalAdvance(self.tr("Cancel credit")) + 80
        )
        self._actions_enabled = True
        self.queued = False  # the counter has an outbox: pending credits can be canceled

    def show_entries(self, entries: Sequence[JournalEntry]) -> None:
        """Show ``entries`` (newest first). Rows already shown are kept and only what
        changed in them is set again (a cancel: the credit's result, colours and
        button); new rows are inserted. Only when a row went away or moved is the
        table built again (issue #4: rebuilding every item and button stalled the UI)."""
        fresh = list(entries)
        canceling = {  # credits whose cancel waits in the outbox
            e.external_id
            for e in fresh
            if e.kind is OperationKind.CANCEL and e.outcome is Outcome.PENDING
        }
        looks = [self._look(entry, canceling) for entry in fresh]
        shown = {e.id for e in self.entries}
        if [e.id for e in fresh if e.id in shown] != [e.id for e in self.entries]:
            self.cancel_buttons = {}
            self._looks = {}
            self.setRowCount(0)  # a row went away or moved: build again
            shown = set()
        changed: set[int] = set()  # columns whose contents changed
        for row, (entry, look) in enumerate(zip(fresh, looks, strict=True)):
            if entry.id not in shown:
                self.insertRow(row)
            changed |= self._show_row(row, entry, look)
        self.entries = fresh
        self.fitter.fit(changed)
        if changed:
            self._give_way()

    def _give_way(self) -> None:
        """Hide the ``GIVE_WAY`` columns whose room the client's column needs."""
        header = self.horizontalHeader()
        kept = sum(
            header.sectionSize(c)
            for c in range(self.columnCount())
            if c != CLIENT and c not in GIVE_WAY
        )
        room = self.viewport().width() - kept - CLIENT_MIN_PX
        widths = {c: max(self.sizeHintForColumn(c), header.sectionSizeHint(c)) for c in GIVE_WAY}
        shown = list(GIVE_WAY)
        while shown and sum(widths[c] for c in shown) > room:
            shown.pop(0)
        for column in GIVE_WAY:
            if self.isColumnHidden(column) == (column in shown):
                self.setColumnHidden(column, column not in shown)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._give_way()

    def _look(self, entry: JournalEntry, canceling: set[str | None]) -> RowLook:
        points = "" if entry.points is None else format_points(entry.points, self.amount_locale)
        amount = "" if entry.amount is None else format_amount(entry.amount, self.amount_locale)
        pending_cancel = entry.kind is OperationKind.CREDIT and entry.external_id in canceling
        return RowLook(
            cells=(
                time_text(entry),
                kind_text(entry),
                entry.client.replace(" · ", "\n"),  # name over the masked email or document
                points,
                amount,
                entry.ticket or "",
                _t(CANCEL_PENDING) if pending_cancel else outcome_text(entry),
            ),
            muted=entry.canceled or entry.outcome in (Outcome.VOIDED, Outcome.FAILED),
            alarm=entry.outcome in (Outcome.FAILED, Outcome.REJECTED),
            struck=entry.canceled,
            cancelable=can_cancel(entry, queued=self.queued) and not pending_cancel,
        )

    def _show_row(self, row: int, entry: JournalEntry, look: RowLook) -> set[int]:
        """Set what differs from what the row shows; return the columns whose text changed."""
        before = self._looks.get(entry.id)
        if look == before:
            return set()
        self._looks[entry.id] = look
        changed = set()
        for column, text in enumerate(look.cells):
            item = self.item(row, column)
            if item is None:
                item = QTableWidgetItem(text)
                if column in (POINTS, AMOUNT):
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                changed.add(column)
            elif item.text() != text:
                item.setText(text)
                changed.add(column)
            color = _color(column, look)
            if color is not None and (before is None or color != _color(column, before)):
                item.setForeground(QColor(color))
            elif color is None and before is not None and _color(column, before) is not None:
                item.setData(Qt.ItemDataRole.ForegroundRole, None)
            if column == POINTS and look.struck != (before is not None and before.struck):
                font = item.font()
                font.setStrikeOut(look.struck)
                item.setFont(font)
            if column == CLIENT and column in changed:
                item.setToolTip(entry.client)
            if self.item(row, column) is not item:
                self.setItem(row, column, item)
        if look.cancelable and entry.id not in self.cancel_buttons:
            self.setCellWidget(row, ACTION, self._cancel_button(entry))
        elif not look.cancelable and entry.id in self.cancel_buttons:
            self.removeCellWidget(row, ACTION)
            del self.cancel_buttons[entry.id]
        return changed

    def _cancel_button(self, entry: JournalEntry) -> QPushButton:
        button = QPushButton(self.tr("Cancel credit"))  # the column is as wide as this text
        button.setEnabled(self._actions_enabled)
        button.setStyleSheet("QPushButton { min-height: 24px; padding: 4px 14px; margin: 4px; }")
        button.clicked.connect(
            lambda _=False, entry_id=entry.id: self.cancel_requested.emit(entry_id)
        )
        self.cancel_buttons[entry.id] = button
        return button

    def set_actions_enabled(self, enabled: bool) -> None:
        """Off while a cancel runs: a second one cannot start."""
        self._actions_enabled = enabled
        for button in self.cancel_buttons.values():
            button.setEnabled(enabled)

    def entry(self, entry_id: int) -> JournalEntry | None:
        return next((e for e in self.entries if e.id == entry_id), None)
