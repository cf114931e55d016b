"""Client-side rate limiting, shared by every client of one merchant in the process.

The contract limits per merchant, so one ``RateLimiter`` per merchant (base URL +
a fingerprint of the key, never the key) serves all ``LoyaltyClient`` objects that
use it (``shared_limiter``). It holds each request until the contract's sliding
windows have room, so the API never has to answer 429 because of us:

=============  ===============================================  =====================
rule           endpoints                                        limit
=============  ===============================================  =====================
``TAGS``       ``/external/tags/*`` (credit, preview, cancel)   10 in any 1 s window
``CODE_READ``  validation QR list and current code              5 per minute, per
                                                                branch; a QR's code is
                                                                read no faster than its
                                                                ``validationWindowSeconds``
``VALIDATE``   validate a code                                  10 per minute
=============  ===============================================  =====================

Windows are widened by ``margin`` seconds so that network jitter between our send
and the server's count never squeezes 11 requests into the server's second.
Interactive calls are served before background ones (the outbox, the code poller)
waiting in the same window; among equals, first come first served. After a 429 the
client calls ``hold_off`` so every call of the merchant waits out ``Retry-After``, but
never for long: a call that would wait more than ``MAX_HELD_WAIT`` behind such a hold
fails at once with ``RATE_LIMITED`` and the time left, so the cashier is told and the
outbox's backoff owns the long wait. ``release()`` ends every hold (the manager's
"retry now").

Clock and sleep are injectable: tests drive the limiter in virtual time.
"""

from __future__ import annotations

import asyncio
import bisect
import itertools
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from kiosk.api.classify import MAX_SERVER_WAIT
from kiosk.api.errors import ApiError, ErrorKind
from kiosk.api.redact import key_fingerprint

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True)
class Rule:
    name: str
    limit: int
    window: float


TAGS = Rule("tags", 10, 1.0)
CODE_READ = Rule("code-read", 5, 60.0)
VALIDATE = Rule("code-validate", 10, 60.0)

# Windows are widened by this much for network jitter, so the server's own window
# never sees 11 in a second. 0.05 s: the outbox drains 9.52 credits/s with zero 429s
# over loopback (tests/bench/outbox.py); 0.2 s capped it at 8.34/s, under the 9.5 budget.
DEFAULT_MARGIN = 0.05
# The longest a call waits in the limiter behind a server's hold (a 429's Retry-After).
MAX_HELD_WAIT = 5.0


@dataclass(eq=False)
class _Waiter:
    order: tuple[int, int]  # (0 interactive / 1 background, arrival)
    spacing_key: str | None
    spacing: float
    event: asyncio.Event | None = None


@dataclass(eq=False)
class _Lane:
    rule: Rule
    stamps: deque[float] = field(default_factory=deque)
    queue: list[_Waiter] = field(default_factory=list)
    blocked_until: float = float("-inf")
    last: dict[str, float] = field(default_factory=dict)  # spacing key -> last take

    def wait_time(self, now: float, waiter: _Waiter, window: float) -> float:
        while self.stamps and self.stamps[0] <= now - window:
            self.stamps.popleft()
        wait = self.blocked_until - now
        if len(self.stamps) >= self.rule.limit:
            wait = max(wait, self.stamps[-self.rule.limit] + window - now)
        if waiter.spacing_key is not None and waiter.spacing > 0:
            last = self.last.get(waiter.spacing_key)
            if last is not None:
                wait = max(wait, last + waiter.spacing - now)
        return wait

    def wake(self) -> None:
        for waiter in self.queue:
            if waiter.event is not None:
                waiter.event.set()


class RateLimiter:
    def __init__(
        self,
        *,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        margin: float = DEFAULT_MARGIN,
        max_held_wait: float = MAX_HELD_WAIT,
    ) -> None:
        self._clock = clock
        self._sleep = sleep
        self.margin = margin
        self.max_held_wait = max_held_wait
        self._lanes: dict[tuple[str, str], _Lane] = {}
        self._arrivals = itertools.count()

    def _lane(self, rule: Rule, key: str) -> _Lane:
        lane = self._lanes.get((rule.name, key))
        if lane is None:
            lane = self._lanes[(rule.name, key)] = _Lane(rule)
        return lane

    async def acquire(
        self,
        rule: Rule,
        key: str = "merchant",
        *,
        background: bool = False,
        spacing: float = 0.0,
        spacing_key: str | None = None,
        max_wait: float | None = None,
    ) -> float:
        """Wait for a place in ``rule``'s window for ``key``; return the seconds waited.

        ``spacing``: at least that many seconds since the last take with the same
        ``spacing_key``. ``max_wait``: raise ``RATE_LIMITED`` (with ``retry_after``)
        instead of waiting longer than that.
        """
        lane = self._lane(rule, key)
        window = rule.window + self.margin
        # A spacing may come from server data (a QR's rotation window): capped, as every
        # server-given wait is, so no sleep gets a value the event loop's timer refuses.
        spacing = min(max(0.0, spacing), MAX_SERVER_WAIT) if spacing == spacing else 0.0
        if not lane.queue:  # fast path: nobody waits, take a free place at once
            now = self._clock()
            probe = _Waiter((0, 0), spacing_key, spacing)
            if lane.wait_time(now, probe, window) <= 0:
                lane.stamps.append(now)
                if spacing_key is not None:
                    lane.last[spacing_key] = now
                return 0.0
        waiter = _Waiter((1 if background else 0, next(self._arrivals)), spacing_key, spacing)
        bisect.insort(lane.queue, waiter, key=lambda w: w.order)
        lane.wake()  # a new head may have arrived
        start = self._clock()
        waited = False
        try:
            while True:
                if lane.queue[0] is waiter:
                    now = self._clock()
                    wait = lane.wait_time(now, waiter, window)
                    held = lane.blocked_until - now
                    if held > self.max_held_wait:
                        raise ApiError(
                            ErrorKind.RATE_LIMITED,
                            message=f"{rule.name} held by the server for {held:.1f} s more",
                            retry_after=held,
                        )
                    if wait <= 0:
                        lane.stamps.append(now)
                        if spacing_key is not None:
                            lane.last[spacing_key] = now
                        return now - start if waited else 0.0
                    if max_wait is not None and (now - start) + wait > max_wait:
                        raise ApiError(
                            ErrorKind.RATE_LIMITED,
                            message=f"client-side limit {rule.name}: next place in {wait:.1f} s",
                            retry_after=wait,
                        )
                    waited = True
                    await self._sleep(wait)
                else:
                    waited = True
                    waiter.event = asyncio.Event()
                    await waiter.event.wait()
                    waiter.event = None
        finally:
            if waiter in lane.queue:
                lane.queue.remove(waiter)
            lane.wake()

    def hold_off(self, rule: Rule, key: str, seconds: float) -> None:
        """Block ``rule``/``key`` for ``seconds`` (the server asked us to wait), at most
        ``MAX_SERVER_WAIT``."""
        lane = self._lane(rule, key)
        seconds = min(max(0.0, seconds), MAX_SERVER_WAIT)
        lane.blocked_until = max(lane.blocked_until, self._clock() + seconds)
        lane.wake()

    def release(self) -> int:
        """End every server's hold now; the number of lanes that were held."""
        now = self._clock()
        held = 0
        for lane in self._lanes.values():
            if lane.blocked_until > now:
                held += 1
            lane.blocked_until = float("-inf")
            lane.wake()
        return held

    def waiting(self, rule: Rule, key: str = "merchant") -> int:
        return len(self._lane(rule, key).queue)


_REGISTRY: dict[tuple[str, str, Clock], RateLimiter] = {}


def shared_limiter(
    base_url: str, api_key: str, *, clock: Clock = time.monotonic, sleep: Sleep = asyncio.sleep
) -> RateLimiter:
    """The limiter of the merchant behind ``api_key`` at ``base_url``, made once per
    process (and per clock: clients on a test's virtual clock do not share it)."""
    registry_key = (base_url.rstrip("/").lower(), key_fingerprint(api_key), clock)
    limiter = _REGISTRY.get(registry_key)
    if limiter is None:
        limiter = _REGISTRY[registry_key] = RateLimiter(clock=clock, sleep=sleep)
    return limiter
