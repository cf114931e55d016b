"""Typed failures of the merchant API.

Every failure is an ``ApiError`` with a ``kind`` that the UI maps to a translated
sentence for the person at the counter, and, where the API tells several refusals
apart only by text, a ``reason``. The API's own ``message`` travels along for the
log, with emails and document numbers masked. Nothing here ever holds the API key
or an ``httpx`` request (whose headers carry it).

How a response becomes an error lives in ``kiosk.api.classify``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from kiosk.api.redact import redact_text, redact_url_text


class ErrorKind(StrEnum):
    VALIDATION = "validation"  # 400 "Error de validación": see field_errors
    BAD_REQUEST = "bad_request"  # another 400 refusal: see reason
    AUTH = "auth"  # key missing or unknown (401, or 404 with a key message)
    FORBIDDEN = "forbidden"  # 403: branch of another merchant
    SUSPENDED = "suspended"  # 403: suspended client
    NOT_FOUND = "not_found"  # 404: see resource
    DUPLICATE_EXTERNAL_ID = "duplicate_external_id"  # 409 on a credit: already credited
    CONFLICT = "conflict"  # other 409s: see reason
    RATE_LIMITED = "rate_limited"  # 429 (or our own limiter would wait too long)
    SERVER = "server"  # 500 and other 5xx
    UNAVAILABLE = "unavailable"  # 503: try again in a few seconds
    NETWORK = "network"  # no connection, connection dropped
    TIMEOUT = "timeout"  # no answer in time
    TLS = "tls"  # the server's certificate is not trusted (a proxy IT must set up)
    MALFORMED = "malformed"  # a body we cannot read (HTML, truncated, wrong types)
    AMBIGUOUS = "ambiguous"  # a write may or may not have happened: check before retrying
    UNEXPECTED = "unexpected"  # any other status


# Failures that say "the API cannot be reached" rather than "the API said no": the
# counter shows "offline", and a credit that meets one waits in the outbox.
OFFLINE_KINDS = frozenset({ErrorKind.NETWORK, ErrorKind.TIMEOUT})


class Reason(StrEnum):
    """Which refusal, where the API tells them apart by message only."""

    # 401 / 404 credentials
    KEY_MISSING = "key_missing"
    KEY_INVALID = "key_invalid"
    # 403
    FOREIGN_BRANCH = "foreign_branch"
    # 409
    CLIENT_EXISTS = "client_exists"
    EMAIL_TAKEN = "email_taken"
    DOCUMENT_TAKEN = "document_taken"
    CARD_TAKEN = "card_taken"
    MIN_POINTS_TAKEN = "min_points_taken"
    INSUFFICIENT_POINTS = "insufficient_points"
    PRODUCT_DISABLED = "product_disabled"
    NO_STOCK = "no_stock"
    LEVEL_NOT_ALLOWED = "level_not_allowed"
    EXCHANGE_CAP = "exchange_cap"
    MONEY_MINIMUM = "money_minimum"
    OTHER_OPERATION = "other_operation"  # a duplicate refusal naming another external id
    # 400
    NO_POINTS = "no_points"
    PREVIEW_MODE = "preview_mode"
    ALREADY_REDEEMED = "already_redeemed"
    PURCHASE_CANCELED = "purchase_canceled"  # redeem of a canceled exchange (simulator's text)
    WRONG_CODE = "wrong_code"
    OPERATOR_CAP = "operator_cap"
    COUPON_STOCK = "coupon_stock"
    EMAIL_LOCKED = "email_locked"  # email change after the client entered (simulator's text)


class Resource(StrEnum):
    """What a 404 says is missing."""

    CLIENT = "client"
    LEVEL = "level"
    PRODUCT = "product"
    OFFER = "offer"
    POINT_ITEM = "point_item"
    POINT_OPERATION = "point_operation"
    PURCHASE = "purchase"
    OPERATOR = "operator"
    BRANCH = "branch"
    QR = "qr"
    ROUTE = "route"  # "Cannot GET /external/...": the endpoint itself is unknown


@dataclass(frozen=True)
class FieldError:
    """One item of a validation error: the field, its broken rules (name -> text)."""

    field: str
    constraints: Mapping[str, str]
    value: Any = dataclasses.field(default=None, repr=False, compare=False)  # may be personal data


class ApiError(Exception):
    """A failure of one API call. ``str()`` and ``repr()`` are safe to log."""

    def __init__(
        self,
        kind: ErrorKind,
        *,
        status: int | None = None,
        message: str = "",
        reason: Reason | None = None,
        resource: Resource | None = None,
        field_errors: tuple[FieldError, ...] = (),
        retry_after: float | None = None,
        method: str | None = None,
        path: str | None = None,
    ) -> None:
        self.kind = kind
        self.status = status
        self.message = redact_text(message)
        self.reason = reason
        self.resource = resource
        self.field_errors = field_errors
        self.retry_after = retry_after
        self.method = method
        self.path = redact_url_text(path) if path else path
        # Set by the client when an earlier attempt of the same call lost its answer
        # (it may have been applied): a 409 or 404 then means "done before".
        self.after_lost_answer = False
        # A duplicate refusal (409): the external id its message names, as sent (the
        # contract's form), or None. A credit is ours only when this is its own id.
        self.names_external_id: str | None = None
        # Set by the client when the connection never opened (refused, no route, DNS,
        # connect timeout): nothing reached the service, the kiosk is offline.
        self.unconnected = False
        super().__init__(self._summary())

    def _summary(self) -> str:
        parts = [self.kind.value]
        if self.reason is not None:
            parts.append(f"({self.reason.value})")
        if self.resource is not None:
            parts.append(f"[{self.resource.value}]")
        if self.status is not None:
            parts.append(str(self.status))
        if self.method and self.path:
            parts.append(f"{self.method} {self.path}")
        text = " ".join(parts)
        if self.message:
            text += f": {self.message}"
        if self.field_errors:
            text += (
                " {"
                + "; ".join(
                    f"{item.field}: {', '.join(item.constraints)}" for item in self.field_errors
                )
                + "}"
            )
        return text

    def __str__(self) -> str:
        return self._summary()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._summary()!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), dict(self.__dict__)))

    def at(self, *, method: str, path: str, status: int | None = None) -> ApiError:
        """The same error, located at one call (kept when already set)."""
        self.method = self.method or method
        self.path = self.path or redact_url_text(path)
        self.status = self.status if self.status is not None else status
        self.args = (self._summary(),)
        return self


class MalformedResponse(ApiError):
    """A body that is not what the contract describes (HTML, truncated, wrong types)."""

    def __init__(self, detail: str, **context: Any) -> None:
        super().__init__(ErrorKind.MALFORMED, message=detail, **context)


class AmbiguousOutcome(ApiError):
    """A write without idempotency key whose answer was lost.

    ``applied`` is what reading back showed: ``False`` when nothing changed as of the
    reading (the request may still be in flight: check again before resending),
    ``None`` when reading could not tell. A confirmed write is never raised: the
    call returns its result flagged ``reconciled``. ``cause`` is the failure that
    made it ambiguous (``TIMEOUT``, ``NETWORK``, ``SERVER`` or ``MALFORMED``).
    """

    def __init__(
        self,
        *,
        operation: str,
        cause: ErrorKind,
        applied: bool | None = None,
        message: str = "",
        **context: Any,
    ) -> None:
        self.operation = operation
        self.cause = cause
        self.applied = applied
        text = message or f"{operation}: outcome unknown after {cause.value}"
        super().__init__(ErrorKind.AMBIGUOUS, message=text, **context)


def _rebuild(cls: type[ApiError], state: dict[str, Any]) -> ApiError:
    error = cls.__new__(cls)
    error.__dict__.update(state)
    error.args = (error._summary(),)
    return error
