"""In-process transport to the simulator that fails like a network does.

``httpx.ASGITransport`` alone cannot drop a connection or time out: a ``drop``
fault would reach the client as a foreign exception and a ``timeout`` fault would
hang for an hour. ``SimTransport`` wraps it so both arrive as the ``httpx``
errors a real socket gives:

- the middleware's ``DropConnection`` -> ``httpx.RemoteProtocolError``
  ("Server disconnected without sending a response.", as httpx says over TCP);
- no answer within the request's read timeout
  (``request.extensions["timeout"]["read"]``, set by the client's ``timeout=``)
  -> ``httpx.ReadTimeout``, after that many seconds of real time, not an hour;
- ``unreachable`` set (training's "Simulate no connection", tests of an outage):
  every request fails at once with ``httpx.ConnectError`` ("connection refused"),
  as a kiosk whose network is down sees; nothing reaches the simulator.

Use it exactly where a loopback URL would do::

    client = httpx.AsyncClient(transport=SimTransport(app), base_url="http://sim.test",
                               timeout=15)
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx
from starlette.types import ASGIApp

from kiosk.sim.faults import DropConnection

DROPPED = "Server disconnected without sending a response."
REFUSED = "[Errno 111] Connection refused (training: no connection simulated)"


class SimTransport(httpx.AsyncBaseTransport):
    """``httpx.ASGITransport`` over the simulator with real network failures."""

    def __init__(self, app: ASGIApp, *, client: tuple[str, int] = ("127.0.0.1", 50000)) -> None:
        self.app = app
        self.unreachable = False
        self._inner = httpx.ASGITransport(app=app, raise_app_exceptions=True, client=client)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.unreachable:
            raise httpx.ConnectError(REFUSED, request=request)
        timeouts = request.extensions.get("timeout") or {}
        read = timeouts.get("read")
        try:
            if read is None:
                return await self._inner.handle_async_request(request)
            # asyncio.timeout, not wait_for: in 3.11 wait_for can swallow the caller's
            # cancellation (a screen reset would then carry on with a dead widget).
            async with asyncio.timeout(read):
                return await self._inner.handle_async_request(request)
        except TimeoutError:
            raise httpx.ReadTimeout(
                "timed out waiting for the simulator's answer", request=request
            ) from None
        except DropConnection:
            raise httpx.RemoteProtocolError(DROPPED, request=request) from None

    async def aclose(self) -> None:
        await self._inner.aclose()


class DeferredSimTransport(httpx.AsyncBaseTransport):
    """``SimTransport`` over an app made at the first request (the kiosk's training
    mode: the counter opens before Starlette and the saved world are loaded)."""

    def __init__(self, make_app: Callable[[], ASGIApp]) -> None:
        self._make_app = make_app
        self._inner: SimTransport | None = None
        self.unreachable = False  # as ``SimTransport.unreachable`` (the app not made for it)

    @property
    def inner(self) -> SimTransport:
        if self._inner is None:  # no await in between: one app even for concurrent calls
            self._inner = SimTransport(self._make_app())
        return self._inner

    @property
    def made(self) -> bool:
        return self._inner is not None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.unreachable:
            raise httpx.ConnectError(REFUSED, request=request)
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        if self._inner is not None:
            await self._inner.aclose()
