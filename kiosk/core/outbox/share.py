"""The kiosk's share of its merchant's window, learnt from the server's 429s.

The contract's limit on ``/external/tags/*`` (10 requests in any second) is the
merchant's, shared by every kiosk of the merchant, and no kiosk sees the others'
traffic: only its own answers. The client's limiter keeps one kiosk within the limit;
``Share`` keeps a fleet of them from wasting the window or crowding it:

- **Alone** (no 429 yet): rows go as fast as the client's limiter lets them.
- **A 429** says the window is full. The kiosk keeps the places it holds: ``places``
  = its own requests the server counted within the last ``window`` (at least 1). From
  then on it sends at most that many per window, each one window after the request
  whose place it takes again (the server's window plus ``margin`` for the jitter
  between our clock and its count), so it reuses the places it frees and never asks
  for another kiosk's. A kiosk whose 429 came with no place of its own waits the
  Retry-After plus a spread (``Backoff.crowded``) and tries again.
- **A probe** now and then, right after the kiosk's own requests (so the hold a
  refused probe brings ends before the kiosk's next turn): one request more. Answered,
  the share grows by one and the next probe goes at once (a kiosk left alone takes
  the whole window back in a second or two); refused, the probes wait ``probe_gap``
  seconds, doubling to ``probe_cap`` (jittered ±50 %). At the limit, alone again.
- **Quiet** for ``quiet`` seconds (nothing sent, nothing refused), or "retry now":
  alone again.

Timings are on the sender's clock (injectable: the tests run on a virtual one).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from kiosk.api.ratelimit import TAGS

# A probe goes only this soon after the kiosk's last counted request (its batch).
PROBE_WITHIN = 0.1


@dataclass
class Share:
    limit: int = TAGS.limit
    window: float = TAGS.window
    margin: float = 0.02
    probe_gap: float = 2.0
    probe_cap: float = 3.0
    quiet: float = 30.0
    places: int | None = field(default=None, init=False)  # None: alone, no pacing
    # Our requests the server counted, within the last window (their send times).
    _taken: deque[float] = field(default_factory=deque, init=False, repr=False)
    _probe_at: float = field(default=0.0, init=False, repr=False)
    _gap: float = field(default=0.0, init=False, repr=False)
    _probing: bool = field(default=False, init=False, repr=False)
    _refused_at: float = field(default=float("-inf"), init=False, repr=False)

    @property
    def period(self) -> float:
        return self.window + self.margin

    def reset(self) -> None:
        """Alone again (the manager's "retry now", the connection back, a quiet spell)."""
        self.places = None
        self._probing = False
        self._gap = 0.0

    def held(self, now: float) -> int:
        """Our requests the server still counts in its window (as far as we know)."""
        if self._taken and self._taken[-1] > now + self.period:
            self._taken.clear()  # the clock went back: those times mean nothing now
        while self._taken and self._taken[0] <= now - self.period:
            self._taken.popleft()
        return len(self._taken)

    def due(self, now: float) -> float:
        """The earliest time the next request may go (``<= now``: at once)."""
        if self.places is None:
            return now
        last = max(self._refused_at, self._taken[-1] if self._taken else float("-inf"))
        if now - last > self.quiet:
            self.reset()
            return now
        held = self.held(now)
        if held < self.places:
            return now
        if now >= self._probe_at and now - self._taken[-1] <= PROBE_WITHIN:
            return now  # a probe, right after our own requests
        return min(self._taken[-self.places] + self.period, now + self.period)

    def sending(self, now: float) -> None:
        """Called just before a request leaves: it is a probe when our places are full."""
        self._probing = self.places is not None and self.held(now) >= self.places

    def counted(self, sent_at: float) -> None:
        """The request sent at ``sent_at`` was answered (not 429): the server counted it."""
        self._taken.append(sent_at)
        if self._probing and self.places is not None:
            self.places += 1
            self._gap = 0.0
            self._probe_at = sent_at
            if self.places >= self.limit:
                self.places = None
        self._probing = False

    def refused(self, now: float, rand: float) -> bool:
        """A 429. Returns whether we still hold places in the window (then the next
        request waits only for the hold and our turn; otherwise for ``Backoff.crowded``)."""
        probe, self._probing = self._probing, False
        self._refused_at = now
        held = self.held(now)
        if probe:
            self._gap = min(self.probe_cap, max(self.probe_gap, self._gap * 2.0))
        else:
            if self.places is None:
                self._gap = self.probe_gap
            self.places = max(1, held)
        self._probe_at = now + self._gap * (0.5 + rand)
        return held > 0
