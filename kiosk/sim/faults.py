"""Simulator middleware: request log and fault injection (being written)."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from kiosk.sim.world import World


class SimMiddleware:
    def __init__(self, app: ASGIApp, world: World) -> None:
        self.app = app
        self.world = world

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)
