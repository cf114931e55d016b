"""The branch's point items as a checklist: which show as counter buttons, in what
order. A merchant may have hundreds of point items, so the list is a model in a
``QListView`` (no item object per row): the rows' texts and ids, and the set of ids
checked.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtWidgets import QListView, QWidget

ID_ROLE = Qt.ItemDataRole.UserRole  # the row's point item id
_INDEX = QModelIndex | QPersistentModelIndex
_TEXT_ROLES = (
    Qt.ItemDataRole.DisplayRole,
    Qt.ItemDataRole.ToolTipRole,  # the whole name where the list is narrow
    Qt.ItemDataRole.AccessibleTextRole,
)


def _is_checked(value: object) -> bool:
    if isinstance(value, Qt.CheckState):
        return value == Qt.CheckState.Checked
    return isinstance(value, int) and value == Qt.CheckState.Checked.value


class PointItemChecklist(QAbstractListModel):
    """Rows ``(id, text)`` in the order shown; ``checked_ids()`` in that order."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[int, str]] = []
        self._checked: set[int] = set()

    def set_items(self, rows: Iterable[tuple[int, str]], checked: Iterable[int]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self._checked = set(checked)
        self.endResetModel()

    def clear(self) -> None:
        self.set_items((), ())

    def item_id(self, row: int) -> int | None:
        return self._rows[row][0] if 0 <= row < len(self._rows) else None

    def checked_ids(self) -> tuple[int, ...]:
        return tuple(item_id for item_id, _ in self._rows if item_id in self._checked)

    def set_checked(self, row: int, checked: bool) -> None:
        if not 0 <= row < len(self._rows):
            return
        item_id = self._rows[row][0]
        if checked == (item_id in self._checked):
            return
        if checked:
            self._checked.add(item_id)
        else:
            self._checked.discard(item_id)
        index = self.index(row)
        self.dataChanged.emit(index, index, [Qt.ItemDataRole.CheckStateRole])

    def move(self, row: int, target: int) -> bool:
        """Row ``row`` to ``target`` (one row moved: the view keeps its current row)."""
        if row == target or not (0 <= row < len(self._rows) and 0 <= target < len(self._rows)):
            return False
        # Qt's destination is the row before which it lands, counted before the move.
        self.beginMoveRows(QModelIndex(), row, row, QModelIndex(), target + (target > row))
        self._rows.insert(target, self._rows.pop(row))
        self.endMoveRows()
        return True

    # -- Qt's model ------------------------------------------------------------------
    def rowCount(self, parent: _INDEX = QModelIndex()) -> int:  # noqa: B008 (Qt's default)
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: _INDEX, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        item_id, text = self._rows[index.row()]
        if role in _TEXT_ROLES:
            return text
        if role == Qt.ItemDataRole.CheckStateRole:
            state = Qt.CheckState.Checked if item_id in self._checked else Qt.CheckState.Unchecked
            return state.value
        if role == ID_ROLE:
            return item_id
        return None

    def setData(self, index: _INDEX, value: object, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.CheckStateRole or not index.isValid():
            return False
        self.set_checked(index.row(), _is_checked(value))
        return True

    def flags(self, index: _INDEX) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemIsUserCheckable
        )


class ChecklistView(QListView):
    """The checklist's view: touch-sized rows, long names wrapped, never sideways."""

    def __init__(self, model: PointItemChecklist, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.checklist = model
        self.setModel(model)
        self.setProperty("role", "checklist")  # the theme's list frame
        self.setWordWrap(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setStyleSheet(
            "QListView::item { min-height: 48px; padding-left: 6px; }"
            "QListView::indicator { width: 26px; height: 26px; }"
        )

    def count(self) -> int:
        return self.checklist.rowCount()

    def current_row(self) -> int:
        index = self.currentIndex()
        return index.row() if index.isValid() else -1

    def set_current_row(self, row: int) -> None:
        self.setCurrentIndex(self.checklist.index(row))
