"""HTTP conventions of the merchant API, shared by every simulator route.

- ``envelope(...)``: the ``{success, status, message, data}`` body.
- ``ApiError`` / ``error_response``: the error body
  ``{statusCode, timestamp, path, method, message, errors, data}``.
- ``Validator``: collects class-validator style items ``{field, constraints, value}``
  and raises one 400 ``Error de validación`` with all of them.
- ``PageQuery`` / ``parse_page`` / ``page_response``: the paginated root-level
  ``{data, meta, links}`` lists.
- ``endpoint(handler, limit=...)``: wraps a handler ``(request, merchant) -> Response``
  with authentication (``x-api-key``), rate limiting and error conversion.
"""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from kiosk.sim.world import Merchant, Record, World

VALIDATION_MESSAGE = "Error de validación"
KEY_REQUIRED = "Api Key is required"
KEY_INVALID = "Api key is invalid"


class ApiError(Exception):
    """Raise from a handler to answer with the API's error body."""

    def __init__(
        self,
        status: int,
        message: str,
        errors: list[Record] | None = None,
        data: Record | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.errors = errors
        self.data = data


def world_of(request: Request) -> World:
    world: World = request.app.state.world
    return world


def envelope(
    data: Any = None, *, status: int = 200, message: str = "OK", include_data: bool = True
) -> JSONResponse:
    body: Record = {"success": 200 <= status < 300, "status": status, "message": message}
    if include_data:
        body["data"] = data
    return JSONResponse(body, status_code=status)


def error_body(
    request: Request,
    status: int,
    message: str,
    errors: list[Record] | None = None,
    data: Record | None = None,
) -> Record:
    return {
        "statusCode": status,
        "timestamp": world_of(request).now_iso(),
        "path": request.url.path + (f"?{request.url.query}" if request.url.query else ""),
        "method": request.method,
        "message": message,
        "errors": errors,
        "data": data,
    }


def error_response(request: Request, error: ApiError) -> JSONResponse:
    return JSONResponse(
        error_body(request, error.status, error.message, error.errors, error.data),
        status_code=error.status,
    )


def not_found(message: str) -> ApiError:
    return ApiError(404, message)


# ---------------------------------------------------------------- validation


class Validator:
    """Collects per-field validation failures in class-validator style.

    Each ``*_field`` method reads ``source[name]``, records a failure item and
    returns ``None`` when the value is invalid, and returns the value otherwise.
    Call ``check()`` at the end: it raises one 400 with every item.
    """

    def __init__(self, source: Record | None = None) -> None:
        self.source: Record = source or {}
        self.items: list[Record] = []

    def fail(self, field: str, rule: str, text: str, value: Any = None) -> None:
        for item in self.items:
            if item["field"] == field:
                item["constraints"][rule] = text
                return
        self.items.append({"field": field, "constraints": {rule: text}, "value": value})

    def check(self) -> None:
        if self.items:
            raise ApiError(400, VALIDATION_MESSAGE, errors=self.items)

    def present(self, name: str) -> bool:
        return name in self.source and self.source[name] is not None

    def int_field(
        self,
        name: str,
        *,
        required: bool = False,
        minimum: int | None = None,
        maximum: int | None = None,
    ) -> int | None:
        value = self.source.get(name)
        if value is None:
            if required:
                self.fail(name, "isNotEmpty", f"{name} should not be empty", value)
                self.fail(name, "isInt", f"{name} must be an integer number", value)
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(name, "isInt", f"{name} must be an integer number", value)
            return None
        if minimum is not None and value < minimum:
            self.fail(name, "min", f"{name} must not be less than {minimum}", value)
            return None
        if maximum is not None and value > maximum:
            self.fail(name, "max", f"{name} must not be greater than {maximum}", value)
            return None
        return value

    def number_field(
        self,
        name: str,
        *,
        required: bool = False,
        positive: bool = False,
        minimum: float | None = None,
    ) -> float | None:
        value = self.source.get(name)
        if value is None:
            if required:
                self.fail(name, "isNotEmpty", f"{name} should not be empty", value)
                self.fail(
                    name,
                    "isNumber",
                    f"{name} must be a number conforming to the specified constraints",
                    value,
                )
            return None
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            self.fail(
                name,
                "isNumber",
                f"{name} must be a number conforming to the specified constraints",
                value,
            )
            return None
        if positive and value <= 0:
            self.fail(name, "isPositive", f"{name} must be a positive number", value)
            return None
        if minimum is not None and value < minimum:
            self.fail(name, "min", f"{name} must not be less than {minimum:g}", value)
            return None
        return float(value)

    def str_field(
        self,
        name: str,
        *,
        required: bool = False,
        max_length: int | None = None,
        choices: Sequence[str] | None = None,
    ) -> str | None:
        value = self.source.get(name)
        if value is None:
            if required:
                self.fail(name, "isNotEmpty", f"{name} should not be empty", value)
                self.fail(name, "isString", f"{name} must be a string", value)
            return None
        if not isinstance(value, str):
            self.fail(name, "isString", f"{name} must be a string", value)
            return None
        if required and not value.strip():
            self.fail(name, "isNotEmpty", f"{name} should not be empty", value)
            return None
        if max_length is not None and len(value) > max_length:
            self.fail(
                name,
                "maxLength",
                f"{name} must be shorter than or equal to {max_length} characters",
                value,
            )
            return None
        if choices is not None and value not in choices:
            self.fail(
                name,
                "isIn",
                f"{name} must be one of the following values: {', '.join(choices)}",
                value,
            )
            return None
        return value

    def bool_field(self, name: str, *, required: bool = False) -> bool | None:
        value = self.source.get(name)
        if value is None:
            if required:
                self.fail(name, "isBoolean", f"{name} must be a boolean value", value)
            return None
        if not isinstance(value, bool):
            self.fail(name, "isBoolean", f"{name} must be a boolean value", value)
            return None
        return value

    def email_field(self, name: str, *, required: bool = False) -> str | None:
        value = self.str_field(name, required=required)
        if value is None:
            return None
        local, _, domain = value.partition("@")
        if (
            not local
            or "." not in domain
            or " " in value
            or domain.startswith(".")
            or domain.endswith(".")
        ):
            self.fail(name, "isEmail", f"{name} must be an email", value)
            return None
        return value.strip().lower()

    def date_field(self, name: str, *, required: bool = False) -> str | None:
        from kiosk.sim.clock import parse_iso

        value = self.str_field(name, required=required)
        if value is None:
            return None
        try:
            parse_iso(value)
        except ValueError:
            self.fail(name, "isDateString", f"{name} must be a valid ISO 8601 date string", value)
            return None
        return value

    def int_list_field(
        self,
        name: str,
        *,
        required: bool = False,
        min_size: int | None = None,
        max_size: int | None = None,
        positive: bool = True,
    ) -> list[int] | None:
        value = self.source.get(name)
        if value is None:
            if required:
                self.fail(name, "isArray", f"{name} must be an array", value)
            return None
        if not isinstance(value, list):
            self.fail(name, "isArray", f"{name} must be an array", value)
            return None
        if min_size is not None and len(value) < min_size:
            self.fail(
                name, "arrayMinSize", f"{name} must contain at least {min_size} elements", value
            )
            return None
        if max_size is not None and len(value) > max_size:
            self.fail(
                name, "arrayMaxSize", f"{name} must contain no more than {max_size} elements", value
            )
            return None
        if any(isinstance(v, bool) or not isinstance(v, int) for v in value):
            self.fail(name, "isInt", f"each value in {name} must be an integer number", value)
            return None
        if positive and any(v <= 0 for v in value):
            self.fail(name, "isPositive", f"each value in {name} must be a positive number", value)
            return None
        return list(value)


async def json_body(request: Request) -> Record:
    """The request's JSON object body; ``{}`` when empty; 400 when not a JSON object."""
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(
            400,
            VALIDATION_MESSAGE,
            errors=[
                {
                    "field": "body",
                    "constraints": {"isJson": "body must be a valid JSON object"},
                    "value": None,
                }
            ],
        ) from None
    if not isinstance(value, dict):
        raise ApiError(
            400,
            VALIDATION_MESSAGE,
            errors=[
                {
                    "field": "body",
                    "constraints": {"isObject": "body must be a JSON object"},
                    "value": value,
                }
            ],
        )
    return value


def path_int(request: Request, name: str = "id") -> int:
    """An integer path parameter; 400 validation error when it is not one."""
    raw = request.path_params.get(name, "")
    try:
        value = int(str(raw))
    except ValueError:
        value = None
    if value is None or str(raw).strip() != str(raw) or value < 1:
        raise ApiError(
            400,
            VALIDATION_MESSAGE,
            errors=[
                {
                    "field": name,
                    "constraints": {"isInt": f"{name} must be an integer number"},
                    "value": raw,
                }
            ],
        )
    return value


def branch_header(request: Request) -> int | None:
    """The ``x-branch-id`` header as an integer, ``None`` when absent; 400 when not an integer."""
    raw = request.headers.get("x-branch-id")
    if raw is None or raw.strip() == "":
        return None
    try:
        value = int(raw.strip())
    except ValueError:
        value = 0
    if value < 1:
        raise ApiError(
            400,
            VALIDATION_MESSAGE,
            errors=[
                {
                    "field": "x-branch-id",
                    "constraints": {"isInt": "x-branch-id must be an integer number"},
                    "value": raw,
                }
            ],
        )
    return value


# ---------------------------------------------------------------- pagination

DEFAULT_LIMIT = 10
MAX_LIMIT = 200


@dataclass(frozen=True)
class PageQuery:
    page: int
    limit: int
    query: str | None
    order: str | None
    direction: str  # 'asc' or 'desc'; meaningful only when ``order`` is set
    params: dict[str, str]  # every query parameter as received


def _int_param(
    v: Validator, params: dict[str, str], name: str, minimum: int, maximum: int | None
) -> int | None:
    raw = params.get(name)
    if raw is None:
        return None
    try:
        value = int(raw)
    except ValueError:
        v.fail(name, "isInt", f"{name} must be an integer number", raw)
        return None
    if value < minimum:
        v.fail(name, "min", f"{name} must not be less than {minimum}", value)
        return None
    if maximum is not None and value > maximum:
        v.fail(name, "max", f"{name} must not be greater than {maximum}", value)
        return None
    return value


def parse_page(
    request: Request, orders: Sequence[str], validator: Validator | None = None
) -> PageQuery:
    """Read ``page, limit, query, order, direction``; 400 with every bad one.

    Pass your own ``validator`` to add resource filters to the same 400; then call
    ``validator.check()`` yourself.
    """
    params = dict(request.query_params)
    v = validator or Validator()
    page = _int_param(v, params, "page", 1, None) or 1
    limit = _int_param(v, params, "limit", 1, MAX_LIMIT) or DEFAULT_LIMIT
    order = params.get("order")
    if order is not None and order not in orders:
        v.fail(
            "order",
            "isIn",
            f"order must be one of the following values: {', '.join(orders)}",
            order,
        )
        order = None
    direction = params.get("direction")
    if direction is not None and direction not in ("asc", "desc"):
        v.fail(
            "direction",
            "isIn",
            "direction must be one of the following values: asc, desc",
            direction,
        )
        direction = None
    if validator is None:
        v.check()
    query = params.get("query")
    return PageQuery(
        page=page,
        limit=limit,
        query=query.strip() if query and query.strip() else None,
        order=order,
        direction=direction or "asc",
        params=params,
    )


def sort_records(
    items: list[Record],
    pq: PageQuery,
    keys: dict[str, Callable[[Record], Any]],
    default: Callable[[list[Record]], list[Record]],
) -> list[Record]:
    """Sorted by ``pq.order`` (with ``pq.direction``) or by the resource's default order.

    ``keys`` maps each valid ``order`` value to a sort key; ``default`` sorts when
    no order is sent (``direction`` alone is ignored, as the contract says). Ties
    keep ascending id order so pages are stable.
    """
    by_id = sorted(items, key=lambda r: r.get("id", 0))
    if pq.order is None:
        return default(by_id)
    key = keys[pq.order]
    return sorted(by_id, key=lambda r: _none_last(key(r)), reverse=pq.direction == "desc")


def _none_last(value: Any) -> tuple[int, Any]:
    if isinstance(value, str):
        return (0, value.casefold())
    return (1, 0) if value is None else (0, value)


def page_response(request: Request, items: list[Record], pq: PageQuery) -> JSONResponse:
    """The root-level ``{data, meta, links}`` body for one page of ``items`` (already sorted)."""
    total = len(items)
    total_pages = math.ceil(total / pq.limit) if total else 0
    start = (pq.page - 1) * pq.limit
    chunk = items[start : start + pq.limit]
    path = request.url.path

    def link(page: int) -> str:
        extra = {k: v for k, v in pq.params.items() if k not in ("page", "limit")}
        return f"{path}?{urlencode({'page': page, 'limit': pq.limit, **extra})}"

    last_page = max(total_pages, 1)
    meta = {
        "totalItems": total,
        "itemCount": len(chunk),
        "itemsPerPage": pq.limit,
        "totalPages": total_pages,
        "currentPage": pq.page,
        "from": start + 1 if chunk else 0,
        "to": start + len(chunk) if chunk else 0,
    }
    links = {
        "first": link(1),
        "previous": link(pq.page - 1) if pq.page > 1 else None,
        "next": link(pq.page + 1) if pq.page < total_pages else None,
        "last": link(last_page),
        "path": path,
        "firstPageUrl": link(1),
        "lastPageUrl": link(last_page),
    }
    return JSONResponse({"data": chunk, "meta": meta, "links": links})


# ---------------------------------------------------------------- endpoints

Handler = Callable[[Request, Merchant], Awaitable[Response]]


def authenticate(request: Request) -> Merchant:
    key = request.headers.get("x-api-key")
    if key is None or key.strip() == "":
        raise ApiError(401, KEY_REQUIRED)
    merchant = world_of(request).merchant_for_key(key)
    if merchant is None:
        raise ApiError(401, KEY_INVALID)
    return merchant


def endpoint(
    handler: Handler, *, limit: str | None = None
) -> Callable[[Request], Awaitable[Response]]:
    """A Starlette endpoint from ``handler(request, merchant)``.

    ``limit`` names the rate-limit group (``"tags"``, ``"code-read"``,
    ``"code-validate"``); the limiter in ``kiosk.sim.ratelimit`` decides.
    """

    async def run(request: Request) -> Response:
        world = world_of(request)
        world.run_due()
        headers: dict[str, str] = {}
        try:
            merchant = authenticate(request)
            if limit is not None:
                from kiosk.sim.ratelimit import check_rate_limit

                headers, refused = check_rate_limit(request, world, merchant, limit)
                if refused is not None:
                    refused.headers.update(headers)
                    return refused
            response = await handler(request, merchant)
        except ApiError as error:
            response = error_response(request, error)
        response.headers.update(headers)
        if request.method != "GET" and response.status_code < 400:
            world.changed()
        return response

    run.__name__ = getattr(handler, "__name__", "endpoint")
    return run
