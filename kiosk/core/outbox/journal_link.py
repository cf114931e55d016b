"""How an outbox row shows in today's journal (same file, same transaction).

``journal_row`` writes the pending journal row of a queued credit or cancel, in
the transaction that queues it (a crash never leaves one without the other);
``settle_journal`` settles it in the transaction that settles the outbox row.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from datetime import UTC, datetime

from kiosk.core.journal import Journal, OperationKind, Outcome
from kiosk.core.outbox.types import JournalNote, OutboxRow, Resolution, RowKind

# How each resolution settles the journal row: (outcome, detail; None: the error).
_CREDIT_JOURNAL: Mapping[Resolution, tuple[Outcome, str | None]] = {
    Resolution.CREDITED: (Outcome.OK, ""),
    Resolution.CONFIRMED: (Outcome.OK, "confirmed by a duplicate answer"),
    Resolution.ALREADY_CREDITED: (Outcome.ALREADY_CREDITED, "the ticket was already credited"),
    Resolution.REJECTED: (Outcome.REJECTED, None),
    Resolution.VOIDED: (Outcome.VOIDED, "canceled before it was sent"),
    Resolution.DISCARDED: (Outcome.FAILED, "discarded by a manager"),
}
_CANCEL_JOURNAL: Mapping[Resolution, tuple[Outcome, str | None]] = {
    Resolution.CANCELED: (Outcome.OK, ""),
    Resolution.ALREADY_CANCELED: (Outcome.OK, "already canceled"),
    Resolution.NOTHING_TO_CANCEL: (Outcome.OK, "nothing active to cancel"),
    Resolution.REJECTED: (Outcome.REJECTED, None),
    Resolution.VOIDED: (Outcome.VOIDED, "the credit was never sent"),
    Resolution.DISCARDED: (Outcome.FAILED, "discarded by a manager"),
}
_GIVES_POINTS = (Resolution.CREDITED, Resolution.CONFIRMED)
_CANCELS_THE_CREDIT = (
    Resolution.CANCELED,
    Resolution.ALREADY_CANCELED,
    Resolution.NOTHING_TO_CANCEL,
    Resolution.VOIDED,
)


def journal_row(
    conn: sqlite3.Connection,
    kind: RowKind,
    external_id: str,
    journal: int | JournalNote | None,
    label: str,
) -> int | None:
    """The journal row's id: the one given, or a pending row written from the note."""
    if not isinstance(journal, JournalNote):
        return journal
    entry = Journal(conn).record(
        OperationKind.CREDIT if kind is RowKind.CREDIT else OperationKind.CANCEL,
        Outcome.PENDING,
        client=journal.client or label,
        external_id=external_id,
        points=journal.points,
        amount=journal.amount,
        ticket=journal.ticket,
        detail=journal.detail,
        units=journal.units,
    )
    return entry.id


def settle_journal(
    conn: sqlite3.Connection,
    row: OutboxRow,
    resolution: Resolution,
    points: int | None,
    error: str | None,
    now: float,
) -> None:
    """Settle the row's journal entry; a settled cancel marks its credit canceled."""
    journal = Journal(conn)
    if row.kind is RowKind.CANCEL and resolution in _CANCELS_THE_CREDIT:
        journal.mark_canceled(row.external_id, datetime.fromtimestamp(now, UTC))
    if row.journal_id is None:
        return
    table = _CREDIT_JOURNAL if row.kind is RowKind.CREDIT else _CANCEL_JOURNAL
    outcome, detail = table[resolution]
    if detail is None:
        detail = error or ""
    if resolution is Resolution.DISCARDED and row.may_have_reached_server:
        detail += " (it may have been applied)"
    if row.kind is RowKind.CANCEL and points is not None:
        points = -abs(points)
    journal.update_outcome(row.journal_id, outcome, points=points, detail=detail)
    if row.kind is RowKind.CREDIT and resolution not in _GIVES_POINTS:
        # The preview's points were written when it was queued: none were given.
        conn.execute("UPDATE journal SET points = NULL WHERE id = ?", (row.journal_id,))
