"""Simulator routes: purchases (exchange records): look up by code, redeem, list.

- ``GET /external/purchase/code/{code}``: the bare record (no envelope). Codes
  are matched case-insensitively; another merchant's code is not found.
- ``POST /external/purchase/redeem/{code}``: ``pending`` -> ``delivered`` (201).
  Already delivered or expired: 400 ``El canje ya fue realizado``; canceled: 400
  ``El canje fue cancelado.`` (our choice). The redeeming branch
  (``x-branch-id``) is recorded privately; the record's ``branch`` stays the
  branch of the exchange.
- ``GET /external/purchase``: paginated (C14): ``query`` on code, client name or
  email; ``order`` ``createdAt``, ``points``, ``status``; filters ``status``,
  ``type``, ``clientId``; newest first by default.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from kiosk.sim.catalog_common import choice_param, header_branch, int_param, matches
from kiosk.sim.catalog_purchases import find_purchase, is_expired, purchase_view
from kiosk.sim.http import (
    ApiError,
    Validator,
    endpoint,
    envelope,
    not_found,
    page_response,
    parse_page,
    sort_records,
    world_of,
)
from kiosk.sim.world import Merchant, Record

PURCHASE_NOT_FOUND = "Canje no encontrado"
ALREADY_REDEEMED = "El canje ya fue realizado"
CANCELED = "El canje fue cancelado."
ORDERS = ("createdAt", "points", "status")
STATUSES = ("pending", "canceled", "delivered")
TYPES = ("product", "money")


def _by_code(request: Request, merchant: Merchant) -> Record:
    purchase = find_purchase(merchant, str(request.path_params.get("code", "")))
    if purchase is None:
        raise not_found(PURCHASE_NOT_FOUND)
    return purchase


async def read_by_code(request: Request, merchant: Merchant) -> Response:
    return JSONResponse(purchase_view(merchant, _by_code(request, merchant)))


async def redeem(request: Request, merchant: Merchant) -> Response:
    branch = header_branch(request, merchant, strict=True)
    purchase = _by_code(request, merchant)
    world = world_of(request)
    if purchase["status"] == "canceled":
        raise ApiError(400, CANCELED)
    if purchase["status"] == "delivered" or is_expired(world, purchase):
        raise ApiError(400, ALREADY_REDEEMED)
    purchase["status"] = "delivered"
    purchase["updatedAt"] = world.now_iso()
    purchase["_redeemed_branch_id"] = None if branch is None else branch["id"]
    return envelope(
        purchase_view(merchant, purchase), status=201, message="Canje entregado correctamente"
    )


def _newest_first(rows: list[Record]) -> list[Record]:
    return sorted(rows, key=lambda r: (r["createdAt"], r["id"]), reverse=True)


async def list_purchases(request: Request, merchant: Merchant) -> Response:
    v = Validator()
    pq = parse_page(request, ORDERS, v)
    status = choice_param(v, pq.params, "status", STATUSES)
    kind = choice_param(v, pq.params, "type", TYPES)
    client_id = int_param(v, pq.params, "clientId")
    v.check()
    rows = []
    for purchase in merchant.tables["purchases"].values():
        if status is not None and purchase["status"] != status:
            continue
        if kind is not None and purchase["type"] != kind:
            continue
        if client_id is not None and purchase.get("_client_id") != client_id:
            continue
        view = purchase_view(merchant, purchase)
        client = view["client"]
        full_name = f"{client.get('firstName') or ''} {client.get('lastName') or ''}"
        if matches(pq.query, view["code"], full_name, client.get("email")):
            rows.append(view)
    keys = {
        "createdAt": lambda r: r["createdAt"],
        "points": lambda r: r["points"],
        "status": lambda r: r["status"],
    }
    return page_response(request, sort_records(rows, pq, keys, _newest_first), pq)


routes: list[BaseRoute] = [
    Route("/external/purchase", endpoint(list_purchases), methods=["GET"]),
    Route("/external/purchase/code/{code}", endpoint(read_by_code), methods=["GET"]),
    Route("/external/purchase/redeem/{code}", endpoint(redeem), methods=["POST"]),
]
