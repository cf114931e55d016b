"""The Pending list says which sale waits: the amount in the store's format, or the
units of point items, under the operation; a cancel shows no sale."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from kiosk.core.amounts import AmountLocale
from kiosk.core.outbox.queue import OutboxEntry, RowKind, RowState
from kiosk.ui.screens.today.pending import KIND, PendingTable


def entry(row_id: int, kind: RowKind = RowKind.CREDIT, **sale: float | int) -> OutboxEntry:
    return OutboxEntry(
        id=row_id,
        kind=kind,
        external_id=f"b3-20261122-k0a1b2c3d-{row_id:012x}",
        state=RowState.PENDING,
        client="Ana · a***@gmail.com",
        age=90.0,
        attempts=1,
        last_error=None,
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
    texts = [table.item(row, KIND).text() for row in range(4)]  # type: ignore[union-attr]
    assert texts == ["Credit\n$ 1.234,56", "Credit\n3 unit(s)", "Credit\n1 unit(s)", "Cancel"]
    us = PendingTable(amount_locale=AmountLocale.EN_US)
    qtbot.addWidget(us)
    us.show_entries([entry(1, amount=1234.56)])
    assert us.item(0, KIND).text() == "Credit\n$1,234.56"  # type: ignore[union-attr]
