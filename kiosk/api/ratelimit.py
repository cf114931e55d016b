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
waiting in the same window; among equals, first come first served. Being first in
line is not enough when the background has taken every place of the window (the
outbox drains a backlog in bursts of 10, then waits for the window): so while the
cashier is active (an interactive call, any, within ``CASHIER_ACTIVE`` seconds,
30: ``cashier_seen``), background takes leave the rule's ``reserve`` places free (2 of
``TAGS``' 10): the cashier's preview and credit find a place at once. With nobody at
the counter the background uses the whole window (a backlog drains at the full
10/s). ``background_wait`` tells, without waiting, how long a background take would
wait for its place: the outbox's sender idles until then instead of blocking, so a
credit the cashier waits for can go first. After a 429 the
client calls ``hold_off`` so every call of the merchant waits out ``Retry-After``, but
never for long: a call that would wait more than ``MAX_HELD_WAIT`` behind such a hold
fails at once with ``RATE_LIMITED`` and the time left, so the cashier is told and the
outbox's backoff owns the long wait. A hold lasts at most ``PROBE_AFTER`` (a minute),
whatever the server asked: then the next call asks the server again (a probe), and a
refusal holds the lane again; so a day-long ``Retry-After`` never stops the counter's
previews for minutes without asking. ``held`` tells how long a hold has left (the
preview says when the kiosk asks again). ``release()`` ends every hold (the manager's
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
    reserve: int = 0  # places background takes leave free while the cashier is active


TAGS = Rule("tags", 10, 1.0, reserve=2)
CODE_READ = Rule("code-read", 5, 60.0)
VALIDATE = Rule("code-validate", 10, 60.0)

# Windows are widened by this much for network jitter, so the server's own window
# never sees 11 in a second. 0.05 s: the outbox drains 9.52 credits/s with zero 429s
# over loopback (tests/bench/outbox.py); 0.2 s capped it at 8.34/s, under the 9.5 budget.
DEFAULT_MARGIN = 0.05
# The longest a call waits in the limiter behind a server's hold (a 429's Retry-After).
MAX_HELD_WAIT = 5.0
# The longest a server's hold (a 429's Retry-After) blocks a lane: then the next call
# is a probe that asks the server again (a refusal holds the lane again). A minute:
# the counter learns within a minute that the service is back, and asks at most once
# a minute while it is not.
PROBE_AFTER = 60.0
# The cashier counts as active this long after an interactive call: from an
# identified client's preview to the credit, the next client's, a cancel (a few seconds
# to a minute apart at a busy counter); while active, background keeps the reserve free.
CASHIER_ACTIVE = 30.0


@dataclass(eq=False)
class _Waiter:
    order: tuple[int, int]  # (0 interactive / 1 background, arrival)
    spacing_key: str | None
    spacing: float
    event: asyncio.Event | None = None

    @property
    def background(self) -> bool:
        return self.order[0] == 1


@dataclass(eq=False)
class _Lane:
    rule: Rule
    stamps: deque[float] = field(default_factory=deque)
    queue: list[_Waiter] = field(default_factory=list)
    blocked_until: float = float("-inf")
    last: dict[str, float] = field(default_factory=dict)  # spacing key -> last take
    cashier_until: float = float("-inf")  # background keeps the reserve free until then

    def wait_time(self, now: float, waiter: _Waiter, window: float, *, held: bool = True) -> float:
        """Seconds until ``waiter`` may take a place (<= 0: now). ``held``: counting the
        server's hold (a 429's ``Retry-After``)."""
        while self.stamps and self.stamps[0] <= now - window:
            self.stamps.popleft()
        wait = self.blocked_until - now if held else float("-inf")
        wait = max(wait, self._place_wait(now, self.rule.limit, window))
        if waiter.background and self.rule.reserve > 0 and self.cashier_until > now:
            # The cashier is active: a place below the reserve, or the whole window
            # once the cashier is gone, whichever comes first.
            reserved = self._place_wait(now, self.rule.limit - self.rule.reserve, window)
            wait = max(wait, min(reserved, self.cashier_until - now))
        if waiter.spacing_key is not None and waiter.spacing > 0:
            last = self.last.get(waiter.spacing_key)
            if last is not None:
                wait = max(wait, last + waiter.spacing - now)
        return wait

    def _place_wait(self, now: float, limit: int, window: float) -> float:
        """Seconds until fewer than ``limit`` takes are left in the window."""
        if limit <= 0:
            return float("inf")
        if len(self.stamps) < limit:
            return float("-inf")
        return self.stamps[-limit] + window - now

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
        cashier_active: float = CASHIER_ACTIVE,
        probe_after: float = PROBE_AFTER,
    ) -> None:
        self._clock = clock
        self._sleep = sleep
        self.margin = margin
        self.max_held_wait = max_held_wait
        self.probe_after = min(probe_after, MAX_SERVER_WAIT)
        self.cashier_active = cashier_active
        self._cashier_until = float("-inf")
        self._lanes: dict[tuple[str, str], _Lane] = {}
        self._arrivals = itertools.count()

    def _lane(self, rule: Rule, key: str) -> _Lane:
        lane = self._lanes.get((rule.name, key))
        if lane is None:
            lane = self._lanes[(rule.name, key)] = _Lane(rule)
            lane.cashier_until = self._cashier_until
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
        instead of waiting longer than that. An interactive call (``background``
        false) makes the cashier active in the lane for ``cashier_active`` seconds.
        """
        lane = self._lane(rule, key)
        window = rule.window + self.margin
        if not background:
            self.cashier_seen()
        # A spacing may come from server data (a QR's rotation window): capped, as every
        # server-given wait is, so no sleep gets a value the event loop's timer refuses.
        spacing = min(max(0.0, spacing), MAX_SERVER_WAIT) if spacing == spacing else 0.0
        if not lane.queue:  # fast path: nobody waits, take a free place at once
            now = self._clock()
            probe = _Waiter((1 if background else 0, 0), spacing_key, spacing)
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
        ``probe_after``: then the next call asks the server again."""
        lane = self._lane(rule, key)
        seconds = min(max(0.0, seconds), self.probe_after) if seconds == seconds else 1.0
        lane.blocked_until = max(lane.blocked_until, self._clock() + seconds)
        lane.wake()

    def held(self, rule: Rule, key: str = "merchant") -> float:
        """Seconds the server's hold on ``rule``/``key`` has left (0.0: none)."""
        return max(0.0, self._lane(rule, key).blocked_until - self._clock())

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

    def cashier_seen(self) -> None:
        """An interactive call of any kind (a search, a catalogue, a preview): the
        cashier is at the counter for ``cashier_active`` seconds, in every lane. The
        client calls it for each interactive request, limited or not: identifying a
        client starts the reserve before the preview that follows."""
        until = self._clock() + self.cashier_active
        self._cashier_until = max(self._cashier_until, until)
        for lane in self._lanes.values():
            lane.cashier_until = max(lane.cashier_until, until)

    def waiting(self, rule: Rule, key: str = "merchant") -> int:
        return len(self._lane(rule, key).queue)

    def background_wait(self, rule: Rule, key: str = "merchant") -> float:
        """Seconds until a background take of ``rule``/``key`` would find a place in
        the window (0.0: now), without taking one nor waiting. A server's hold is not
        counted (``acquire`` owns it). While calls wait in the lane, at least the
        head's wait: they go first."""
        lane = self._lane(rule, key)
        now = self._clock()
        window = rule.window + self.margin
        wait = lane.wait_time(now, _Waiter((1, 0), None, 0.0), window, held=False)
        if lane.queue:
            head = lane.wait_time(now, lane.queue[0], window, held=False)
            wait = max(wait, head, window / rule.limit)  # behind them: look again soon
        return max(0.0, wait)


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
