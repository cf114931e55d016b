"""The program's configuration: levels, products (rewards), point items.

Every write here is an admin write without idempotency key: resent only when it
cannot have been applied; a lost answer raises ``AmbiguousOutcome`` (the manager
screen re-reads the list before trying again).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

from kiosk.api.endpoints._base import EndpointBase, list_query, segment
from kiosk.api.errors import Resource
from kiosk.api.models.catalog import (
    Level,
    LevelDraft,
    LevelOrder,
    PointItem,
    PointItemDraft,
    PointItemOrder,
    Product,
    ProductDraft,
    product_filters,
)
from kiosk.api.models.common import Direction, ListQuery, Page
from kiosk.api.retry import Resend
from kiosk.api.session import Call

_LEVELS = "/external/levels"
_PRODUCTS = "/external/products"
_POINT_ITEMS = "/external/point-items"

Filters = Mapping[str, str | int | bool | None]


class CatalogEndpoints(EndpointBase):
    def _write(self, method: str, path: str, name: str, body: Any, resource: Resource) -> Call:
        return Call(
            method, path, name=name, body=body, resource=resource, resend=Resend.IF_NOT_APPLIED
        )

    def _list_call(
        self,
        path: str,
        name: str,
        *,
        page: int,
        limit: int | None,
        query: str | None,
        order: str | None,
        direction: Direction | str | None,
        filters: Filters | None = None,
        branch_id: int | None = None,
    ) -> tuple[Call, ListQuery]:
        q = list_query(
            page=page, limit=limit, query=query, order=order, direction=direction, filters=filters
        )
        return Call("GET", path, name=name, params=q.to_params(), branch_id=branch_id), q

    # -- levels ---------------------------------------------------------------
    async def create_level(self, draft: LevelDraft) -> Level:
        """409 ``MIN_POINTS_TAKEN`` when another level has those points."""
        call = self._write("POST", _LEVELS, "create_level", draft.to_json(), Resource.LEVEL)
        return self._data(await self._send(call), "level", Level.from_json)

    async def list_levels(
        self,
        *,
        page: int = 1,
        limit: int | None = None,
        query: str | None = None,
        order: LevelOrder | str | None = None,
        direction: Direction | str | None = None,
    ) -> Page[Level]:
        call, _ = self._list_call(
            _LEVELS,
            "list_levels",
            page=page,
            limit=limit,
            query=query,
            order=order,
            direction=direction,
        )
        return await self._page(call, "levels", Level.from_json)

    async def iter_levels(
        self,
        *,
        query: str | None = None,
        order: LevelOrder | str | None = None,
        direction: Direction | str | None = None,
    ) -> AsyncIterator[Level]:
        call, q = self._list_call(
            _LEVELS,
            "list_levels",
            page=1,
            limit=None,
            query=query,
            order=order,
            direction=direction,
        )
        async for item in self._walk(call, q, "levels", Level.from_json):
            yield item

    async def update_level(self, level_id: int, draft: LevelDraft) -> Level:
        """Total replacement: every field of ``draft`` is sent."""
        call = self._write(
            "PUT", f"{_LEVELS}/{segment(level_id)}", "update_level", draft.to_json(), Resource.LEVEL
        )
        return self._data(await self._send(call), "level", Level.from_json)

    async def delete_level(self, level_id: int) -> None:
        call = Call(
            "DELETE",
            f"{_LEVELS}/{segment(level_id)}",
            name="delete_level",
            resource=Resource.LEVEL,
            resend=Resend.IF_NOT_APPLIED,
        )
        await self._send(call)

    # -- products ---------------------------------------------------------------
    async def list_products(
        self,
        *,
        page: int = 1,
        limit: int | None = None,
        query: str | None = None,
        order: str | None = None,
        direction: Direction | str | None = None,
        is_enabled: bool | None = None,
        level_id: int | None = None,
        branch_id: int | None = None,
    ) -> Page[Product]:
        """``branch_id`` (header) defaults to the kiosk's branch."""
        call, _ = self._list_call(
            _PRODUCTS,
            "list_products",
            page=page,
            limit=limit,
            query=query,
            order=order,
            direction=direction,
            filters=product_filters(is_enabled=is_enabled, level_id=level_id),
            branch_id=self._branch(branch_id),
        )
        return await self._page(call, "products", Product.from_json)

    async def iter_products(
        self,
        *,
        query: str | None = None,
        order: str | None = None,
        direction: Direction | str | None = None,
        is_enabled: bool | None = None,
        level_id: int | None = None,
        branch_id: int | None = None,
    ) -> AsyncIterator[Product]:
        call, q = self._list_call(
            _PRODUCTS,
            "list_products",
            page=1,
            limit=None,
            query=query,
            order=order,
            direction=direction,
            filters=product_filters(is_enabled=is_enabled, level_id=level_id),
            branch_id=self._branch(branch_id),
        )
        async for item in self._walk(call, q, "products", Product.from_json):
            yield item

    async def create_product(self, draft: ProductDraft) -> Product:
        call = self._write("POST", _PRODUCTS, "create_product", draft.to_json(), Resource.PRODUCT)
        return self._data(await self._send(call), "product", Product.from_json)

    async def update_product(self, product_id: int, draft: ProductDraft) -> Product:
        """Total replacement; offers are reconciled by level (kept ids), options the
        API does not expose are preserved. 400 ``COUPON_STOCK`` for stock on a
        custom-coupon product."""
        call = self._write(
            "PUT",
            f"{_PRODUCTS}/{segment(product_id)}",
            "update_product",
            draft.to_json(),
            Resource.PRODUCT,
        )
        return self._data(await self._send(call), "product", Product.from_json)

    # -- point items ------------------------------------------------------------
    async def list_point_items(
        self,
        *,
        page: int = 1,
        limit: int | None = None,
        query: str | None = None,
        order: PointItemOrder | str | None = None,
        direction: Direction | str | None = None,
        branch_id: int | None = None,
    ) -> Page[PointItem]:
        """With ``branch_id`` (header): that branch's items plus the merchant's."""
        call, _ = self._list_call(
            _POINT_ITEMS,
            "list_point_items",
            page=page,
            limit=limit,
            query=query,
            order=order,
            direction=direction,
            branch_id=branch_id,
        )
        return await self._page(call, "point items", PointItem.from_json)

    async def iter_point_items(
        self,
        *,
        query: str | None = None,
        order: PointItemOrder | str | None = None,
        direction: Direction | str | None = None,
        branch_id: int | None = None,
    ) -> AsyncIterator[PointItem]:
        call, q = self._list_call(
            _POINT_ITEMS,
            "list_point_items",
            page=1,
            limit=None,
            query=query,
            order=order,
            direction=direction,
            branch_id=branch_id,
        )
        async for item in self._walk(call, q, "point items", PointItem.from_json):
            yield item

    async def create_point_item(self, draft: PointItemDraft) -> PointItem:
        call = self._write(
            "POST", _POINT_ITEMS, "create_point_item", draft.to_json(), Resource.POINT_ITEM
        )
        return self._data(await self._send(call), "point item", PointItem.from_json)

    async def update_point_item(self, item_id: int, draft: PointItemDraft) -> PointItem:
        call = self._write(
            "PUT",
            f"{_POINT_ITEMS}/{segment(item_id)}",
            "update_point_item",
            draft.to_json(),
            Resource.POINT_ITEM,
        )
        return self._data(await self._send(call), "point item", PointItem.from_json)

    async def delete_point_item(self, item_id: int) -> None:
        call = Call(
            "DELETE",
            f"{_POINT_ITEMS}/{segment(item_id)}",
            name="delete_point_item",
            resource=Resource.POINT_ITEM,
            resend=Resend.IF_NOT_APPLIED,
        )
        await self._send(call)
