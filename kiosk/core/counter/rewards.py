"""Rewards at the counter: the client's catalog at their level, and exchanges.

Level rule (the simulator's choice, docs/simulator.md and ``kiosk/sim/exchanges.py``;
the contract only says an offer without ``levelId`` is the price for clients without
level): an offer without level is open to every client; an offer for a level is open
to clients of that level or of a higher one (by ``minPoints``); a client without
level can use only offers without level. The price shown is the cheapest offer open
to the client, and that is the offer an exchange sends.

The catalog is ``GET /external/products?isEnabled=true&levelId=<client's level>``,
plus, from ``isEnabled=false``, the rewards whose controlled stock ran out (the
service disables those by itself): they stay on the counter as "Out of stock"
instead of vanishing. A reward disabled by hand in the panel (disabled with stock
left, or without stock control) is left out, as are rewards the client cannot
exchange at all (no open offer). Exchanges
(for a reward or for money) have no idempotency key: the API client reconciles a
lost answer by reading, and raises ``AmbiguousOutcome`` when it cannot tell (the
counter says "not certain: check before retrying" and never resends on its own).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import StrEnum

from kiosk.api.client import LoyaltyClient
from kiosk.api.models.catalog import Level, Offer, Product
from kiosk.api.models.clients import Client
from kiosk.api.models.purchases import Purchase
from kiosk.core.journal import AsyncJournal, JournalEntry, OperationKind, Outcome, client_display

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LevelLadder:
    """The merchant's levels by id, ranked by ``minPoints`` (higher is better)."""

    min_points: Mapping[int, int] = field(default_factory=dict)

    @classmethod
    def of(cls, levels: Iterable[Level]) -> LevelLadder:
        return cls({level.id: level.min_points for level in levels})

    def opens(self, client_level_id: int | None, offer_level_id: int | None) -> bool:
        """Whether an offer for ``offer_level_id`` is open to a client of ``client_level_id``."""
        if offer_level_id is None:
            return True
        if client_level_id is None:
            return False
        if client_level_id == offer_level_id:
            return True
        own = self.min_points.get(client_level_id)
        wanted = self.min_points.get(offer_level_id)
        return own is not None and wanted is not None and own >= wanted


def price_at_level(
    product: Product, level_id: int | None, ladder: LevelLadder | None = None
) -> Offer | None:
    """The cheapest offer of ``product`` open to a client of ``level_id`` (``None``:
    the client cannot exchange it). On a tie the client's own level wins."""
    ladder = ladder or LevelLadder()
    open_offers = [o for o in product.offers if ladder.opens(level_id, o.level_id)]
    if not open_offers:
        return None
    return min(open_offers, key=lambda o: (o.points, o.level_id != level_id, o.id))


def missing_points(price: int, balance: int) -> int:
    """Points the client still needs for ``price`` (0 when they can afford it)."""
    return max(0, price - balance)


@dataclass(frozen=True)
class RewardCard:
    """One reward as the counter shows it to one client."""

    product_id: int
    name: str
    description: str
    offer_id: int
    price: int
    balance: int
    stock: int | None = None  # units left when the stock is controlled
    max_per_client: int | None = None

    @property
    def in_stock(self) -> bool:
        return self.stock is None or self.stock > 0

    @property
    def missing(self) -> int:
        return missing_points(self.price, self.balance)

    @property
    def affordable(self) -> bool:
        return self.missing == 0 and self.in_stock

    @property
    def balance_after(self) -> int:
        return self.balance - self.price


def sold_out(product: Product) -> bool:
    """Controlled stock that ran out (the service disables such a product by itself)."""
    stock = product.stock
    return stock is not None and stock.controlled and (stock.available or 0) <= 0


def reward_card(
    product: Product, balance: int, level_id: int | None, ladder: LevelLadder | None = None
) -> RewardCard | None:
    """``product`` at the client's level, or ``None`` when it is not for them. A
    disabled product is shown only when its stock ran out (as out of stock)."""
    if product.is_enabled is False and not sold_out(product):
        return None
    offer = price_at_level(product, level_id, ladder)
    if offer is None:
        return None
    stock = product.stock
    return RewardCard(
        product_id=product.id,
        name=product.name or f"#{product.id}",
        description=product.short_description or "",
        offer_id=offer.id,
        price=offer.points,
        balance=balance,
        stock=(stock.available or 0) if stock is not None and stock.controlled else None,
        max_per_client=product.max_purchases,
    )


def catalog_for(
    products: Iterable[Product], balance: int, level_id: int | None, ladder: LevelLadder | None
) -> list[RewardCard]:
    """The client's catalog: what they can afford first, cheapest first."""
    cards = [c for p in products if (c := reward_card(p, balance, level_id, ladder)) is not None]
    return sort_catalog(cards)


def with_balance(cards: Iterable[RewardCard], balance: int) -> list[RewardCard]:
    """The same catalog for a new balance (after an exchange or a credit)."""
    return sort_catalog(replace(card, balance=balance) for card in cards)


def sort_catalog(cards: Iterable[RewardCard]) -> list[RewardCard]:
    """What the client can afford first, cheapest first."""
    return sorted(cards, key=lambda c: (not c.affordable, c.price, c.name.casefold()))


def level_of(client: Client) -> int | None:
    return client.level.id if client.level is not None else None


def client_lookup(client: Client) -> str | None:
    """What finds the client again (the exchange's reconciliation compares balances)."""
    return client.email or client.document_number or None


async def load_ladder(api: LoyaltyClient) -> LevelLadder:
    return LevelLadder.of([level async for level in api.iter_levels()])


async def load_catalog(api: LoyaltyClient, client: Client, ladder: LevelLadder) -> list[RewardCard]:
    """The rewards offered at the client's level, priced for them: the enabled ones
    and those disabled because their stock ran out (both lists read at once)."""
    level_id = level_of(client)

    async def listed(enabled: bool) -> list[Product]:
        return [p async for p in api.iter_products(is_enabled=enabled, level_id=level_id)]

    enabled, disabled = await asyncio.gather(listed(True), listed(False))
    products = enabled + [p for p in disabled if sold_out(p)]
    return catalog_for(products, client.balance, level_id, ladder)


class ExchangeKind(StrEnum):
    REWARD = "reward"
    MONEY = "money"


@dataclass(frozen=True)
class ExchangeDone:
    """An exchange that happened: its purchase (with the pickup ``code``)."""

    kind: ExchangeKind
    purchase: Purchase
    balance_before: int
    reward: str = ""  # the reward's name (empty for money)
    money: Decimal | None = None
    reconciled: bool = False  # the answer was lost; reading back showed it happened

    @property
    def code(self) -> str:
        return self.purchase.code

    @property
    def points(self) -> int:
        """Points debited."""
        return self.purchase.points

    @property
    def expected_balance(self) -> int:
        return self.balance_before - self.points


async def exchange_reward(api: LoyaltyClient, client: Client, card: RewardCard) -> ExchangeDone:
    """Exchange the client's points for ``card``'s reward at the offer shown.

    Refusals are ``ApiError`` 409 with a ``reason`` (insufficient points, no stock,
    level, cap, disabled); a lost answer that reading cannot settle raises
    ``AmbiguousOutcome``.
    """
    applied = await api.exchange_product(
        card.offer_id, client.id, product_id=card.product_id, lookup=client_lookup(client)
    )
    log.info(
        "exchange: product %d offer %d -> purchase %d%s",
        card.product_id,
        card.offer_id,
        applied.record.id,
        " (reconciled)" if applied.reconciled else "",
    )
    name = applied.record.product.name if applied.record.product else None
    return ExchangeDone(
        ExchangeKind.REWARD,
        applied.record,
        client.balance,
        reward=name or card.name,
        reconciled=applied.reconciled,
    )


async def exchange_money(api: LoyaltyClient, client: Client, amount: Decimal) -> ExchangeDone:
    """Exchange points for ``amount`` of money (409 ``MONEY_MINIMUM`` below the
    merchant's minimum); the points debited come from the merchant's rate."""
    if amount <= 0:
        raise ValueError("the money amount must be positive")
    applied = await api.exchange_money(float(amount), client.id, lookup=client_lookup(client))
    log.info(
        "money exchange -> purchase %d%s",
        applied.record.id,
        " (reconciled)" if applied.reconciled else "",
    )
    money = applied.record.money_amount
    return ExchangeDone(
        ExchangeKind.MONEY,
        applied.record,
        client.balance,
        money=Decimal(str(money)) if money is not None else amount,
        reconciled=applied.reconciled,
    )


async def journal_exchange(
    journal: AsyncJournal, client: Client, done: ExchangeDone
) -> JournalEntry:
    """Today's row: the points as a change of balance (negative), the client masked,
    the reward and the pickup code in the detail."""
    money = done.kind is ExchangeKind.MONEY
    kind = OperationKind.MONEY_EXCHANGE if money else OperationKind.EXCHANGE
    name = client.name or " ".join(p for p in (client.first_name, client.last_name) if p)
    detail = f"{done.reward} · {done.code}" if done.reward else done.code
    return await journal.record(
        kind,
        Outcome.OK,
        client=client_display(name, client.email, client.document_number),
        points=-done.points,
        amount=done.money,
        detail=detail,
    )
