"""Simulator routes: products, the rewards (``/external/products``).

List filters: ``isEnabled`` (boolean), ``levelId`` (products with an offer for
that level), ``query`` (partial name). ``order``: ``name``, ``createdAt``,
``points`` (the lowest offer price); default by id (creation order). The
``x-branch-id`` header is checked (404 ``Sucursal no encontrada`` when not a
branch of the merchant) and otherwise does not filter: rewards apply to every
branch. Bodies and the offer reconciliation live in ``catalog_products``.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from kiosk.sim.catalog_common import bool_param, header_branch, int_param, matches
from kiosk.sim.catalog_products import lowest_price, new_product, parse_product, update_product
from kiosk.sim.http import (
    Validator,
    endpoint,
    envelope,
    json_body,
    page_response,
    parse_page,
    path_int,
    sort_records,
    world_of,
)
from kiosk.sim.world import Merchant, public

ORDERS = ("name", "createdAt", "points")


async def list_products(request: Request, merchant: Merchant) -> Response:
    v = Validator()
    pq = parse_page(request, ORDERS, v)
    enabled = bool_param(v, pq.params, "isEnabled")
    level_id = int_param(v, pq.params, "levelId")
    v.check()
    header_branch(request, merchant, strict=False)
    items = [
        public(p)
        for p in merchant.tables["products"].values()
        if (enabled is None or p["isEnabled"] == enabled)
        and (level_id is None or any(o["levelId"] == level_id for o in p["offers"]))
        and matches(pq.query, p.get("name"))
    ]
    keys = {
        "name": lambda r: r.get("name"),
        "createdAt": lambda r: r.get("createdAt"),
        "points": lowest_price,
    }
    return page_response(request, sort_records(items, pq, keys, lambda rows: rows), pq)


async def create_product(request: Request, merchant: Merchant) -> Response:
    body = parse_product(await json_body(request))
    product = new_product(world_of(request), merchant, body)
    return envelope(public(product), status=201, message="Producto creado correctamente")


async def replace_product(request: Request, merchant: Merchant) -> Response:
    product_id = path_int(request)
    body = parse_product(await json_body(request))
    product = update_product(world_of(request), merchant, product_id, body)
    return envelope(public(product), message="Producto actualizado correctamente")


routes: list[BaseRoute] = [
    Route("/external/products", endpoint(list_products), methods=["GET"]),
    Route("/external/products", endpoint(create_product), methods=["POST"]),
    Route("/external/products/{id}", endpoint(replace_product), methods=["PUT"]),
]
