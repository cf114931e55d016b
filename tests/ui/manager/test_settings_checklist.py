"""The branch settings' point-item checklist: a model in a list view (a merchant may
have hundreds of point items), checked by a tap or Space, ordered with Move up/down."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPoint, Qt
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from kiosk.api.models.catalog import PointItem
from kiosk.core.amounts import AmountLocale
from kiosk.ui.manager.settings_branch import BranchSection
from kiosk.ui.manager.settings_checklist import ID_ROLE, ChecklistView, PointItemChecklist

CHECK = Qt.ItemDataRole.CheckStateRole
CHECKED, UNCHECKED = Qt.CheckState.Checked.value, Qt.CheckState.Unchecked.value
ROWS = [(1, "Café"), (2, "Medialunas"), (3, "Promo +30")]


def test_the_model_checks_orders_and_forgets(qapp: QApplication) -> None:
    model = PointItemChecklist()
    moved: list[tuple[int, int]] = []
    model.rowsMoved.connect(lambda _p, first, _l, _d, to: moved.append((first, to)))
    model.set_items(ROWS, [3, 9])  # an id no longer listed is not kept as checked
    assert model.rowCount() == 3
    assert [model.index(r).data(ID_ROLE) for r in range(3)] == [1, 2, 3]
    assert model.index(0).data() == "Café"
    assert model.index(0).data(Qt.ItemDataRole.ToolTipRole) == "Café"
    assert model.index(0).data(Qt.ItemDataRole.AccessibleTextRole) == "Café"
    assert [model.index(r).data(CHECK) for r in range(3)] == [UNCHECKED, UNCHECKED, CHECKED]
    assert model.checked_ids() == (3,)
    flags = model.flags(model.index(0))
    assert flags & Qt.ItemFlag.ItemIsUserCheckable
    assert not flags & Qt.ItemFlag.ItemIsEditable
    # The view's delegate sets an int; a test may set the enum.
    assert model.setData(model.index(0), CHECKED, CHECK)
    assert model.setData(model.index(2), Qt.CheckState.Unchecked, CHECK)
    assert not model.setData(model.index(1), "x", Qt.ItemDataRole.EditRole)
    assert model.checked_ids() == (1,)
    model.set_checked(1, True)
    assert model.checked_ids() == (1, 2)
    # Order: the checked ids follow the rows.
    assert model.move(1, 0)
    assert model.checked_ids() == (2, 1)
    assert model.move(0, 2)
    assert [model.item_id(r) for r in range(3)] == [1, 3, 2]
    assert not model.move(2, 3)
    assert not model.move(0, 0)
    assert moved == [(1, 0), (0, 3)]  # Qt's destination: before which row it lands
    assert model.item_id(5) is None
    assert model.data(QModelIndex()) is None
    model.clear()
    assert model.rowCount() == 0
    assert model.checked_ids() == ()


def check_rect_center(view: ChecklistView, row: int) -> QPoint:
    index = view.checklist.index(row)
    option = QStyleOptionViewItem()
    view.initViewItemOption(option)
    option.rect = view.visualRect(index)
    delegate = view.itemDelegateForIndex(index)
    assert isinstance(delegate, QStyledItemDelegate)
    delegate.initStyleOption(option, index)
    style = view.style()
    element = QStyle.SubElement.SE_ItemViewItemCheckIndicator
    return style.subElementRect(element, option, view).center()


def test_hundreds_of_items_are_checked_by_tap_and_space_and_ordered(
    qapp: QApplication, qtbot: QtBot
) -> None:
    branch = BranchSection(AmountLocale.ES_AR)
    qtbot.addWidget(branch)
    branch.resize(900, 1400)
    items = [PointItem(id=i, name=f"Item {i:03}", points=i) for i in range(1, 401)]
    branch.set_choices([], items, None, [400, 5])
    branch.show()
    qtbot.waitExposed(branch)
    view = branch.items
    assert view.count() == 400
    assert branch.item_ids() == (400, 5)  # the chosen first, in their order
    assert view.checklist.index(2).data() == "Item 001  ·  1 pts"
    # A tap on a row's box checks it; a second tap unchecks it.
    spot = check_rect_center(view, 2)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=spot)
    assert branch.item_ids() == (400, 5, 1)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=spot)
    assert branch.item_ids() == (400, 5)
    # Space on the current row checks it; Move up brings it before the others.
    view.set_current_row(3)
    qtbot.keyClick(view, Qt.Key.Key_Space)
    assert branch.item_ids() == (400, 5, 2)
    for _ in range(3):
        qtbot.mouseClick(branch.up_button, Qt.MouseButton.LeftButton)
    assert view.current_row() == 0
    assert branch.item_ids() == (2, 400, 5)
    qtbot.mouseClick(branch.down_button, Qt.MouseButton.LeftButton)
    assert branch.item_ids() == (400, 2, 5)
    branch.clear_choices()
    assert view.count() == 0
    assert branch.item_ids() == ()
