"""Simulator routes: branches (read-only through the API)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from kiosk.sim.http import endpoint, envelope, not_found, path_int
from kiosk.sim.people_common import BRANCH_NOT_FOUND
from kiosk.sim.world import Merchant, public


async def list_branches(request: Request, merchant: Merchant) -> Response:
    table = merchant.tables["branches"]
    data = [public(table[key]) for key in sorted(table)]
    return envelope(data, message="Sucursales obtenidas correctamente")


async def get_branch(request: Request, merchant: Merchant) -> Response:
    branch = merchant.tables["branches"].get(path_int(request))
    if branch is None:
        # Missing, or of another merchant: the same answer, nothing leaks.
        raise not_found(BRANCH_NOT_FOUND)
    return envelope(public(branch), message="Sucursal obtenida correctamente")


routes: list[BaseRoute] = [
    Route("/external/branch", endpoint(list_branches), methods=["GET"]),
    Route("/external/branch/{id}", endpoint(get_branch), methods=["GET"]),
]
