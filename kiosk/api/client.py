"""``LoyaltyClient``: the one client of the merchant API.

::

    async with LoyaltyClient(base_url, key, branch_id=3) as api:
        client = await api.search_client("ana@example.com")
        preview = await api.preview(client.id, amount=1500)
        result = await api.credit(CreditRequest("T-0001", CreditClient(email=...), amount=1500))

One ``httpx.AsyncClient`` per object; the transport is injectable (network by
default; ``httpx.ASGITransport`` to the in-process simulator for training mode; a
loopback server in tests). The rate limiter is shared per merchant in the process
unless one is given. Clock, sleep, timeouts and retry policy are injectable so
tests never wait for real.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from types import TracebackType

import httpx

from kiosk.api import logsafety
from kiosk.api.endpoints.catalog import CatalogEndpoints
from kiosk.api.endpoints.clients import ClientEndpoints
from kiosk.api.endpoints.exchanges import ExchangeEndpoints
from kiosk.api.endpoints.points import PointsEndpoints
from kiosk.api.endpoints.staff import StaffEndpoints
from kiosk.api.endpoints.validation import ValidationEndpoints
from kiosk.api.models.common import DEFAULT_ORIGIN
from kiosk.api.ratelimit import TAGS, Clock, RateLimiter, Sleep, shared_limiter
from kiosk.api.redact import key_fingerprint
from kiosk.api.retry import RetryPolicy
from kiosk.api.session import ApiKey, Session
from kiosk.api.transport import Timeouts, http_client

USER_AGENT = "loyalty-kiosk/0.1 (+httpx)"
SETTLE_SECONDS = 2.0


class LoyaltyClient(
    PointsEndpoints,
    ClientEndpoints,
    CatalogEndpoints,
    ExchangeEndpoints,
    StaffEndpoints,
    ValidationEndpoints,
):
    """Typed, async, polite client of the merchant API. See the endpoint mixins."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        branch_id: int | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        timeouts: Timeouts | None = None,
        retry: RetryPolicy | None = None,
        limiter: RateLimiter | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        wall_clock: Clock = time.time,
        origin: str = DEFAULT_ORIGIN,
        user_agent: str = USER_AGENT,
        settle_seconds: float = SETTLE_SECONDS,
    ) -> None:
        key = ApiKey(api_key)
        logsafety.register_secret(key.reveal())
        self._base_url = base_url.rstrip("/")
        self._fingerprint = key_fingerprint(key.reveal())
        self._branch_id = branch_id
        self._origin = origin
        self._sleep = sleep
        self._settle_seconds = settle_seconds
        self._qrs_seen = {}
        self._timeouts = timeouts or Timeouts()
        self._http = http_client(
            self._base_url, transport=transport, timeouts=self._timeouts, user_agent=user_agent
        )
        self._session = Session(
            self._http,
            key,
            limiter=limiter
            or shared_limiter(self._base_url, key.reveal(), clock=clock, sleep=sleep),
            retry=retry or RetryPolicy(),
            timeouts=self._timeouts,
            sleep=sleep,
            wall_clock=wall_clock,
        )

    @property
    def base_url(self) -> str:
        return self._base_url

    @property
    def limiter(self) -> RateLimiter:
        return self._session.limiter

    def tags_wait(self) -> float:
        """Seconds until a background credit or cancel (rule ``TAGS``) would find a place
        in this merchant's window (0.0: now), without waiting (the outbox's sender
        idles until then, so a credit the cashier waits for can go first)."""
        return self._session.limiter.background_wait(TAGS)

    def follow_reach(self, listener: Callable[[bool], None]) -> None:
        """``listener(reached)`` after each attempt of every call: True on any HTTP
        answer, False when the connection never opened (the network is down)."""
        self._session.reached.append(listener)

    def release_holds(self) -> int:
        """End the server's holds (429 ``Retry-After``) on this merchant's limiter: a
        person asked to try again now. The number of lanes that were held."""
        return self._session.limiter.release()

    def __repr__(self) -> str:
        return (
            f"LoyaltyClient(base_url={self._base_url!r}, branch_id={self._branch_id!r}, "
            f"key=sha:{self._fingerprint})"
        )

    async def __aenter__(self) -> LoyaltyClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    def __reduce__(self) -> tuple[()]:
        raise TypeError("a LoyaltyClient is never persisted")
