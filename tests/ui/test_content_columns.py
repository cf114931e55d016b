"""Tables fit their columns when their contents change and once when first shown, not
at every layout (issue #4: Qt's ResizeToContents measured every cell of Today's
table at each resize, show and paint)."""

from __future__ import annotations

from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QHeaderView,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)
from pytestqt.qtbot import QtBot

from kiosk.ui.widgets.layouts import ContentColumns


def table_with(qtbot: QtBot) -> tuple[QWidget, QTableWidget, ContentColumns]:
    table = QTableWidget(0, 3)
    table.setHorizontalHeaderLabels(["Time", "Client", "Points"])
    fitter = ContentColumns(table, lambda: [0, 2])
    table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
    window = QWidget()
    qtbot.addWidget(window)
    QVBoxLayout(window).addWidget(table)
    window.resize(700, 300)
    return window, table, fitter


def test_columns_fit_their_contents_when_told_and_stay_fixed(qtbot: QtBot) -> None:
    window, table, fitter = table_with(qtbot)
    header = table.horizontalHeader()
    assert header.sectionResizeMode(0) is QHeaderView.ResizeMode.Fixed
    window.show()
    qtbot.waitExposed(window)
    narrow = table.columnWidth(2)
    table.setRowCount(1)
    table.setItem(0, 2, QTableWidgetItem("1.234.567.890 points credited"))
    table.setItem(0, 0, QTableWidgetItem("12:34"))
    assert table.columnWidth(2) == narrow  # Fixed: nothing measured on its own
    fitter.fit([2])
    assert table.columnWidth(2) > narrow  # fitted to the new text
    assert table.columnWidth(2) >= table.sizeHintForColumn(2)


def test_the_first_show_fits_with_the_fonts_of_the_screen(qtbot: QtBot) -> None:
    """Filled before it is shown, and then styled by the screen it sits in: the first
    show fits the columns again with the final fonts."""
    window, table, _ = table_with(qtbot)
    table.setRowCount(1)
    table.setItem(0, 0, QTableWidgetItem("12:34:56"))
    window.setStyleSheet("QTableView { font-size: 30px; }")  # the screen's sheet
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: table.columnWidth(0) >= table.sizeHintForColumn(0))
    assert table.fontMetrics().height() > 30  # the big font applies


def test_a_table_view_over_a_model_fits_the_same_way(qtbot: QtBot) -> None:
    model = QStandardItemModel(0, 3)
    table = QTableView()
    table.setModel(model)
    fitter = ContentColumns(table, lambda: [0])
    assert table.horizontalHeader().sectionResizeMode(0) is QHeaderView.ResizeMode.Fixed
    qtbot.addWidget(table)
    table.show()
    qtbot.waitExposed(table)
    narrow = table.columnWidth(0)
    model.appendRow([QStandardItem("1.234.567.890 points credited")])
    assert table.columnWidth(0) == narrow
    fitter.fit()
    assert table.columnWidth(0) > narrow
