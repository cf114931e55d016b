"""The columns of an administration list, and how they share the table's width.

The list never scrolls sideways, in any language or at any counter size (issue #14,
defect 11): the column that tells the rows apart (``stretch``: the name, the
reward) takes what the others leave and never gets less than ``NAME_SHARE`` of the
width (at least ``NAME_MIN_PX``). To leave it that room, ``optional`` columns are
hidden from the last one backwards, then the other columns are narrowed towards
their heading's width, and at last the rightmost columns are hidden; a text that does
not fit elides with "…" and shows whole in its tooltip. A hidden column is never a
silent loss: the list says which are hidden, and each row's name shows their values
in its tooltip (``hidden``, ``on_hidden``).

The columns' natural widths are measured when a page is shown (``fit()``), not at
every layout (issue #4): the widest of the heading and the rows' texts as the view's
delegate draws them, from its model (no item per cell); a resize only shares the
width again (``spread()``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QFrame, QHeaderView, QScrollArea, QTableView, QVBoxLayout, QWidget
from shiboken6 import isValid

NAME_MIN_PX = 180
NAME_SHARE = 0.4
OTHER_SHARE = 0.26  # a column other than the name is narrowed to this share first
SHORT_PX = 128  # a column this narrow is never narrowed further (it is hidden instead)


@dataclass(frozen=True)
class Column:
    title: str  # translated
    text: Callable[[Any], str]
    order: str | None = None  # the API ``order`` this column sorts by
    right: bool = False
    stretch: bool = False  # the column that tells the rows apart
    dim: Callable[[Any], bool] | None = None  # grey the row's text (disabled...)
    swatch: Callable[[Any], str | None] | None = None  # a colour square before the text
    optional: bool = False  # hidden first when the table is narrow


class FittedColumns(QObject):
    """Shares ``table``'s width among ``columns()`` (see the module's note)."""

    def __init__(self, table: QTableView, columns: Callable[[], Sequence[Column]]) -> None:
        super().__init__(table)
        self.table = table
        self.columns = columns
        self.natural: list[int] = []
        self.hidden: tuple[int, ...] = ()  # the columns hidden for lack of room
        self.on_hidden: Callable[[tuple[int, ...]], object] | None = None
        self._shown = False
        table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        table.setTextElideMode(Qt.TextElideMode.ElideRight)
        header = table.horizontalHeader()
        header.setStretchLastSection(False)
        header.setTextElideMode(Qt.TextElideMode.ElideRight)
        header.setMinimumSectionSize(48)
        self.viewport = table.viewport()
        table.installEventFilter(self)
        self.viewport.installEventFilter(self)

    @property
    def name_column(self) -> int:
        return next((i for i, c in enumerate(self.columns()) if c.stretch), 0)

    def setup(self) -> None:
        """Resize modes after the columns were (re)defined."""
        header = self.table.horizontalHeader()
        for index, column in enumerate(self.columns()):
            mode = (
                QHeaderView.ResizeMode.Stretch if column.stretch else QHeaderView.ResizeMode.Fixed
            )
            header.setSectionResizeMode(index, mode)
        self.natural = []

    def fit(self) -> None:
        """Measure each column's natural width (contents and heading), then share."""
        header = self.table.horizontalHeader()
        model = self.table.model()
        count = model.columnCount() if model is not None else 0
        self.natural = [
            max(self.table.sizeHintForColumn(i), header.sectionSizeHint(i)) for i in range(count)
        ]
        self.spread()

    def spread(self) -> None:
        columns = list(self.columns())
        if not columns or len(self.natural) != len(columns):
            return
        width = self.viewport.width()
        if width <= 0:
            return
        name = self.name_column
        header = self.table.horizontalHeader()
        name_min = max(NAME_MIN_PX, int(width * NAME_SHARE))
        shown = [i for i in range(len(columns)) if i != name]
        widths = {i: self.natural[i] for i in shown}
        for index in reversed([i for i in shown if columns[i].optional]):
            if sum(widths.values()) + name_min <= width:
                break
            shown.remove(index)
            del widths[index]
        cap = max(72, int(width * OTHER_SHARE))
        if sum(widths.values()) + name_min > width:
            widths = {i: min(w, max(cap, header.sectionSizeHint(i))) for i, w in widths.items()}
        room = width - name_min
        excess = sum(widths.values()) - room
        # Only long columns give way (a code or a state stays whole).
        spare = {i: max(0, w - max(SHORT_PX, header.sectionSizeHint(i))) for i, w in widths.items()}
        if 0 < excess <= sum(spare.values()):  # narrowed towards their headings, eliding
            total = sum(spare.values())
            widths = {i: w - -(-spare[i] * excess // total) for i, w in widths.items()}
        while sum(widths.values()) > room and len(widths) > 1:
            del widths[max(widths)]  # the last resort: fewer columns, never all cut
        if sum(widths.values()) > room:
            widths = {i: max(48, room) for i in widths}
        for index in range(len(columns)):
            hidden = index != name and index not in widths
            if self.table.isColumnHidden(index) != hidden:
                self.table.setColumnHidden(index, hidden)
            if index in widths and header.sectionSize(index) != widths[index]:
                header.resizeSection(index, widths[index])
        hidden = tuple(i for i in range(len(columns)) if i != name and i not in widths)
        if hidden != self.hidden:
            self.hidden = hidden
            if self.on_hidden is not None:
                self.on_hidden(hidden)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if not isValid(self.table):  # (events of its destruction)
            return False
        if watched is self.table and kind == QEvent.Type.Show and not self._shown:
            self._shown = True  # its fonts are final now (the screens' style sheets)
            self.fit()
        elif watched is self.viewport and kind == QEvent.Type.Resize:
            self.spread()
        return False


class OptionsArea(QScrollArea):
    """The list's folding sort and filters: a card of chips (``filters`` takes more),
    scrolling when taller than half the list, so the window never grows past the
    screen."""

    def __init__(self, sort: QWidget) -> None:
        super().__init__()
        self.card = QFrame()
        self.card.setProperty("role", "card")
        self.filters = QVBoxLayout(self.card)
        self.filters.setContentsMargins(16, 12, 16, 12)
        self.filters.setSpacing(12)
        self.filters.addWidget(sort)
        self.setWidget(self.card)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.hide()

    def fit(self, width: int, height: int) -> None:
        """Its height for the list's ``width`` x ``height``."""
        if self.isHidden():
            return
        inner = max(1, width - self.verticalScrollBar().sizeHint().width())
        needed = self.card.heightForWidth(inner)
        needed = needed if needed > 0 else self.card.sizeHint().height()
        self.setFixedHeight(min(needed, max(120, height // 2)))
