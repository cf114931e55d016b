"""Crediting points at the counter: one sale, from the amount or items to the result.

A ``Sale`` (``kiosk.core.counter.sale``) walks ``editing -> previewed -> crediting -> done``
(or ``failed``, from which the same sale is tried again). Its ``external_id`` is
fixed before the first attempt and kept for every retry of that sale; an edit of
the amount, the items, the mode or the ticket makes it a new sale with a new id.

``CreditFlow`` drives the sale for a screen: ``preview()``, then ``begin_credit()``
(synchronous: fixes the id, locks the sale) and ``complete_credit()``. Sending the
credit itself is one small step behind the sender: ``DirectSender`` (straight to the
API; the flow journals every attempt) or, when the session has an outbox,
``kiosk.core.counter.credit_outbox.OutboxSender`` (the credit is queued durably first; the
outbox writes and settles its journal row, the flow writes none; an answer that
does not come in time ends the sale with a "pending" receipt, ``CreditStatus.PENDING``).

A duplicate refusal (409, ``already_credited``) means two different things:

- our own earlier attempt of this id may have reached the server (an answer was
  lost in this call, an earlier attempt of this sale failed that way, or a
  kiosk-made id, which nobody else can have used): the credit is ours, success;
- otherwise, on the cashier's ticket: that ticket was already credited before, no
  new points (``CreditStatus.ALREADY_CREDITED``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Protocol

from kiosk import __version__
from kiosk.api.errors import OFFLINE_KINDS, ApiError, ErrorKind, MalformedResponse
from kiosk.api.models.clients import Client
from kiosk.api.models.points import (
    CreditClient,
    CreditRequest,
    CreditResult,
    Preview,
    PreviewUnavailable,
)
from kiosk.api.ratelimit import MAX_HELD_WAIT, PROBE_AFTER
from kiosk.core.amounts import parse_amount
from kiosk.core.counter.credit_outbox import OutboxSender
from kiosk.core.counter.offline_client import is_unverified
from kiosk.core.counter.sale import (
    CreditOutcome,
    CreditStatus,
    NoPreview,
    Sale,
    SaleError,
    SaleMode,
    SaleProblem,
    SaleState,
)
from kiosk.core.counter.tickets import (
    credit_external_id,
    extra_data,
    normalize_ticket,
)
from kiosk.core.journal import OperationKind, Outcome, client_display
from kiosk.core.outbox.attempts import contract_points
from kiosk.core.outbox.external_ids import ExternalIdKind, external_id_kind
from kiosk.core.outbox.queue import JournalNote
from kiosk.core.session import CounterSession

log = logging.getLogger(__name__)

MAYBE_APPLIED = "answer lost: may have been applied"
"""Journal detail of a failed attempt that may have reached the server."""
# Failures after which the credit may have been applied even though the final
# error does not say an answer was lost (a 2xx with an unreadable body, a 5xx).
_MAYBE_APPLIED_KINDS = frozenset(
    {ErrorKind.MALFORMED, ErrorKind.SERVER, ErrorKind.UNEXPECTED, ErrorKind.AMBIGUOUS}
)


@dataclass(frozen=True)
class CreditAttempt:
    sale: Sale
    request: CreditRequest
    first: bool  # the first attempt of this external id by this sale
    client: str = ""  # the journal's display of the client (masked)


class CreditSender(Protocol):
    """The one step that sends a credit (the outbox replaces it in a later issue)."""

    async def send(self, request: CreditRequest) -> CreditResult: ...


class DirectSender:
    """Straight through the API client, as one of the session's calls."""

    def __init__(self, session: CounterSession) -> None:
        self._session = session

    async def send(self, request: CreditRequest) -> CreditResult:
        return await self._session.call(lambda: self._session.api.credit(request))


def maybe_applied(error: BaseException) -> bool:
    """Whether a failed attempt may nonetheless have credited the points."""
    if isinstance(error, ApiError):
        return error.after_lost_answer or error.kind in _MAYBE_APPLIED_KINDS
    return True  # cancelled or broken after sending: assume it may have gone through


def busy_for(error: ApiError) -> float | None:
    """Seconds until the kiosk asks the service again, when ``error`` is the service
    asking for a long wait (a 429 whose hold outlasts what a call waits in the limiter):
    the sale then goes on without a preview, its credit saved in the outbox. ``None``
    for a short wait (the cashier just tries again)."""
    if error.kind is not ErrorKind.RATE_LIMITED or error.retry_after is None:
        return None
    if error.retry_after <= MAX_HELD_WAIT:
        return None
    return min(error.retry_after, PROBE_AFTER)


def credit_client(client: Client) -> CreditClient:
    """Who the credit is for: the active client's email, else its document."""
    if client.email:
        return CreditClient(email=client.email)
    return CreditClient(document=client.document_number)


class CreditFlow:
    """The counter's credit of one sale at a time, for the session's active client."""

    def __init__(
        self,
        session: CounterSession,
        *,
        sender: CreditSender | OutboxSender | None = None,
        today: Callable[[], date] = date.today,
    ) -> None:
        self.session = session
        if sender is None:
            outbox = session.outbox
            sender = DirectSender(session) if outbox is None else OutboxSender(session, outbox)
        self.sender: CreditSender | OutboxSender = sender
        self._today = today
        self.sale = Sale()
        self.in_flight: asyncio.Task[CreditOutcome] | None = None

    def new_sale(self, mode: SaleMode | None = None) -> Sale:
        """A fresh sale, in the same mode unless told (one still crediting carries on)."""
        self.sale = Sale(mode or self.sale.mode)
        return self.sale

    def _client(self) -> Client:
        client = self.session.client
        if client is None:
            raise SaleError(SaleProblem.NO_CLIENT)
        return client

    async def preview(self) -> Preview | None:
        """Ask what the sale gives. Raises ``AmountError``, ``TicketError``,
        ``SaleError`` or ``ApiError``; the sale stays in editing then.

        Offline (the session is offline, the service cannot be reached, or the client
        was not verified) there is no preview: the sale goes on without one (``None``)
        and the outbox credits it when the connection returns, the points computed by
        the service then. Credits go through the outbox only, so this never loses a sale.
        A 2xx answer without figures (``PreviewUnavailable``) is no error either: the
        sale goes on without them (``NoPreview.UNAVAILABLE``), credited as usual.
        """
        sale, client, session = self.sale, self._client(), self.session
        if sale.state is not SaleState.EDITING:
            raise SaleError(SaleProblem.BUSY if sale.locked else SaleProblem.FINISHED)
        normalize_ticket(sale.ticket_text)  # a bad ticket is refused before the preview
        revision, branch_id = sale.revision, session.config.branch.id
        amount: Decimal | None = None
        queued = session.outbox is not None
        if sale.mode is SaleMode.AMOUNT:
            amount = parse_amount(sale.amount_text, session.config.locale)
        elif sale.basket.is_empty:
            raise SaleError(SaleProblem.EMPTY_BASKET)
        if queued and (is_unverified(client) or not session.online):
            sale.unpreviewed(client_id=client.id, amount=amount, revision=revision)
            return None
        try:
            if amount is not None:
                value = float(amount)
                preview = await session.call(
                    lambda: session.api.preview(client.id, amount=value, branch_id=branch_id)
                )
            else:
                items = sale.basket.quantities()
                preview = await session.call(
                    lambda: session.api.preview(client.id, point_items=items, branch_id=branch_id)
                )
        except ApiError as error:
            if queued and error.kind in OFFLINE_KINDS:
                sale.unpreviewed(client_id=client.id, amount=amount, revision=revision)
                return None
            wait = busy_for(error)
            if queued and wait is not None:  # the service asked for a long wait
                log.info("preview: the service is busy; it is asked again in %.0f s", wait)
                sale.unpreviewed(
                    client_id=client.id, amount=amount, revision=revision,
                    why=NoPreview.BUSY, retry_at=time.time() + wait,
                )  # fmt: skip
                return None
            raise
        if isinstance(preview, PreviewUnavailable):
            why = NoPreview.UNAVAILABLE
            sale.unpreviewed(client_id=client.id, amount=amount, revision=revision, why=why)
            return None
        sale.previewed(preview, client_id=client.id, amount=amount, revision=revision)
        return preview

    def begin_credit(self) -> CreditAttempt:
        """Fix the sale's id (first attempt only) and lock it; build the request."""
        sale, client, config = self.sale, self._client(), self.session.config
        if sale.state in (SaleState.PREVIEWED, SaleState.FAILED) and client.id != sale.client_id:
            raise SaleError(SaleProblem.CLIENT_CHANGED)
        who = credit_client(client)
        first = sale.external_id is None
        external_id = sale.begin_attempt(
            lambda ticket: credit_external_id(
                config.branch.id, self._today(), ticket, config.kiosk_id
            )
        )
        items = sale.basket.unit_ids() if sale.mode is SaleMode.ITEMS else None
        request = CreditRequest(
            external_id=external_id,
            client=who,
            amount=float(sale.amount) if items is None and sale.amount is not None else None,
            point_items=items,
            branch_id=config.branch.id,
            extra_data=json.loads(
                extra_data(
                    config.kiosk_id,
                    app_version=__version__,
                    ticket=sale.ticket,
                    mode=sale.mode.value,
                )
            ),
        )
        return CreditAttempt(sale, request, first, _display(client))

    def start_credit(self, attempt: CreditAttempt) -> asyncio.Task[CreditOutcome]:
        """Send and settle one attempt in a task of its own (``in_flight``): it runs to
        the end whoever waits for it, so a credit is never abandoned half-way."""
        task = asyncio.ensure_future(self._settle(attempt))
        self.in_flight = task
        task.add_done_callback(_seen)
        return task

    async def complete_credit(self, attempt: CreditAttempt) -> CreditOutcome:
        """``start_credit`` and wait for it (a cancelled wait leaves it running)."""
        return await asyncio.shield(self.start_credit(attempt))

    async def credit(self) -> CreditOutcome:
        return await self.complete_credit(self.begin_credit())

    async def _settle(self, attempt: CreditAttempt) -> CreditOutcome:
        sender = self.sender
        if isinstance(sender, OutboxSender):
            return await self._settle_queued(attempt, sender)
        sale, request = attempt.sale, attempt.request
        external_id = request.external_id or ""
        earlier = sale.maybe_applied or await self._journal_says_maybe_applied(attempt)
        try:
            result = await sender.send(request)
        except BaseException as error:
            doubt = maybe_applied(error)
            sale.failed(error, maybe_applied=doubt)
            log.info(
                "credit %s failed%s: %s",
                external_id,
                " (may have been applied)" if doubt else "",
                error,
            )
            if isinstance(error, Exception):
                await self._record(
                    attempt,
                    Outcome.FAILED,
                    external_id,
                    self._asked(sale),
                    MAYBE_APPLIED if doubt else _failure_detail(error),
                )
            raise
        try:
            outcome = self._judge(sale, result, earlier)
        except MalformedResponse as error:  # applied, figures unreadable: tried again
            sale.failed(error, maybe_applied=True)
            await self._record(
                attempt, Outcome.FAILED, external_id, self._asked(sale), MAYBE_APPLIED
            )
            raise
        sale.succeeded(outcome)
        journal_outcome = (
            Outcome.ALREADY_CREDITED
            if outcome.status is CreditStatus.ALREADY_CREDITED
            else Outcome.OK
        )
        detail = "confirmed by a duplicate answer" if outcome.confirmed_by_duplicate else ""
        await self._record(attempt, journal_outcome, external_id, outcome.points, detail)
        if outcome.status is CreditStatus.CREDITED:
            fresh = await self.session.refresh_client()
            if fresh is not None and fresh.id == sale.client_id:
                outcome = dataclasses.replace(outcome, balance=fresh.balance)
                sale.outcome = outcome
        return outcome

    async def _settle_queued(self, attempt: CreditAttempt, sender: OutboxSender) -> CreditOutcome:
        """Through the outbox: it journals the credit; only a ticket found already in the
        outbox (nothing queued) gets a row from the flow."""
        sale, request = attempt.sale, attempt.request
        external_id = request.external_id or ""
        note = JournalNote(
            client=attempt.client, amount=_sale_amount(sale), ticket=sale.ticket,
            points=self._asked(sale), units=_sale_units(sale),
        )  # fmt: skip
        try:
            delivery = await sender.deliver(request, note, first=attempt.first)
        except BaseException as error:
            sale.failed(error, maybe_applied=False)
            log.info("credit %s not delivered: %s", external_id, error)
            raise
        if delivery.status is CreditStatus.ALREADY_CREDITED:
            outcome = CreditOutcome(CreditStatus.ALREADY_CREDITED, external_id, None)
            if not delivery.journaled:
                detail = "already credited or queued on this kiosk"
                await self._record(attempt, Outcome.ALREADY_CREDITED, external_id, None, detail)
        else:
            points = delivery.points if contract_points(delivery.points) else self._asked(sale)
            outcome = CreditOutcome(
                delivery.status, external_id, points,
                confirmed_by_duplicate=delivery.confirmed, pending=delivery.pending,
                other_client=_other_client(external_id, delivery.client_id, sale.client_id),
            )  # fmt: skip
        sale.succeeded(outcome)
        self.session.notify_journal()
        if outcome.status is CreditStatus.CREDITED:
            fresh = await self.session.refresh_client()
            if fresh is not None and fresh.id == sale.client_id:
                outcome = dataclasses.replace(outcome, balance=fresh.balance)
                sale.outcome = outcome
        return outcome

    def _judge(self, sale: Sale, result: CreditResult, earlier: bool) -> CreditOutcome:
        external_id = result.external_id or sale.external_id or ""
        if not result.already_credited:
            operation = result.operation
            points = operation.points.total if operation is not None else self._asked(sale)
            if operation is not None and not contract_points(points):
                # Figures the contract does not allow: never shown as points credited.
                raise MalformedResponse("a credit's points outside the contract")
            log.info("credit %s: %s points", external_id, points)
            other = _other_client(
                external_id, operation.client_id if operation else None, sale.client_id
            )
            return CreditOutcome(
                CreditStatus.CREDITED, external_id, points, operation, other_client=other
            )
        ours = (
            earlier
            or result.after_lost_answer
            or external_id_kind(external_id) is ExternalIdKind.KIOSK
        )
        if ours:
            log.info("credit %s: already applied by an earlier attempt (success)", external_id)
            return CreditOutcome(
                CreditStatus.CREDITED, external_id, self._asked(sale), confirmed_by_duplicate=True
            )
        log.info("credit %s: the ticket was already credited; no new points", external_id)
        return CreditOutcome(CreditStatus.ALREADY_CREDITED, external_id, None)

    async def _journal_says_maybe_applied(self, attempt: CreditAttempt) -> bool:
        """A ticket this kiosk tried before (another sale, same id) whose answer was lost."""
        external_id = attempt.request.external_id
        if not attempt.first or external_id is None:
            return False
        if external_id_kind(external_id) is not ExternalIdKind.TICKET:
            return False
        try:
            entry = await self.session.journal.find_credit(external_id)
        except Exception:
            log.exception("could not read the journal")
            return False
        return (
            entry is not None
            and entry.outcome is Outcome.FAILED
            and (MAYBE_APPLIED in entry.detail)
        )

    @staticmethod
    def _asked(sale: Sale) -> int | None:
        return sale.preview.points.total if sale.preview is not None else None

    async def _record(
        self,
        attempt: CreditAttempt,
        outcome: Outcome,
        external_id: str,
        points: int | None,
        detail: str,
    ) -> None:
        sale = attempt.sale
        amount = _sale_amount(sale)
        try:
            await self.session.journal.record(
                OperationKind.CREDIT,
                outcome,
                client=attempt.client,
                external_id=external_id,
                points=points,
                amount=amount,
                ticket=sale.ticket,
                detail=detail,
                units=_sale_units(sale),
            )
        except Exception:
            log.exception("could not write the credit %s to the journal", external_id)
            return
        self.session.notify_journal()


def _display(client: Client) -> str:
    name = client.name or " ".join(p for p in (client.first_name, client.last_name) if p)
    return client_display(name, client.email, client.document_number)


def _sale_amount(sale: Sale) -> Decimal | None:
    return sale.amount if sale.mode is SaleMode.AMOUNT else _items_amount(sale)


def _sale_units(sale: Sale) -> int | None:
    """How many point items the sale credits (None: a sale by amount)."""
    return sale.basket.total_units if sale.mode is SaleMode.ITEMS else None


def _items_amount(sale: Sale) -> Decimal | None:
    outcome = sale.outcome
    if outcome is not None and outcome.operation is not None:
        amount = outcome.operation.points.amount
        return Decimal(str(amount)) if amount else None
    amount = sale.preview.points.amount if sale.preview is not None else None
    return Decimal(str(amount)) if amount else None


def _failure_detail(error: BaseException) -> str:
    if isinstance(error, ApiError):
        return error.kind.value if error.reason is None else f"{error.kind.value} ({error.reason})"
    return type(error).__name__


def _other_client(external_id: str, answered: int | None, at_counter: int | None) -> int | None:
    """The client the answer named when it is not the one at the counter (logged)."""
    if answered is None or at_counter is None or answered == at_counter:
        return None
    log.warning(
        "credit %s: the service answered for client #%d, not the client at the counter "
        "(#%d); the cashier is told to call a manager",
        external_id,
        answered,
        at_counter,
    )
    return answered


def _seen(task: asyncio.Task[CreditOutcome]) -> None:
    """Mark the failure of a credit whose caller went away as seen (it is logged)."""
    if not task.cancelled():
        task.exception()
