"""When to send a request again, and how long to wait first.

The contract's recommendation, made exact:

- only 429, 5xx and network failures are retried; any other 4xx never is;
- waits of 1 s, 2 s and 4 s (so at most four attempts), each spread by a random
  ±20% so that kiosks that failed together do not come back together;
- a ``Retry-After`` header is honoured: the wait is at least what it asks (plus a
  small random spread), and when it asks for more than ``max_retry_after`` the call
  gives up with ``RATE_LIMITED`` and the wait in ``retry_after``;
- a call without idempotency key (exchanges, redeem, client creation, admin
  writes: ``Resend.IF_NOT_APPLIED``) is sent again only when the first attempt
  cannot have been applied: 429, 503 (the contract's "cannot be processed now"),
  or a connection that never opened (connect error, connect or pool timeout).
  After a read timeout, a connection dropped mid-request or a 500 it is not
  resent: the caller reconciles by reading.
- a connection that never opened is retried only for background calls: a person's
  call (``Call.background`` False) gets the offline answer at once, within the
  connect timeout (``kiosk.api.transport.CONNECT_TIMEOUT``), and the counter takes
  its offline road (``Session.send``).
"""

from __future__ import annotations

import random
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

import httpx

from kiosk.api.errors import ErrorKind


class Resend(Enum):
    ALWAYS = "always"  # reads, credits with an external id, cancels: a repeat cannot double
    IF_NOT_APPLIED = "if_not_applied"  # writes without idempotency key


@dataclass(frozen=True)
class RetryPolicy:
    delays: tuple[float, ...] = (1.0, 2.0, 4.0)
    jitter: float = 0.2
    retry_after_spread: float = 0.25  # seconds of random spread added to a Retry-After
    max_retry_after: float = 60.0
    random: Callable[[], float] = field(default=random.random, repr=False, compare=False)

    @property
    def attempts(self) -> int:
        return len(self.delays) + 1

    def wait_before(self, retry: int, retry_after: float | None = None) -> float | None:
        """Seconds to wait before retry number ``retry`` (0-based); ``None``: give up."""
        if retry >= len(self.delays):
            return None
        if retry_after is not None:
            if retry_after > self.max_retry_after:
                return None
            return retry_after + self.random() * self.retry_after_spread
        base = self.delays[retry]
        return max(0.0, base * (1.0 + self.jitter * (2.0 * self.random() - 1.0)))


NO_RETRY = RetryPolicy(delays=())


def retryable(kind: ErrorKind, *, maybe_applied: bool, resend: Resend) -> bool:
    """Whether a failure of this kind may be sent again under ``resend``."""
    if kind in (ErrorKind.RATE_LIMITED, ErrorKind.UNAVAILABLE):
        return True
    if kind is ErrorKind.SERVER or kind in (ErrorKind.NETWORK, ErrorKind.TIMEOUT):
        return resend is Resend.ALWAYS or not maybe_applied
    return False


def transport_failure(exc: httpx.RequestError) -> tuple[ErrorKind, bool]:
    """``(kind, maybe_applied)`` for an exception of the transport.

    ``maybe_applied`` is False only when the request cannot have reached the
    server's application: the connection never opened or no connection was free.
    """
    if isinstance(exc, httpx.ConnectTimeout | httpx.PoolTimeout):
        return ErrorKind.TIMEOUT, False
    if isinstance(exc, httpx.ConnectError | httpx.ProxyError):
        if _certificate_refused(exc):
            return ErrorKind.TLS, False
        return ErrorKind.NETWORK, False
    if isinstance(exc, httpx.TimeoutException):
        return ErrorKind.TIMEOUT, True
    if isinstance(exc, httpx.DecodingError):
        return ErrorKind.MALFORMED, True
    return ErrorKind.NETWORK, True


def _certificate_refused(exc: BaseException) -> bool:
    """Whether a connect failure is a certificate the OS store does not trust:
    retrying will not help (IT must install the proxy's root certificate)."""
    seen: BaseException | None = exc
    for _ in range(5):
        if seen is None:
            break
        if isinstance(seen, ssl.SSLCertVerificationError):
            return True
        seen = seen.__cause__ or seen.__context__
    return "CERTIFICATE_VERIFY_FAILED" in str(exc)
