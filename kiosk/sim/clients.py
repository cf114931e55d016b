"""Simulator routes: clients.

- ``GET /external/clients``: root-level page, default available points descending.
  ``order``: fullName, currentPoints, lastOperation, createdAt. Filters (our names
  where the contract says "not shown"): ``levelId``, ``tagId``, ``minPoints`` and
  ``maxPoints`` (available points, inclusive), ``lastCreditFrom`` and
  ``lastCreditTo`` (ISO 8601, inclusive; a bare date as ``lastCreditTo`` covers
  its whole day). ``query``: partial, case- and accent-insensitive, on name,
  email, document, phone (also by digits only) and affiliate card.
- ``GET /external/clients/search?query=``: exact email (case-insensitive) or exact
  document; adds ``registered`` and ``register_url``.
- ``POST``/``PUT /external/clients[/{id}]``, ``DELETE`` (scheduled removal) and
  ``PUT /external/clients/{id}/status`` (``{"status": "SUSPEND"}``).

Clients whose removal is scheduled are hidden everywhere (404 ``Client not found``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from kiosk.sim import people_removal
from kiosk.sim.clock import parse_iso
from kiosk.sim.http import (
    ApiError,
    Validator,
    branch_header,
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
from kiosk.sim.people_body import parse_client_body
from kiosk.sim.people_common import (
    CARD_TAKEN,
    CLIENT_NOT_FOUND,
    CLIENT_TAKEN,
    DOCUMENT_TAKEN,
    EMAIL_LOCKED,
    EMAIL_TAKEN,
    SUSPENDED,
    branch_of,
    build_client,
    client_or_404,
    find_by_card,
    find_by_document,
    find_by_email,
    fold,
    full_name,
    holding_clients,
    operating_clients,
    query_date,
    query_int,
    register_url,
    welcome,
)
from kiosk.sim.rules_levels import schedule_levels
from kiosk.sim.world import Merchant, Record, World, public

ORDERS: dict[str, Callable[[Record], Any]] = {
    "fullName": lambda r: r["name"],
    "currentPoints": lambda r: r["score"],
    "lastOperation": lambda r: r["last_transaction"],
    "createdAt": lambda r: r["created_at"],
}
SEARCHED = ("name", "email", "document_number", "phone", "affiliate_card")


def _matches(client: Record, wanted: str, digits: str) -> bool:
    if any(wanted in fold(client.get(key)) for key in SEARCHED):
        return True
    phone_digits = "".join(ch for ch in client.get("phone") or "" if ch.isdigit())
    return bool(digits) and digits == wanted and digits in phone_digits


def _stamp(value: str | None) -> float | None:
    return parse_iso(value) if value else None


async def list_clients(request: Request, merchant: Merchant) -> Response:
    v = Validator()
    pq = parse_page(request, tuple(ORDERS), v)
    params = pq.params
    level_id = query_int(v, params, "levelId", 1)
    tag_id = query_int(v, params, "tagId", 1)
    min_points = query_int(v, params, "minPoints", 0)
    max_points = query_int(v, params, "maxPoints", 0)
    since = query_date(v, params, "lastCreditFrom", end_of_day=False)
    until = query_date(v, params, "lastCreditTo", end_of_day=True)
    v.check()
    clients = operating_clients(merchant)
    if pq.query:
        wanted = fold(pq.query)
        digits = "".join(ch for ch in wanted if ch.isdigit())
        clients = [c for c in clients if _matches(c, wanted, digits)]
    if level_id is not None:
        clients = [c for c in clients if (c.get("level") or {}).get("id") == level_id]
    if tag_id is not None:
        clients = [c for c in clients if tag_id in (c.get("_tag_ids") or [])]
    if min_points is not None:
        clients = [c for c in clients if c["score"] >= min_points]
    if max_points is not None:
        clients = [c for c in clients if c["score"] <= max_points]
    if since is not None or until is not None:
        low, high = since or float("-inf"), until or float("inf")
        clients = [c for c in clients if (t := _stamp(c.get("_last_credit"))) and low <= t <= high]
    ordered = sort_records(
        [public(c) for c in clients],
        pq,
        ORDERS,
        lambda rows: sorted(rows, key=lambda r: -r["score"]),
    )
    return page_response(request, ordered, pq)


async def search_client(request: Request, merchant: Merchant) -> Response:
    v = Validator(dict(request.query_params))
    query = v.str_field("query", required=True)
    v.check()
    assert query is not None
    clients = operating_clients(merchant)
    client = find_by_email(clients, query) or find_by_document(clients, query)
    if client is None:
        raise not_found(CLIENT_NOT_FOUND)
    data = {**public(client), "registered": bool(client.get("_registered"))}
    data["register_url"] = register_url(client)
    return envelope(data, message="Cliente encontrado")


def _check_branch(
    world: World, merchant: Merchant, changes: Record, header: int | None = None
) -> None:
    """Body ``branchId`` wins over the ``x-branch-id`` header (creation only)."""
    if "_branch_id" not in changes and header is not None:
        changes["_branch_id"] = header
    if changes.get("_branch_id") is not None:
        branch_of(world, merchant, changes["_branch_id"])


def _check_taken(merchant: Merchant, changes: Record, own: Record | None) -> None:
    others = [c for c in holding_clients(merchant) if own is None or c["id"] != own["id"]]
    email_owner = find_by_email(others, changes.get("email"))
    document_owner = find_by_document(others, changes.get("document_number"))
    if own is None and (email_owner or document_owner):
        raise ApiError(409, CLIENT_TAKEN)
    if email_owner:
        raise ApiError(409, EMAIL_TAKEN)
    if document_owner:
        raise ApiError(409, DOCUMENT_TAKEN)
    if find_by_card(others, changes.get("affiliate_card")):
        raise ApiError(409, CARD_TAKEN)


async def create_client(request: Request, merchant: Merchant) -> Response:
    world = world_of(request)
    header = branch_header(request)
    changes = parse_client_body(await json_body(request), world, merchant, current=None)
    _check_branch(world, merchant, changes, header)
    _check_taken(merchant, changes, None)
    client = build_client(world, merchant, **changes)
    welcome(world, merchant, client)
    schedule_levels(world, merchant)
    return envelope(public(client), status=201, message="Cliente creado correctamente")


async def update_client(request: Request, merchant: Merchant) -> Response:
    world = world_of(request)
    client_id = path_int(request)
    body = await json_body(request)
    client = client_or_404(merchant, client_id)
    changes = parse_client_body(body, world, merchant, current=client)
    _check_branch(world, merchant, changes)
    new_email = changes.get("email")
    if new_email is not None and new_email == (client.get("email") or "").casefold():
        changes.pop("email")
    elif new_email is not None and client.get("_registered"):
        raise ApiError(400, EMAIL_LOCKED)
    _check_taken(merchant, changes, client)
    client.update(changes)
    client["name"] = full_name(client.get("first_name"), client.get("last_name"))
    return envelope(public(client), message="Cliente actualizado correctamente")


async def delete_client(request: Request, merchant: Merchant) -> Response:
    world = world_of(request)
    client_id = path_int(request)
    body = await json_body(request)
    v = Validator(body)
    reasons = body.get("reasons")
    if not isinstance(reasons, list) or not reasons:
        v.fail("reasons", "isArray", "reasons must be a non-empty array", reasons)
    elif any(r not in people_removal.REMOVAL_REASONS for r in reasons):
        allowed = ", ".join(people_removal.REMOVAL_REASONS)
        v.fail("reasons", "isIn", f"each value in reasons must be one of: {allowed}", reasons)
    v.check()
    client = client_or_404(merchant, client_id)
    people_removal.schedule_removal(world, merchant, client, [str(r) for r in reasons or []])
    return envelope(message="Baja del cliente programada correctamente", include_data=False)


async def set_status(request: Request, merchant: Merchant) -> Response:
    client_id = path_int(request)
    v = Validator(await json_body(request))
    v.str_field("status", required=True, choices=("SUSPEND",))
    v.check()
    client = client_or_404(merchant, client_id)
    client["status"] = SUSPENDED
    return envelope(public(client), message="Estado del cliente actualizado correctamente")


def register(world: World) -> None:
    people_removal.register(world)


routes: list[BaseRoute] = [
    Route("/external/clients", endpoint(list_clients), methods=["GET"]),
    Route("/external/clients", endpoint(create_client), methods=["POST"]),
    Route("/external/clients/search", endpoint(search_client), methods=["GET"]),
    Route("/external/clients/{id}", endpoint(update_client), methods=["PUT"]),
    Route("/external/clients/{id}", endpoint(delete_client), methods=["DELETE"]),
    Route("/external/clients/{id}/status", endpoint(set_status), methods=["PUT"]),
]
