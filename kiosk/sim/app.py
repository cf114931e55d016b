"""Assembles the simulator's ASGI app from its resource modules."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute
from starlette.types import ASGIApp

from kiosk.sim import (
    branches,
    clients,
    control,
    exchanges,
    levels,
    operators,
    point_items,
    points,
    products,
    purchases,
    validation,
)
from kiosk.sim.faults import SimMiddleware
from kiosk.sim.http import error_body
from kiosk.sim.seed import DEFAULT_API_KEY, DEFAULT_OTHER_API_KEY, build_world
from kiosk.sim.world import World

RESOURCE_MODULES = (
    branches,
    clients,
    points,
    levels,
    products,
    point_items,
    exchanges,
    purchases,
    operators,
    validation,
)


async def _http_error(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    if status in (404, 405):
        # As the real service (NestJS) does: an unknown route or method is a 404.
        status = 404
        message = f"Cannot {request.method} {request.url.path}"
    else:
        message = "Internal server error"
    return JSONResponse(error_body(request, status, message), status_code=status)


def create_app(
    world: World | None = None,
    *,
    api_key: str = DEFAULT_API_KEY,
    other_api_key: str = DEFAULT_OTHER_API_KEY,
    controls: bool = False,
) -> ASGIApp:
    """The simulator as an ASGI app.

    ``controls`` mounts the test controls under ``/_sim/`` (clock, faults, ledger,
    request log, reset); they are off unless asked for. The Starlette app is
    reachable as ``app.state.world`` through the middleware's ``.world``.
    """
    world = world or build_world(api_key=api_key, other_api_key=other_api_key)
    routes: list[BaseRoute] = []
    for module in RESOURCE_MODULES:
        register = getattr(module, "register", None)
        if register is not None:
            register(world)
        routes.extend(module.routes)
    if controls:
        routes.extend(control.routes)
    app = Starlette(
        routes=routes,
        exception_handlers={404: _http_error, 405: _http_error, 500: _http_error},
    )
    app.state.world = world
    app.state.seed_keys = {"api_key": api_key, "other_api_key": other_api_key}
    return SimMiddleware(app, world)
