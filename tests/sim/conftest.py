"""Simulator tests run every request both in process (``httpx.ASGITransport``) and over
real loopback HTTP (uvicorn), through one small synchronous facade: ``api`` (main
merchant's key), ``other_api`` (the other merchant's key) and ``anon`` (no key).
Each returns plain ``httpx.Response`` objects.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from starlette.types import ASGIApp

from kiosk.sim.server import SimServer
from tests.conftest import MAIN_KEY, OTHER_KEY


class SyncAsgiClient:
    """A synchronous face over ``httpx.AsyncClient(transport=ASGITransport(app))``."""

    def __init__(self, app: ASGIApp, headers: dict[str, str]) -> None:
        self._loop = asyncio.new_event_loop()
        self._client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://sim.test", headers=headers
        )

    def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        return self._loop.run_until_complete(self._client.request(method, url, **kwargs))

    def get(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("POST", url, **kwargs)

    def put(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("PUT", url, **kwargs)

    def delete(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("DELETE", url, **kwargs)

    def close(self) -> None:
        self._loop.run_until_complete(self._client.aclose())
        self._loop.close()


class Transports:
    def __init__(self, kind: str, app: ASGIApp) -> None:
        self.kind = kind
        self.app = app
        self.server: SimServer | None = None
        self.clients: list[Any] = []
        if kind == "http":
            self.server = SimServer(app)
            self.server.start()

    def client(self, key: str | None) -> Any:
        headers = {"x-api-key": key} if key is not None else {}
        if self.server is not None:
            client: Any = httpx.Client(base_url=self.server.base_url, headers=headers, timeout=10)
        else:
            client = SyncAsgiClient(self.app, headers)
        self.clients.append(client)
        return client

    def close(self) -> None:
        for client in self.clients:
            client.close()
        if self.server is not None:
            self.server.stop()


@pytest.fixture(params=["asgi", "http"])
def transports(request: pytest.FixtureRequest, sim_app: ASGIApp) -> Iterator[Transports]:
    t = Transports(request.param, sim_app)
    yield t
    t.close()


@pytest.fixture
def api(transports: Transports) -> Any:
    return transports.client(MAIN_KEY)


@pytest.fixture
def other_api(transports: Transports) -> Any:
    return transports.client(OTHER_KEY)


@pytest.fixture
def anon(transports: Transports) -> Any:
    return transports.client(None)
