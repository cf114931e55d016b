"""Async client of the merchant's Loyalty Points API (no Qt here).

``LoyaltyClient`` and its typed records (``kiosk.api.models``) and failures
(``kiosk.api.errors``). Contract: ``shared/api/loyalty-api.md``; choices where it
is silent: ``docs/simulator.md``.

The names below are imported lazily (PEP 562): the kiosk imports
``kiosk.api.logsafety`` before its first paint, and that must not pull in httpx and
the whole client (about 200 ms) ahead of the window.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_WHERE = {
    "LoyaltyClient": "kiosk.api.client",
    "AmbiguousOutcome": "kiosk.api.errors",
    "ApiError": "kiosk.api.errors",
    "ErrorKind": "kiosk.api.errors",
    "FieldError": "kiosk.api.errors",
    "MalformedResponse": "kiosk.api.errors",
    "Reason": "kiosk.api.errors",
    "Resource": "kiosk.api.errors",
    "RateLimiter": "kiosk.api.ratelimit",
    "shared_limiter": "kiosk.api.ratelimit",
    "RetryPolicy": "kiosk.api.retry",
    "Timeouts": "kiosk.api.transport",
}

__all__ = [  # a literal, so linters see the names re-exported above
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


def lazy_exports(
    package: str, where: dict[str, str], namespace: dict[str, Any]
) -> Callable[[str], Any]:
    """A PEP 562 ``__getattr__`` for ``package``: a name of ``where`` is imported from
    its module when first asked for, then kept in the package's ``namespace``."""

    def getattr_(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    return getattr_


__getattr__ = lazy_exports(__name__, _WHERE, globals())
