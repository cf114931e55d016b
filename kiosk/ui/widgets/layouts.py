"""Set-up shared by the counter's lists and grids."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QGridLayout,
    QHeaderView,
    QScrollArea,
    QTableView,
    QWidget,
)

TABLE_STYLE = (
    "QTableView { font-size: 16px; } QHeaderView::section { font-size: 16px; }"
    " QTableView::item { padding-left: 8px; padding-right: 8px; }"
)


def read_only_table(table: QTableView, *, word_wrap: bool) -> None:
    """A table the cashier reads and taps: no editing, no selection, no focus frame."""
    table.setStyleSheet(TABLE_STYLE)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    table.setAlternatingRowColors(True)
    table.setShowGrid(False)
    table.setWordWrap(word_wrap)
    table.verticalHeader().hide()


def tile_scroll(area: QScrollArea, name: str, gap: int) -> tuple[QWidget, QGridLayout]:
    """Make ``area`` a transparent, vertically scrolling grid of tiles; returns the
    inner widget and its grid (top-aligned, ``gap`` between tiles)."""
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    inner = QWidget()
    inner.setObjectName(name)
    inner.setStyleSheet(f"QWidget#{name} {{ background: transparent; }}")
    area.viewport().setStyleSheet("background: transparent;")
    grid = QGridLayout(inner)
    grid.setContentsMargins(0, 0, 4, 0)
    grid.setSpacing(gap)
    grid.setAlignment(Qt.AlignmentFlag.AlignTop)
    area.setWidget(inner)
    return inner, grid


def text_scroll(content: QWidget, name: str) -> QScrollArea:
    """A transparent, frameless area that scrolls ``content`` (named ``name``) up and down,
    never sideways: the texts of a card (a form, a detail, a confirmation) when they are
    taller than the room, the card's buttons staying in place beside it."""
    content.setObjectName(name)
    content.setStyleSheet(f"QWidget#{name} {{ background: transparent; }}")
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setStyleSheet("QScrollArea { background: transparent; border: none; }")
    area.viewport().setAutoFillBackground(False)
    area.setWidget(content)
    return area


class ContentColumns(QObject):
    """Fits ``columns()`` of ``table`` to their contents when ``fit()`` is called (the
    table's contents changed) and once when the table is first shown (its fonts are
    final then: style sheets of the screens it sits in). The columns are ``Fixed``:
    Qt's ``ResizeToContents`` measured every cell of the column at each resize, show
    and paint of the table (issue #4: 5-10 ms on Today)."""

    def __init__(self, table: QTableView, columns: Callable[[], Iterable[int]]) -> None:
        super().__init__(table)
        self.table = table
        self.columns = columns
        header = table.horizontalHeader()
        model = table.model()  # (a model's columns, or a QTableWidget's)
        for column in range(model.columnCount() if model is not None else 0):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
        table.installEventFilter(self)

    def fit(self, columns: Iterable[int] | None = None) -> None:
        wanted = set(self.columns())
        for column in sorted(wanted if columns is None else wanted.intersection(columns)):
            self.table.resizeColumnToContents(column)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.table and event.type() == QEvent.Type.Show:
            self.table.removeEventFilter(self)  # once
            self.fit()
        return False
