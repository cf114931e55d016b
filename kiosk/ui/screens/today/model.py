"""Today's rows as a Qt model: the journal's rows of one day, newest first.

The model holds the rows read so far (the newest page first, older pages as the
cashier scrolls: ``canFetchMore``/``fetchMore`` ask ``more_wanted``) and changes only
the rows it is given: ``apply`` updates the rows whose ids it already shows
(``dataChanged`` on those rows) and inserts the new ones (``beginInsertRows``), so a
credit costs one row whatever the day's size. ``JournalFeed`` reads for it: the first
page, the next pages, and, on the journal's ``changed`` event, only the rows whose ids
changed, with the day's totals by one COUNT/SUM query.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QColor, QFont

from kiosk.core.amounts import AmountLocale, format_amount, format_points
from kiosk.core.counter.cancel import can_cancel
from kiosk.core.journal import JournalEntry, OperationKind, Outcome
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.paged_model import PagedTableModel

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
    Outcome.ABANDONED: QT_TRANSLATE_NOOP("TodayTable", "Previewed, not credited"),
}
MUTED = frozenset({Outcome.VOIDED, Outcome.FAILED, Outcome.ABANDONED})  # nothing happened
CANCELED = QT_TRANSLATE_NOOP("TodayTable", "Canceled")
CANCEL_PENDING = QT_TRANSLATE_NOOP("TodayTable", "Cancel pending")
CANCEL_CREDIT = QT_TRANSLATE_NOOP("JournalTable", "Cancel credit")
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
PAGE_ROWS = 100  # rows read at the opening and at each scroll past the last one
# The rows kept: a day of new rows at the top lets the oldest go (read again, by pages,
# if the cashier scrolls that far): the model's memory has a ceiling whatever the day.
MAX_ROWS = 10 * PAGE_ROWS
ENTRY_ID_ROLE = Qt.ItemDataRole.UserRole + 1  # the row's journal id
CANCELABLE_ROLE = Qt.ItemDataRole.UserRole + 2  # the row shows "Cancel credit"

RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
LEFT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
_INDEX = QModelIndex | QPersistentModelIndex


def _t(text: object, context: str = CONTEXT) -> str:
    return QCoreApplication.translate(context, str(text))


def kind_text(entry: JournalEntry) -> str:
    return _t(KIND_TEXT[entry.kind])


def outcome_text(entry: JournalEntry) -> str:
    return _t(CANCELED) if entry.canceled else _t(OUTCOME_TEXT[entry.outcome])


def time_text(entry: JournalEntry) -> str:
    """The kiosk's local time of the operation."""
    return entry.at.astimezone().strftime("%H:%M")


@dataclass(frozen=True)
class RowLook:
    """What one row shows, worked out once when the row arrives or changes."""

    cells: tuple[str, ...]
    muted: bool  # canceled, voided or failed: grey
    alarm: bool  # failed or refused: the result in red
    struck: bool  # canceled: the points struck out
    cancelable: bool  # "Cancel credit" in the row


def cell_color(column: int, look: RowLook) -> str | None:
    """The text colour of a cell (None: the table's)."""
    p = current_palette()
    if column == RESULT and look.alarm:
        return p.danger
    return p.muted if look.muted else None


class JournalModel(PagedTableModel):
    """The day's rows read so far; ``more_wanted`` when the view wants older ones."""

    def __init__(self, locale: AmountLocale, parent: QObject | None = None) -> None:
        super().__init__(HEADERS, CONTEXT, parent)
        self.amount_locale = locale
        self.queued = False  # the counter has an outbox: pending credits can be canceled
        self.day: date | None = None
        self._ids: list[int] = []  # newest (largest id) first
        self._entries: dict[int, JournalEntry] = {}
        self._looks: dict[int, RowLook] = {}
        self._canceling: set[str] = set()  # credits whose cancel waits in the outbox
        self._credits: dict[str, int] = {}  # a credit's external id -> its row's id
        self.updates = 0  # rows inserted or changed since the last reset (tests, bench)

    # -- Qt's model ---------------------------------------------------------------
    def rows(self) -> int:
        return len(self._ids)

    def header_alignment(self, section: int) -> object:
        return RIGHT if section in (POINTS, AMOUNT) else LEFT

    def data(self, index: _INDEX, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._ids):
            return None
        entry_id = self._ids[index.row()]
        look = self._looks[entry_id]
        column = index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            if column == ACTION:  # painted by the delegate; named for a screen reader
                cancel = look.cancelable and role == Qt.ItemDataRole.AccessibleTextRole
                return _t(CANCEL_CREDIT, "JournalTable") if cancel else ""
            if role == Qt.ItemDataRole.AccessibleTextRole and column == CLIENT:
                return self._entries[entry_id].client
            return look.cells[column]
        if role == Qt.ItemDataRole.ForegroundRole:
            color = cell_color(column, look)
            return None if color is None else QColor(color)
        if role == Qt.ItemDataRole.FontRole and column == POINTS and look.struck:
            font = QFont()  # only the strike-out: the rest is the table's font
            font.setStrikeOut(True)
            return font
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return RIGHT if column in (POINTS, AMOUNT) else LEFT
        if role == Qt.ItemDataRole.ToolTipRole and column == CLIENT:
            return self._entries[entry_id].client
        if role == ENTRY_ID_ROLE:
            return entry_id
        if role == CANCELABLE_ROLE:
            return look.cancelable
        return None

    # -- what the table reads ------------------------------------------------------
    @property
    def entries(self) -> list[JournalEntry]:
        """The rows read so far, newest first."""
        return [self._entries[i] for i in self._ids]

    @property
    def oldest_id(self) -> int | None:
        return self._ids[-1] if self._ids else None

    def entry(self, entry_id: int) -> JournalEntry | None:
        return self._entries.get(entry_id)

    def entry_at(self, row: int) -> JournalEntry | None:
        return self._entries[self._ids[row]] if 0 <= row < len(self._ids) else None

    def look(self, entry_id: int) -> RowLook | None:
        return self._looks.get(entry_id)

    def row_of(self, entry_id: int) -> int | None:
        """The row of a shown id (the ids are in descending order: a binary search)."""
        row = bisect_left(self._ids, -entry_id, key=lambda i: -i)
        return row if row < len(self._ids) and self._ids[row] == entry_id else None

    def cancelable_ids(self) -> list[int]:
        """The rows (newest first) whose "Cancel credit" shows."""
        return [i for i in self._ids if self._looks[i].cancelable]

    # -- changes -------------------------------------------------------------------
    def reset(self, day: date, entries: Sequence[JournalEntry], *, more: bool) -> None:
        """Show ``entries`` (the newest page of ``day``) instead of everything."""
        self.beginResetModel()
        self.day = day
        self._ids, self._entries, self._looks = [], {}, {}
        self._canceling, self._credits = set(), {}
        fresh = sorted(entries, key=lambda e: -e.id)
        self._take(fresh)
        self._ids = [e.id for e in fresh]
        for entry in fresh:
            self._looks[entry.id] = self._look(entry)
        self._more = more
        self.fetching = False
        self.updates = 0
        self.endResetModel()

    def add_older(self, entries: Sequence[JournalEntry], *, more: bool) -> None:
        """The next page: rows older than every row shown, appended at the end."""
        oldest = self.oldest_id
        fresh = [
            e
            for e in sorted(entries, key=lambda e: -e.id)
            if (oldest is None or e.id < oldest) and e.local_date == self.day
        ]
        self.fetching = False
        self._more = more
        if not fresh:
            return
        self._take(fresh)
        first = len(self._ids)
        self.beginInsertRows(QModelIndex(), first, first + len(fresh) - 1)
        self._ids.extend(e.id for e in fresh)
        for entry in fresh:
            self._looks[entry.id] = self._look(entry)
        self.updates += len(fresh)
        self.endInsertRows()

    def apply(self, entries: Iterable[JournalEntry]) -> list[int]:
        """Rows read again by id: update those shown, insert the new ones of the day.
        A row older than the rows read so far waits for its page. Returns the rows
        (their ids) whose look changed or that came in."""
        fresh = [e for e in entries if e.local_date == self.day]
        if not fresh:
            return []
        oldest = self.oldest_id
        self._take(fresh)
        touched = {e.id for e in fresh}
        # A cancel that starts or stops waiting changes its credit's row too.
        for entry in fresh:
            if entry.kind is OperationKind.CANCEL and entry.external_id in self._credits:
                touched.add(self._credits[entry.external_id])
        changed: list[int] = []
        newer: list[int] = []
        for entry_id in sorted(touched, reverse=True):
            known = self._entries.get(entry_id)
            if known is None:
                continue
            row = self.row_of(entry_id)
            if row is None:
                if oldest is not None and entry_id < oldest and self._more:
                    del self._entries[entry_id]  # comes with its page
                    continue
                newer.append(entry_id)
                continue
            look = self._look(known)
            if look != self._looks[entry_id]:
                self._looks[entry_id] = look
                changed.append(entry_id)
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(HEADERS) - 1))
        for entry_id in sorted(newer, reverse=True):
            row = bisect_left(self._ids, -entry_id, key=lambda i: -i)
            self.beginInsertRows(QModelIndex(), row, row)
            self._ids.insert(row, entry_id)
            self._looks[entry_id] = self._look(self._entries[entry_id])
            self.endInsertRows()
            changed.append(entry_id)
        self.updates += len(changed)
        if newer and len(self._ids) > MAX_ROWS:
            self._trim()
        return changed

    def _trim(self) -> None:
        """Let the oldest rows beyond ``MAX_ROWS`` go (they come back by pages)."""
        first = MAX_ROWS
        self.beginRemoveRows(QModelIndex(), first, len(self._ids) - 1)
        gone = self._ids[first:]
        del self._ids[first:]
        for entry_id in gone:
            entry = self._entries.pop(entry_id, None)
            self._looks.pop(entry_id, None)
            if entry is not None and entry.external_id is not None:
                if self._credits.get(entry.external_id) == entry_id:
                    del self._credits[entry.external_id]
                if entry.kind is OperationKind.CANCEL:
                    self._canceling.discard(entry.external_id)
        self._more = True
        self.endRemoveRows()

    def _take(self, entries: Iterable[JournalEntry]) -> None:
        for entry in entries:
            self._entries[entry.id] = entry
            if entry.external_id is None:
                continue
            if entry.kind is OperationKind.CREDIT:
                self._credits[entry.external_id] = entry.id
            elif entry.kind is OperationKind.CANCEL:
                if entry.outcome is Outcome.PENDING:
                    self._canceling.add(entry.external_id)
                else:
                    self._canceling.discard(entry.external_id)

    def _look(self, entry: JournalEntry) -> RowLook:
        points = "" if entry.points is None else format_points(entry.points, self.amount_locale)
        amount = "" if entry.amount is None else format_amount(entry.amount, self.amount_locale)
        units = entry.units or 0  # a point-item credit: how many items
        if units and not entry.amount:
            amount = self.tr("%n items", "", units)
        pending_cancel = entry.kind is OperationKind.CREDIT and entry.external_id in self._canceling
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
            muted=entry.canceled or entry.outcome in MUTED,
            alarm=entry.outcome in (Outcome.FAILED, Outcome.REJECTED),
            struck=entry.canceled,
            cancelable=can_cancel(entry, queued=self.queued) and not pending_cancel,
        )
