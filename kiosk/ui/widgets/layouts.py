"""Set-up shared by the counter's lists and grids."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QGridLayout,
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
