"""Today's model and view (issue #16): a change touches only its rows (dataChanged on
the rows whose ids changed, beginInsertRows for new ones), older rows come by pages,
and "Cancel credit" is painted and hit-tested, no widget per row."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from PySide6.QtCore import QModelIndex, QPoint, Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from kiosk.core.amounts import AmountLocale
from kiosk.core.journal import JournalEntry, OperationKind, Outcome
from kiosk.ui.screens.today.model import (
    ACTION,
    AMOUNT,
    CANCELABLE_ROLE,
    CLIENT,
    HEADERS,
    KIND,
    MAX_ROWS,
    POINTS,
    RESULT,
    JournalModel,
)
from kiosk.ui.screens.today.table import ROW_PX, JournalTable
from kiosk.ui.theme import current_palette

AT = datetime(2026, 1, 1, 15, 0, tzinfo=UTC)
DAY = date(2026, 1, 1)


def entry(
    entry_id: int, kind: OperationKind = OperationKind.CREDIT, **fields: object
) -> JournalEntry:
    base = JournalEntry(
        id=entry_id,
        at=AT + timedelta(minutes=entry_id),
        local_date=DAY,
        kind=kind,
        outcome=Outcome.OK,
        client="Juan Carlos Pérez · j***@example.com",
        external_id=f"b1-20260101-{entry_id}",
        points=1234 if kind is OperationKind.CREDIT else None,
        amount=Decimal("1234.56") if kind is OperationKind.CREDIT else None,
        ticket=str(entry_id),
    )
    return replace(base, **fields)  # type: ignore[arg-type]


def make_table(qtbot: QtBot) -> JournalTable:
    table = JournalTable(AmountLocale.ES_AR)
    qtbot.addWidget(table)
    table.resize(1200, 600)
    table.show()
    return table


class Spy:
    """What the model told its views."""

    def __init__(self, model: JournalModel) -> None:
        self.changed: list[tuple[int, int]] = []
        self.inserted: list[tuple[int, int]] = []
        self.resets = 0
        model.dataChanged.connect(lambda a, b: self.changed.append((a.row(), b.row())))
        model.rowsInserted.connect(lambda _p, a, b: self.inserted.append((a, b)))
        model.modelReset.connect(self._reset)

    def _reset(self) -> None:
        self.resets += 1


def cell(model: JournalModel, row: int, column: int, role: int = 0) -> object:
    return model.index(row, column).data(role)


def test_insert_update_and_cancel_touch_only_their_rows(qtbot: QtBot) -> None:
    table = make_table(qtbot)
    model = table.journal_model
    credit, other = entry(1), entry(2, points=50, amount=Decimal("50"))
    model.reset(DAY, [other, credit], more=False)
    spy = Spy(model)
    assert [e.id for e in table.entries] == [2, 1]  # newest first
    assert table.cancelable_ids() == [2, 1]
    assert table.findChildren(QPushButton) == []  # painted, not a widget per row

    # The cancel: the credit's row changes, the cancel's row comes in at the top.
    canceled = replace(credit, canceled_at=AT + timedelta(minutes=5))
    cancel = entry(3, OperationKind.CANCEL, external_id=credit.external_id, points=-1234)
    assert model.apply([cancel, canceled]) == [1, 3]
    assert spy.inserted == [(0, 0)]
    assert spy.changed == [(1, 1)]  # the credit's row (row 1 before the insert)
    assert spy.resets == 0
    assert [e.id for e in table.entries] == [3, 2, 1]
    assert cell(model, 0, KIND) == "Credit canceled"
    assert table.cancelable_ids() == [2]
    assert cell(model, 2, RESULT) == "Canceled"
    assert cell(model, 2, RESULT, Qt.ItemDataRole.ForegroundRole) == QColor(current_palette().muted)
    font = cell(model, 2, POINTS, Qt.ItemDataRole.FontRole)
    assert isinstance(font, QFont)
    assert font.strikeOut()
    assert cell(model, 1, POINTS, Qt.ItemDataRole.FontRole) is None

    # Read again, equal: nothing is told.
    spy.changed.clear()
    spy.inserted.clear()
    assert model.apply([replace(other)]) == []
    assert (spy.changed, spy.inserted) == ([], [])
    # A row of another day is not this list's.
    assert model.apply([entry(9, local_date=date(2026, 1, 2))]) == []
    assert model.rowCount() == 3


def test_a_pending_cancel_hides_the_action_and_a_refusal_turns_red(qtbot: QtBot) -> None:
    table = make_table(qtbot)
    model = table.journal_model
    table.queued = True
    pending = entry(1, outcome=Outcome.PENDING)
    model.reset(DAY, [pending], more=False)
    assert table.cancelable_ids() == [1]
    spy = Spy(model)
    cancel = entry(2, OperationKind.CANCEL, outcome=Outcome.PENDING, external_id="b1-20260101-1")
    model.apply([cancel])  # only the cancel's id changed: its credit's row follows
    assert cell(model, 1, RESULT) == "Cancel pending"
    assert spy.changed == [(0, 0)]  # the credit's row, before the cancel came in above it
    assert table.cancelable_ids() == []
    refused = replace(cancel, outcome=Outcome.REJECTED)
    model.apply([refused])
    assert cell(model, 0, RESULT) == "Refused"
    assert cell(model, 0, RESULT, Qt.ItemDataRole.ForegroundRole) == QColor(
        current_palette().danger
    )
    assert table.cancelable_ids() == [1]  # nothing waits any more: cancelable again


def test_older_rows_come_by_pages_as_the_list_scrolls(qtbot: QtBot) -> None:
    table = make_table(qtbot)
    model = table.journal_model
    asked: list[int] = []
    model.more_wanted.connect(lambda: asked.append(model.oldest_id or 0))
    model.reset(DAY, [entry(i) for i in range(300, 200, -1)], more=True)
    assert model.rowCount() == 100
    assert model.canFetchMore(QModelIndex())
    table.scrollToBottom()  # the view asks for more at the end
    qtbot.waitUntil(lambda: asked == [201])
    assert not model.canFetchMore(QModelIndex())  # one read at a time
    spy = Spy(model)
    model.add_older([entry(i) for i in range(200, 150, -1)], more=False)
    assert spy.inserted == [(100, 149)]
    assert model.rowCount() == 150
    assert not model.canFetchMore(QModelIndex())
    # A new row goes on top; a row older than those read waits for its page.
    model.reset(DAY, [entry(i) for i in range(300, 200, -1)], more=True)
    assert model.apply([entry(301), entry(5)]) == [301]
    assert [e.id for e in model.entries[:2]] == [301, 300]
    assert model.entry(5) is None


def test_the_rows_kept_have_a_ceiling(qtbot: QtBot) -> None:
    model = JournalModel(AmountLocale.ES_AR)
    model.reset(DAY, [entry(i) for i in range(MAX_ROWS, 0, -1)], more=False)
    removed: list[tuple[int, int]] = []
    model.rowsRemoved.connect(lambda _p, first, last: removed.append((first, last)))
    model.apply([entry(MAX_ROWS + 1), entry(MAX_ROWS + 2)])
    assert model.rowCount() == MAX_ROWS
    assert removed == [(MAX_ROWS, MAX_ROWS + 1)]
    assert model.entry(1) is None  # the oldest went; they come back by pages
    assert model.canFetchMore(QModelIndex())
    assert model.oldest_id == 3


def test_the_action_is_a_touch_target_tapped_or_keyed(qtbot: QtBot) -> None:
    table = make_table(qtbot)
    model = table.journal_model
    model.reset(DAY, [entry(2, outcome=Outcome.FAILED), entry(1)], more=False)
    tapped: list[int] = []
    table.cancel_requested.connect(tapped.append)
    assert table.rowViewportPosition(1) == ROW_PX
    assert table.action_rect(2) is None  # a failed credit: nothing to cancel
    rect = table.action_rect(1)
    assert rect is not None
    assert rect.height() >= 48
    assert rect.width() >= 48
    viewport = table.viewport()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=rect.center())
    assert tapped == [1]
    # Outside the painted rect (the cell's margin), or on another column: nothing.
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=rect.topLeft() - QPoint(2, 2))
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=QPoint(10, rect.center().y()))
    assert tapped == [1]
    table.set_actions_enabled(False)
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=rect.center())
    assert tapped == [1]
    table.set_actions_enabled(True)
    # The keyboard: the action's cell focused, Enter or Space.
    table.setFocus(Qt.FocusReason.TabFocusReason)
    table.setCurrentIndex(model.index(1, ACTION))
    qtbot.keyClick(table, Qt.Key.Key_Return)
    qtbot.keyClick(table, Qt.Key.Key_Space)
    assert tapped == [1, 1, 1]
    assert model.index(1, ACTION).data(CANCELABLE_ROLE) is True
    assert model.index(1, ACTION).data(Qt.ItemDataRole.AccessibleTextRole) == "Cancel credit"
    assert model.index(0, ACTION).data(Qt.ItemDataRole.AccessibleTextRole) == ""
    client = model.index(1, CLIENT)
    assert client.data() == "Juan Carlos Pérez\nj***@example.com"
    assert client.data(Qt.ItemDataRole.ToolTipRole) == "Juan Carlos Pérez · j***@example.com"
    assert client.data(Qt.ItemDataRole.AccessibleTextRole) == client.data(
        Qt.ItemDataRole.ToolTipRole
    )
    assert model.columnCount() == len(HEADERS)
    assert model.headerData(POINTS, Qt.Orientation.Horizontal) == "Points"


def test_the_columns_stay_put_when_a_credit_is_canceled(qtbot: QtBot) -> None:
    """Issue #21 (minor): a cancel turned a row "Canceled", added "Credit canceled" and
    "-1.234": the columns widened and the client's column jumped under the cashier."""
    table = make_table(qtbot)
    table.resize(1024, 600)
    model = table.journal_model
    credit = entry(1, points=98_765_432, amount=Decimal("1234.56"))
    model.reset(DAY, [entry(2, points=50, amount=Decimal("50")), credit], more=False)
    header = table.horizontalHeader()

    def widths() -> list[int]:
        return [header.sectionSize(c) for c in range(len(HEADERS))]

    before = widths()
    canceled = replace(credit, canceled_at=AT + timedelta(minutes=5))
    cancel = entry(3, OperationKind.CANCEL, external_id=credit.external_id, points=-98_765_432)
    model.apply([cancel, canceled])
    assert cell(model, 0, KIND) == "Credit canceled"
    assert cell(model, 2, RESULT) == "Canceled"
    assert widths() == before


def test_a_point_item_credit_shows_how_many_items(qtbot: QtBot, spanish: object) -> None:
    """Issue #21 (minor): an item credit showed neither an amount nor units."""
    table = make_table(qtbot)
    model = table.journal_model
    model.reset(DAY, [entry(1, amount=None, units=3), entry(2, amount=None, units=1)], more=False)
    assert cell(model, 1, AMOUNT) == "3 artículos"
    assert cell(model, 0, AMOUNT) == "1 artículo"
