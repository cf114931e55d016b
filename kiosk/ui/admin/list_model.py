"""One page of an administration list as a Qt model, and the view that shows it.

``AdminListModel`` holds the page's records (at most ``limit`` from the server) and
the columns; each row's texts are worked out once, when the row is first painted or
measured, and kept until the next page. A new page is one model reset, and so is a
change of columns (the rewards' prices have one per level). No item object per cell.

``AdminTable`` is the read-only view: no selection, touch-sized rows; a tap on a row
(``clicked``) or Enter on the current row (``row_opened``) opens it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QModelRoleData,
    QModelRoleDataSpan,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QKeyEvent
from PySide6.QtWidgets import QTableView, QWidget

from kiosk.ui.admin.list_columns import Column
from kiosk.ui.theme import current_palette

RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
LEFT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
OPEN_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
_INDEX = QModelIndex | QPersistentModelIndex


TEXT_ROLES = (
    int(Qt.ItemDataRole.DisplayRole),
    int(Qt.ItemDataRole.ToolTipRole),  # the whole text where the column elides it
    int(Qt.ItemDataRole.AccessibleTextRole),
)
TOOLTIP_ROLE = int(Qt.ItemDataRole.ToolTipRole)
ALIGNMENT_ROLE = int(Qt.ItemDataRole.TextAlignmentRole)
SWATCH_ROLE = int(Qt.ItemDataRole.DecorationRole)
DIM_ROLE = int(Qt.ItemDataRole.ForegroundRole)


@dataclass(frozen=True)
class RowTexts:
    """What one row shows, worked out once per page."""

    cells: tuple[str, ...]
    dim: bool  # the whole row greyed (a disabled reward, a suspended client)
    roles: tuple[dict[int, object], ...]  # each cell's served roles and their values


class AdminListModel(QAbstractTableModel):
    """The page's records under ``columns``."""

    def __init__(self, columns: Sequence[Column] = (), parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._columns: list[Column] = list(columns)
        self._records: list[Any] = []
        self._rows: list[RowTexts | None] = []  # None: not painted or measured yet
        self._hidden: tuple[int, ...] = ()  # columns hidden for lack of room

    # -- what it holds ---------------------------------------------------------------
    @property
    def columns(self) -> list[Column]:
        return self._columns

    @property
    def records(self) -> list[Any]:
        """The page's records, top to bottom."""
        return self._records

    def record(self, row: int) -> Any:
        return self._records[row] if 0 <= row < len(self._records) else None

    def row_texts(self, row: int) -> RowTexts:
        shown = self._rows[row]
        if shown is None:
            shown = self._rows[row] = self._work_out(self._records[row])
        return shown

    def texts(self, column: int) -> list[str]:
        """The texts of one column, top to bottom (tests and logs)."""
        if not 0 <= column < len(self._columns):
            return []
        return [self.row_texts(row).cells[column] for row in range(len(self._records))]

    # -- changes ---------------------------------------------------------------------
    def set_records(self, records: Sequence[Any]) -> None:
        """A new page instead of the shown one (one reset)."""
        self.beginResetModel()
        self._records = list(records)
        self._rows = [None] * len(self._records)
        self.endResetModel()

    def set_columns(self, columns: Sequence[Column]) -> None:
        """Other columns over the same records (their texts worked out again)."""
        self.beginResetModel()
        self._columns = list(columns)
        self._rows = [None] * len(self._records)
        self.endResetModel()

    def set_hidden(self, columns: Sequence[int]) -> None:
        """The columns the view hides for lack of room: each row's name says their values
        in its tooltip ("Email: a***@mail.com")."""
        hidden = tuple(c for c in columns if 0 <= c < len(self._columns))
        if hidden == self._hidden:
            return
        self._hidden = hidden
        self._rows = [None] * len(self._records)
        if self._records and self._columns:
            last = self.index(len(self._records) - 1, len(self._columns) - 1)
            self.dataChanged.emit(self.index(0, 0), last, [Qt.ItemDataRole.ToolTipRole])

    def clear(self) -> None:
        """Forget the records and their texts (they may hold personal data)."""
        self.set_records(())

    def _work_out(self, record: Any) -> RowTexts:
        cells = tuple(column.text(record) for column in self._columns)
        dim = any(column.dim(record) for column in self._columns if column.dim)
        muted = QColor(current_palette().muted) if dim else None
        roles: list[dict[int, object]] = []
        name = next((i for i, c in enumerate(self._columns) if c.stretch), 0)
        for index, (column, text) in enumerate(zip(self._columns, cells, strict=True)):
            values: dict[int, object] = dict.fromkeys(TEXT_ROLES, text)
            if index == name and self._hidden:
                more = (f"{self._columns[i].title}: {cells[i]}" for i in self._hidden)
                values[TOOLTIP_ROLE] = "\n".join((text, *more))
            values[ALIGNMENT_ROLE] = RIGHT if column.right else LEFT
            colour = column.swatch(record) if column.swatch else None
            if colour and QColor.isValidColorName(str(colour)):
                values[SWATCH_ROLE] = QColor(str(colour))  # a colour square before the text
            if muted is not None:
                values[DIM_ROLE] = muted
            roles.append(values)
        return RowTexts(cells, dim, tuple(roles))

    # -- Qt's model ------------------------------------------------------------------
    def rowCount(self, parent: _INDEX = QModelIndex()) -> int:  # noqa: B008 (Qt's default)
        return 0 if parent.isValid() else len(self._records)

    def columnCount(self, parent: _INDEX = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self._columns):
            return None
        column = self._columns[section]
        if role in (
            Qt.ItemDataRole.DisplayRole,
            Qt.ItemDataRole.ToolTipRole,
            Qt.ItemDataRole.AccessibleTextRole,
        ):
            return column.title  # translated by the section that made the column
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return RIGHT if column.right else LEFT
        return None

    def data(self, index: _INDEX, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        row, column = index.row(), index.column()
        if not (0 <= row < len(self._records) and 0 <= column < len(self._columns)):
            return None
        return self.row_texts(row).roles[column].get(role)

    def multiData(self, index: _INDEX, roleDataSpan: QModelRoleDataSpan | QModelRoleData) -> None:
        """All the roles a painted or measured cell asks for, in one call into Python
        (Qt's default calls ``data()`` once per role: some ten calls per cell)."""
        row, column = index.row(), index.column()
        inside = 0 <= row < len(self._records) and 0 <= column < len(self._columns)
        values = self.row_texts(row).roles[column] if inside else {}
        spans: Iterable[QModelRoleData]
        if isinstance(roleDataSpan, QModelRoleData):
            spans = (roleDataSpan,)
        else:  # (iterable in PySide6, not in its stubs)
            spans = cast(Iterable[QModelRoleData], roleDataSpan)
        for role_data in spans:
            value = values.get(role_data.role())
            if value is None:
                role_data.clearData()
            else:
                role_data.setData(value)

    def flags(self, index: _INDEX) -> Qt.ItemFlag:
        # Enabled, not selectable: the list is read and tapped, never selected.
        return Qt.ItemFlag.ItemIsEnabled if index.isValid() else Qt.ItemFlag.NoItemFlags


class AdminTable(QTableView):
    """The list's view; ``row_opened(row)`` on Enter or Return on the current row."""

    row_opened = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTabKeyNavigation(False)  # Tab leaves the list; the arrows move in it

    def rowCount(self) -> int:
        """The rows shown (the model's)."""
        model = self.model()
        return model.rowCount() if model is not None else 0

    def columnCount(self) -> int:
        model = self.model()
        return model.columnCount() if model is not None else 0

    def keyPressEvent(self, event: QKeyEvent) -> None:
        index = self.currentIndex()
        if event.key() in OPEN_KEYS:
            event.accept()
            if index.isValid():
                self.row_opened.emit(index.row())
            return
        super().keyPressEvent(event)
