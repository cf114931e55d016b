"""Small helpers shared by the API tests."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

import pytest

from kiosk.api.errors import ApiError
from kiosk.sim.world import World

JUAN_DNI = "30123456"  # Juan Carlos Pérez, registered, level Plata
JUAN_EMAIL = "juan.perez@example.com"
CAMILA_DNI = "41222333"  # Camila Díaz, not registered: search gives a register_url
SUSPENDED_DNI = "34111000"


async def fails(call: Awaitable[Any]) -> ApiError:
    """The ``ApiError`` that awaiting ``call`` raises (fails the test otherwise)."""
    with pytest.raises(ApiError) as caught:
        await call
    return caught.value


def client_record(world: World, document: str, merchant: int = 1) -> dict[str, Any]:
    for record in world.merchants[merchant].tables["clients"].values():
        if record.get("document_number") == document:
            return record
    raise KeyError(document)
