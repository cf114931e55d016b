"""The administration list's model (a page of records under columns, texts worked out
once per row, one reset per page) and its view's taps and keys."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, QModelRoleData, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QApplication
from pytestqt.qtbot import QtBot

from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.admin.list_columns import Column
from kiosk.ui.admin.list_model import LEFT, RIGHT, AdminListModel
from kiosk.ui.admin.point_items import PointItemsSection
from kiosk.ui.theme import current_palette
from tests.qt_async import until
from tests.ui.admin.admin_support import Rig, themed_rig

H = Qt.Orientation.Horizontal
ROLE = Qt.ItemDataRole


@dataclass(frozen=True)
class Level:
    name: str
    points: int
    colour: str | None = None
    enabled: bool = True


def columns(calls: list[str] | None = None) -> list[Column]:
    def name(level: Level) -> str:
        if calls is not None:
            calls.append(level.name)
        return level.name

    return [
        Column("Name", name, order="name", stretch=True, dim=lambda v: not v.enabled),
        Column("From (points)", lambda v: f"{v.points:,}", right=True),
        Column("Colour", lambda v: v.colour or "—", swatch=lambda v: v.colour, optional=True),
    ]


PAGE_ONE = [Level("Bronce", 0, "#cd7f32"), Level("Plata", 5000, "not a colour", enabled=False)]
PAGE_TWO = [Level("Oro", 15000, "#ffd700")]


def shown(model: AdminListModel, column: int) -> list[object]:
    return [model.index(r, column).data() for r in range(model.rowCount())]


def test_a_page_shows_and_the_next_page_replaces_it(qapp: QApplication) -> None:
    model = AdminListModel(columns())
    resets: list[int] = []
    model.modelReset.connect(lambda: resets.append(model.rowCount()))
    model.set_records(PAGE_ONE)
    assert (model.rowCount(), model.columnCount()) == (2, 3)
    assert shown(model, 0) == ["Bronce", "Plata"]
    assert shown(model, 1) == ["0", "5,000"]
    assert model.texts(2) == ["#cd7f32", "not a colour"]
    model.set_records(PAGE_TWO)
    assert shown(model, 0) == ["Oro"]
    assert model.record(0) is PAGE_TWO[0]
    assert model.record(1) is None
    assert resets == [2, 1]  # one reset per page, no row-by-row changes
    # A record changed on the server shows changed on the reload.
    model.set_records([Level("Oro", 20000, "#ffd700")])
    assert shown(model, 1) == ["20,000"]


def test_texts_are_worked_out_once_per_row_and_only_when_needed(qapp: QApplication) -> None:
    calls: list[str] = []
    model = AdminListModel(columns(calls))
    model.set_records(PAGE_ONE)
    assert calls == []  # nothing painted or measured yet
    for _ in range(3):
        for role in (ROLE.DisplayRole, ROLE.ToolTipRole, ROLE.ForegroundRole):
            model.index(1, 0).data(role)
    assert calls == ["Plata"]
    assert model.texts(0) == ["Bronce", "Plata"]
    assert calls == ["Plata", "Bronce"]


def test_roles_tooltip_alignment_dim_swatch_and_headers(qapp: QApplication) -> None:
    model = AdminListModel(columns())
    model.set_records(PAGE_ONE)
    bronce, plata = model.index(0, 0), model.index(1, 0)
    assert bronce.data(ROLE.ToolTipRole) == "Bronce"  # the whole text where it elides
    assert bronce.data(ROLE.AccessibleTextRole) == "Bronce"
    assert bronce.data(ROLE.TextAlignmentRole) == LEFT
    assert model.index(0, 1).data(ROLE.TextAlignmentRole) == RIGHT
    assert bronce.data(ROLE.ForegroundRole) is None
    muted = QColor(current_palette().muted)
    assert plata.data(ROLE.ForegroundRole) == muted  # a disabled record: the row greyed
    assert all(model.index(1, c).data(ROLE.ForegroundRole) == muted for c in range(3))
    assert model.index(0, 2).data(ROLE.DecorationRole) == QColor("#cd7f32")
    assert model.index(1, 2).data(ROLE.DecorationRole) is None  # not a colour: no swatch
    assert bronce.data(ROLE.DecorationRole) is None
    assert model.headerData(1, H) == "From (points)"
    assert model.headerData(1, H, ROLE.ToolTipRole) == "From (points)"
    assert model.headerData(1, H, ROLE.TextAlignmentRole) == RIGHT
    assert model.headerData(0, H, ROLE.TextAlignmentRole) == LEFT
    assert model.headerData(3, H) is None
    assert model.headerData(0, Qt.Orientation.Vertical) is None
    flags = model.flags(bronce)
    assert flags & Qt.ItemFlag.ItemIsEnabled
    assert not flags & Qt.ItemFlag.ItemIsSelectable
    assert model.index(0, 0, model.index(0, 0)).data() is None
    assert model.rowCount(bronce) == 0
    assert model.columnCount(bronce) == 0
    assert model.data(QModelIndex()) is None
    # What the view's delegate asks: all of a cell's roles in one call.
    for role, expected in ((ROLE.ToolTipRole, "Plata"), (ROLE.FontRole, None)):
        asked = QModelRoleData(role)
        asked.setData("stale")
        model.multiData(plata, asked)
        assert asked.data() == expected


def test_changed_columns_and_clear(qapp: QApplication) -> None:
    model = AdminListModel(columns())
    model.set_records(PAGE_ONE)
    assert model.texts(1) == ["0", "5,000"]
    # One more column (a new level's price): the same records under the new columns.
    wider = [*columns(), Column("Oro", lambda v: str(v.points * 2), right=True)]
    model.set_columns(wider)
    assert model.columnCount() == 4
    assert model.headerData(3, H) == "Oro"
    assert model.texts(3) == ["0", "10000"]
    assert model.texts(9) == []
    # The idle reset: no record and no text of one stays behind.
    model.clear()
    assert model.rowCount() == 0
    assert model.records == []
    assert model.texts(0) == []


@pytest.fixture
def rig(
    qapp: QApplication, qtbot: QtBot, session: CounterSession, sim_world: World
) -> Iterator[Rig]:
    yield from themed_rig(qapp, qtbot, session, sim_world)


def test_a_tap_on_a_row_or_enter_on_the_current_row_opens_it(
    rig: Rig, arun: Callable[..., Any]
) -> None:
    section = rig.open(PointItemsSection)
    table = section.list.table
    opened: list[int] = []
    section.list.activated.connect(opened.append)

    async def scenario() -> None:
        await rig.loaded()
        assert table.rowCount() >= 3
        assert table.selectionMode() is QAbstractItemView.SelectionMode.NoSelection
        assert table.verticalHeader().defaultSectionSize() == 52
        # A tap on the second row's name opens that row's form.
        spot = table.visualRect(table.model().index(1, 0)).center()
        rig.qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=spot)
        assert opened == [1]
        assert section.pages.currentWidget() is section.form
        assert section.editing is section.list.item(1)
        section.back_to_list()
        # The keyboard: Tab reaches the rows, arrows move, Enter opens the current row.
        assert table.focusPolicy() & Qt.FocusPolicy.TabFocus
        table.setCurrentIndex(QModelIndex())
        table.setFocus()
        for key in (Qt.Key.Key_Down, Qt.Key.Key_Down, Qt.Key.Key_Down):
            rig.qtbot.keyClick(table, key)
        assert table.currentIndex().row() == 2
        rig.qtbot.keyClick(table, Qt.Key.Key_Return)
        assert opened == [1, 2]
        assert section.editing is section.list.item(2)
        section.back_to_list()
        rig.qtbot.keyClick(table, Qt.Key.Key_Enter)
        assert opened == [1, 2, 2]
        # A new page: no current row, Enter opens nothing.
        section.list.reload()
        await rig.loaded(2)
        await until(lambda: not table.currentIndex().isValid())
        rig.qtbot.keyClick(table, Qt.Key.Key_Return)
        assert opened == [1, 2, 2]
        assert not table.tabKeyNavigation()  # Tab leaves the list
        # The idle reset forgets the records (they may hold personal data).
        section.list.clear()
        assert section.list.items == []
        assert table.rowCount() == 0
        assert section.list.item(0) is None

    arun(scenario())
