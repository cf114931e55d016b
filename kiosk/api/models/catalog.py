"""The program's configuration: levels, products (rewards) and point items."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from kiosk.api.models._read import Obj
from kiosk.api.models.common import drop_none


class LevelOrder(StrEnum):
    NAME = "name"
    MIN_POINTS = "minPoints"
    CREATED_AT = "createdAt"


class PointItemOrder(StrEnum):
    NAME = "name"
    POINTS = "points"
    AMOUNT = "amount"
    CREATED_AT = "createdAt"


@dataclass(frozen=True)
class LevelColors:
    primary: str | None = None
    secondary: str | None = None
    border: str | None = None

    @classmethod
    def from_json(cls, data: Any) -> LevelColors:
        o = Obj(data, "colors")
        return cls(
            primary=o.opt_str("primary"),
            secondary=o.opt_str("secondary"),
            border=o.opt_str("border"),
        )

    def to_json(self) -> dict[str, Any]:
        return drop_none(
            {"primary": self.primary, "secondary": self.secondary, "border": self.border}
        )


@dataclass(frozen=True)
class Level:
    id: int
    min_points: int
    name: str | None = None
    description: str | None = None
    points_multiplier: float | None = None
    colors: LevelColors | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None

    @classmethod
    def from_json(cls, data: Any) -> Level:
        o = Obj(data, "level")
        return cls(
            id=o.req_int("id"),
            min_points=o.req_int("minPoints"),
            name=o.opt_str("name"),
            description=o.opt_str("description"),
            points_multiplier=o.opt_number("pointsMultiplier"),
            colors=o.opt_obj("colors", LevelColors.from_json),
            created_at=o.opt_datetime("createdAt"),
            updated_at=o.opt_datetime("updatedAt"),
        )


@dataclass(frozen=True)
class LevelDraft:
    """Body of a level create or update (an update replaces the whole level)."""

    name: str
    min_points: int
    points_multiplier: float = 1.0
    colors: LevelColors | None = None
    description: str | None = None

    def __post_init__(self) -> None:
        if self.points_multiplier < 1:
            raise ValueError("pointsMultiplier is at least 1")

    def to_json(self) -> dict[str, Any]:
        return drop_none(
            {
                "name": self.name,
                "minPoints": self.min_points,
                "pointsMultiplier": self.points_multiplier,
                "colors": self.colors.to_json() if self.colors else None,
                "description": self.description,
            }
        )


@dataclass(frozen=True)
class Offer:
    """A product's price for one level (``level_id`` None: clients without level)."""

    id: int  # productOfferId: what an exchange sends
    points: int
    level_id: int | None = None
    level_name: str | None = None

    @classmethod
    def from_json(cls, data: Any) -> Offer:
        o = Obj(data, "offer")
        return cls(
            id=o.req_int("productOfferId"),
            points=o.req_int("points"),
            level_id=o.opt_int("levelId"),
            level_name=o.opt_str("levelName"),
        )


@dataclass(frozen=True)
class Stock:
    controlled: bool
    available: int | None = None

    @classmethod
    def from_json(cls, data: Any) -> Stock:
        o = Obj(data, "stock")
        return cls(controlled=bool(o.opt_bool("controlled")), available=o.opt_int("available"))

    def to_json(self) -> dict[str, Any]:
        return drop_none({"controlled": self.controlled, "available": self.available})


@dataclass(frozen=True)
class Product:
    id: int
    name: str | None = None
    offers: tuple[Offer, ...] = ()
    stock: Stock | None = None
    short_description: str | None = None
    description: str | None = None
    image: str | None = None
    max_purchases: int | None = None
    category_ids: tuple[int, ...] = ()
    is_enabled: bool | None = None  # not documented on the record: read when present

    @classmethod
    def from_json(cls, data: Any) -> Product:
        o = Obj(data, "product")
        return cls(
            id=o.req_int("id"),
            name=o.opt_str("name"),
            offers=o.list_of("offers", Offer.from_json),
            stock=o.opt_obj("stock", Stock.from_json),
            short_description=o.opt_str("shortDescription"),
            description=o.opt_str("description"),
            image=o.opt_str("image", exact=True),
            max_purchases=o.opt_int("maxPurchases"),
            category_ids=o.int_list("categoryIds"),
            is_enabled=o.opt_bool("isEnabled"),
        )

    def offer_for(self, level_id: int | None) -> Offer | None:
        """The price for a client of that level (``None``: without level)."""
        for offer in self.offers:
            if offer.level_id == level_id:
                return offer
        return None


@dataclass(frozen=True)
class OfferDraft:
    points: int
    level_id: int | None = None

    def to_json(self) -> dict[str, Any]:
        return drop_none({"points": self.points, "levelId": self.level_id})


@dataclass(frozen=True)
class ProductDraft:
    """Body of a product create or update (an update replaces the whole product;
    ``stock`` None leaves it out, as a custom-coupon product requires)."""

    name: str
    offers: Sequence[OfferDraft]
    short_description: str | None = None
    description: str | None = None
    image: str | None = None
    stock: Stock | None = None
    max_purchases: int | None = None
    category_ids: Sequence[int] | None = None

    def __post_init__(self) -> None:
        if not self.offers:
            raise ValueError("a product needs at least one offer")

    def to_json(self) -> dict[str, Any]:
        return drop_none(
            {
                "name": self.name,
                "shortDescription": self.short_description,
                "description": self.description,
                "image": self.image,
                "offers": [offer.to_json() for offer in self.offers],
                "stock": self.stock.to_json() if self.stock else None,
                "maxPurchases": self.max_purchases,
                "categoryIds": list(self.category_ids) if self.category_ids is not None else None,
            }
        )


@dataclass(frozen=True)
class PointItem:
    id: int
    name: str | None = None
    points: int | None = None
    amount: float | None = None
    branch_id: int | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None

    @classmethod
    def from_json(cls, data: Any) -> PointItem:
        o = Obj(data, "point item")
        return cls(
            id=o.req_int("id"),
            name=o.opt_str("name"),
            points=o.opt_int("points"),
            amount=o.opt_number("amount"),
            branch_id=o.opt_int("branchId"),
            created_at=o.opt_datetime("createdAt"),
            updated_at=o.opt_datetime("updatedAt"),
        )


@dataclass(frozen=True)
class PointItemDraft:
    """Body of a point item create or update: exactly one of ``points`` or ``amount``."""

    name: str | None = None
    points: int | None = None
    amount: float | None = None

    def __post_init__(self) -> None:
        if (self.points is None) == (self.amount is None):
            raise ValueError("a point item has either points or an amount")
        value = self.points if self.points is not None else self.amount
        if value is None or value <= 0:
            raise ValueError("points or amount must be positive")

    def to_json(self) -> dict[str, Any]:
        return drop_none({"name": self.name, "points": self.points, "amount": self.amount})


def product_filters(
    *, is_enabled: bool | None, level_id: int | None
) -> dict[str, str | int | bool]:
    """Filters of ``GET /external/products``."""
    return drop_none({"isEnabled": is_enabled, "levelId": level_id})
