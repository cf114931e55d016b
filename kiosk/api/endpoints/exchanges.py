"""Exchanges (points for a reward or money), the code lookup, redeem, purchase list.

Exchanges and redeem have no idempotency key: they are resent only when the first
attempt cannot have been applied, and a lost answer is reconciled by reading (see
``kiosk.api.reconcile``): a doubled reward is as bad as a doubled credit.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Callable
from typing import Any, cast

from kiosk.api import reconcile
from kiosk.api.endpoints._base import EndpointBase, list_query, segment
from kiosk.api.errors import AmbiguousOutcome, ErrorKind, MalformedResponse, Resource
from kiosk.api.models.common import Direction, ListQuery, Page
from kiosk.api.models.purchases import (
    Applied,
    Purchase,
    PurchaseOrder,
    PurchaseStatus,
    PurchaseType,
    money_exchange_body,
    product_exchange_body,
    purchase_filters,
)
from kiosk.api.retry import Resend
from kiosk.api.session import Call

_PURCHASES = "/external/purchase"


class ExchangeEndpoints(EndpointBase):
    # The service answered the purchase list's undocumented parameters with a 400:
    # exchanges go on without the list (kiosk.api.reconcile.exchange_before).
    _purchase_list_refused = False

    @property
    def _reader(self) -> reconcile.Reader:
        return cast(reconcile.Reader, self)  # LoyaltyClient has every reading method

    async def exchange_product(
        self,
        product_offer_id: int,
        client_id: int,
        *,
        branch_id: int | None = None,
        product_id: int | None = None,
        lookup: str | None = None,
    ) -> Applied[Purchase]:
        """Exchange points for a reward: a ``pending`` purchase with its ``code``.

        ``product_id`` and ``lookup`` (the client's email or document) sharpen the
        reconciliation after a lost answer; they are optional.
        """

        def matches(p: Purchase) -> bool:
            return p.type in (None, PurchaseType.PRODUCT) and (
                product_id is None or (p.product is not None and p.product.id == product_id)
            )

        body = product_exchange_body(product_offer_id, client_id)
        return await self._exchange(
            "exchange_product",
            "/external/exchange/product",
            body,
            client_id,
            branch_id,
            lookup,
            matches,
        )

    async def exchange_money(
        self,
        money_amount: float,
        client_id: int,
        *,
        branch_id: int | None = None,
        lookup: str | None = None,
    ) -> Applied[Purchase]:
        """Exchange points for money (the response is the purchase record, C12)."""

        def matches(p: Purchase) -> bool:
            return p.type in (None, PurchaseType.MONEY) and (
                p.money_amount is None or math.isclose(p.money_amount, money_amount)
            )

        body = money_exchange_body(money_amount, client_id)
        return await self._exchange(
            "exchange_money",
            "/external/exchange/money",
            body,
            client_id,
            branch_id,
            lookup,
            matches,
        )

    async def _exchange(
        self,
        name: str,
        path: str,
        body: dict[str, Any],
        client_id: int,
        branch_id: int | None,
        lookup: str | None,
        matches: Callable[[Purchase], bool],
    ) -> Applied[Purchase]:
        before = await reconcile.exchange_before(
            self._reader, client_id, lookup, read_list=not self._purchase_list_refused
        )
        if before.list_refused:
            self._purchase_list_refused = True  # not asked again by this client
        call = Call(
            "POST",
            path,
            name=name,
            body=body,
            branch_id=self._branch(branch_id),
            resource=Resource.PRODUCT,
            resend=Resend.IF_NOT_APPLIED,
            operation=True,
        )
        try:
            answer = await self._send(call)
            return Applied(self._data(answer, "purchase", Purchase.from_json))
        except (AmbiguousOutcome, MalformedResponse) as error:
            lost = _as_lost(error, name)
        return await reconcile.reconcile_exchange(
            self._reader,
            self._sleep,
            self._settle_seconds,
            before=before,
            client_id=client_id,
            lookup=lookup,
            matches=matches,
            lost=lost,
        )

    async def find_purchase(self, code: str) -> Purchase:
        """The purchase of a code, without delivering it (404: ``PURCHASE``)."""
        call = Call(
            "GET",
            f"{_PURCHASES}/code/{segment(code)}",
            name="find_purchase",
            resource=Resource.PURCHASE,
        )
        return self._parse(await self._send(call), Purchase.from_json)

    async def redeem(
        self, code: str, *, branch_id: int | None = None, looked_up: Purchase | None = None
    ) -> Applied[Purchase]:
        """Mark the purchase of ``code`` delivered. ``looked_up``: the pending purchase
        just read with ``find_purchase`` (else the client reads it first, to be able
        to reconcile a lost answer)."""
        before = looked_up if looked_up is not None and looked_up.is_pending else None
        if before is None:
            before = await reconcile.redeem_before(self._reader, code)
        call = Call(
            "POST",
            f"{_PURCHASES}/redeem/{segment(code)}",
            name="redeem",
            branch_id=self._branch(branch_id),
            resource=Resource.PURCHASE,
            resend=Resend.IF_NOT_APPLIED,
        )
        try:
            answer = await self._send(call)
            return Applied(self._data(answer, "purchase", Purchase.from_json))
        except (AmbiguousOutcome, MalformedResponse) as error:
            lost = _as_lost(error, "redeem")
        return await reconcile.reconcile_redeem(
            self._reader, self._sleep, self._settle_seconds, code=code, before=before, lost=lost
        )

    def _purchases_call(
        self,
        page: int,
        limit: int | None,
        query: str | None,
        order: PurchaseOrder | str | None,
        direction: Direction | str | None,
        status: PurchaseStatus | None,
        type: PurchaseType | None,
        client_id: int | None,
    ) -> tuple[Call, ListQuery]:
        q = list_query(
            page=page,
            limit=limit,
            query=query,
            order=order,
            direction=direction,
            filters=purchase_filters(status=status, type=type, client_id=client_id),
        )
        return Call("GET", _PURCHASES, name="list_purchases", params=q.to_params()), q

    async def list_purchases(
        self,
        *,
        page: int = 1,
        limit: int | None = None,
        query: str | None = None,
        order: PurchaseOrder | str | None = None,
        direction: Direction | str | None = None,
        status: PurchaseStatus | None = None,
        type: PurchaseType | None = None,
        client_id: int | None = None,
    ) -> Page[Purchase]:
        call, _ = self._purchases_call(
            page, limit, query, order, direction, status, type, client_id
        )
        return await self._page(call, "purchases", Purchase.from_json)

    async def iter_purchases(
        self,
        *,
        query: str | None = None,
        order: PurchaseOrder | str | None = None,
        direction: Direction | str | None = None,
        status: PurchaseStatus | None = None,
        type: PurchaseType | None = None,
        client_id: int | None = None,
    ) -> AsyncIterator[Purchase]:
        call, q = self._purchases_call(1, None, query, order, direction, status, type, client_id)
        async for item in self._walk(call, q, "purchases", Purchase.from_json):
            yield item


def _as_lost(error: AmbiguousOutcome | MalformedResponse, name: str) -> AmbiguousOutcome:
    """A malformed 2xx is a write that happened with an unreadable answer: reconcile it."""
    if isinstance(error, AmbiguousOutcome):
        return error
    return AmbiguousOutcome(
        operation=name,
        cause=ErrorKind.MALFORMED,
        status=error.status,
        method=error.method,
        path=error.path,
    )
