"""Finding out by reading whether a write whose answer was lost happened.

Writes without idempotency key (exchanges, redeem, client creation) are never
resent after an ambiguous failure. Before sending, the client notes what it will
compare with; after a lost answer it waits ``settle`` seconds (a request cut on
our side may still be finishing on the server's), reads again and decides:

- exchange: new purchases of that client (purchase list filtered by ``clientId``,
  docs/simulator.md C14, also checked record by record) matching the exchange;
  with a ``lookup`` (the client's email or document) also the client's balance and
  ``purchases_counter`` before and after. The list's parameters are not documented:
  when the service answers them with a 400, the exchange goes on without the list
  and a lost answer is told by the balance alone (never "applied": no record to
  return; "not applied" only when balance and counter did not move);
- redeem: the code lookup (``pending`` before, ``delivered`` after);
- client creation: the client search (absent before, present after).

Exactly one match: the call returns it flagged ``reconciled``. Nothing changed:
``AmbiguousOutcome(applied=False)``. Anything else (several candidates, balance
moved without a purchase, reading failed): ``AmbiguousOutcome(applied=None)``,
"unknown: check before retrying".
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from kiosk.api.errors import AmbiguousOutcome, ApiError, ErrorKind, Reason
from kiosk.api.models.clients import Client, NewClient
from kiosk.api.models.common import Direction, Page
from kiosk.api.models.purchases import Applied, Purchase, PurchaseOrder
from kiosk.api.ratelimit import Sleep

log = logging.getLogger(__name__)

RECENT_PURCHASES = 50


class Reader(Protocol):
    async def list_purchases(
        self,
        *,
        page: int = 1,
        limit: int | None = None,
        order: PurchaseOrder | str | None = None,
        direction: Direction | str | None = None,
        client_id: int | None = None,
    ) -> Page[Purchase]: ...

    async def search_client(self, query: str) -> Client: ...

    async def find_purchase(self, code: str) -> Purchase: ...


# The purchase list's parameters are not documented (``order`` "valid values per
# resource", ``clientId`` the simulator's C14): a service may refuse them with a 400.
# The exchange then goes on without the list (docs/design/api.md).
GUESS_REFUSED = frozenset({ErrorKind.BAD_REQUEST, ErrorKind.VALIDATION})


@dataclass(frozen=True)
class ExchangeBefore:
    purchase_ids: frozenset[int] | None  # None: the purchase list was not read
    client: Client | None  # from the search by lookup, when one was given
    list_refused: bool = False  # the service refused the list's parameters (a 400)


async def _recent_purchases(reader: Reader, client_id: int) -> tuple[Purchase, ...]:
    page = await reader.list_purchases(
        limit=RECENT_PURCHASES,
        order=PurchaseOrder.CREATED_AT,
        direction=Direction.DESC,
        client_id=client_id,
    )
    # The filter is the simulator's choice: check each record anyway.
    return tuple(p for p in page.items if p.client is None or p.client.id == client_id)


async def _find_client(reader: Reader, lookup: str) -> Client | None:
    try:
        return await reader.search_client(lookup)
    except ApiError as error:
        if error.kind is ErrorKind.NOT_FOUND:
            return None
        raise


async def exchange_before(
    reader: Reader, client_id: int, lookup: str | None, *, read_list: bool = True
) -> ExchangeBefore:
    """What a lost answer will be compared with. The purchase list is read only when
    ``read_list`` (the service has not refused its parameters before); a 400 to it
    is "unknown", never a reason to stop the exchange."""
    ids: frozenset[int] | None = None
    refused = False
    if read_list:
        try:
            ids = frozenset(p.id for p in await _recent_purchases(reader, client_id))
        except ApiError as error:
            if error.kind not in GUESS_REFUSED:
                raise
            refused = True
            log.warning(
                "the purchase list refused its parameters (%s %s): exchanges go on "
                "without it; a lost answer is then checked by the balance only",
                error.status,
                error.kind.value,
            )
    client = await _find_client(reader, lookup) if lookup else None
    return ExchangeBefore(ids, client, list_refused=refused)


def _unknown(lost: AmbiguousOutcome, why: str, applied: bool | None = None) -> AmbiguousOutcome:
    log.warning("%s: %s", lost.operation, why)
    return AmbiguousOutcome(
        operation=lost.operation,
        cause=lost.cause,
        applied=applied,
        message=f"{lost.operation}: {why}",
        status=lost.status,
        method=lost.method,
        path=lost.path,
    )


async def reconcile_exchange(
    reader: Reader,
    sleep: Sleep,
    settle: float,
    *,
    before: ExchangeBefore,
    client_id: int,
    lookup: str | None,
    matches: Callable[[Purchase], bool],
    lost: AmbiguousOutcome,
) -> Applied[Purchase]:
    await sleep(settle)
    if before.purchase_ids is None:
        return await _reconcile_by_balance(reader, before=before, lookup=lookup, lost=lost)
    try:
        purchases = await _recent_purchases(reader, client_id)
        client = await _find_client(reader, lookup) if lookup else None
    except ApiError as error:
        raise _unknown(lost, f"could not read back ({error.kind.value})") from None
    known = before.purchase_ids
    new = [p for p in purchases if p.id not in known and matches(p)]
    if len(new) == 1:
        log.info("%s: applied, found purchase %d", lost.operation, new[0].id)
        return Applied(new[0], reconciled=True)
    if new:
        raise _unknown(lost, f"{len(new)} new matching purchases")
    if (
        before.client is not None
        and client is not None
        and (
            client.balance != before.client.balance
            or client.purchases_counter != before.client.purchases_counter
        )
    ):
        raise _unknown(lost, "the balance changed but no new purchase was found")
    raise _unknown(lost, "not applied as of reading", applied=False)


async def _reconcile_by_balance(
    reader: Reader, *, before: ExchangeBefore, lookup: str | None, lost: AmbiguousOutcome
) -> Applied[Purchase]:
    """Without the purchase list: the client's balance and purchases counter tell
    "not applied" when neither moved; anything else is "cannot tell"."""
    if before.client is None or not lookup:
        raise _unknown(lost, "cannot tell: no purchase list and no balance to compare")
    try:
        client = await _find_client(reader, lookup)
    except ApiError as error:
        raise _unknown(lost, f"could not read back ({error.kind.value})") from None
    if (
        client is not None
        and client.balance == before.client.balance
        and client.purchases_counter == before.client.purchases_counter
    ):
        raise _unknown(lost, "not applied as of reading", applied=False)
    raise _unknown(lost, "the balance changed; the purchase list cannot be read")


async def redeem_before(reader: Reader, code: str) -> Purchase:
    return await reader.find_purchase(code)


async def reconcile_redeem(
    reader: Reader,
    sleep: Sleep,
    settle: float,
    *,
    code: str,
    before: Purchase,
    lost: AmbiguousOutcome,
) -> Applied[Purchase]:
    await sleep(settle)
    try:
        after = await reader.find_purchase(code)
    except ApiError as error:
        raise _unknown(lost, f"could not read back ({error.kind.value})") from None
    if before.is_pending and after.is_delivered:
        log.info("%s: applied, purchase %d delivered", lost.operation, after.id)
        return Applied(after, reconciled=True)
    if after.status == before.status:
        raise _unknown(lost, "not applied as of reading", applied=False)
    raise _unknown(lost, f"status went from {before.status} to {after.status}")


async def creation_before(reader: Reader, draft: NewClient) -> bool:
    """Whether a client with the draft's email (else document) already exists."""
    return await _find_client(reader, draft.lookup) is not None


async def reconcile_creation(
    reader: Reader,
    sleep: Sleep,
    settle: float,
    *,
    draft: NewClient,
    existed_before: bool,
    lost: AmbiguousOutcome,
) -> Applied[Client]:
    await sleep(settle)
    try:
        found = await _find_client(reader, draft.lookup)
    except ApiError as error:
        raise _unknown(lost, f"could not read back ({error.kind.value})") from None
    if existed_before and found is not None:
        # Our request could not have created it: the API refuses existing clients.
        raise ApiError(
            ErrorKind.CONFLICT,
            reason=Reason.CLIENT_EXISTS,
            message="the client already existed before the request",
            method=lost.method,
            path=lost.path,
        )
    if found is not None:
        log.info("%s: applied, client %d created", lost.operation, found.id)
        return Applied(found, reconciled=True)
    raise _unknown(lost, "not applied as of reading", applied=False)
