"""What a failed attempt means for its outbox row, and how long the row waits.

``retried``: worth sending the same row again later (5xx, network, timeouts, 429,
unreadable answers, a 401 or a missing route: not the row's fault), else the row is a
dead letter for a manager; ``may_have_reached``: the server may have applied it all
the same (the row is then resent with its id, and a 409 on it is ours); ``describe``:
the row's ``last_error``; ``Backoff``: the waits between attempts (see the sender's
module doc, rule 5); ``contract_points``: whether a count of points read from an
answer is one the contract allows (whole, not negative, within ``MAX_POINTS``).
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.api.errors import ApiError, ErrorKind, Resource
from kiosk.api.ratelimit import PROBE_AFTER

# The most points one answer may give: the contract says whole and not negative; past
# 2**53 a JSON number is no longer a whole count for most servers (nor SQLite's column).
MAX_POINTS = 2**53 - 1
# ``last_error`` of an attempt that broke inside the kiosk (not the service's refusal).
STEP_FAILED = "the kiosk could not finish this attempt"

_RETRIED = frozenset(
    {
        ErrorKind.RATE_LIMITED,
        ErrorKind.SERVER,
        ErrorKind.UNAVAILABLE,
        ErrorKind.NETWORK,
        ErrorKind.TIMEOUT,
        ErrorKind.TLS,
        ErrorKind.MALFORMED,
        ErrorKind.AMBIGUOUS,
        ErrorKind.AUTH,
    }
)
# Failures after which the request may have been applied (besides a lost answer).
_MAY_HAVE_REACHED = frozenset(
    {ErrorKind.MALFORMED, ErrorKind.SERVER, ErrorKind.AMBIGUOUS, ErrorKind.UNEXPECTED}
)


@dataclass(frozen=True)
class Backoff:
    base: float = 1.0
    cap: float = 60.0
    jitter: float = 0.2
    retry_after_spread: float = 0.25  # random seconds added to a Retry-After, at first
    crowded_cap: float = 2.0  # 429s in a row: that spread doubles up to this
    max_retry_after: float = 3600.0
    # A 429 waits at most this long, whatever its Retry-After: then the row asks the
    # server again (the limiter's probe), so the queue learns within a minute that the
    # service is back.
    max_held: float = PROBE_AFTER
    # A connection that never opened costs the service nothing: such a row is tried
    # again within this many seconds whatever its streak, so a cancel (or a credit)
    # queued during an outage goes within seconds of the network coming back.
    unreached_cap: float = 5.0

    def wait(
        self, streak: int, retry_after: float | None, rand: float, *, unreached: bool = False
    ) -> float:
        """Seconds before the next attempt after ``streak`` failures in a row (1-based);
        ``unreached``: the last one never opened a connection."""
        cap = min(self.cap, self.unreached_cap) if unreached else self.cap
        grown = min(cap, self.base * 2.0 ** max(0, streak - 1))
        wait = grown * (1.0 + self.jitter * (2.0 * rand - 1.0))
        if retry_after is not None:
            asked = min(retry_after, self.max_retry_after)
            wait = max(wait, asked + rand * self.retry_after_spread)
        return max(0.0, wait)

    def crowded(self, streak: int, retry_after: float | None, rand: float) -> float:
        """Seconds before the next attempt after ``streak`` 429s in a row (1-based).

        The limit is the merchant's, shared by all its kiosks: a 429 says its window
        is full now, not that the server is unwell. So the wait is the Retry-After
        (1 s without one) plus a random spread that doubles from 0.25 s up to
        ``crowded_cap``, never the minute-long waits of a failure, which would
        leave the window empty while the fleet sleeps. (For a kiosk that holds no
        place in the window; one that does waits only the Retry-After: ``Share``.)
        """
        asked = self.base if retry_after is None else min(retry_after, self.max_held)
        spread = min(self.crowded_cap, self.retry_after_spread * 2.0 ** max(0, streak - 1))
        return max(0.0, asked) + rand * spread


def retried(error: ApiError) -> bool:
    """Worth sending the same row again later (see the module doc)."""
    if error.kind in _RETRIED:
        return True
    if error.kind is ErrorKind.NOT_FOUND and error.resource is Resource.ROUTE:
        return True
    return error.kind is ErrorKind.UNEXPECTED and not (
        error.status is not None and 400 <= error.status < 500
    )


def may_have_reached(error: BaseException) -> bool:
    """Whether a failed attempt may nonetheless have been applied by the server."""
    if isinstance(error, ApiError):
        return error.after_lost_answer or error.kind in _MAY_HAVE_REACHED
    return True


def describe(error: BaseException) -> tuple[str, str]:
    """``(kind, message)`` for the row's ``last_error`` (the message is redacted)."""
    if isinstance(error, ApiError):
        status = f" ({error.status})" if error.status is not None else ""
        reason = f" [{error.reason.value}]" if error.reason is not None else ""
        return error.kind.value, f"{error.message or error.kind.value}{status}{reason}"
    return ErrorKind.UNEXPECTED.value, f"{STEP_FAILED} ({type(error).__name__})"


def contract_points(value: object) -> bool:
    """Whether ``value`` is a count of points the contract allows in an answer."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_POINTS
