"""The Pending list's rows as a Qt model: the outbox's waiting and dead-letter rows,
their texts worked out once per row (age, operation and sale, client, reference,
tries, last error in plain words).

The model holds the rows read so far, in the list's order (dead letters first, then
the waiting rows, oldest first: the key ``(rank, id)``): the first page when the list
opens, the next pages as the manager scrolls (``canFetchMore``/``fetchMore`` ask
``more_wanted``). ``apply`` takes the rows an outbox change named, read back by id,
and changes exactly those: ``dataChanged`` on a row shown, ``beginInsertRows`` for a
row that falls inside the range read so far (one past it comes with its page),
``beginRemoveRows`` for a row settled or discarded. ``PendingFeed`` reads for it.
A row the kiosk cannot read (a newer version's kind, a corrupt body) says so.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QColor

from kiosk.api.errors import ErrorKind
from kiosk.core.amounts import AmountLocale, format_amount
from kiosk.core.counter.credit_outbox import entry_error
from kiosk.core.outbox.listing import LISTED_STATES, ListKey, key_of
from kiosk.core.outbox.queue import OutboxEntry, RowKind, RowState
from kiosk.core.outbox.types import Unreadable
from kiosk.ui.messages import error_text
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.paged_model import PagedTableModel

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
# A waiting row's last attempt, in words that say what happens next (it is sent again).
AGAIN = {
    ErrorKind.MALFORMED: QT_TRANSLATE_NOOP(
        "PendingTable",
        "The service's answer could not be read (it may have been applied). It is sent "
        "again automatically, never credited twice; if this repeats, call IT.",
    ),
    ErrorKind.UNEXPECTED: QT_TRANSLATE_NOOP(
        "PendingTable",
        "The kiosk could not finish the last attempt. It is sent again automatically, "
        "never credited twice; if this repeats, call IT.",
    ),
}
SENDING = QT_TRANSLATE_NOOP("PendingTable", "Sending…")
UNKNOWN_KIND = QT_TRANSLATE_NOOP("PendingTable", "Unknown operation (%1)")
UNREADABLE = {
    Unreadable.UNKNOWN_KIND: QT_TRANSLATE_NOOP(
        "PendingTable", "This kiosk cannot read this row: a newer version wrote it."
    ),
    Unreadable.CORRUPT_BODY: QT_TRANSLATE_NOOP(
        "PendingTable", "This kiosk cannot read this row: its stored data is damaged."
    ),
}
AGE, KIND, CLIENT, REFERENCE, TRIES, ERROR, ACTION = range(len(HEADERS))
ROW_PX = 88
DISCARD = QT_TRANSLATE_NOOP("PendingTable", "Discard")
TAP_AGAIN = QT_TRANSLATE_NOOP("PendingTable", "Tap again to discard")
ROW_ID_ROLE = Qt.ItemDataRole.UserRole + 1  # the outbox row's id
DISCARDABLE_ROLE = Qt.ItemDataRole.UserRole + 2  # a dead letter: "Discard" painted
FITTED = (AGE, KIND, CLIENT, TRIES)
_INDEX = QModelIndex | QPersistentModelIndex


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
    if entry.unreadable is not None:
        return _t(UNREADABLE[entry.unreadable])
    if entry.state is RowState.SENDING:
        return _t(SENDING)
    error = entry_error(entry.last_error)
    if error is None:
        return ""
    ours = error.kind is ErrorKind.UNEXPECTED and error.status is None  # the kiosk's step
    if entry.state is RowState.PENDING and (error.kind is ErrorKind.MALFORMED or ours):
        return _t(AGAIN[error.kind])
    text = error_text(error)
    return _t(REFUSED).replace("%1", text) if entry.state is RowState.DEAD else text


class PendingModel(PagedTableModel):
    """The rows read so far; ``more_wanted`` when the view wants the next page."""

    def __init__(self, locale: AmountLocale, parent: QObject | None = None) -> None:
        super().__init__(HEADERS, CONTEXT, parent)
        self.amount_locale = locale
        self.clock: Callable[[], float] = time.time  # the outbox's clock (the rows' ages)
        self._keys: list[ListKey] = []  # the rows shown, in the list's order
        self._entries: dict[int, OutboxEntry] = {}
        self._read_at: dict[int, float] = {}  # when each row was read (its age then)
        self._cells: dict[int, tuple[str, ...]] = {}  # by row id, made when first asked
        self._cursor: ListKey | None = None  # the last key read by pages
        self.updates = 0  # rows inserted, changed or removed since the last reset (tests)

    # -- Qt's model ---------------------------------------------------------------
    def rows(self) -> int:
        return len(self._keys)

    def data(self, index: _INDEX, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._keys):
            return None
        entry, column = self._entries[self._keys[index.row()][1]], index.column()
        dead = discardable(entry)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            if column == ACTION:  # painted by the delegate; named for a screen reader
                named = dead and role == Qt.ItemDataRole.AccessibleTextRole
                return _t(DISCARD) if named else ""
            return self.cells(index.row())[column]
        if role == Qt.ItemDataRole.ForegroundRole:
            alarm = entry.state is RowState.DEAD or entry.unreadable is not None
            if (column == ERROR and alarm) or (column == AGE and entry.stale):
                return QColor(current_palette().danger)
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == ERROR:
                return entry.last_error or ""
            if column == REFERENCE:
                return entry.external_id
            if column == CLIENT:  # narrowed on a small screen: whole here
                return entry.client
            return None
        if role == ROW_ID_ROLE:
            return entry.id
        if role == DISCARDABLE_ROLE:
            return dead
        return None

    # -- what the table reads ------------------------------------------------------
    @property
    def entries(self) -> list[OutboxEntry]:
        """The rows read so far, in the list's order."""
        return [self._entries[i] for _, i in self._keys]

    @property
    def cursor(self) -> ListKey | None:
        """The key after which the next page starts."""
        return self._cursor

    def entry(self, row_id: int) -> OutboxEntry | None:
        return self._entries.get(row_id)

    def row_of(self, row_id: int) -> int | None:
        entry = self._entries.get(row_id)
        if entry is None:
            return None
        key = key_of(entry)
        row = bisect_left(self._keys, key)
        return row if row < len(self._keys) and self._keys[row] == key else None

    def cells(self, row: int) -> tuple[str, ...]:
        """The row's texts (made when a paint or a measure first needs them)."""
        row_id = self._keys[row][1]
        cells = self._cells.get(row_id)
        if cells is None:
            cells = self._cells[row_id] = self._texts(self._entries[row_id])
        return cells

    # -- changes -------------------------------------------------------------------
    def reset(self, entries: Sequence[OutboxEntry], *, more: bool = False) -> None:
        """Show ``entries`` (the list's first page) instead of everything."""
        self.beginResetModel()
        fresh = sorted((e for e in entries if e.state in LISTED_STATES), key=key_of)
        now = self.clock()
        self._entries = {e.id: e for e in fresh}
        self._keys = [key_of(e) for e in fresh]
        self._read_at = dict.fromkeys(self._entries, now)
        self._cells = {}
        self._cursor = self._keys[-1] if self._keys else None
        self._more = more
        self.fetching = False
        self.updates = 0
        self.endResetModel()

    def add_page(
        self, entries: Sequence[OutboxEntry], *, after: ListKey | None, more: bool
    ) -> None:
        """The page read after the key ``after``: appended (ignored when the list was
        opened again meanwhile: it starts elsewhere)."""
        if after != self._cursor:
            return
        self.fetching = False
        self._more = more
        fresh = sorted(
            (e for e in entries if e.state in LISTED_STATES and e.id not in self._entries),
            key=key_of,
        )
        fresh = [e for e in fresh if after is None or key_of(e) > after]
        if entries:
            self._cursor = max(self._cursor or key_of(entries[0]), *map(key_of, entries))
        if not fresh:
            return
        now = self.clock()
        first = len(self._keys)
        self.beginInsertRows(QModelIndex(), first, first + len(fresh) - 1)
        for entry in fresh:
            self._entries[entry.id] = entry
            self._read_at[entry.id] = now
            self._keys.append(key_of(entry))
        self.updates += len(fresh)
        self.endInsertRows()

    def apply(self, entries: Iterable[OutboxEntry], asked: Iterable[int]) -> list[int]:
        """Rows read again by the ids ``asked``: update those shown, insert those that
        fall inside the range read so far, remove those settled, discarded or gone.
        Returns the ids whose row changed, came in or went."""
        found = {e.id: e for e in entries}
        now = self.clock()
        touched: list[int] = []
        for row_id in sorted(set(asked)):
            entry = found.get(row_id)
            listed = entry is not None and entry.state in LISTED_STATES
            row = self.row_of(row_id)
            if (
                row is not None
                and listed
                and entry is not None
                and self._keys[row] == key_of(entry)
            ):
                self._entries[row_id] = entry
                self._read_at[row_id] = now
                self._cells.pop(row_id, None)
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(HEADERS) - 1))
                touched.append(row_id)
                continue
            if row is not None:  # gone, or moved (a dead letter sent again)
                self._remove(row)
                touched.append(row_id)
            if listed and entry is not None and self._within(key_of(entry)):
                self._insert(entry, now)
                touched.append(row_id)
        self.updates += len(set(touched))
        return touched

    def refresh_ages(self) -> None:
        """The rows' ages as of now (the list shown again): their texts made anew."""
        if not self._keys:
            return
        self._cells = {}
        self.dataChanged.emit(self.index(0, AGE), self.index(len(self._keys) - 1, AGE))

    def _within(self, key: ListKey) -> bool:
        """Inside the range read so far (a row past it comes with its page)."""
        return not self._more or (self._cursor is not None and key <= self._cursor)

    def _insert(self, entry: OutboxEntry, now: float) -> None:
        key = key_of(entry)
        row = bisect_left(self._keys, key)
        self.beginInsertRows(QModelIndex(), row, row)
        self._keys.insert(row, key)
        self._entries[entry.id] = entry
        self._read_at[entry.id] = now
        self._cells.pop(entry.id, None)
        self.endInsertRows()

    def _remove(self, row: int) -> None:
        row_id = self._keys[row][1]
        self.beginRemoveRows(QModelIndex(), row, row)
        del self._keys[row]
        del self._entries[row_id]
        self._read_at.pop(row_id, None)
        self._cells.pop(row_id, None)
        self.endRemoveRows()

    def _texts(self, entry: OutboxEntry) -> tuple[str, ...]:
        age = entry.age + max(0.0, self.clock() - self._read_at.get(entry.id, self.clock()))
        return (
            age_text(age),
            self._operation(entry),
            entry.client,
            entry.external_id,
            str(entry.attempts),
            error_of(entry),
        )

    def _operation(self, entry: OutboxEntry) -> str:
        """The operation over what was sold ($ 1.234,56, or 3 units): which sale waits."""
        if entry.unreadable is Unreadable.UNKNOWN_KIND:
            return _t(UNKNOWN_KIND).replace("%1", entry.stored_kind)
        kind = _t(KIND_TEXT[entry.kind])
        if entry.amount is not None:
            amount = format_amount(Decimal(str(entry.amount)), self.amount_locale)
            return f"{kind}\n{amount}"
        if entry.units is not None:
            units = QCoreApplication.translate("PendingTable", "%n unit(s)", "", entry.units)
            return f"{kind}\n{units}"
        return kind


def discardable(entry: OutboxEntry) -> bool:
    """A dead letter the kiosk can read: "Discard" is painted in its row."""
    return entry.state is RowState.DEAD and entry.unreadable is None
