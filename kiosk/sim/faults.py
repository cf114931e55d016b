"""The simulator's outer middleware: request log and fault injection.

Every request under ``/external`` is appended to ``world.request_log`` (never the
``x-api-key`` value, never a body; only the ``external_id`` of a credit or cancel).
Fault rules (see ``kiosk.sim.faultbook``) are matched in order against every
non-control request; a hit replaces the normal answer:

- ``latency``: wait ``seconds``, then answer normally (if the client gives up
  first, the request is still applied: a slow server, not a lost request);
- ``status``: answer ``status`` (default bodies for 500/503/429) without applying
  (``apply: true`` applies first);
- ``timeout``: never answer; the client's read timeout fires (``apply`` first);
  the hang ends when the client leaves or the server stops;
- ``malformed``: a broken answer (``variant`` html/truncated/wrong_types/empty),
  applied first unless ``apply: false``;
- ``drop``: apply, then drop the connection without a byte of answer.

Over uvicorn a drop closes the TCP socket (uvicorn's ``send`` is a bound method
of the request cycle, which holds ``.transport``). In process there is no socket:
the middleware raises ``DropConnection``, which ``kiosk.sim.transport.SimTransport``
turns into an ``httpx`` network error. Control requests (``/_sim/``) are neither
logged nor faulted.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kiosk.sim.faultbook import FaultRule, SimState, state_of
from kiosk.sim.ratelimit import RATE_LIMIT_MESSAGE
from kiosk.sim.world import Record, World

if TYPE_CHECKING:
    from kiosk.sim.control import SimControl

__all__ = ["DropConnection", "SimMiddleware", "SimState", "state_of"]

LOG_LIMIT = 50_000
CONTROL_PREFIX = "/_sim"
CREDIT_PATH = "/external/tags/add"
CANCEL_PREFIX = "/external/tags/cancel/"
UNAVAILABLE_MESSAGE = (
    "No es posible procesar la operación en este momento. Intente nuevamente en unos segundos."
)
PROXY_PAGE = (
    b"<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
    b"<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n"
    b"</body>\r\n</html>\r\n"
)
# How often a hanging request looks whether its client left or the server stops.
HANG_POLL_SECONDS = 0.05


class DropConnection(Exception):
    """Raised in process by a ``drop`` (or an ended ``timeout``): no answer at all."""


class Captured:
    """What the simulator's handler answered when a fault swallowed it."""

    def __init__(self) -> None:
        self.status: int | None = None
        self.headers: list[tuple[bytes, bytes]] = []
        self.body = bytearray()

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.status = int(message["status"])
            self.headers = list(message.get("headers", []))
        elif message["type"] == "http.response.body":
            self.body.extend(message.get("body", b""))

    def json(self) -> Any:
        try:
            return json.loads(bytes(self.body))
        except ValueError:
            return None


class SimMiddleware:
    """Wraps the Starlette app (``.app``); ``.world`` is the simulated world."""

    def __init__(self, app: ASGIApp, world: World) -> None:
        self.app = app
        self.world = world
        self.state: SimState = state_of(world)

    @property
    def control(self) -> SimControl:
        """The test controls of this app's world (same actions as ``/_sim/``)."""
        from kiosk.sim.control import SimControl

        state = getattr(self.app, "state", None)
        return SimControl(self.world, getattr(state, "seed_keys", None))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope.get("path", "")
        if (
            scope["type"] != "http"
            or path == CONTROL_PREFIX
            or path.startswith(CONTROL_PREFIX + "/")
        ):
            await self.app(scope, receive, send)
            return
        method: str = scope["method"]
        body = b""
        if method not in ("GET", "HEAD"):
            # Read up front: the log needs the credit's external_id, and a handler
            # that runs after its client left (a hang) still gets its body.
            body, receive = await _buffer_body(receive)
        entry: Record = {}
        if path == "/external" or path.startswith("/external/"):
            entry = self._log(scope, body)

        async def answer(message: Message) -> None:
            if message["type"] == "http.response.start":
                entry["status"] = int(message["status"])
            await send(message)

        rule = self.state.take(method, path)
        if rule is None:
            await self._handle(scope, receive, answer, entry)
            return
        entry["fault"] = rule.kind
        entry["fault_id"] = rule.id
        await self._fault(rule, scope, receive, send, answer, entry)

    # -- normal handling -------------------------------------------------------
    async def _handle(self, scope: Scope, receive: Receive, send: Send, entry: Record) -> None:
        """Run the simulator's handler; persist deferred jobs that ran on the way."""
        jobs_before = self.world.jobs

        async def inner_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                status = int(message["status"])
                entry["handler_status"] = status
                # ``endpoint`` saves after non-GET successes; deferred jobs that ran
                # (or were scheduled) during any other request are saved here.
                if self.world.jobs is not jobs_before and (
                    scope["method"] == "GET" or status >= 400
                ):
                    self.world.changed()
            await send(message)

        await self.app(scope, receive, inner_send)

    async def _apply(self, scope: Scope, receive: Receive, entry: Record) -> Captured:
        captured = Captured()
        await self._handle(scope, receive, captured.send, entry)
        return captured

    # -- faults ------------------------------------------------------------------
    async def _fault(
        self,
        rule: FaultRule,
        scope: Scope,
        receive: Receive,
        send: Send,
        answer: Send,
        entry: Record,
    ) -> None:
        params = rule.params
        if rule.kind == "latency":
            try:
                outcome = await _hang(send, float(params.get("seconds", 1.0)))
            except asyncio.CancelledError:
                # In process, SimTransport's read timeout cancels the wait: the
                # slow server still does the work, as it does over loopback.
                await self._apply(scope, receive, entry)
                raise
            if outcome == "elapsed":
                await self._handle(scope, receive, answer, entry)
                return
            # The client gave up (or the server stops) while the request was on
            # its way: a slow server still does the work, the answer is lost.
            await self._apply(scope, receive, entry)
            if outcome == "stopping":
                await _drop(send)
        elif rule.kind == "status":
            if params.get("apply", False):
                await self._apply(scope, receive, entry)
            status, headers, body = self._status_answer(scope, params)
            await _send_raw(answer, status, headers, body)
        elif rule.kind == "malformed":
            captured = (
                await self._apply(scope, receive, entry) if params.get("apply", True) else None
            )
            status, headers, body = _garbage(str(params.get("variant", "html")), scope, captured)
            await _send_raw(answer, status, headers, body)
        elif rule.kind == "timeout":
            if params.get("apply", False):
                await self._apply(scope, receive, entry)
            if await _hang(send, float(params.get("seconds", 3600.0))) != "left":
                await _drop(send)
        elif rule.kind == "drop":
            if params.get("apply", True):
                await self._apply(scope, receive, entry)
            await _drop(send)
        else:  # parse_rule refuses unknown kinds; keep the request answered anyway
            await self._handle(scope, receive, answer, entry)

    def _status_answer(self, scope: Scope, params: Record) -> tuple[int, dict[str, str], bytes]:
        status = int(params.get("status", 500))
        given_headers = params.get("headers")
        headers: dict[str, str] = dict(given_headers) if isinstance(given_headers, dict) else {}
        if given_headers is None and status == 429:
            headers = {"Retry-After": "1", "X-RateLimit-Remaining": "0"}
        if "body" in params:
            payload: Any = params["body"]
        elif status == 429:
            payload = {"success": False, "status": 429, "message": RATE_LIMIT_MESSAGE}
        else:
            message = UNAVAILABLE_MESSAGE if status == 503 else _default_message(status)
            payload = _error_body(self.world, scope, status, message)
        headers.setdefault("content-type", "application/json")
        return status, headers, json.dumps(payload, ensure_ascii=False).encode()

    # -- request log ---------------------------------------------------------------
    def _log(self, scope: Scope, body: bytes) -> Record:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        key = headers.get("x-api-key")
        merchant = self.world.merchant_for_key(key) if key else None
        raw_branch = headers.get("x-branch-id")
        branch: int | str | None = raw_branch
        if raw_branch is not None and raw_branch.strip().isdigit():
            branch = int(raw_branch.strip())
        entry: Record = {
            "seq": self.state.next_seq(),
            "time": self.world.clock.time(),
            "monotonic": time.monotonic(),
            "method": scope["method"],
            "path": scope["path"],
            "query": scope.get("query_string", b"").decode("latin-1"),
            "branch": branch,
            "status": None,
            "handler_status": None,
            "fault": None,
            "fault_id": None,
            "external_id": _external_id(scope, body),
            "merchant_id": merchant.id if merchant is not None else None,
        }
        log = self.world.request_log
        log.append(entry)
        if len(log) > LOG_LIMIT + LOG_LIMIT // 50:
            del log[: len(log) - LOG_LIMIT]
        return entry


# -- helpers -----------------------------------------------------------------------


async def _buffer_body(receive: Receive) -> tuple[bytes, Receive]:
    """Read the whole request body; return it and a ``receive`` that replays it."""
    chunks: list[bytes] = []
    pending: Message | None = None
    while True:
        message = await receive()
        if message["type"] != "http.request":
            pending = message
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    body = b"".join(chunks)
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if not replayed:
            replayed = True
            if pending is not None:
                return pending
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return body, replay


def _external_id(scope: Scope, body: bytes) -> Any:
    path: str = scope["path"]
    if scope["method"] == "PUT" and path.startswith(CANCEL_PREFIX):
        return unquote(path[len(CANCEL_PREFIX) :]) or None
    if scope["method"] != "POST" or path != CREDIT_PATH or not body:
        return None
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    value = data.get("external_id") if isinstance(data, dict) else None
    return value if isinstance(value, str | int | float) and not isinstance(value, bool) else None


def _default_message(status: int) -> str:
    from http import HTTPStatus

    if status == 500:
        return "Internal server error"
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def _error_body(world: World, scope: Scope, status: int, message: str) -> Record:
    query = scope.get("query_string", b"").decode("latin-1")
    return {
        "statusCode": status,
        "timestamp": world.now_iso(),
        "path": scope["path"] + (f"?{query}" if query else ""),
        "method": scope["method"],
        "message": message,
        "errors": None,
        "data": None,
    }


async def _send_raw(send: Send, status: int, headers: dict[str, str], body: bytes) -> None:
    raw = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
    raw = [h for h in raw if h[0] != b"content-length"]
    raw.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body, "more_body": False})


def _mangle(value: Any) -> Any:
    """Numbers and booleans become strings, recursively."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, dict):
        return {k: _mangle(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_mangle(v) for v in value]
    return value


def _garbage(
    variant: str, scope: Scope, captured: Captured | None
) -> tuple[int, dict[str, str], bytes]:
    json_type = {"content-type": "application/json; charset=utf-8"}
    handler_ok = captured is not None and captured.status is not None and captured.status < 300
    if variant == "html":
        return 502, {"content-type": "text/html; charset=utf-8"}, PROXY_PAGE
    if variant == "empty":
        return 200, json_type, b""
    if variant == "truncated":
        if captured is not None and handler_ok and len(captured.body) > 1:
            assert captured.status is not None
            full = bytes(captured.body)
            status = captured.status
        else:
            status = 201 if scope["method"] == "POST" else 200
            full = json.dumps(
                {"success": True, "status": status, "message": "OK", "data": {"id": 1}}
            ).encode()
        return status, json_type, full[: max(1, len(full) // 2)]
    # wrong_types: the answer's shape with strings where numbers and booleans were.
    original = captured.json() if captured is not None and handler_ok else None
    if isinstance(original, dict):
        body = {k: (v if k in ("success", "message") else _mangle(v)) for k, v in original.items()}
    else:
        body = {}
    if body == original or "data" not in body:
        body = {
            "success": True,
            "status": "200",
            "message": "OK",
            "data": {"id": "uno", "points": "diez"},
        }
    return 200, json_type, json.dumps(body, ensure_ascii=False).encode()


def _cycle_of(send: Send) -> Any:
    """uvicorn's request-response cycle behind its ``send`` (``None`` in process)."""
    cycle = getattr(send, "__self__", None)
    return cycle if hasattr(getattr(cycle, "transport", None), "abort") else None


async def _hang(send: Send, seconds: float) -> str:
    """Wait ``seconds`` without answering. Returns ``"elapsed"``, ``"left"`` (the
    client closed the connection) or ``"stopping"`` (uvicorn clears the cycle's
    ``keep_alive`` when the server shuts down)."""
    loop = asyncio.get_running_loop()
    cycle = _cycle_of(send)
    if cycle is None:  # in process: SimTransport's read timeout cancels the wait
        await asyncio.sleep(seconds)
        return "elapsed"
    deadline = loop.time() + seconds
    keep_alive = bool(getattr(cycle, "keep_alive", True))
    while (remaining := deadline - loop.time()) > 0:
        if getattr(cycle, "disconnected", False):
            return "left"
        if keep_alive and not getattr(cycle, "keep_alive", True):
            return "stopping"
        await asyncio.sleep(min(remaining, HANG_POLL_SECONDS))
    return "elapsed"


async def _drop(send: Send) -> None:
    """Close the connection without a byte of answer (in process: ``DropConnection``)."""
    cycle = _cycle_of(send)
    if cycle is None:
        raise DropConnection("the simulator dropped the connection without answering")
    cycle.transport.abort()
    # uvicorn learns of the loss on the next loop turns (``connection_lost`` marks
    # the cycle disconnected); returning before that would make it log an error
    # and try a 500 on the closed socket.
    for _ in range(50):
        if getattr(cycle, "disconnected", False):
            return
        await asyncio.sleep(0)
    cycle.disconnected = True
