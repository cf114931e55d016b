"""The training sandbox: an independent simulator of the merchant's Loyalty Points API.

It follows ``shared/api/loyalty-api.md`` and never imports ``kiosk.api``: when the
client and the simulator disagree, one of them misread the contract. Choices made
where the contract says "not shown" are listed in ``docs/simulator.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiosk.sim.keys import DEFAULT_API_KEY, DEFAULT_OTHER_API_KEY

if TYPE_CHECKING:
    from kiosk.sim.app import create_app
    from kiosk.sim.seed import build_world

__all__ = ["DEFAULT_API_KEY", "DEFAULT_OTHER_API_KEY", "build_world", "create_app"]


def __getattr__(name: str) -> Any:
    # The ASGI app (Starlette, every resource module) and the world load when first
    # asked for: the kiosk's training mode needs the keys at start (``kiosk.sim.keys``)
    # and the rest at its first request.
    if name == "create_app":
        from kiosk.sim.app import create_app

        return create_app
    if name == "build_world":
        from kiosk.sim.seed import build_world

        return build_world
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
