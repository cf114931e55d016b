"""Rate limits of the contract, as sliding windows on the simulator's clock.

| group          | endpoints                                            | limit              | keyed by |
|----------------|------------------------------------------------------|--------------------|----------|
| tags           | /external/tags/*                                     | 10 per second      | merchant |
| code-read      | GET validation-code/qrs and validation-code/{id}/current | 5 per minute   | merchant + branch |
| code-validate  | POST validation-code/{id}/validate                   | 10 per minute      | merchant |

Every answer of a limited endpoint carries ``X-RateLimit-Limit`` and
``X-RateLimit-Remaining``; a refusal is 429 with the contract's body and a
``Retry-After`` (seconds until the window frees a place; our choice, see
docs/simulator.md). Refused requests do not count against the window.
"""

from __future__ import annotations

import math

from starlette.requests import Request
from starlette.responses import JSONResponse

from kiosk.sim.world import Merchant, World

# The contract's rate-limit body message (its own envelope, not the error body).
RATE_LIMIT_MESSAGE = "Rate limit excedido. Intente más tarde."

LIMITS: dict[str, tuple[int, float]] = {
    "tags": (10, 1.0),
    "code-read": (5, 60.0),
    "code-validate": (10, 60.0),
}


def _branch_key(request: Request, merchant: Merchant) -> str:
    qr_id = request.path_params.get("qrId")
    if qr_id is not None:
        try:
            qr = merchant.tables["qrs"].get(int(qr_id))
        except ValueError:
            qr = None
        if qr is not None:
            return f"branch:{qr['branchId']}"
    raw = request.headers.get("x-branch-id") or request.query_params.get("branchId")
    return f"branch:{raw.strip()}" if raw else "branch:-"


def check_rate_limit(
    request: Request, world: World, merchant: Merchant, group: str
) -> tuple[dict[str, str], JSONResponse | None]:
    """Count this request; return the headers and, when over the limit, the 429 to send."""
    limit, window = LIMITS[group]
    key = _branch_key(request, merchant) if group == "code-read" else "merchant"
    now = world.clock.time()
    times = world.rate_windows.setdefault((merchant.id, group, key), [])
    times[:] = [t for t in times if t > now - window]
    if not world.settings.rate_limits:
        times.append(now)
        return {"X-RateLimit-Limit": str(limit), "X-RateLimit-Remaining": str(limit)}, None
    if len(times) >= limit:
        retry_after = max(1, math.ceil(times[0] + window - now))
        headers = {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": "0",
            "Retry-After": str(retry_after),
        }
        body = {"success": False, "status": 429, "message": RATE_LIMIT_MESSAGE}
        return headers, JSONResponse(body, status_code=429)
    times.append(now)
    headers = {"X-RateLimit-Limit": str(limit), "X-RateLimit-Remaining": str(limit - len(times))}
    return headers, None
