"""Exchanges of points for a reward or money, and the purchase record they create."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Generic, TypeVar

from kiosk.api.models._read import Obj
from kiosk.api.models.common import Named, drop_none

T = TypeVar("T")


class PurchaseStatus(StrEnum):
    PENDING = "pending"
    CANCELED = "canceled"
    DELIVERED = "delivered"


class PurchaseType(StrEnum):
    PRODUCT = "product"
    MONEY = "money"


class PurchaseOrder(StrEnum):
    """docs/simulator.md C14."""

    CREATED_AT = "createdAt"
    POINTS = "points"
    STATUS = "status"


@dataclass(frozen=True)
class PurchaseClient:
    id: int
    first_name: str | None = None
    last_name: str | None = None
    email: str | None = field(default=None, repr=False)

    @classmethod
    def from_json(cls, data: Any) -> PurchaseClient:
        o = Obj(data, "purchase client")
        return cls(
            id=o.req_int("id"),
            first_name=o.opt_str("firstName"),
            last_name=o.opt_str("lastName"),
            email=o.opt_str("email", exact=True),
        )


@dataclass(frozen=True)
class Purchase:
    """An exchange record; ``code`` is what the client shows to collect the reward."""

    id: int
    code: str
    status: str  # PurchaseStatus values; kept as text so a new state does not break us
    points: int
    type: str | None = None  # PurchaseType values
    money_amount: float | None = None
    product: Named | None = None
    client: PurchaseClient | None = None
    branch: Named | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None

    @classmethod
    def from_json(cls, data: Any) -> Purchase:
        o = Obj(data, "purchase")
        return cls(
            id=o.req_int("id"),
            code=o.req_str("code", exact=True),
            status=o.req_str("status", exact=True),
            points=o.req_int("points"),
            type=o.opt_str("type", exact=True),
            money_amount=o.opt_number("moneyAmount"),
            product=o.opt_obj("product", Named.from_json),
            client=o.opt_obj("client", PurchaseClient.from_json),
            branch=o.opt_obj("branch", Named.from_json),
            created_at=o.opt_datetime("createdAt"),
            updated_at=o.opt_datetime("updatedAt"),
        )

    @property
    def is_pending(self) -> bool:
        return self.status == PurchaseStatus.PENDING

    @property
    def is_delivered(self) -> bool:
        return self.status == PurchaseStatus.DELIVERED


@dataclass(frozen=True)
class Applied(Generic[T]):
    """A write that happened. ``reconciled``: its answer was lost and reading back
    showed it was applied (the record then comes from that reading)."""

    record: T
    reconciled: bool = False


def product_exchange_body(product_offer_id: int, client_id: int) -> dict[str, Any]:
    return {"productOfferId": product_offer_id, "clientId": client_id}


def money_exchange_body(money_amount: float, client_id: int) -> dict[str, Any]:
    if money_amount <= 0:
        raise ValueError("the money amount must be positive")
    return {"moneyAmount": money_amount, "clientId": client_id}


def purchase_filters(
    *, status: PurchaseStatus | None, type: PurchaseType | None, client_id: int | None
) -> dict[str, str | int | bool]:
    """Filters of ``GET /external/purchase`` (docs/simulator.md C14)."""
    return drop_none(
        {
            "status": status.value if status else None,
            "type": type.value if type else None,
            "clientId": client_id,
        }
    )
