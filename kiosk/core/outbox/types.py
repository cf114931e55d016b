"""The outbox's vocabulary: row kinds and states, bindings, rows, settlements.

Shared by ``kiosk.core.outbox.store`` (the SQL), ``kiosk.core.outbox.queue`` (the async
face the counter uses) and ``kiosk.core.outbox.sender``; import them from ``kiosk.core.outbox.queue``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import Any

from kiosk.core.outbox.body import Body, loads
from kiosk.core.settings.binding import Binding

STALE_AFTER = 24 * 3600.0
"""A row waiting longer than this (seconds) warns the manager."""


class RowKind(StrEnum):
    CREDIT = "credit"
    CANCEL = "cancel"


class RowState(StrEnum):
    PENDING = "pending"
    SENDING = "sending"
    DONE = "done"
    DEAD = "dead"
    VOIDED = "voided"


class Resolution(StrEnum):
    """How a row was settled (``None`` while it is still to be sent)."""

    CREDITED = "credited"  # 2xx
    CONFIRMED = "confirmed"  # 409 after an attempt that may have reached the server: ours
    ALREADY_CREDITED = "already_credited"  # 409 on a typed ticket's first reaching attempt
    CANCELED = "canceled"  # 2xx on a cancel
    ALREADY_CANCELED = "already_canceled"  # 404 on a cancel resent after an ambiguous attempt
    NOTHING_TO_CANCEL = "nothing_to_cancel"  # 404 at once: canceled before or never applied
    REJECTED = "rejected"  # dead letter: the API refused it (a manager fixes or discards)
    VOIDED = "voided"  # a credit canceled before it ever reached the server, and its cancel
    DISCARDED = "discarded"  # a manager discarded it


class Unreadable(StrEnum):
    """Why a stored row cannot be read by this version (the list says so)."""

    UNKNOWN_KIND = "unknown_kind"  # written by a newer version
    CORRUPT_BODY = "corrupt_body"  # its stored data is damaged


class OutboxError(RuntimeError):
    """An outbox operation that cannot be done; the text says why (for the screen)."""


@dataclass(frozen=True)
class OutboxRow:
    id: int
    kind: RowKind
    external_id: str
    state: RowState
    resolution: Resolution | None
    attempts: int
    created_at: float  # epoch seconds
    first_attempt_at: float | None
    last_attempt_at: float | None
    next_attempt_at: float
    settled_at: float | None
    last_error_kind: str | None
    last_error: str | None
    ticket_typed: bool
    may_have_reached_server: bool
    binding: Binding
    journal_id: int | None
    client_label: str
    points: int | None
    body: Body = field(repr=False, compare=False)  # personal data until settled

    def age(self, now: float) -> float:
        return max(0.0, now - self.created_at)

    @classmethod
    def from_db(cls, values: tuple[Any, ...]) -> OutboxRow:
        """From a row of ``SELECT`` in ``kiosk.core.outbox.store`` (column order there)."""
        (id_, kind, ext, state, resolution, attempts, created, first, last, next_at, settled,
         error_kind, error, ticket, reached, env, url, fingerprint, branch, journal_id, label,
         points, body) = values  # fmt: skip
        return cls(
            id=int(id_),
            kind=RowKind(kind),
            external_id=ext,
            state=RowState(state),
            resolution=None if resolution is None else Resolution(resolution),
            attempts=int(attempts),
            created_at=float(created),
            first_attempt_at=first,
            last_attempt_at=last,
            next_attempt_at=float(next_at),
            settled_at=settled,
            last_error_kind=error_kind,
            last_error=error,
            ticket_typed=bool(ticket),
            may_have_reached_server=bool(reached),
            binding=Binding(env, url, fingerprint, branch),
            journal_id=journal_id,
            client_label=label,
            points=points,
            body=loads(body),
        )


@dataclass(frozen=True)
class JournalNote:
    """The journal row to write, ``PENDING``, in the same transaction as the outbox row
    (so a crash never leaves one without the other). ``client`` is a display string
    (``kiosk.core.journal.client_display``); the row's label when empty."""

    client: str = ""
    amount: Decimal | None = None
    ticket: str | None = None
    points: int | None = None  # the preview's, when there was one
    detail: str = ""
    units: int | None = None  # a point-item sale: how many items


@dataclass(frozen=True)
class OutboxCounts:
    pending: int  # pending + sending, every binding
    dead: int
    oldest_pending_at: float | None  # created_at of the oldest pending row
    elsewhere: int = 0  # unsettled rows bound to another destination than the current one


class SwitchRefused(OutboxError):
    """Changing environment, server, key or branch while rows still have to go."""

    def __init__(self, message: str, *, waiting: int, bindings: tuple[Binding, ...]) -> None:
        super().__init__(message)
        self.waiting = waiting
        self.bindings = bindings


@dataclass(frozen=True)
class Settlement:
    """How a row ended (done, dead-lettered, voided or discarded)."""

    row_id: int
    kind: RowKind
    external_id: str
    state: RowState
    resolution: Resolution
    points: int | None
    error: str | None
    journal_id: int | None
    # The client a credit's answer named, when it named one (in memory only: the
    # waiting cashier's flow compares it with the client at the counter).
    client_id: int | None = None

    @classmethod
    def of(cls, row: OutboxRow, client_id: int | None = None) -> Settlement:
        assert row.resolution is not None
        return cls(
            row.id,
            row.kind,
            row.external_id,
            row.state,
            row.resolution,
            row.points,
            row.last_error if row.state is RowState.DEAD else None,
            row.journal_id,
            client_id,
        )


@dataclass(frozen=True)
class Submitted:
    row: OutboxRow
    created: bool  # False: that external id was already in the outbox (``row`` is it)
    voided: OutboxRow | None = None  # a cancel: the never-sent credit voided with it


@dataclass(frozen=True)
class OutboxStatus:
    pending: int
    dead: int
    oldest_pending_age: float | None  # seconds
    stale: bool  # the oldest pending row is older than ``stale_after``: warn the manager
    elsewhere: int  # rows bound to another environment/server/key/branch than the current


@dataclass(frozen=True)
class OutboxEntry:
    """One line of the pending or dead-letter list (no personal data)."""

    id: int
    kind: RowKind
    external_id: str
    state: RowState
    client: str  # masked
    age: float  # seconds since it was queued
    attempts: int
    last_error: str | None  # "kind: API message", redacted
    may_have_reached_server: bool
    next_attempt_in: float | None  # seconds; None for a dead-letter row
    stale: bool
    bound_here: bool  # the current binding sends it
    # What the credit was for, so the cashier can tell which sale waits (no personal
    # data): the purchase amount, or the units of point items. None for a cancel.
    amount: float | None = None
    units: int | None = None
    # A row this version cannot read: why (its line says so), and its kind as stored
    # (``kind`` is then only a stand-in).
    unreadable: Unreadable | None = None
    stored_kind: str = ""
