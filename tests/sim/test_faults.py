"""Fault injection and the request log, in process (``SimTransport``) and over loopback.

Every fault kind is exercised on a real credit (``POST /external/tags/add``), and
the ledger says whether the credit was applied: the point of these faults is to
prove that a client never credits twice nor loses a credit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from kiosk.sim.control import SimControl
from kiosk.sim.faultbook import FaultError
from kiosk.sim.faults import DropConnection
from kiosk.sim.server import SimServer
from kiosk.sim.transport import SimTransport
from tests.conftest import MAIN_KEY
from tests.sim.conftest import Transports

CREDIT = "^/external/tags/add$"
UNKNOWN = "/external/nothing-here"
NETWORK_ERRORS = (httpx.RemoteProtocolError, httpx.ReadError)


class Net:
    """A client of the simulator whose failures are network failures on both transports."""

    def __init__(self, transports: Transports, timeout: float = 10.0) -> None:
        self.kind = transports.kind
        self.control = SimControl(transports.app.world)  # type: ignore[attr-defined]
        headers = {"x-api-key": MAIN_KEY}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._sync: httpx.Client | None = None
        if transports.server is not None:
            self._sync = httpx.Client(
                base_url=transports.server.base_url, headers=headers, timeout=timeout
            )
        else:
            self._loop = asyncio.new_event_loop()
            self._async = httpx.AsyncClient(
                transport=SimTransport(transports.app),
                base_url="http://sim.test",
                headers=headers,
                timeout=timeout,
            )

    def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        if self._sync is not None:
            return self._sync.request(method, url, **kwargs)
        assert self._loop is not None
        return self._loop.run_until_complete(self._async.request(method, url, **kwargs))

    def credit(self, external_id: str, **kwargs: Any) -> httpx.Response:
        body = {
            "client": {"email": "fallas@example.com"},
            "amount": 1000,
            "external_id": external_id,
        }
        return self.request("POST", "/external/tags/add", json=body, **kwargs)

    def close(self) -> None:
        if self._sync is not None:
            self._sync.close()
        if self._loop is not None:
            self._loop.run_until_complete(self._async.aclose())
            self._loop.close()


class Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def uvicorn_quiet() -> Iterator[None]:
    """uvicorn's loggers do not propagate to the root logger that tests/logfail.py
    watches: a drop or hang that made uvicorn log ("returned without starting
    response", a 500 on a closed socket) must still fail the test. Enter it after
    the server is built (uvicorn's logging set-up replaces the handlers)."""
    collector = Collector()
    uvicorn_logger = logging.getLogger("uvicorn")
    uvicorn_logger.addHandler(collector)
    try:
        yield
    finally:
        uvicorn_logger.removeHandler(collector)
    assert [r.getMessage() for r in collector.records] == []


@pytest.fixture
def net(transports: Transports) -> Iterator[Net]:
    with uvicorn_quiet():
        client = Net(transports)
        yield client
        client.close()


def applied(control: SimControl, external_id: str) -> list[dict[str, Any]]:
    return [op for op in control.ledger() if op["externalId"] == external_id]


def last_entry(control: SimControl) -> dict[str, Any]:
    return control.requests()[-1]


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.01)


# -- request log -----------------------------------------------------------------


def test_request_log_records_credit_without_key_or_body(net: Net) -> None:
    r = net.credit("LOG-1", headers={"x-branch-id": "1"})
    assert r.status_code == 201
    entry = last_entry(net.control)
    assert entry["method"] == "POST"
    assert entry["path"] == "/external/tags/add"
    assert entry["external_id"] == "LOG-1"
    assert entry["merchant_id"] == 1
    assert entry["branch"] == 1
    assert entry["status"] == entry["handler_status"] == 201
    assert entry["fault"] is None
    assert MAIN_KEY not in repr(entry)
    assert "fallas@example.com" not in repr(entry)


def test_request_log_sequence_and_unknown_key(net: Net) -> None:
    net.request("GET", UNKNOWN, params={"page": "2"})
    net.request("GET", "/external/branch", headers={"x-api-key": "nope"})
    first, second = net.control.requests()[-2:]
    assert second["seq"] == first["seq"] + 1
    assert first["query"] == "page=2"
    assert first["status"] == 404
    assert second["status"] == 401
    assert second["merchant_id"] is None


# -- status ----------------------------------------------------------------------


def test_status_503_is_not_applied(net: Net) -> None:
    net.control.add_fault("status", CREDIT, status=503)
    r = net.credit("S-503")
    assert r.status_code == 503
    body = r.json()
    assert body["statusCode"] == 503
    assert body["message"].startswith("No es posible procesar la operación en este momento")
    assert body["path"] == "/external/tags/add"
    assert applied(net.control, "S-503") == []
    entry = last_entry(net.control)
    assert (entry["fault"], entry["status"], entry["handler_status"]) == ("status", 503, None)
    # The rule is spent: the retry goes through.
    assert net.credit("S-503").status_code == 201
    assert len(applied(net.control, "S-503")) == 1


def test_status_429_default_body_and_retry_after(net: Net) -> None:
    net.control.add_fault("status", CREDIT, status=429)
    r = net.credit("S-429")
    assert r.status_code == 429
    assert r.json() == {
        "success": False,
        "status": 429,
        "message": "Rate limit excedido. Intente más tarde.",
    }
    assert r.headers["Retry-After"] == "1"


def test_status_custom_body_headers_and_apply(net: Net) -> None:
    net.control.add_fault(
        "status", CREDIT, status=500, body={"oops": True}, headers={"Retry-After": "7"}, apply=True
    )
    r = net.credit("S-500")
    assert r.status_code == 500
    assert r.json() == {"oops": True}
    assert r.headers["Retry-After"] == "7"
    # Applied although the answer was a 500: the retry learns it from the 409.
    assert len(applied(net.control, "S-500")) == 1
    assert net.credit("S-500").status_code == 409


# -- latency ---------------------------------------------------------------------


def test_latency_delays_then_answers(net: Net) -> None:
    net.control.add_fault("latency", "^/external/branch$", method="GET", seconds=0.3)
    start = time.monotonic()
    r = net.request("GET", "/external/branch")
    assert time.monotonic() - start >= 0.3
    assert r.status_code == 200
    assert last_entry(net.control)["fault"] == "latency"
    assert net.request("GET", "/external/branch").status_code == 200
    assert last_entry(net.control)["fault"] is None


def test_latency_longer_than_the_client_waits_still_applies(net: Net) -> None:
    net.control.add_fault("latency", CREDIT, seconds=3)
    with pytest.raises(httpx.ReadTimeout):
        net.credit("L-slow", timeout=0.3)
    # The server was slow, not deaf: the credit lands although nobody heard the answer.
    wait_until(lambda: len(applied(net.control, "L-slow")) == 1, timeout=2)
    entry = last_entry(net.control)
    assert (entry["fault"], entry["status"], entry["handler_status"]) == ("latency", None, 201)
    assert net.credit("L-slow").status_code == 409


# -- timeout ---------------------------------------------------------------------


@pytest.mark.parametrize("apply", [False, True])
def test_timeout_fires_the_client_read_timeout(net: Net, apply: bool) -> None:
    net.control.add_fault("timeout", CREDIT, apply=apply)  # hangs up to an hour
    start = time.monotonic()
    with pytest.raises(httpx.ReadTimeout):
        net.credit(f"T-{apply}", timeout=0.3)
    assert time.monotonic() - start < 5
    assert len(applied(net.control, f"T-{apply}")) == (1 if apply else 0)
    entry = last_entry(net.control)
    assert (entry["fault"], entry["status"]) == ("timeout", None)
    # The connection is usable again afterwards (a new one over loopback).
    assert net.credit(f"T-{apply}").status_code == (409 if apply else 201)


@pytest.mark.parametrize("kind", ["timeout", "latency"])
def test_hung_request_ends_when_the_server_stops(sim_app: Any, kind: str) -> None:
    control = SimControl(sim_app.world)
    control.add_fault(kind, UNKNOWN, seconds=600)
    outcome: list[BaseException | httpx.Response] = []
    server = SimServer(sim_app)

    def call() -> None:
        with httpx.Client(base_url=server.base_url, timeout=60) as client:
            try:
                outcome.append(client.get(UNKNOWN))
            except httpx.HTTPError as error:
                outcome.append(error)

    with uvicorn_quiet():
        server.start()
        worker = threading.Thread(target=call)
        worker.start()
        wait_until(lambda: any(e["fault"] == kind for e in control.requests()))
        start = time.monotonic()
        server.stop()
        assert time.monotonic() - start < 5
        worker.join(timeout=5)
    assert len(outcome) == 1
    assert isinstance(outcome[0], NETWORK_ERRORS)


# -- malformed -------------------------------------------------------------------


def test_malformed_html_is_a_proxy_page_after_applying(net: Net) -> None:
    net.control.add_fault("malformed", CREDIT, variant="html")
    r = net.credit("M-html")
    assert r.status_code == 502
    assert r.headers["content-type"].startswith("text/html")
    assert b"502 Bad Gateway" in r.content
    with pytest.raises(json.JSONDecodeError):
        r.json()
    assert len(applied(net.control, "M-html")) == 1


def test_malformed_truncated_is_cut_json(net: Net) -> None:
    net.control.add_fault("malformed", CREDIT, variant="truncated")
    r = net.credit("M-cut")
    assert r.status_code == 201
    assert r.headers["content-type"].startswith("application/json")
    assert r.content.startswith(b'{"success":true')
    with pytest.raises(json.JSONDecodeError):
        r.json()
    assert len(applied(net.control, "M-cut")) == 1


def test_malformed_wrong_types_has_strings_for_numbers(net: Net) -> None:
    net.control.add_fault("malformed", CREDIT, variant="wrong_types")
    r = net.credit("M-types")
    assert r.status_code == 200
    data = r.json()["data"]
    op = applied(net.control, "M-types")[0]
    assert data["pointOperationId"] == str(op["id"])
    assert isinstance(data["clientId"], str)
    assert isinstance(data["points"]["totalPointsToGive"], str)


def test_malformed_empty_without_applying(net: Net) -> None:
    net.control.add_fault("malformed", CREDIT, variant="empty", apply=False)
    r = net.credit("M-empty")
    assert r.status_code == 200
    assert r.content == b""
    assert applied(net.control, "M-empty") == []
    assert last_entry(net.control)["handler_status"] is None


# -- drop ------------------------------------------------------------------------


def test_drop_applies_then_fails_like_the_network(net: Net) -> None:
    net.control.add_fault("drop", CREDIT)
    with pytest.raises(httpx.TransportError) as caught:
        net.credit("D-1")
    assert isinstance(caught.value, NETWORK_ERRORS)
    ops = applied(net.control, "D-1")
    assert len(ops) == 1
    assert ops[0]["state"] == "active"
    entry = last_entry(net.control)
    assert (entry["fault"], entry["status"], entry["handler_status"]) == ("drop", None, 201)
    # Exactly once: the retry with the same external_id is refused, not credited.
    assert net.credit("D-1").status_code == 409
    assert len(applied(net.control, "D-1")) == 1


def test_drop_without_applying(net: Net) -> None:
    net.control.add_fault("drop", CREDIT, apply=False)
    with pytest.raises(NETWORK_ERRORS):
        net.credit("D-2")
    assert applied(net.control, "D-2") == []
    assert net.credit("D-2").status_code == 201


def test_plain_asgi_transport_surfaces_the_drop_signal(sim_app: Any) -> None:
    control = SimControl(sim_app.world)
    control.add_fault("drop", UNKNOWN)

    async def call() -> None:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(sim_app), base_url="http://t"
        ) as c:
            await c.get(UNKNOWN)

    with pytest.raises(DropConnection):
        asyncio.run(call())


# -- matching --------------------------------------------------------------------


def test_count_method_and_skip(net: Net) -> None:
    net.control.add_fault("status", UNKNOWN, method="POST", status=503, count=2, skip=1)
    assert net.request("GET", UNKNOWN).status_code == 404  # method does not match
    codes = [net.request("POST", UNKNOWN).status_code for _ in range(4)]
    assert codes == [404, 503, 503, 404]
    assert net.control.faults() == []


def test_probability_is_seeded_and_repeatable(net: Net) -> None:
    def run() -> list[int]:
        net.control.add_fault("status", UNKNOWN, status=503, count=None, probability=0.2, seed=7)
        codes = [net.request("GET", UNKNOWN).status_code for _ in range(40)]
        assert net.control.clear_faults() == 1
        return codes

    first, second = run(), run()
    assert first == second
    assert 0 < first.count(503) < 40
    assert set(first) == {404, 503}


def test_probability_with_count_caps_the_hits(net: Net) -> None:
    net.control.add_fault("status", UNKNOWN, status=500, count=3, probability=0.5, seed=1)
    codes = [net.request("GET", UNKNOWN).status_code for _ in range(30)]
    assert codes.count(500) == 3
    assert net.control.faults() == []


def test_controls_are_never_faulted_nor_logged(net: Net) -> None:
    net.control.add_fault("status", ".", status=503, count=None)
    assert net.request("GET", "/_sim/health").status_code == 200
    assert all(not e["path"].startswith("/_sim") for e in net.control.requests())
    assert net.request("GET", "/external/branch").status_code == 503


@pytest.mark.parametrize(
    "spec",
    [
        {"kind": "explode", "match": {"path": "x"}},
        {"kind": "drop"},
        {"kind": "drop", "match": {"path": "("}},
        {"kind": "drop", "match": {"path": "x"}, "count": 0},
        {"kind": "drop", "match": {"path": "x"}, "probability": 2},
        {"kind": "malformed", "match": {"path": "x"}, "variant": "xml"},
        {"kind": "status", "match": {"path": "x"}, "status": 99},
        {"kind": "latency", "match": {"path": "x"}, "seconds": -1},
        {"kind": "drop", "match": {"path": "x"}, "surprise": 1},
    ],
)
def test_invalid_rules_are_refused_whole(sim_world: Any, spec: dict[str, Any]) -> None:
    control = SimControl(sim_world)
    good = {"kind": "drop", "match": {"path": "x"}}
    with pytest.raises(FaultError):
        control.add_faults([good, spec])
    assert control.faults() == []
