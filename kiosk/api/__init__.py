"""Async client of the merchant's Loyalty Points API (no Qt here).

``LoyaltyClient`` and its typed records (``kiosk.api.models``) and failures
(``kiosk.api.errors``). Contract: ``shared/api/loyalty-api.md``; choices where it
is silent: ``docs/simulator.md``.
"""

from kiosk.api.client import LoyaltyClient
from kiosk.api.errors import (
    AmbiguousOutcome,
    ApiError,
    ErrorKind,
    FieldError,
    MalformedResponse,
    Reason,
    Resource,
)
from kiosk.api.ratelimit import RateLimiter, shared_limiter
from kiosk.api.retry import RetryPolicy
from kiosk.api.transport import Timeouts

__all__ = [
    "AmbiguousOutcome",
    "ApiError",
    "ErrorKind",
    "FieldError",
    "LoyaltyClient",
    "MalformedResponse",
    "RateLimiter",
    "Reason",
    "Resource",
    "RetryPolicy",
    "Timeouts",
    "shared_limiter",
]
