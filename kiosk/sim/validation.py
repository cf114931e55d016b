"""Simulator routes: rotating validation codes of the merchant's QRs.

QR record (table ``qrs``, keyed by ``qrId``): ``{qrId, qrName, branchId,
branchName, validationWindowSeconds}`` + private ``_secret`` (hex), ``_active``
and ``_rotating`` (only active QRs with the rotating code enabled are listed
and readable).

The code of a window is ``HMAC-SHA256(secret, window index)`` reduced to 4
digits, the window index being ``floor(clock / validationWindowSeconds)`` on the
simulator's clock: every request inside one window sees the same code, and
moving the clock rotates it. Only the current window's code validates (C13);
the previous window's code is already expired.

Rate limits (``kiosk.sim.ratelimit``): reads 5/min per merchant and branch,
validate 10/min per merchant.
"""

from __future__ import annotations

import hashlib
import hmac
import math

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from kiosk.sim.catalog_common import branch_of_merchant, int_param
from kiosk.sim.clock import iso
from kiosk.sim.http import (
    ApiError,
    Validator,
    branch_header,
    endpoint,
    envelope,
    json_body,
    not_found,
    path_int,
    world_of,
)
from kiosk.sim.world import Merchant, Record

QR_NOT_FOUND = "QR not found"
WRONG_CODE = "Código de validación incorrecto."


def code_for_window(secret: str, window_index: int) -> str:
    digest = hmac.new(bytes.fromhex(secret), str(window_index).encode(), hashlib.sha256).digest()
    return f"{int.from_bytes(digest[:4], 'big') % 10000:04d}"


def current_code(qr: Record, now: float) -> tuple[str, float]:
    """(code, end of its window in epoch seconds) at ``now``."""
    window = int(qr["validationWindowSeconds"])
    index = math.floor(now / window)
    return code_for_window(qr["_secret"], index), float((index + 1) * window)


def _visible(qr: Record) -> bool:
    return bool(qr.get("_active", True)) and bool(qr.get("_rotating", True))


def qr_view(merchant: Merchant, qr: Record) -> Record:
    branch = merchant.tables["branches"].get(qr["branchId"])
    return {
        "qrId": qr["qrId"],
        "qrName": qr["qrName"],
        "branchId": qr["branchId"],
        "branchName": branch["name"] if branch else qr.get("branchName"),
        "validationWindowSeconds": qr["validationWindowSeconds"],
    }


def _own_qr(request: Request, merchant: Merchant) -> Record:
    qr = merchant.tables["qrs"].get(path_int(request, "qrId"))
    if qr is None or not _visible(qr):
        raise not_found(QR_NOT_FOUND)
    return qr


async def list_qrs(request: Request, merchant: Merchant) -> Response:
    v = Validator()
    query_branch = int_param(v, dict(request.query_params), "branchId")
    v.check()
    header = branch_header(request)
    wanted = {b for b in (query_branch, header) if b is not None}
    for branch_id in wanted:
        branch_of_merchant(request, merchant, branch_id, strict=False)
    rows = [
        qr_view(merchant, qr)
        for qr in sorted(merchant.tables["qrs"].values(), key=lambda q: q["qrId"])
        if _visible(qr) and all(qr["branchId"] == b for b in wanted)
    ]
    return envelope(rows, message="QRs de validación")


async def read_current(request: Request, merchant: Merchant) -> Response:
    qr = _own_qr(request, merchant)
    now = world_of(request).clock.time()
    code, valid_until = current_code(qr, now)
    data = {
        "qrId": qr["qrId"],
        "code": code,
        "expiresInSeconds": max(1, math.ceil(valid_until - now)),
        "validUntil": iso(valid_until),
    }
    return envelope(data, message="Código de validación vigente")


async def validate(request: Request, merchant: Merchant) -> Response:
    qr = _own_qr(request, merchant)
    v = Validator(await json_body(request))
    code = v.str_field("code", required=True, max_length=16)
    v.check()
    assert code is not None
    expected, _ = current_code(qr, world_of(request).clock.time())
    if not hmac.compare_digest(code.strip().encode(), expected.encode()):
        raise ApiError(400, WRONG_CODE)
    return envelope({"qrId": qr["qrId"], "code": expected, "valid": True}, message="Código válido")


routes: list[BaseRoute] = [
    Route("/external/validation-code/qrs", endpoint(list_qrs, limit="code-read"), methods=["GET"]),
    Route(
        "/external/validation-code/{qrId}/current",
        endpoint(read_current, limit="code-read"),
        methods=["GET"],
    ),
    Route(
        "/external/validation-code/{qrId}/validate",
        endpoint(validate, limit="code-validate"),
        methods=["POST"],
    ),
]
