"""The simulator's clock: real time by default, movable by tests.

Everything in the simulator that depends on time (code rotation, purchase
expiry, the removal grace period, rate-limit windows, the delayed level
reassignment) reads this clock, never ``time`` or ``datetime`` directly, so a
test can jump an hour ahead through ``POST /_sim/clock`` instead of sleeping.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime


class SimClock:
    """Wall and monotonic time with a test-controlled offset or a frozen instant."""

    def __init__(self) -> None:
        self._offset = 0.0
        self._frozen: float | None = None

    def time(self) -> float:
        """Seconds since the epoch, as the simulated world sees them."""
        if self._frozen is not None:
            return self._frozen
        return time.time() + self._offset

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.time(), tz=UTC)

    def advance(self, seconds: float) -> None:
        if self._frozen is not None:
            self._frozen += seconds
        else:
            self._offset += seconds

    def freeze(self, at: float | None = None) -> None:
        """Stop the clock (at ``at`` epoch seconds, or now): only ``advance`` moves it."""
        self._frozen = self.time() if at is None else at

    def unfreeze(self) -> None:
        if self._frozen is not None:
            self._offset = self._frozen - time.time()
        self._frozen = None

    def reset(self) -> None:
        self._offset = 0.0
        self._frozen = None

    @property
    def frozen(self) -> bool:
        return self._frozen is not None


def iso(ts: float) -> str:
    """The API's date-time format: ISO 8601 UTC with milliseconds and ``Z``."""
    dt = datetime.fromtimestamp(ts, tz=UTC)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


def parse_iso(text: str) -> float:
    """Epoch seconds from an ISO 8601 date or date-time (``Z`` or offset accepted)."""
    value = text.strip()
    if value.endswith("Z"):
        value = value[:-1] + "+00:00"
    dt = datetime.fromisoformat(value)
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.timestamp()
