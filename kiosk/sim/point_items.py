"""Simulator routes: point items (``/external/point-items``).

A point item gives fixed ``points`` or converts a currency ``amount`` by the
merchant's rule. Items created through the API apply to the whole merchant
(``branchId`` null); the seed also has items limited to one branch, as the panel
can make them. The credit code (``points.py``) reads ``points``, ``amount`` and
``branchId`` from this table.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from kiosk.sim.catalog_common import header_branch, matches
from kiosk.sim.http import (
    Validator,
    endpoint,
    envelope,
    json_body,
    not_found,
    page_response,
    parse_page,
    path_int,
    sort_records,
    world_of,
)
from kiosk.sim.world import Merchant, Record, public

ORDERS = ("name", "points", "amount", "createdAt")
NAME_MAX = 120


def item_not_found(item_id: int) -> Exception:
    return not_found(f"PointsItem with id {item_id} not found")


def parse_item(body: Record) -> tuple[str, int | None, float | None]:
    """``name`` and exactly one of ``points``/``amount`` (``amount`` ignored when both)."""
    v = Validator(body)
    name = v.str_field("name", required=True, max_length=NAME_MAX)
    points: int | None = None
    amount: float | None = None
    if v.present("points"):
        raw = body["points"]
        if isinstance(raw, bool) or not isinstance(raw, int):
            v.fail("points", "isInt", "points must be an integer number", raw)
        elif raw <= 0:
            v.fail("points", "isPositive", "points must be a positive number", raw)
        else:
            points = raw
    elif v.present("amount"):
        amount = v.number_field("amount", positive=True)
    else:
        v.fail("points", "isNotEmpty", "points or amount should not be empty", None)
    v.check()
    assert name is not None
    return name.strip(), points, amount


async def list_items(request: Request, merchant: Merchant) -> Response:
    pq = parse_page(request, ORDERS)
    branch = header_branch(request, merchant, strict=False)
    items = [
        public(item)
        for item in merchant.tables["point_items"].values()
        if (
            item.get("branchId") is None
            or (branch is not None and item["branchId"] == branch["id"])
        )
        and matches(pq.query, item.get("name"))
    ]
    keys = {
        "name": lambda r: r.get("name"),
        "points": lambda r: r.get("points"),
        "amount": lambda r: r.get("amount"),
        "createdAt": lambda r: r.get("createdAt"),
    }
    ordered = sort_records(
        items, pq, keys, lambda rows: sorted(rows, key=lambda r: r["name"].casefold())
    )
    return page_response(request, ordered, pq)


async def create_item(request: Request, merchant: Merchant) -> Response:
    name, points, amount = parse_item(await json_body(request))
    world = world_of(request)
    now = world.now_iso()
    item: Record = {
        "id": world.next_id("point_items"),
        "name": name,
        "points": points,
        "amount": amount,
        "branchId": None,
        "createdAt": now,
        "updatedAt": now,
    }
    merchant.tables["point_items"][item["id"]] = item
    return envelope(public(item), status=201, message="Item de puntos creado correctamente")


def _own_item(merchant: Merchant, item_id: int) -> Record:
    item = merchant.tables["point_items"].get(item_id)
    if item is None:
        raise item_not_found(item_id)
    return item


async def update_item(request: Request, merchant: Merchant) -> Response:
    item_id = path_int(request)
    name, points, amount = parse_item(await json_body(request))
    item = _own_item(merchant, item_id)
    item.update(name=name, points=points, amount=amount, updatedAt=world_of(request).now_iso())
    return envelope(public(item), message="Item de puntos actualizado correctamente")


async def delete_item(request: Request, merchant: Merchant) -> Response:
    item = _own_item(merchant, path_int(request))
    del merchant.tables["point_items"][item["id"]]
    return envelope(None, message="Item de puntos eliminado correctamente")


routes: list[BaseRoute] = [
    Route("/external/point-items", endpoint(list_items), methods=["GET"]),
    Route("/external/point-items", endpoint(create_item), methods=["POST"]),
    Route("/external/point-items/{id}", endpoint(update_item), methods=["PUT"]),
    Route("/external/point-items/{id}", endpoint(delete_item), methods=["DELETE"]),
]
