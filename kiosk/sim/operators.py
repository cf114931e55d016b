"""Simulator routes: operators, the merchant's staff (``/external/operators``).

- list: administrators first, then by full name; ``order`` ``fullName``,
  ``email``, ``role``, ``createdAt``; ``query`` on full name, email, document;
  items without ``branches``.
- read: envelope with ``branches``; 404 ``Operator not found`` (also another
  merchant's).
- create: ``firstName``, ``lastName``, ``email`` required; ``password`` optional
  (min 8; with it ``hasCompletedOnboarding`` is true); never returned. Checks:
  body (400), plan cap (400), email taken in the merchant (409), branches and
  permission groups (403/404).
- update: incremental personal data; ``branches`` replaces all; email, document,
  password not editable (400 unless echoed unchanged).
- delete: 200 envelope without ``data``.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from kiosk.sim.catalog_common import matches
from kiosk.sim.catalog_operators import (
    ADMIN_ROLE,
    CAP_REACHED,
    EMAIL_TAKEN,
    OPERATOR_NOT_FOUND,
    new_operator,
    operator_view,
    parse_create,
    parse_update,
    resolve_assignments,
)
from kiosk.sim.http import (
    ApiError,
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
from kiosk.sim.world import Merchant, Record

ORDERS = ("fullName", "email", "role", "createdAt")


def _admins_first(rows: list[Record]) -> list[Record]:
    return sorted(
        rows, key=lambda r: (r["role"] != ADMIN_ROLE, (r.get("fullName") or "").casefold())
    )


async def list_operators(request: Request, merchant: Merchant) -> Response:
    pq = parse_page(request, ORDERS)
    rows = [
        operator_view(merchant, op, with_branches=False)
        for op in merchant.tables["operators"].values()
        if matches(pq.query, op.get("fullName"), op.get("email"), op.get("documentNumber"))
    ]
    keys = {
        "fullName": lambda r: r.get("fullName"),
        "email": lambda r: r.get("email"),
        "role": lambda r: r.get("role"),
        "createdAt": lambda r: r.get("createdAt"),
    }
    return page_response(request, sort_records(rows, pq, keys, _admins_first), pq)


def _own(merchant: Merchant, operator_id: int) -> Record:
    operator = merchant.tables["operators"].get(operator_id)
    if operator is None:
        raise not_found(OPERATOR_NOT_FOUND)
    return operator


async def read_operator(request: Request, merchant: Merchant) -> Response:
    operator = _own(merchant, path_int(request))
    return envelope(
        operator_view(merchant, operator, with_branches=True), message="Operador encontrado"
    )


async def create_operator(request: Request, merchant: Merchant) -> Response:
    fields, password, assignments = parse_create(await json_body(request))
    operators = merchant.tables["operators"]
    if len(operators) >= merchant.rules.operator_cap:
        raise ApiError(400, CAP_REACHED)
    if any(op.get("email") == fields["email"] for op in operators.values()):
        raise ApiError(409, EMAIL_TAKEN)
    branches = resolve_assignments(request, merchant, assignments)
    operator = new_operator(world_of(request), merchant, fields, password, branches)
    return envelope(
        operator_view(merchant, operator, with_branches=True),
        status=201,
        message="Operador creado correctamente",
    )


async def update_operator(request: Request, merchant: Merchant) -> Response:
    operator_id = path_int(request)
    body = await json_body(request)
    operator = _own(merchant, operator_id)
    fields, assignments = parse_update(body, operator)
    branches = None if assignments is None else resolve_assignments(request, merchant, assignments)
    operator.update(fields)
    operator["fullName"] = f"{operator['firstName']} {operator['lastName']}"
    if branches is not None:
        operator["branches"] = branches
    operator["updatedAt"] = world_of(request).now_iso()
    return envelope(
        operator_view(merchant, operator, with_branches=True),
        message="Operador actualizado correctamente",
    )


async def delete_operator(request: Request, merchant: Merchant) -> Response:
    operator = _own(merchant, path_int(request))
    del merchant.tables["operators"][operator["id"]]
    return envelope(message="Operador eliminado correctamente", include_data=False)


routes: list[BaseRoute] = [
    Route("/external/operators", endpoint(list_operators), methods=["GET"]),
    Route("/external/operators", endpoint(create_operator), methods=["POST"]),
    Route("/external/operators/{id}", endpoint(read_operator), methods=["GET"]),
    Route("/external/operators/{id}", endpoint(update_operator), methods=["PUT"]),
    Route("/external/operators/{id}", endpoint(delete_operator), methods=["DELETE"]),
]
