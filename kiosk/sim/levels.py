"""Simulator routes: levels (the ladder of the program).

- Required on create and on update (total replacement): ``name``, ``minPoints``
  (integer >= 0, unique per merchant), ``pointsMultiplier`` (number >= 1) and
  ``colors`` (``primary``, ``secondary``, ``border``: ``#rgb`` or ``#rrggbb``,
  stored and returned in lower case). ``description`` is optional: omitted means
  ``""`` (an update overwrites it too).
- Create, update and delete schedule the asynchronous reassignment of client
  levels and offer names (``rules_levels``); delete also removes at once the
  product offers bound to the level.
"""

from __future__ import annotations

import re

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from kiosk.sim import rules_levels
from kiosk.sim.http import (
    ApiError,
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
from kiosk.sim.people_common import fold
from kiosk.sim.world import Merchant, Record, World, public

LEVEL_NOT_FOUND = "Level not found"
DUPLICATE_MIN_POINTS = "Ya existe un nivel con la misma cantidad mínima de puntos necesarios."
COLOR_KEYS = ("primary", "secondary", "border")
HEX_COLOR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
ORDERS = {
    "name": lambda r: r["name"],
    "minPoints": lambda r: r["minPoints"],
    "createdAt": lambda r: r["createdAt"],
}


def _colors(v: Validator, raw: object) -> dict[str, str] | None:
    if raw is None:
        v.fail("colors", "isNotEmpty", "colors should not be empty")
        return None
    if not isinstance(raw, dict):
        v.fail("colors", "isObject", "colors must be an object", raw)
        return None
    colors: dict[str, str] = {}
    for key in COLOR_KEYS:
        value = raw.get(key)
        if not isinstance(value, str) or not HEX_COLOR.fullmatch(value.strip()):
            v.fail(
                f"colors.{key}", "isHexColor", f"colors.{key} must be a hexadecimal color", value
            )
        else:
            colors[key] = value.strip().lower()
    return colors if len(colors) == len(COLOR_KEYS) else None


def _parse_level(body: Record) -> Record:
    v = Validator(body)
    name = v.str_field("name", required=True, max_length=60)
    description = v.str_field("description", max_length=500)
    min_points = v.int_field("minPoints", required=True, minimum=0)
    v.number_field("pointsMultiplier", required=True, minimum=1)
    colors = _colors(v, body.get("colors"))
    v.check()
    assert name is not None
    assert min_points is not None
    return {
        "name": name.strip(),
        "description": description or "",
        "minPoints": min_points,
        "pointsMultiplier": body["pointsMultiplier"],
        "colors": colors,
    }


def _check_unique(merchant: Merchant, min_points: int, own_id: int | None) -> None:
    for level in merchant.tables["levels"].values():
        if level["minPoints"] == min_points and level["id"] != own_id:
            raise ApiError(409, DUPLICATE_MIN_POINTS)


def _level_or_404(merchant: Merchant, level_id: int) -> Record:
    level = merchant.tables["levels"].get(level_id)
    if level is None:
        raise not_found(LEVEL_NOT_FOUND)
    return level


def add_level(world: World, merchant: Merchant, fields: Record) -> Record:
    """Store a level (used by the API and by the seed)."""
    now = world.now_iso()
    level: Record = {"id": world.next_id("levels"), **fields, "createdAt": now, "updatedAt": now}
    merchant.tables["levels"][level["id"]] = level
    return level


async def create_level(request: Request, merchant: Merchant) -> Response:
    world = world_of(request)
    fields = _parse_level(await json_body(request))
    _check_unique(merchant, fields["minPoints"], None)
    level = add_level(world, merchant, fields)
    rules_levels.schedule_levels(world, merchant)
    return envelope(public(level), status=201, message="Nivel creado correctamente")


async def list_levels(request: Request, merchant: Merchant) -> Response:
    pq = parse_page(request, tuple(ORDERS))
    items = [public(level) for level in merchant.tables["levels"].values()]
    if pq.query:
        wanted = fold(pq.query)
        items = [level for level in items if wanted in fold(level["name"])]
    ordered = sort_records(
        items, pq, ORDERS, lambda rows: sorted(rows, key=lambda r: r["minPoints"])
    )
    return page_response(request, ordered, pq)


async def update_level(request: Request, merchant: Merchant) -> Response:
    world = world_of(request)
    level = _level_or_404(merchant, path_int(request))
    fields = _parse_level(await json_body(request))
    _check_unique(merchant, fields["minPoints"], level["id"])
    level.update(fields)
    level["updatedAt"] = world.now_iso()
    rules_levels.schedule_levels(world, merchant)
    return envelope(public(level), message="Nivel actualizado correctamente")


async def delete_level(request: Request, merchant: Merchant) -> Response:
    world = world_of(request)
    level = _level_or_404(merchant, path_int(request))
    del merchant.tables["levels"][level["id"]]
    for product in merchant.tables["products"].values():
        offers = product.get("offers")
        if isinstance(offers, list):
            product["offers"] = [o for o in offers if o.get("levelId") != level["id"]]
    rules_levels.schedule_levels(world, merchant)
    return envelope(message="Nivel eliminado correctamente", include_data=False)


def register(world: World) -> None:
    rules_levels.register(world)


routes: list[BaseRoute] = [
    Route("/external/levels", endpoint(create_level), methods=["POST"]),
    Route("/external/levels", endpoint(list_levels), methods=["GET"]),
    Route("/external/levels/{id}", endpoint(update_level), methods=["PUT"]),
    Route("/external/levels/{id}", endpoint(delete_level), methods=["DELETE"]),
]
