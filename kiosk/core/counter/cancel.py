"""Cancelling a credit from today's journal (``PUT /external/tags/cancel/{externalId}``).

Only a credit of this kiosk that went through (outcome ``OK``), carries an external
id and is not canceled yet can be canceled (``can_cancel``). ``cancel_credit``
sends the cancel, then writes what happened to the journal:

- canceled now, or ``already_canceled`` (an earlier attempt's answer was lost and
  the resend found nothing active: that attempt did it): the credit is marked
  canceled, a ``CANCEL`` row records the points taken back (negative, so a day's
  points add up to what was really given), the Today screen is told, and the
  client at the counter, when it is the credited one, is read again (new balance);
- 404, no active operation (canceled before, elsewhere, or never applied): the
  credit is marked canceled so nobody tries again; nothing else changes;
- any other failure raises (``ApiError``) with the journal untouched: the credit
  stays cancelable and the screen says what to do.

When the session has an outbox (issue #5), the cancel goes through it instead
(``Outbox.submit_cancel``, same external id): the outbox writes the ``CANCEL`` row
and settles it (and marks the credit canceled) with the outbox row. A credit still
pending that never reached the server is voided with its cancel, no request at all
(``CancelOutcome.VOIDED``); a cancel not answered in time stays queued
(``CancelOutcome.PENDING``); a pending credit can be canceled (``can_cancel``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum

from kiosk.api.errors import ApiError, ErrorKind
from kiosk.api.models.points import CancelResult
from kiosk.core.counter.credit_outbox import rejection, wait_for_row
from kiosk.core.journal import JournalEntry, OperationKind, Outcome, client_display
from kiosk.core.outbox.attempts import contract_points
from kiosk.core.outbox.queue import JournalNote, Outbox, Resolution
from kiosk.core.session import CounterSession

log = logging.getLogger(__name__)

SendCancel = Callable[[CounterSession, str], Awaitable[CancelResult]]


class CancelOutcome(StrEnum):
    CANCELED = "canceled"  # the API reverted the credit (now, or on a lost earlier attempt)
    NOT_FOUND = "not_found"  # no active operation: canceled before, or it does not exist
    VOIDED = "voided"  # the credit was never sent: both voided in the outbox, no request
    PENDING = "pending"  # queued in the outbox: it will be sent automatically


@dataclass(frozen=True)
class CancelReport:
    outcome: CancelOutcome
    credit: JournalEntry
    points: int | None  # points taken back (positive), when known
    cancel_row: JournalEntry | None = None  # the journal's CANCEL row
    already_canceled: bool = False  # the API said so after a lost answer


def can_cancel(entry: JournalEntry, *, queued: bool = False) -> bool:
    """A credit of this kiosk that went through and is still active; with an outbox
    (``queued``), a credit still pending too (it is voided, or canceled once sent)."""
    outcomes = (Outcome.OK, Outcome.PENDING) if queued else (Outcome.OK,)
    return (
        entry.kind is OperationKind.CREDIT
        and entry.outcome in outcomes
        and not entry.canceled
        and bool(entry.external_id)
    )


async def send_cancel(session: CounterSession, external_id: str) -> CancelResult:
    """Send one cancel now, through ``session.call`` (the outbox will replace this)."""
    return await session.call(lambda: session.api.cancel_credit(external_id))


async def cancel_credit(
    session: CounterSession, credit: JournalEntry, *, send: SendCancel = send_cancel
) -> CancelReport:
    """Cancel ``credit`` (see the module doc); ``ValueError`` if it cannot be canceled."""
    outbox = session.outbox
    if not can_cancel(credit, queued=outbox is not None) or credit.external_id is None:
        raise ValueError("only an active credit of this kiosk can be canceled")
    if outbox is not None:
        return await _cancel_queued(session, outbox, credit, credit.external_id)
    external_id = credit.external_id
    try:
        result = await send(session, external_id)
    except ApiError as error:
        if error.kind is not ErrorKind.NOT_FOUND:
            raise
        log.info("cancel of credit #%d: no active operation (%s)", credit.id, error)
        await session.journal.mark_canceled(external_id)
        session.notify_journal()
        return CancelReport(CancelOutcome.NOT_FOUND, credit, None)
    answered = result.points.total if result.points is not None else None
    # A cancel's 2xx is the cancel; figures the contract forbids are not kept.
    points = answered if contract_points(answered) else credit.points
    await session.journal.mark_canceled(external_id)
    row = await session.journal.record(
        OperationKind.CANCEL,
        Outcome.OK,
        client=credit.client,
        external_id=external_id,
        points=None if points is None else -abs(points),
        ticket=credit.ticket,
        detail=f"credit #{credit.id}" + (" (already canceled)" if result.already_canceled else ""),
    )
    log.info("credit #%d canceled (%s points)", credit.id, points)
    session.notify_journal()
    if _is_active_client(session, credit, result):
        await session.refresh_client()
    return CancelReport(
        CancelOutcome.CANCELED, credit, points, row, already_canceled=result.already_canceled
    )


async def _cancel_queued(
    session: CounterSession, outbox: Outbox, credit: JournalEntry, external_id: str
) -> CancelReport:
    """Through the outbox (``OutboxError`` when it refuses; ``ApiError``: dead letter)."""
    note = JournalNote(
        client=credit.client,
        ticket=credit.ticket,
        points=None if credit.points is None else -abs(credit.points),
        detail=f"credit #{credit.id}",
    )
    submitted = await outbox.submit_cancel(
        external_id, journal=note, client=credit.client, live=True
    )
    session.notify_journal()
    if submitted.voided is not None:
        log.info("credit #%d voided with its cancel (never sent)", credit.id)
        return CancelReport(CancelOutcome.VOIDED, credit, None)
    row = submitted.row
    settlement = await wait_for_row(session, outbox, row.id)
    if settlement is None:
        return CancelReport(CancelOutcome.PENDING, credit, credit.points)
    resolution = settlement.resolution
    if resolution is Resolution.NOTHING_TO_CANCEL:
        return CancelReport(CancelOutcome.NOT_FOUND, credit, None)
    if resolution in (Resolution.CANCELED, Resolution.ALREADY_CANCELED):
        points = credit.points if settlement.points is None else abs(settlement.points)
        client = session.client
        if client is not None and credit.client == client_display(
            client.name, client.email, client.document_number
        ):
            await session.refresh_client()
        log.info("credit #%d canceled through the outbox (%s points)", credit.id, points)
        return CancelReport(
            CancelOutcome.CANCELED,
            credit,
            points,
            already_canceled=resolution is Resolution.ALREADY_CANCELED,
        )
    if resolution is Resolution.REJECTED:
        stored = await outbox.get(row.id)
        raise rejection(stored.last_error_kind if stored else None, settlement.error)
    return CancelReport(CancelOutcome.VOIDED, credit, None)  # discarded meanwhile


def _is_active_client(session: CounterSession, credit: JournalEntry, result: CancelResult) -> bool:
    """Whether the client at the counter is the one whose credit was canceled."""
    client = session.client
    if client is None:
        return False
    if result.client_id is not None:
        return result.client_id == client.id
    # No id in the answer (a resend after a lost answer): compare what the journal shows.
    shown = client_display(client.name, client.email, client.document_number)
    return bool(credit.client) and credit.client == shown
