"""The Pending list says which sale waits: the amount in the store's format, or the
units of point items, under the operation; a cancel shows no sale."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from kiosk.core.amounts import AmountLocale
from kiosk.core.outbox.queue import OutboxEntry, RowKind, RowState
from kiosk.ui.screens.today.pending import PendingTable
from kiosk.ui.screens.today.pending_model import ACTION, ERROR, KIND
from kiosk.ui.theme import current_palette


def entry(
    row_id: int,
    kind: RowKind = RowKind.CREDIT,
    state: RowState = RowState.PENDING,
    **sale: float | int,
) -> OutboxEntry:
    return OutboxEntry(
        id=row_id,
        kind=kind,
        external_id=f"b3-20261122-k0a1b2c3d-{row_id:012x}",
        state=state,
        client="Ana · a***@gmail.com",
        age=90.0,
        attempts=1,
        last_error="bad_request: the client is suspended" if state is RowState.DEAD else None,
        may_have_reached_server=False,
        next_attempt_in=1.0,
        stale=False,
        bound_here=True,
        **sale,  # type: ignore[arg-type]
    )


def test_each_row_shows_the_sale_under_the_operation(qtbot: QtBot) -> None:
    table = PendingTable(amount_locale=AmountLocale.ES_AR)
    qtbot.addWidget(table)
    table.show_entries(
        [entry(1, amount=1234.56), entry(2, units=3), entry(3, units=1), entry(4, RowKind.CANCEL)]
    )
    texts = [table.cell_text(row, KIND) for row in range(4)]
    assert texts == ["Credit\n$ 1.234,56", "Credit\n3 unit(s)", "Credit\n1 unit(s)", "Cancel"]
    us = PendingTable(amount_locale=AmountLocale.EN_US)
    qtbot.addWidget(us)
    us.show_entries([entry(1, amount=1234.56)])
    assert us.cell_text(0, KIND) == "Credit\n$1,234.56"


def test_discard_is_painted_on_dead_letters_and_asks_at_the_second_tap(qtbot: QtBot) -> None:
    table = PendingTable(amount_locale=AmountLocale.ES_AR)
    qtbot.addWidget(table)
    table.resize(1100, 500)
    table.show()
    asked: list[int] = []
    table.discard_requested.connect(asked.append)
    rows = [entry(n, state=RowState.DEAD if n <= 2 else RowState.PENDING) for n in range(1, 400)]
    table.show_entries(rows)
    assert table.rowCount() == 399
    assert table.findChildren(QPushButton) == []  # painted: no widget per row
    assert table.discard_ids() == [1, 2]
    assert table.action_rect(3) is None  # waiting rows have nothing to discard
    assert table.cell_text(0, ERROR).startswith("Refused: ")
    model = table.pending_model
    assert model.index(0, ERROR).data(Qt.ItemDataRole.ForegroundRole) == QColor(
        current_palette().danger
    )
    assert model.index(0, ACTION).data(Qt.ItemDataRole.AccessibleTextRole) == "Discard"
    rect = table.action_rect(2)
    assert rect is not None
    assert rect.height() >= 48
    now = [100.0]
    table.clock = lambda: now[0]
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert table.action_text(2) == "Tap again to discard"
    assert asked == []
    now[0] += 1.0  # "Tap again" read
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert asked == [2]
    assert table.action_text(2) == "Discard"
    # The keyboard: the action's cell focused, Enter twice.
    table.setFocus(Qt.FocusReason.TabFocusReason)
    table.setCurrentIndex(model.index(0, ACTION))
    qtbot.keyClick(table, Qt.Key.Key_Return)
    now[0] += 1.0
    qtbot.keyClick(table, Qt.Key.Key_Return)
    assert asked == [2, 1]
    table.set_actions_enabled(False)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert table.action_text(2) == "Discard"


def test_the_ages_move_on_while_the_list_is_shown(qtbot: QtBot) -> None:
    """A manager watching the list sees the ages grow, minute by minute, without a new
    read; the tick runs only while the list is on screen."""
    from kiosk.ui.screens.today.pending import AGE_TICK_MS
    from kiosk.ui.screens.today.pending_model import AGE

    now = [1_790_000_000.0]
    table = PendingTable(amount_locale=AmountLocale.ES_AR)
    qtbot.addWidget(table)
    table.pending_model.clock = lambda: now[0]
    table.show_entries([entry(1), entry(2, state=RowState.DEAD)])
    assert not table.age_timer.isActive()  # not on screen
    table.resize(1100, 400)
    table.show()
    qtbot.waitExposed(table)
    assert table.age_timer.isActive()
    assert table.age_timer.interval() == AGE_TICK_MS
    assert table.cell_text(0, AGE) == "1 min"  # 90 s when read
    now[0] += 5 * 60
    assert table.cell_text(0, AGE) == "1 min"  # as painted, until the tick
    table.age_timer.timeout.emit()
    assert table.cell_text(0, AGE) == "6 min"
    table.hide()
    assert not table.age_timer.isActive()


def test_a_double_tap_on_discard_only_arms_it(qtbot: QtBot) -> None:
    """A double tap (or Enter, Enter) within ``ARM_GUARD_MS`` is one tap: "Tap again to
    discard" must have been on screen that long before the second tap asks."""
    from kiosk.ui.widgets.commit_button import ARM_GUARD_MS

    now = [100.0]
    table = PendingTable(amount_locale=AmountLocale.ES_AR)
    qtbot.addWidget(table)
    table.clock = lambda: now[0]
    table.resize(1100, 500)
    table.show()
    asked: list[int] = []
    table.discard_requested.connect(asked.append)
    table.show_entries([entry(1, state=RowState.DEAD)])
    rect = table.action_rect(1)
    assert rect is not None
    for _ in range(2):  # a double tap, 100 ms apart
        qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        now[0] += 0.1
    assert asked == []
    assert table.action_text(1) == "Tap again to discard"
    table.setFocus(Qt.FocusReason.TabFocusReason)
    table.setCurrentIndex(table.pending_model.index(0, ACTION))
    qtbot.keyClick(table, Qt.Key.Key_Return)  # Enter, still inside the guard time
    assert asked == []
    now[0] += ARM_GUARD_MS / 1000
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert asked == [1]
