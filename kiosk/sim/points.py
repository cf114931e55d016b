"""Simulator routes: point operations (credit, preview, cancel) under ``/external/tags``.

All three share the ``tags`` rate limit (10 requests per second per merchant).

Credit order of checks: body validation (400) -> ``external_id`` bound to an
active operation (409, checked first so a retry always learns the credit
happened) -> ``branch_id`` (403 other merchant / 404 none) -> point items (404)
-> client (404 removed or ``ignoreCreateClient``; 403 suspended) -> points
(400 none) -> implicit creation and ledger entry.

The ledger is the merchant's ``operations`` table (see ``world.py``); besides the
documented keys each operation stores ``points.selectedRewardType``, ``bonus``
(``{level, rules}``), ``items`` (units and values applied), ``origin``,
``reason``, ``extra_data`` and ``giftCards`` (stored, otherwise ignored).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from kiosk.sim.http import ApiError, endpoint, envelope, json_body, not_found, world_of
from kiosk.sim.people_common import (
    CLIENT_NOT_FOUND,
    branch_of,
    build_client,
    check_not_suspended,
    client_or_404,
    find_by_document,
    find_by_email,
    holding_clients,
    in_operation,
    infer_document_type,
    welcome,
)
from kiosk.sim.rules_levels import schedule_levels
from kiosk.sim.rules_points import (
    PointsQuote,
    convert,
    items_value,
    level_summary,
    quote,
    resolve_items,
)
from kiosk.sim.rules_requests import CreditRequest, parse_credit, parse_preview
from kiosk.sim.world import Merchant, Record, World

DUPLICATE = "Ya existe una operación de puntos con el externalId {} para este negocio"
NO_ACTIVE = "No existe una operación de puntos activa con el externalId {}"


def active_operation(merchant: Merchant, external_id: str) -> Record | None:
    for operation in merchant.tables["operations"].values():
        if operation.get("externalId") == external_id and operation.get("state") == "active":
            return operation
    return None


def _find_client(merchant: Merchant, req: CreditRequest) -> Record | None:
    clients = holding_clients(merchant)
    client = find_by_email(clients, req.email) or find_by_document(clients, req.dni)
    if client is not None and not in_operation(client):
        # Removal scheduled: out of operation, and its identifiers are still taken.
        raise not_found(CLIENT_NOT_FOUND)
    if client is None and req.ignore_create:
        raise not_found(CLIENT_NOT_FOUND)
    if client is not None:
        check_not_suspended(client)
    return client


def _create_client(
    world: World, merchant: Merchant, req: CreditRequest, branch_id: int | None
) -> Record:
    fields: Record = dict(req.client_data)
    if req.dni:
        fields["document_number"] = req.dni
        fields["document_type"] = infer_document_type(req.dni)
    client = build_client(world, merchant, email=req.email, _branch_id=branch_id, **fields)
    welcome(world, merchant, client)
    return client


def _ledger_items(merchant: Merchant, items: list[tuple[Record, int]]) -> list[Record]:
    rows = []
    for item, units in items:
        row: Record = {"id": item["id"], "name": item.get("name"), "units": units}
        if item.get("points") is not None:
            row["points"] = item["points"]
        else:
            row["amount"] = item.get("amount")
            row["points"] = convert(merchant, item.get("amount") or 0)
        rows.append(row)
    return rows


async def credit(request: Request, merchant: Merchant) -> Response:
    world = world_of(request)
    req = parse_credit(await json_body(request))
    if req.external_id is not None:
        previous = active_operation(merchant, req.external_id)
        if previous is not None:
            raise ApiError(
                409,
                DUPLICATE.format(req.external_id),
                data={"pointOperationId": previous["id"], "externalId": req.external_id},
            )
    branch = branch_of(world, merchant, req.branch_id) if req.branch_id is not None else None
    items: list[tuple[Record, int]] = []
    if req.item_ids is not None:
        items = resolve_items(merchant, req.item_ids, req.branch_id)
        amount, initial = items_value(merchant, items)
        reward_type = "items"
    else:
        amount = req.amount if req.amount is not None else 0
        initial = convert(merchant, amount)
        reward_type = "amount"
    client = _find_client(merchant, req)
    result = quote(
        merchant, client, branch, reward_type=reward_type, amount=amount, initial=initial
    )
    if client is None:
        client = _create_client(world, merchant, req, req.branch_id)
    operation = _record_credit(world, merchant, client, req, result, items)
    schedule_levels(world, merchant)
    data = {
        "pointOperationId": operation["id"],
        "clientId": client["id"],
        "externalId": req.external_id,
        "points": dict(operation["points"]),
    }
    return envelope(data, status=201, message="Puntos acreditados correctamente")


def _record_credit(
    world: World,
    merchant: Merchant,
    client: Record,
    req: CreditRequest,
    result: PointsQuote,
    items: list[tuple[Record, int]],
) -> Record:
    now = world.now_iso()
    operation: Record = {
        "id": world.next_id("operations"),
        "externalId": req.external_id,
        "clientId": client["id"],
        "branchId": req.branch_id,
        "points": result.credit_points(),
        "state": "active",
        "createdAt": now,
        "canceledAt": None,
        "bonus": {"level": result.level_bonus, "rules": result.rules_bonus},
        "items": _ledger_items(merchant, items),
        "origin": req.origin,
        "reason": req.reason,
        "extra_data": req.extra_data,
        "giftCards": req.gift_cards,
    }
    merchant.tables["operations"][operation["id"]] = operation
    client["score"] = int(client.get("score") or 0) + result.total
    client["total_score"] = int(client.get("total_score") or 0) + result.total
    client["last_transaction"] = now
    client["_last_credit"] = now
    return operation


async def preview(request: Request, merchant: Merchant) -> Response:
    world = world_of(request)
    req = parse_preview(await json_body(request))
    branch = branch_of(world, merchant, req.branch_id) if req.branch_id is not None else None
    client = client_or_404(merchant, req.client_id)
    check_not_suspended(client)
    if req.mode == "pointItems":
        items = resolve_items(merchant, req.item_ids or [], req.branch_id)
        amount, initial = items_value(merchant, items)
        reward_type = "items"
    elif req.mode == "amount":
        amount = req.amount or 0
        initial = convert(merchant, amount)
        reward_type = "amount"
    else:
        amount, initial, reward_type = 0, req.initial or 0, "points"
    result = quote(
        merchant, client, branch, reward_type=reward_type, amount=amount, initial=initial
    )
    data = {
        "clientId": client["id"],
        "branchId": req.branch_id,
        "level": level_summary(merchant, client),
        "points": result.preview_points(),
    }
    return envelope(data, message="Previsualización de puntos calculada correctamente")


async def cancel(request: Request, merchant: Merchant) -> Response:
    world = world_of(request)
    external_id = str(request.path_params.get("externalId", ""))
    operation = active_operation(merchant, external_id)
    if operation is None:
        raise not_found(NO_ACTIVE.format(external_id))
    now = world.now_iso()
    operation["state"] = "canceled"
    operation["canceledAt"] = now
    total = int(operation["points"]["totalPointsToGive"])
    client = merchant.tables["clients"].get(operation["clientId"])
    if client is not None:
        client["score"] = max(0, int(client.get("score") or 0) - total)
        client["total_score"] = max(0, int(client.get("total_score") or 0) - total)
        client["last_transaction"] = now
    schedule_levels(world, merchant)
    data = {
        "pointOperationId": operation["id"],
        "externalId": external_id,
        "clientId": operation["clientId"],
        "status": "canceled",
        "points": dict(operation["points"]),
    }
    return envelope(data, message="Operación de puntos cancelada correctamente")


routes: list[BaseRoute] = [
    Route("/external/tags/add/preview", endpoint(preview, limit="tags"), methods=["POST"]),
    Route("/external/tags/add", endpoint(credit, limit="tags"), methods=["POST"]),
    Route("/external/tags/cancel/{externalId}", endpoint(cancel, limit="tags"), methods=["PUT"]),
]
