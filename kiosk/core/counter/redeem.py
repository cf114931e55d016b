"""Redeem at the counter: find a purchase by its code and deliver it.

Codes are typed or scanned: ``parse_code`` trims, drops spaces and dashes and
upper-cases them (the simulator's codes are 8 characters from ``A-Z2-9``; the
contract does not give a format, so 4 to 32 letters and digits are accepted).

``deliver`` marks a pending purchase delivered. A refusal that means "nothing to
do" comes back as a ``Delivery`` rather than an error, after reading the code again
to say exactly why: already delivered, expired (the API answers both with the same
400 and the record of an expired code still says ``pending``), or canceled. Other
failures raise ``ApiError``; a lost answer is reconciled by the API client by
reading the code, and ``AmbiguousOutcome`` means it could not tell.

What a looked-up record already tells, before any attempt: delivered and canceled
(its ``status``), and whose purchase it is (its ``client.id``: ``belongs_to_other``
flags a purchase of another client than the one identified at the counter). An
expiry is not on the record (the contract gives no expiry field): it is known only
from the service's refusal. So a pending code is never said "ready": the counter
says "Hand over the reward" only after the service said yes.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, replace
from datetime import datetime, tzinfo
from decimal import Decimal
from enum import StrEnum

from kiosk.api.client import LoyaltyClient
from kiosk.api.errors import ApiError, Reason
from kiosk.api.models.purchases import Purchase, PurchaseStatus, PurchaseType
from kiosk.api.redact import mask_email
from kiosk.core.amounts import AmountLocale, as_locale, format_amount, format_points
from kiosk.core.journal import AsyncJournal, JournalEntry, OperationKind, Outcome, client_display

log = logging.getLogger(__name__)

CODE_LENGTH = 8
"""The usual length of a purchase code: the screen looks it up as soon as it is complete."""
MIN_CODE_LENGTH = 4
MAX_CODE_LENGTH = 32
_IGNORED = re.compile(r"[\s\-_.]+")
_CODE = re.compile(r"[A-Z0-9]+")


class CodeProblem(StrEnum):
    EMPTY = "empty"
    NOT_A_CODE = "not_a_code"  # characters other than letters and digits
    LENGTH = "length"


class CodeError(ValueError):
    def __init__(self, problem: CodeProblem) -> None:
        self.problem = problem
        super().__init__(f"not a purchase code: {problem.value}")


def normalize_code(text: str) -> str:
    """``" pend-2345 "`` -> ``"PEND2345"``: no spaces, dashes or dots, upper case."""
    return _IGNORED.sub("", text).upper()


def parse_code(text: str) -> str:
    """The code in ``text``; ``CodeError`` when it cannot be one."""
    code = normalize_code(text)
    if not code:
        raise CodeError(CodeProblem.EMPTY)
    if not _CODE.fullmatch(code):
        raise CodeError(CodeProblem.NOT_A_CODE)
    if not MIN_CODE_LENGTH <= len(code) <= MAX_CODE_LENGTH:
        raise CodeError(CodeProblem.LENGTH)
    return code


def is_complete_code(text: str) -> bool:
    """Whether ``text`` is a whole code of the usual length (to look it up at once)."""
    code = normalize_code(text)
    return len(code) == CODE_LENGTH and _CODE.fullmatch(code) is not None


class PurchaseState(StrEnum):
    PENDING = "pending"
    DELIVERED = "delivered"
    CANCELED = "canceled"
    EXPIRED = "expired"  # known only after the API refused to deliver a pending code
    UNKNOWN = "unknown"


def format_when(when: datetime | None, locale: AmountLocale | str, tz: tzinfo | None = None) -> str:
    """``22/11/2026 14:32`` (es-AR) or ``11/22/2026 2:32 PM`` (en-US), in ``tz``
    (default: the kiosk's time zone)."""
    if when is None:
        return ""
    local = when.astimezone(tz)
    if as_locale(locale) is AmountLocale.ES_AR:
        return local.strftime("%d/%m/%Y %H:%M")
    hour = local.hour % 12 or 12
    return f"{local:%m/%d/%Y} {hour}:{local:%M} {'AM' if local.hour < 12 else 'PM'}"


@dataclass(frozen=True)
class PurchaseView:
    """What the purchase card shows: plain data, formatted for the store's locale."""

    code: str
    state: PurchaseState
    is_money: bool
    reward: str  # the product's name, or the money amount formatted
    points: str
    client_name: str
    client_email: str  # masked
    created: str
    updated: str
    branch: str

    @property
    def deliverable(self) -> bool:
        return self.state is PurchaseState.PENDING


def _state(purchase: Purchase, expired: bool) -> PurchaseState:
    try:
        state = PurchaseState(purchase.status.lower())
    except ValueError:
        return PurchaseState.UNKNOWN
    if state is PurchaseState.PENDING and expired:
        return PurchaseState.EXPIRED
    return state


def money_of(purchase: Purchase) -> Decimal | None:
    return Decimal(str(purchase.money_amount)) if purchase.money_amount is not None else None


def is_money(purchase: Purchase) -> bool:
    return purchase.type == PurchaseType.MONEY or (
        purchase.type is None and purchase.product is None
    )


def view_purchase(
    purchase: Purchase,
    locale: AmountLocale | str,
    *,
    expired: bool = False,
    tz: tzinfo | None = None,
) -> PurchaseView:
    money = money_of(purchase)
    if is_money(purchase):
        reward = format_amount(money, locale) if money is not None else ""
    else:
        reward = (purchase.product.name if purchase.product else None) or ""
    client = purchase.client
    name = " ".join(p for p in (client.first_name, client.last_name) if p) if client else ""
    return PurchaseView(
        code=purchase.code,
        state=_state(purchase, expired),
        is_money=is_money(purchase),
        reward=reward,
        points=format_points(purchase.points, locale),
        client_name=name,
        client_email=mask_email(client.email) if client else "",
        created=format_when(purchase.created_at, locale, tz),
        updated=format_when(purchase.updated_at, locale, tz),
        branch=(purchase.branch.name if purchase.branch else None) or "",
    )


def belongs_to_other(purchase: Purchase, client_id: int | None) -> bool:
    """Whether ``purchase`` is another client's than the one identified at the counter
    (``client_id``; ``None``: nobody is identified, nothing to compare)."""
    owner = purchase.client.id if purchase.client else None
    return client_id is not None and owner is not None and owner != client_id


async def find_purchase(api: LoyaltyClient, text: str) -> Purchase:
    """The purchase of the code typed in ``text`` (``CodeError``; 404 ``PURCHASE``)."""
    return await api.find_purchase(parse_code(text))


class DeliveryOutcome(StrEnum):
    DELIVERED = "delivered"  # this call delivered it
    ALREADY_DELIVERED = "already_delivered"
    EXPIRED = "expired"
    CANCELED = "canceled"


@dataclass(frozen=True)
class Delivery:
    outcome: DeliveryOutcome
    purchase: Purchase  # as it is now
    reconciled: bool = False  # the answer was lost; reading back showed it delivered

    @property
    def changed(self) -> bool:
        return self.outcome is DeliveryOutcome.DELIVERED


async def _read_again(api: LoyaltyClient, purchase: Purchase) -> Purchase:
    try:
        return await api.find_purchase(purchase.code)
    except ApiError as error:
        log.info("redeem: could not read the code again (%s)", error.kind.value)
        return purchase


async def deliver(api: LoyaltyClient, purchase: Purchase) -> Delivery:
    """Mark ``purchase`` (just looked up) delivered, or say why nothing was done."""
    try:
        applied = await api.redeem(purchase.code, looked_up=purchase)
    except ApiError as error:
        if error.reason is Reason.PURCHASE_CANCELED:
            after = await _read_again(api, purchase)
            if after.status == PurchaseStatus.PENDING:
                after = replace(after, status=PurchaseStatus.CANCELED.value)
            return Delivery(DeliveryOutcome.CANCELED, after)
        if error.reason is not Reason.ALREADY_REDEEMED:
            raise
        after = await _read_again(api, purchase)
        if after.is_delivered:
            return Delivery(DeliveryOutcome.ALREADY_DELIVERED, after)
        if after.status == PurchaseStatus.CANCELED:
            return Delivery(DeliveryOutcome.CANCELED, after)
        return Delivery(DeliveryOutcome.EXPIRED, after)
    log.info(
        "redeem: purchase %d delivered%s",
        applied.record.id,
        " (reconciled)" if applied.reconciled else "",
    )
    return Delivery(DeliveryOutcome.DELIVERED, applied.record, applied.reconciled)


async def journal_delivery(journal: AsyncJournal, purchase: Purchase) -> JournalEntry:
    """Today's row of a delivery: no change of balance (the points went at the
    exchange), the client masked, the reward and the code in the detail."""
    client = purchase.client
    name = " ".join(p for p in (client.first_name, client.last_name) if p) if client else ""
    reward = purchase.product.name if purchase.product and purchase.product.name else ""
    return await journal.record(
        OperationKind.REDEEM,
        Outcome.OK,
        client=client_display(name, client.email if client else None),
        amount=money_of(purchase),
        detail=f"{reward} · {purchase.code}" if reward else purchase.code,
    )
