"""The Pending list's rows as a Qt model: the outbox's waiting and dead-letter rows,
their texts worked out once per row (age, operation and sale, client, reference,
tries, last error in plain words)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QColor

from kiosk.core.amounts import AmountLocale, format_amount
from kiosk.core.counter.credit_outbox import entry_error
from kiosk.core.outbox.queue import OutboxEntry, RowKind, RowState
from kiosk.ui.messages import error_text
from kiosk.ui.theme import current_palette

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
    if entry.state is RowState.SENDING:
        return _t(SENDING)
    error = entry_error(entry.last_error)
    if error is None:
        return ""
    text = error_text(error)
    return _t(REFUSED).replace("%1", text) if entry.state is RowState.DEAD else text


class PendingModel(QAbstractTableModel):
    """The waiting and dead-letter rows: texts worked out once per row, at ``reset``."""

    def __init__(self, locale: AmountLocale, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.amount_locale = locale
        self.entries: list[OutboxEntry] = []
        self._cells: dict[int, tuple[str, ...]] = {}  # by row, worked out when first asked
        self._rows: dict[int, int] = {}  # outbox row id -> row

    def rowCount(self, parent: _INDEX = QModelIndex()) -> int:  # noqa: B008 (Qt's default)
        return 0 if parent.isValid() else len(self.entries)

    def columnCount(self, parent: _INDEX = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(HEADERS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return _t(HEADERS[section]) if HEADERS[section] else ""
        return None

    def data(self, index: _INDEX, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self.entries):
            return None
        entry, column = self.entries[index.row()], index.column()
        dead = entry.state is RowState.DEAD
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            if column == ACTION:  # painted by the delegate; named for a screen reader
                named = dead and role == Qt.ItemDataRole.AccessibleTextRole
                return _t(DISCARD) if named else ""
            return self.cells(index.row())[column]
        if role == Qt.ItemDataRole.ForegroundRole:
            if (column == ERROR and dead) or (column == AGE and entry.stale):
                return QColor(current_palette().danger)
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == ERROR:
                return entry.last_error or ""
            if column == REFERENCE:
                return entry.external_id
            return None
        if role == ROW_ID_ROLE:
            return entry.id
        if role == DISCARDABLE_ROLE:
            return dead
        return None

    def flags(self, index: _INDEX) -> Qt.ItemFlag:
        return Qt.ItemFlag.ItemIsEnabled if index.isValid() else Qt.ItemFlag.NoItemFlags

    def reset(self, entries: Sequence[OutboxEntry]) -> None:
        self.beginResetModel()
        self.entries = list(entries)
        self._cells = {}
        self._rows = {e.id: row for row, e in enumerate(self.entries)}
        self.endResetModel()

    def cells(self, row: int) -> tuple[str, ...]:
        """The row's texts (made when a paint or a measure first needs them)."""
        cells = self._cells.get(row)
        if cells is None:
            cells = self._cells[row] = self._texts(self.entries[row])
        return cells

    def row_of(self, row_id: int) -> int | None:
        return self._rows.get(row_id)

    def _texts(self, entry: OutboxEntry) -> tuple[str, ...]:
        return (
            age_text(entry.age),
            self._operation(entry),
            entry.client,
            entry.external_id,
            str(entry.attempts),
            error_of(entry),
        )

    def _operation(self, entry: OutboxEntry) -> str:
        """The operation over what was sold ($ 1.234,56, or 3 units): which sale waits."""
        kind = _t(KIND_TEXT[entry.kind])
        if entry.amount is not None:
            amount = format_amount(Decimal(str(entry.amount)), self.amount_locale)
            return f"{kind}\n{amount}"
        if entry.units is not None:
            units = QCoreApplication.translate("PendingTable", "%n unit(s)", "", entry.units)
            return f"{kind}\n{units}"
        return kind
