"""Credits and cancels of the counter through the store-and-forward outbox (issue #5).

``OutboxSender`` is the credit flow's sender when the counter has an outbox
(``kiosk.core.counter.credit.CreditFlow``): the credit is written durably with its pending
journal row (``Outbox.submit_credit``), then the cashier waits for the sender to
settle it, at most ``within`` seconds and ``max_failures`` failed attempts, after
which the sale ends with a "pending" receipt (the sender goes on alone). The
outbox writes and settles the journal row itself: the flow records nothing.

``wait_for_row`` is the same wait for a cancel (``kiosk.core.counter.cancel``).
A dead letter comes back as the ``ApiError`` the API answered (kind and reason
read back from the row), so the screen words it like any refusal.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass

from kiosk.api.errors import OFFLINE_KINDS, ApiError, ErrorKind, Reason
from kiosk.api.models.points import CreditRequest
from kiosk.core.counter.sale import CreditStatus
from kiosk.core.outbox.queue import (
    JournalNote,
    Outbox,
    OutboxError,
    OutboxRow,
    Resolution,
    RowState,
    Settlement,
)
from kiosk.core.session import CounterSession

log = logging.getLogger(__name__)

WAIT_SECONDS = 20.0
"""How long the cashier waits for a credit before the "pending" receipt."""
MAX_FAILURES = 2
"""Failed attempts after which the cashier stops waiting (the sender goes on)."""
OFFLINE_ERRORS = frozenset(kind.value for kind in OFFLINE_KINDS)  # as stored on a row
_REASON = re.compile(r"\[([a-z_]+)\]\s*$")
_STATUS = re.compile(r"\((\d{3})\)")


@dataclass(frozen=True)
class Delivery:
    """What became of a credit handed to the outbox."""

    status: CreditStatus  # CREDITED, ALREADY_CREDITED or PENDING
    external_id: str
    points: int | None  # the points the answer gave (None: the preview's)
    confirmed: bool = False  # a duplicate answer confirmed an earlier attempt
    pending: int = 0  # rows still waiting in the outbox (PENDING)
    journaled: bool = True  # False: the outbox wrote no journal row for it (not queued)
    client_id: int | None = None  # the client the service's answer named, if it did


def rejection(kind_text: str | None, message: str | None) -> ApiError:
    """A row's recorded failure (``last_error_kind``, ``last_error``: "message (403)
    [reason]") as an ``ApiError``, so the screen words it like any refusal."""
    message = message or ""
    try:
        kind = ErrorKind(kind_text) if kind_text else ErrorKind.UNEXPECTED
    except ValueError:
        kind = ErrorKind.UNEXPECTED
    reason = None
    found = _REASON.search(message)
    if found is not None:
        try:
            reason = Reason(found.group(1))
        except ValueError:
            reason = None
    status = _STATUS.search(message)
    text = _REASON.sub("", message).strip()
    return ApiError(
        kind, status=int(status.group(1)) if status else None, message=text, reason=reason
    )


def entry_error(last_error: str | None) -> ApiError | None:
    """``OutboxEntry.last_error`` ("kind: message") as an ``ApiError``."""
    if not last_error:
        return None
    kind, _, message = last_error.partition(": ")
    return rejection(kind, message)


async def wait_for_row(
    session: CounterSession,
    outbox: Outbox,
    row_id: int,
    *,
    within: float = WAIT_SECONDS,
    max_failures: int = MAX_FAILURES,
) -> Settlement | None:
    """The row's settlement, or ``None`` when it is still pending after ``within``
    seconds, ``max_failures`` failed attempts, or one that found the service unreachable. A network failure on the way marks the
    session offline; a settlement, online."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    failures = 0
    with session.working():
        while True:
            remaining = deadline - loop.time()
            if remaining <= 0:
                break
            settlement = await outbox.wait_settled(row_id, within=remaining, until_retry=True)
            if settlement is not None:
                session.report_online(True)
                return settlement
            failures += 1
            if failures >= max_failures or outbox.unreached(row_id):
                break  # no connection: the cashier is told at once, the sender goes on
            row = await outbox.get(row_id)
            if row is not None and _retried_in(row) > deadline - loop.time():
                break  # its next attempt comes after the wait: "pending" now, not later
    row = await outbox.get(row_id)
    if row is not None and row.last_error_kind in OFFLINE_ERRORS:
        session.report_online(False)
    return None


def _retried_in(row: OutboxRow) -> float:
    """How long after its last attempt the row is sent again (the sender's wait)."""
    if row.last_attempt_at is None:
        return 0.0
    return max(0.0, row.next_attempt_at - row.last_attempt_at)


class OutboxSender:
    """The credit flow's sender through the outbox (see the module doc)."""

    def __init__(
        self,
        session: CounterSession,
        outbox: Outbox,
        *,
        within: float = WAIT_SECONDS,
        max_failures: int = MAX_FAILURES,
    ) -> None:
        self.session = session
        self.outbox = outbox
        self.within = within
        self.max_failures = max_failures

    async def deliver(self, request: CreditRequest, note: JournalNote, *, first: bool) -> Delivery:
        """Queue the credit (first attempt of the sale) or find it again, and wait.

        ``first``: the sale's first attempt. An external id already in the outbox on a
        first attempt is the cashier's ticket credited (or queued) before on this kiosk:
        ``ALREADY_CREDITED``, nothing queued, no journal row written by the outbox.
        Raises ``ApiError`` for a dead letter (the API's reason)."""
        outbox = self.outbox
        submitted = await outbox.submit_credit(request, journal=note, live=True)
        row = submitted.row
        self.session.notify_journal()  # the pending row shows in Today at once
        if not submitted.created and first:
            log.info("credit %s: already in the outbox (state %s)", row.external_id, row.state)
            return Delivery(CreditStatus.ALREADY_CREDITED, row.external_id, None, journaled=False)
        settlement = await wait_for_row(
            self.session, outbox, row.id, within=self.within, max_failures=self.max_failures
        )
        if settlement is None:
            status = await outbox.status()
            log.info(
                "credit %s: pending in the outbox (%d pending)", row.external_id, status.pending
            )
            return Delivery(CreditStatus.PENDING, row.external_id, None, pending=status.pending)
        return await self._delivered(settlement)

    async def _delivered(self, settlement: Settlement) -> Delivery:
        resolution, external_id = settlement.resolution, settlement.external_id
        if resolution is Resolution.CREDITED:
            return Delivery(
                CreditStatus.CREDITED, external_id, settlement.points,
                client_id=settlement.client_id,
            )  # fmt: skip
        if resolution is Resolution.CONFIRMED:
            return Delivery(CreditStatus.CREDITED, external_id, settlement.points, confirmed=True)
        if resolution is Resolution.ALREADY_CREDITED:
            return Delivery(CreditStatus.ALREADY_CREDITED, external_id, None)
        if resolution is Resolution.REJECTED and settlement.state is RowState.DEAD:
            row = await self.outbox.get(settlement.row_id)
            raise rejection(row.last_error_kind if row else None, settlement.error)
        # Voided or discarded while the cashier waited (a manager, another screen).
        raise OutboxError(f"the credit {external_id} was {resolution.value}: nothing was given")
