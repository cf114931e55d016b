"""What the Pending list reads of the outbox: pages in the list's order, rows by id, counts.

The list shows the dead letters first, then the rows waiting to be sent (pending or
sending), oldest first: its order is the key ``(rank, id)`` (``DEAD_RANK``, then
``WAITING_RANK``). ``page`` reads the rows after a key (keyset paging, never OFFSET:
the hundredth page costs what the first does); ``by_ids`` reads back the rows an
``OutboxChange`` names, whatever their state (a settled or discarded row leaves the
list); ``list_counts`` counts the waiting, dead and stale rows in one query (the
list's summary and its 24-hour warning never come from the rows in memory).

A row this version cannot read (a kind from a newer version, a corrupt body) is
read as an ``UnreadableRow`` and listed saying so: it is never dropped silently.
Synchronous, on the connection of the ``DatabaseWorker`` thread, like ``OutboxStore``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from kiosk.core.db import rows_by_ids
from kiosk.core.outbox.store import SELECT
from kiosk.core.outbox.types import OutboxEntry, OutboxRow, RowKind, RowState, Unreadable
from kiosk.core.settings.binding import Binding

PAGE_ROWS = 100  # rows read at the opening and at each scroll past the last one
DEAD_RANK, WAITING_RANK = 0, 1
ListKey = tuple[int, int]  # (rank, id): the list's order
LISTED_STATES = (RowState.PENDING, RowState.SENDING, RowState.DEAD)
# One state a query, each in the order of its index (state, id): no sort of the whole
# state's rows; the waiting rows are the pending and the sending ones merged by id.
_PAGE = f"{SELECT} WHERE state = ? AND id > ? ORDER BY id LIMIT ?"
_COUNTS = (
    "SELECT COALESCE(SUM(state = 'dead'), 0), COALESCE(SUM(state != 'dead'), 0),"
    " COALESCE(SUM(state != 'dead' AND created_at < ?), 0) FROM outbox_rows"
    " WHERE state IN ('pending', 'sending', 'dead')"
)


@dataclass(frozen=True)
class OutboxChange:
    """The rows a write touched, by id; ``None``: any row may have changed (a
    manager's "retry now", the retention's purge)."""

    ids: frozenset[int] | None


@dataclass(frozen=True)
class ListCounts:
    """The list's summary: waiting (pending or sending), dead, waiting over 24 h."""

    pending: int
    dead: int
    stale: int


@dataclass(frozen=True)
class UnreadableRow:
    """A stored row this version cannot read: what of it can be shown."""

    id: int
    kind: str  # as stored
    external_id: str
    state: RowState
    created_at: float
    attempts: int
    client_label: str
    problem: Unreadable


Listed = OutboxRow | UnreadableRow


def rank_of(state: RowState) -> int:
    return DEAD_RANK if state is RowState.DEAD else WAITING_RANK


def key_of(row: OutboxEntry | Listed) -> ListKey:
    return rank_of(row.state), row.id


def listed(values: tuple[Any, ...]) -> Listed | None:
    """A row of ``SELECT`` (``None``: a state no list shows, even unknown)."""
    try:
        state = RowState(values[3])
    except ValueError:
        return None
    try:
        return OutboxRow.from_db(values)
    except (ValueError, TypeError, KeyError):  # BodyError and JSON's errors are ValueErrors
        kind = str(values[1])
        known = kind in {k.value for k in RowKind}
        return UnreadableRow(
            id=int(values[0]),
            kind=kind,
            external_id=str(values[2] or ""),
            state=state,
            created_at=_number(values[6]),
            attempts=int(_number(values[5])),
            client_label=str(values[20] or ""),
            problem=Unreadable.CORRUPT_BODY if known else Unreadable.UNKNOWN_KIND,
        )


def _number(value: object) -> float:
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 0.0


def page(conn: sqlite3.Connection, after: ListKey | None, limit: int = PAGE_ROWS) -> list[Listed]:
    """Up to ``limit`` rows of the list after the key ``after`` (None: from its top)."""
    rank, last = after if after is not None else (DEAD_RANK, 0)
    found: list[tuple[Any, ...]] = []
    if rank == DEAD_RANK:
        found += conn.execute(_PAGE, (RowState.DEAD.value, last, limit)).fetchall()
        last = 0
    wanted = limit - len(found)
    if wanted > 0:
        waiting = [
            *conn.execute(_PAGE, (RowState.PENDING.value, last, wanted)),
            *conn.execute(_PAGE, (RowState.SENDING.value, last, wanted)),
        ]
        found += sorted(waiting, key=lambda values: int(values[0]))[:wanted]
    return [row for row in map(listed, found) if row is not None]


def by_ids(conn: sqlite3.Connection, ids: Iterable[int]) -> list[Listed]:
    """The rows with these ids that exist, in any state (the list drops a settled one)."""
    return [row for row in map(listed, rows_by_ids(conn, SELECT, ids)) if row is not None]


def sending_ids(conn: sqlite3.Connection) -> frozenset[int]:
    """The rows caught mid-send (what ``OutboxStore.resume`` puts back to pending)."""
    return frozenset(
        i for (i,) in conn.execute("SELECT id FROM outbox_rows WHERE state = 'sending'")
    )


def list_counts(conn: sqlite3.Connection, stale_before: float) -> ListCounts:
    """Waiting, dead, and waiting since before ``stale_before`` (epoch seconds)."""
    dead, pending, stale = conn.execute(_COUNTS, (stale_before,)).fetchone()
    return ListCounts(pending=int(pending), dead=int(dead), stale=int(stale))


def entry_of(row: Listed, *, now: float, stale_after: float, binding: Binding) -> OutboxEntry:
    """The list's line of a row (no personal data)."""
    age = max(0.0, now - row.created_at)
    stale = row.state is not RowState.DEAD and age > stale_after
    if isinstance(row, UnreadableRow):
        return OutboxEntry(
            id=row.id,
            kind=RowKind.CREDIT if row.kind == RowKind.CREDIT.value else RowKind.CANCEL,
            external_id=row.external_id,
            state=row.state,
            client=row.client_label,
            age=age,
            attempts=row.attempts,
            last_error=None,
            may_have_reached_server=True,  # not known: the safe guess
            next_attempt_in=None,
            stale=stale,
            bound_here=False,
            unreadable=row.problem,
            stored_kind=row.kind,
        )
    error = None
    if row.last_error_kind:
        error = (
            f"{row.last_error_kind}: {row.last_error}" if row.last_error else row.last_error_kind
        )
    waiting = row.state is RowState.PENDING
    amount, units = sale_of(row)
    return OutboxEntry(
        id=row.id,
        kind=row.kind,
        external_id=row.external_id,
        state=row.state,
        client=row.client_label,
        age=age,
        attempts=row.attempts,
        last_error=error,
        may_have_reached_server=row.may_have_reached_server,
        next_attempt_in=max(0.0, row.next_attempt_at - now) if waiting else None,
        stale=stale,
        bound_here=row.binding == binding,
        amount=amount,
        units=units,
    )


def sale_of(row: OutboxRow) -> tuple[float | None, int | None]:
    """(amount, units of point items) of a credit row, read from its body."""
    if row.kind is not RowKind.CREDIT:
        return None, None
    amount = row.body.get("amount")
    if isinstance(amount, int | float) and not isinstance(amount, bool):
        return float(amount), None
    items = row.body.get("pointItems")
    if not isinstance(items, list) or not items:
        return None, None
    units = 0
    for item in items:  # repeated ids, or {"id", "quantity"}
        quantity = item.get("quantity", 1) if isinstance(item, dict) else 1
        units += quantity if isinstance(quantity, int) and quantity > 0 else 1
    return None, units
