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

Sending is one small function, ``send_cancel``, so that cancels can go through the
outbox later (issue #5) by passing another ``send``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum

from kiosk.api.errors import ApiError, ErrorKind
from kiosk.api.models.points import CancelResult
from kiosk.core.journal import JournalEntry, OperationKind, Outcome, client_display
from kiosk.core.session import CounterSession

log = logging.getLogger(__name__)

SendCancel = Callable[[CounterSession, str], Awaitable[CancelResult]]


class CancelOutcome(StrEnum):
    CANCELED = "canceled"  # the API reverted the credit (now, or on a lost earlier attempt)
    NOT_FOUND = "not_found"  # no active operation: canceled before, or it does not exist


@dataclass(frozen=True)
class CancelReport:
    outcome: CancelOutcome
    credit: JournalEntry
    points: int | None  # points taken back (positive), when known
    cancel_row: JournalEntry | None = None  # the journal's CANCEL row
    already_canceled: bool = False  # the API said so after a lost answer


def can_cancel(entry: JournalEntry) -> bool:
    """A credit of this kiosk that went through and is still active."""
    return (
        entry.kind is OperationKind.CREDIT
        and entry.outcome is Outcome.OK
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
    if not can_cancel(credit) or credit.external_id is None:
        raise ValueError("only an active credit of this kiosk can be canceled")
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
    points = result.points.total if result.points is not None else credit.points
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
