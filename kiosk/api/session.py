"""One API call on the wire: limiter, key, timeout, retries, typed errors, one log line.

``Session.send(Call(...))`` returns an ``Answer`` for any 2xx and raises an
``ApiError`` otherwise. A write without idempotency key whose answer was lost
raises ``AmbiguousOutcome`` (``applied=None``); the endpoint may reconcile.

The API key lives in an ``ApiKey`` (safe ``repr``) and is a default header of the
one ``httpx.AsyncClient`` (every ``httpx`` request carries it anyway). Nothing
logs headers, and no exception raised here chains an ``httpx`` error, because
``httpx`` errors hold the request and so the key.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import httpx

from kiosk.api.classify import error_from_response, parse_retry_after
from kiosk.api.decode import BadEncoding, BoundedBody, TooLarge
from kiosk.api.errors import AmbiguousOutcome, ApiError, ErrorKind, MalformedResponse, Resource
from kiosk.api.ratelimit import Clock, RateLimiter, Rule, Sleep
from kiosk.api.reach import unreachable
from kiosk.api.redact import redact_url_text
from kiosk.api.retry import Resend, RetryPolicy, retryable, transport_failure
from kiosk.api.transport import Timeouts

log = logging.getLogger(__name__)

_NO_BODY = object()
# The largest answer read, by what is asked: one record, or a page of a list (200 items).
# A larger body is refused (MALFORMED) as soon as it passes the cap, never read whole.
MAX_RECORD_BODY = 256 * 1024
MAX_LIST_BODY = 4 * 1024 * 1024
# Kinds that the status alone decides: a non-JSON body does not make them malformed.
_STATUS_IS_ENOUGH = frozenset({ErrorKind.AUTH, ErrorKind.RATE_LIMITED, ErrorKind.UNAVAILABLE})


class ApiKey:
    """The merchant's key: never shown by ``repr``/``str``, never pickled."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        if not value or not value.strip():
            raise ValueError("an API key is needed")
        self._value = value.strip()

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "ApiKey(***)"

    __str__ = __repr__

    def __reduce__(self) -> Any:
        raise TypeError("an API key is never persisted")


@dataclass(frozen=True)
class Call:
    """What to send and how carefully."""

    method: str
    path: str  # already quoted
    name: str  # the client method, for logs and ambiguous outcomes
    params: Mapping[str, str] | None = None
    body: Any = _NO_BODY
    branch_id: int | None = None  # x-branch-id
    resource: Resource | None = None  # what a bare 404 means
    resend: Resend = Resend.ALWAYS
    operation: bool = False  # credits and exchanges: the long timeout
    rule: Rule | None = None
    rule_key: str = "merchant"
    background: bool = False
    spacing: float = 0.0
    spacing_key: str | None = None
    max_wait: float | None = None
    max_body: int = MAX_RECORD_BODY  # bytes of the (decoded) answer

    @functools.cached_property
    def shown_path(self) -> str:
        """Path and query for logs and errors, emails and documents masked."""
        text = self.path + ("?" + urlencode(self.params) if self.params else "")
        return redact_url_text(text)


class Answer:
    """A 2xx answer (or a non-2xx one being classified): status and raw body."""

    __slots__ = ("after_lost_answer", "call", "content", "content_type", "status")

    def __init__(
        self,
        status: int,
        content: bytes,
        content_type: str,
        call: Call,
        after_lost_answer: bool = False,
    ) -> None:
        self.status = status
        self.content = content
        self.content_type = content_type
        self.call = call
        self.after_lost_answer = after_lost_answer

    def __repr__(self) -> str:
        return f"Answer({self.status}, {self.method} {self.path})"

    @property
    def method(self) -> str:
        return self.call.method

    @property
    def path(self) -> str:
        return self.call.shown_path

    def json(self) -> Any:
        """The parsed body; ``MalformedResponse`` when it is not JSON."""
        if not self.content or self.content.isspace():
            raise MalformedResponse(
                "empty body", status=self.status, method=self.method, path=self.path
            )
        try:
            return json.loads(self.content)
        except RecursionError:
            # Nested deeper than Python parses (``[[[[...``): no record is that deep.
            raise MalformedResponse(
                f"JSON nested too deep ({len(self.content)} bytes)",
                status=self.status,
                method=self.method,
                path=self.path,
            ) from None
        except (ValueError, UnicodeDecodeError):
            kind = self.content_type.split(";")[0].strip() or "no content type"
            raise MalformedResponse(
                f"not JSON ({kind}, {len(self.content)} bytes)",
                status=self.status,
                method=self.method,
                path=self.path,
            ) from None


@dataclass
class _Failure:
    error: ApiError
    maybe_applied: bool
    retry_after: float | None = None
    retry_as: ErrorKind | None = None  # the kind retries are decided by, when not error.kind

    @property
    def unconnected(self) -> bool:
        return self.error.unconnected

    @property
    def retry_kind(self) -> ErrorKind:
        return self.retry_as or self.error.kind


class Session:
    def __init__(
        self,
        http: httpx.AsyncClient,
        api_key: ApiKey,
        *,
        limiter: RateLimiter,
        retry: RetryPolicy,
        timeouts: Timeouts,
        sleep: Sleep,
        wall_clock: Clock = time.time,
    ) -> None:
        self.http = http
        self._key = api_key
        http.headers["x-api-key"] = api_key.reveal()
        self.limiter = limiter
        self.retry = retry
        self.timeouts = timeouts
        self._sleep = sleep
        self._wall_clock = wall_clock
        # Told after every attempt whether the service was reached (any HTTP answer)
        # or the connection never opened: the counter's status bar follows it at once,
        # not after a call's retries.
        self.reached: list[Callable[[bool], None]] = []

    def _reached(self, reached: bool) -> None:
        for listener in list(self.reached):
            listener(reached)

    def __repr__(self) -> str:
        return f"Session(base_url={str(self.http.base_url)!r})"

    async def send(self, call: Call) -> Answer:
        retries = 0
        lost_answer: ErrorKind | None = None  # an attempt that may have been applied
        if not call.background:
            self.limiter.cashier_seen()  # the reserve for the cashier's next calls
        while True:
            if call.rule is not None:
                await self.limiter.acquire(
                    call.rule,
                    call.rule_key,
                    background=call.background,
                    spacing=call.spacing,
                    spacing_key=call.spacing_key,
                    max_wait=call.max_wait,
                )
            outcome = await self._attempt(call)
            if isinstance(outcome, Answer):
                self._reached(True)
                outcome.after_lost_answer = lost_answer is not None
                return outcome
            failure = outcome
            error = failure.error
            if error.status is not None:
                self._reached(True)
            elif failure.unconnected:
                self._reached(False)
                if not call.background and lost_answer is None:
                    # The cashier waits: the offline answer now (the counter has an
                    # offline road for every call), not after 1 + 2 + 4 s of retries.
                    raise error
            if failure.maybe_applied:
                lost_answer = error.kind
            if error.kind is ErrorKind.RATE_LIMITED and call.rule is not None:
                self.limiter.hold_off(call.rule, call.rule_key, failure.retry_after or 1.0)
            if retryable(
                failure.retry_kind, maybe_applied=failure.maybe_applied, resend=call.resend
            ):
                wait = self.retry.wait_before(retries, failure.retry_after)
                if wait is not None:
                    retries += 1
                    log.warning(
                        "%s %s: %s, retry %d of %d in %.1f s",
                        call.method,
                        call.shown_path,
                        error.kind.value,
                        retries,
                        self.retry.attempts - 1,
                        wait,
                    )
                    await self._sleep(wait)
                    continue
            if lost_answer is not None and call.resend is Resend.IF_NOT_APPLIED:
                raise AmbiguousOutcome(
                    operation=call.name,
                    cause=lost_answer,
                    status=error.status,
                    method=call.method,
                    path=call.shown_path,
                )
            error.after_lost_answer = lost_answer is not None
            raise error

    async def _attempt(self, call: Call) -> Answer | _Failure:
        started = time.perf_counter()
        failure: tuple[ErrorKind, bool, str] | None = None
        unconnected = False
        received: tuple[httpx.Response, bytes] | None = None
        deadline = self.timeouts.deadline(operation=call.operation)
        try:
            async with asyncio.timeout(deadline):
                received = await self._exchange(call)
        except TimeoutError:
            failure = (ErrorKind.TIMEOUT, True, f"no whole answer within {deadline:g} s")
        except httpx.RequestError as exc:
            kind, maybe_applied = transport_failure(exc)
            failure = (kind, maybe_applied, unreachable(exc, str(self.http.base_url).rstrip("/")))
            unconnected = (
                kind in (ErrorKind.NETWORK, ErrorKind.TIMEOUT)
                and not maybe_applied
                and not isinstance(exc, httpx.PoolTimeout)  # (our own pool is full)
            )
        except (TooLarge, BadEncoding) as refused:
            failure = (ErrorKind.MALFORMED, True, str(refused))
        elapsed_ms = (time.perf_counter() - started) * 1000
        # Raised and returned outside the ``except``: nothing chains the httpx error.
        if failure is not None or received is None:
            kind, maybe_applied, detail = failure or (ErrorKind.NETWORK, True, "no response")
            log.warning(
                "%s %s -> %s after %.0f ms", call.method, call.shown_path, detail, elapsed_ms
            )
            error: ApiError
            if kind is ErrorKind.MALFORMED:
                error = MalformedResponse(detail, method=call.method, path=call.shown_path)
            else:
                error = ApiError(kind, message=detail, method=call.method, path=call.shown_path)
                error.unconnected = unconnected
            return _Failure(error, maybe_applied)
        response, content = received
        status = response.status_code
        if log.isEnabledFor(logging.INFO):
            log.info("%s %s -> %d (%.0f ms)", call.method, call.shown_path, status, elapsed_ms)
        answer = Answer(status, content, response.headers.get("content-type", ""), call)
        if 200 <= status < 300:
            return answer
        unreadable: MalformedResponse | None = None
        try:
            body = answer.json()
        except MalformedResponse as malformed:
            body, unreadable = None, malformed
        retry_after = parse_retry_after(
            response.headers.get("retry-after"), now_epoch=self._wall_clock()
        )
        error = error_from_response(
            status,
            body,
            method=call.method,
            path=call.shown_path,
            resource=call.resource,
            retry_after=retry_after,
        )
        # A 500 (not 503, the contract's "cannot be processed now") may follow a write.
        maybe_applied = error.kind is ErrorKind.SERVER
        if unreadable is not None and error.kind not in _STATUS_IS_ENOUGH:
            # An HTML error page (a proxy's 502...) or a broken body: retried as its
            # status says, reported as what it is: an answer we cannot read.
            unreadable.retry_after = retry_after
            return _Failure(unreadable, maybe_applied, retry_after, retry_as=error.kind)
        return _Failure(error, maybe_applied, retry_after)

    async def _exchange(self, call: Call) -> tuple[httpx.Response, bytes]:
        """The request, and its answer read in chunks up to ``call.max_body`` bytes,
        counted after decoding, while decoding (``kiosk.api.decode``)."""
        async with self.http.stream(
            call.method,
            call.path,
            params=call.params,
            json=None if call.body is _NO_BODY else call.body,
            headers=self._headers(call),
            timeout=self.timeouts.for_call(operation=call.operation),
        ) as response:
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > call.max_body:
                raise TooLarge(call.max_body)
            if response.is_stream_consumed:
                # An in-process transport's answer, already read (and decoded) whole.
                if len(response.content) > call.max_body:
                    raise TooLarge(call.max_body)
                return response, response.content
            body = BoundedBody(response.headers.get("content-encoding", ""), call.max_body)
            async for chunk in response.aiter_raw():
                body.feed(chunk)
            return response, body.finish()

    @staticmethod
    def _headers(call: Call) -> dict[str, str] | None:
        return {"x-branch-id": str(call.branch_id)} if call.branch_id is not None else None
