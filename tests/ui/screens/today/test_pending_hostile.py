"""The Pending list words what a hostile server left on a row (issue #22, items 10 and
12), in English and Spanish: an answer the kiosk could not read and an attempt that
broke inside the kiosk are sent again (said so, not "try again"); a duplicate refusal
naming another operation is a dead letter for a manager to check."""

from __future__ import annotations

from typing import Any

from pytestqt.qtbot import QtBot

from kiosk.api.errors import ApiError, ErrorKind, MalformedResponse, Reason
from kiosk.core.amounts import AmountLocale
from kiosk.core.outbox.attempts import describe
from kiosk.core.outbox.queue import OutboxEntry, RowKind, RowState
from kiosk.ui.screens.today.pending import PendingTable
from kiosk.ui.screens.today.pending_model import ERROR

DUPLICATE = "Ya existe una operación de puntos con el externalId b3-20261122-T77 para este negocio"


def entry(row_id: int, error: BaseException, state: RowState) -> OutboxEntry:
    kind, message = describe(error)  # as the sender writes the row's last error
    return OutboxEntry(
        id=row_id,
        kind=RowKind.CREDIT,
        external_id=f"b3-20261122-k0a1b2c3d-{row_id:012x}",
        state=state,
        client="Ana · a***@gmail.com",
        age=90.0,
        attempts=2,
        last_error=f"{kind}: {message}",
        may_have_reached_server=True,
        next_attempt_in=None if state is RowState.DEAD else 4.0,
        stale=False,
        bound_here=True,
        amount=1500.0,
    )


def rows() -> list[OutboxEntry]:
    other = ApiError(
        ErrorKind.CONFLICT, status=409, message=DUPLICATE, reason=Reason.OTHER_OPERATION
    )
    return [
        entry(1, other, RowState.DEAD),
        entry(2, MalformedResponse("a credit's points outside the contract"), RowState.PENDING),
        entry(3, OverflowError("Python int too large to convert"), RowState.PENDING),
    ]


def table_of(qtbot: QtBot) -> PendingTable:
    table = PendingTable(amount_locale=AmountLocale.ES_AR)
    qtbot.addWidget(table)
    table.resize(1280, 700)
    table.show_entries(rows())
    return table


def test_a_hostile_servers_rows_say_what_happens_next(qtbot: QtBot) -> None:
    table = table_of(qtbot)
    assert table.cell_text(0, ERROR) == (
        "Refused: The service says this reference belongs to another operation. Check it "
        "in the program's panel before sending it again."
    )
    assert table.cell_text(1, ERROR) == (
        "The service's answer could not be read (it may have been applied). It is sent "
        "again automatically, never credited twice; if this repeats, call IT."
    )
    assert table.cell_text(2, ERROR) == (
        "The kiosk could not finish the last attempt. It is sent again automatically, "
        "never credited twice; if this repeats, call IT."
    )
    assert "OverflowError" not in table.cell_text(2, ERROR)


def test_a_hostile_servers_rows_say_so_in_spanish(qtbot: QtBot, spanish: Any) -> None:
    table = table_of(qtbot)
    assert table.cell_text(0, ERROR).startswith(
        "Rechazada: El servicio dice que esta referencia pertenece a otra operación."
    )
    assert table.cell_text(1, ERROR).startswith("No se pudo leer la respuesta del servicio")
    assert table.cell_text(2, ERROR).startswith("El kiosco no pudo completar el último intento.")
