"""From an HTTP answer to a typed ``ApiError``.

The HTTP status is authoritative; the message decides only where the contract says
so (credential failures on 401 or 404) or where the API tells refusals apart by text
alone (409s, some 400s, 403). The messages are the contract's and the ones recorded
in ``docs/simulator.md``; an unknown text falls back to the generic kind
(``CONFLICT``, ``BAD_REQUEST``, ``FORBIDDEN``) without a reason.
"""

from __future__ import annotations

import re
import unicodedata
from email.utils import parsedate_to_datetime
from typing import Any

from kiosk.api.errors import ApiError, ErrorKind, FieldError, Reason, Resource

VALIDATION_MESSAGE = "error de validacion"

_EXACT: dict[str, Reason] = {
    # 409
    "el cliente ya se encuentra registrado": Reason.CLIENT_EXISTS,
    "el email ya esta en uso por otro cliente": Reason.EMAIL_TAKEN,
    "el documento ya esta en uso por otro cliente": Reason.DOCUMENT_TAKEN,
    "la tarjeta de afiliado ya esta en uso": Reason.CARD_TAKEN,
    "ya existe un nivel con la misma cantidad minima de puntos necesarios": (
        Reason.MIN_POINTS_TAKEN
    ),
    "el cliente no tiene puntos suficientes": Reason.INSUFFICIENT_POINTS,
    "el producto no se encuentra disponible": Reason.PRODUCT_DISABLED,
    "el producto no tiene stock disponible": Reason.NO_STOCK,
    "el nivel del cliente no permite canjear este producto": Reason.LEVEL_NOT_ALLOWED,
    "el cliente alcanzo el maximo de canjes permitidos para este producto": (Reason.EXCHANGE_CAP),
    # 400
    "la operacion no genera puntos": Reason.NO_POINTS,
    "debe enviar exactamente uno de: amount, pointitems, initialpointstogive": (
        Reason.PREVIEW_MODE
    ),
    "el canje ya fue realizado": Reason.ALREADY_REDEEMED,
    "el canje fue cancelado": Reason.PURCHASE_CANCELED,
    "codigo de validacion incorrecto": Reason.WRONG_CODE,
    "se alcanzo el limite de operadores de su plan": Reason.OPERATOR_CAP,
    "el stock de este producto se calcula a partir de sus cupones y no puede modificarse": (
        Reason.COUPON_STOCK
    ),
    # 401 / 404 credentials
    "api key is required": Reason.KEY_MISSING,
    "api key is invalid": Reason.KEY_INVALID,
    "your api key is invalid": Reason.KEY_INVALID,
}

_PREFIX: tuple[tuple[str, Reason], ...] = (
    ("el monto minimo para canjear dinero es de", Reason.MONEY_MINIMUM),
    ("el email no puede modificarse", Reason.EMAIL_LOCKED),
    ("el email ya esta en uso", Reason.EMAIL_TAKEN),  # also "... por otro operador"
)

_DUPLICATE_EXTERNAL_ID = "ya existe una operacion de puntos con el externalid"
# The contract's form: "Ya existe una operación de puntos con el externalId <external_id>
# para este negocio". The id is read from the message as sent (case kept, unmasked).
_DUPLICATE_NAMES = re.compile(
    r"^\s*ya\s+existe\s+una\s+operaci[oó]n\s+de\s+puntos\s+con\s+el\s+externalid\s+"
    r"(?P<id>\S+?)(?:\s+para\s+este\s+negocio)?\s*[.!]?\s*$",
    re.IGNORECASE,
)
_FOREIGN_BRANCH = re.compile(r"^branch with id .* does not belong to business")
_SUSPENDED = "el cliente se encuentra suspendido"

_RESOURCES: tuple[tuple[str, Resource], ...] = (
    ("client not found", Resource.CLIENT),
    ("level not found", Resource.LEVEL),
    ("sucursal no encontrada", Resource.BRANCH),
    ("canje no encontrado", Resource.PURCHASE),
    ("pointsitem with id", Resource.POINT_ITEM),
    ("product offer not found", Resource.OFFER),
    ("product not found", Resource.PRODUCT),
    ("operator not found", Resource.OPERATOR),
    ("qr not found", Resource.QR),
    ("no existe una operacion de puntos activa", Resource.POINT_OPERATION),
    ("cannot ", Resource.ROUTE),
)

_CREDENTIAL_REASONS = (Reason.KEY_MISSING, Reason.KEY_INVALID)


def normalize(message: str) -> str:
    """Lower case, accents off, trailing punctuation and blanks off: for matching only."""
    text = unicodedata.normalize("NFKD", message)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(text.casefold().split()).rstrip(".!¡ ")


def reason_for(message: str) -> Reason | None:
    text = normalize(message)
    if text.startswith(_DUPLICATE_EXTERNAL_ID):
        return None
    reason = _EXACT.get(text)
    if reason is not None:
        return reason
    for prefix, found in _PREFIX:
        if text.startswith(prefix):
            return found
    return None


def is_duplicate_external_id(message: str) -> bool:
    return normalize(message).startswith(_DUPLICATE_EXTERNAL_ID)


def duplicate_names(message: str) -> str | None:
    """The external id a duplicate refusal names, when its message is in the contract's
    form (``None`` otherwise: then it names no id the kiosk can trust)."""
    found = _DUPLICATE_NAMES.match(message)
    return found.group("id") if found is not None else None


def resource_for(message: str) -> Resource | None:
    text = normalize(message)
    for prefix, resource in _RESOURCES:
        if text.startswith(prefix):
            return resource
    return None


def message_of(body: Any) -> str:
    """The ``message`` of an error body or envelope; NestJS may send a list of texts."""
    if not isinstance(body, dict):
        return ""
    message = body.get("message")
    if isinstance(message, str):
        return message
    if isinstance(message, list):
        return "; ".join(str(item) for item in message if isinstance(item, str | int | float))
    return ""


def field_errors_of(body: Any) -> tuple[FieldError, ...]:
    if not isinstance(body, dict) or not isinstance(body.get("errors"), list):
        return ()
    items: list[FieldError] = []
    for raw in body["errors"]:
        if not isinstance(raw, dict):
            continue
        name = raw.get("field", raw.get("property"))
        constraints = raw.get("constraints")
        texts = (
            {str(k): str(v) for k, v in constraints.items()}
            if isinstance(constraints, dict)
            else {}
        )
        items.append(
            FieldError(
                field=str(name) if name is not None else "",
                constraints=texts,
                value=raw.get("value"),
            )
        )
    return tuple(items)


# Every wait a server asks for is capped here, in one place: a ``Retry-After`` of a
# day must never hold the counter for a day. Past this, the caller's own backoff (the
# outbox's, up to an hour) decides when to try again.
MAX_SERVER_WAIT = 300.0


def parse_retry_after(value: str | None, *, now_epoch: float) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (seconds or an HTTP date), at most
    ``MAX_SERVER_WAIT``."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
        seconds = when.timestamp() - now_epoch
    if seconds != seconds:  # NaN
        return None
    return min(max(0.0, seconds), MAX_SERVER_WAIT)


def error_from_response(
    status: int,
    body: Any,
    *,
    method: str,
    path: str,
    resource: Resource | None = None,
    retry_after: float | None = None,
) -> ApiError:
    """The typed error for a non-2xx answer. ``body`` is the parsed JSON or ``None``."""
    message = message_of(body)
    reason = reason_for(message) if message else None
    context: dict[str, Any] = {"status": status, "message": message, "method": method, "path": path}

    if status == 401 or (status == 404 and reason in _CREDENTIAL_REASONS):
        return ApiError(ErrorKind.AUTH, reason=reason, **context)
    if status == 404 and "api key" in normalize(message):
        return ApiError(ErrorKind.AUTH, reason=Reason.KEY_INVALID, **context)
    if status == 400:
        if normalize(message) == VALIDATION_MESSAGE or (reason is None and field_errors_of(body)):
            return ApiError(ErrorKind.VALIDATION, field_errors=field_errors_of(body), **context)
        return ApiError(ErrorKind.BAD_REQUEST, reason=reason, **context)
    if status == 403:
        text = normalize(message)
        if text.startswith(_SUSPENDED):
            return ApiError(ErrorKind.SUSPENDED, **context)
        if _FOREIGN_BRANCH.match(text):
            return ApiError(ErrorKind.FORBIDDEN, reason=Reason.FOREIGN_BRANCH, **context)
        return ApiError(ErrorKind.FORBIDDEN, reason=reason, **context)
    if status == 404:
        return ApiError(ErrorKind.NOT_FOUND, resource=resource_for(message) or resource, **context)
    if status == 409:
        if is_duplicate_external_id(message):
            duplicate = ApiError(ErrorKind.DUPLICATE_EXTERNAL_ID, **context)
            duplicate.names_external_id = duplicate_names(message)
            return duplicate
        return ApiError(ErrorKind.CONFLICT, reason=reason, **context)
    if status == 429:
        return ApiError(ErrorKind.RATE_LIMITED, retry_after=retry_after, **context)
    if status == 503:
        return ApiError(ErrorKind.UNAVAILABLE, retry_after=retry_after, **context)
    if status >= 500:
        return ApiError(ErrorKind.SERVER, retry_after=retry_after, **context)
    return ApiError(ErrorKind.UNEXPECTED, reason=reason, **context)
