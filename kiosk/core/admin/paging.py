"""Paging, search, sort and filters of an administration list (no Qt).

``ListState`` is what the next request of a list asks for; every change of search,
sort or filter goes back to page 1. ``PageWindow`` is what a page answer says about
where we are: "1–10 of 36", whether there is a previous or a next page.

The valid ``order`` values per resource are the contract's (purchases: the
simulator's choice C14, as the contract does not show them; products: none, see
``PRODUCT_ORDERS``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from kiosk.api.models.catalog import LevelOrder, PointItemOrder
from kiosk.api.models.clients import ClientOrder
from kiosk.api.models.common import Direction, PageMeta
from kiosk.api.models.purchases import PurchaseOrder
from kiosk.api.models.staff import OperatorOrder

DEFAULT_LIMIT = 10

POINT_ITEM_ORDERS: tuple[str, ...] = tuple(o.value for o in PointItemOrder)
LEVEL_ORDERS: tuple[str, ...] = tuple(o.value for o in LevelOrder)
OPERATOR_ORDERS: tuple[str, ...] = tuple(o.value for o in OperatorOrder)
CLIENT_ORDERS: tuple[str, ...] = tuple(o.value for o in ClientOrder)
PURCHASE_ORDERS: tuple[str, ...] = tuple(o.value for o in PurchaseOrder)
# The contract does not show the product list's valid ``order`` values: the list is
# shown in the API's own order (sending an unknown order would be refused).
PRODUCT_ORDERS: tuple[str, ...] = ()

Filter = str | int | bool


@dataclass(frozen=True)
class ListState:
    """One list request: page (from 1), size, search text, sort and filters."""

    page: int = 1
    limit: int = DEFAULT_LIMIT
    query: str = ""
    order: str | None = None  # None: the API's default order
    direction: Direction = Direction.ASC
    filters: tuple[tuple[str, Filter], ...] = ()

    def __post_init__(self) -> None:
        if self.page < 1:
            raise ValueError("page starts at 1")
        if not 1 <= self.limit <= 200:
            raise ValueError("limit is 1 to 200")

    # -- changes (all but paging go back to the first page) ---------------------------
    def searching(self, text: str) -> ListState:
        return replace(self, query=" ".join(text.split()), page=1)

    def sorted_by(self, order: str | None, direction: Direction | None = None) -> ListState:
        """Sort by ``order``; ``direction`` None toggles when the order is the same."""
        if direction is None:
            if order == self.order and order is not None:
                direction = Direction.DESC if self.direction is Direction.ASC else Direction.ASC
            else:
                direction = Direction.ASC
        return replace(self, order=order, direction=direction, page=1)

    def filtered(self, name: str, value: Filter | None) -> ListState:
        rest = tuple((k, v) for k, v in self.filters if k != name)
        if value is not None:
            rest = (*rest, (name, value))
        return replace(self, filters=rest, page=1)

    def at_page(self, page: int) -> ListState:
        return replace(self, page=max(1, page))

    # -- reading ----------------------------------------------------------------------
    def filter(self, name: str) -> Filter | None:
        return next((v for k, v in self.filters if k == name), None)

    @property
    def filter_map(self) -> Mapping[str, Filter]:
        return dict(self.filters)

    @property
    def narrowed(self) -> bool:
        """Whether the search or a filter may hide records (for the empty state)."""
        return bool(self.query or self.filters)

    @property
    def sent_order(self) -> str | None:
        return self.order

    @property
    def sent_direction(self) -> Direction | None:
        """The contract applies ``direction`` only with ``order``: not sent alone."""
        return self.direction if self.order is not None else None


@dataclass(frozen=True)
class PageWindow:
    """Where a page answer leaves the list: items ``first``..``last`` of ``total``."""

    page: int
    pages: int
    first: int
    last: int
    total: int

    @classmethod
    def of(cls, meta: PageMeta, item_count: int, limit: int) -> PageWindow:
        per_page = meta.items_per_page or limit
        count = meta.item_count if meta.item_count is not None else item_count
        total = meta.total_items if meta.total_items is not None else count
        first = (meta.current_page - 1) * per_page + 1 if count else 0
        last = first + count - 1 if count else 0
        return cls(
            page=meta.current_page,
            pages=meta.total_pages,
            first=first,
            last=last,
            total=total,
        )

    @property
    def has_previous(self) -> bool:
        return self.page > 1

    @property
    def has_next(self) -> bool:
        return self.page < self.pages

    @property
    def past_the_end(self) -> bool:
        """An empty page after the last (records deleted meanwhile): go back."""
        return self.first == 0 and self.page > 1 and self.pages >= 0 and self.page > self.pages
