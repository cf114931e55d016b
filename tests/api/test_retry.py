"""The retry policy: waits, jitter, Retry-After, and what may be resent."""

from __future__ import annotations

import httpx
import pytest

from kiosk.api.errors import ErrorKind
from kiosk.api.retry import Resend, RetryPolicy, retryable, transport_failure


def test_waits_are_1_2_4_seconds_then_give_up() -> None:
    policy = RetryPolicy(random=lambda: 0.5)
    assert [policy.wait_before(i) for i in range(4)] == [1.0, 2.0, 4.0, None]
    assert policy.attempts == 4


@pytest.mark.parametrize("draw", [0.0, 0.25, 0.999])
def test_jitter_stays_within_twenty_percent(draw: float) -> None:
    policy = RetryPolicy(random=lambda: draw)
    for i, base in enumerate((1.0, 2.0, 4.0)):
        wait = policy.wait_before(i)
        assert wait is not None
        assert base * 0.8 <= wait <= base * 1.2


def test_jitter_spreads_kiosks_apart() -> None:
    draws = iter([0.0, 1.0])
    policy = RetryPolicy(random=lambda: next(draws))
    assert policy.wait_before(0) != policy.wait_before(0)


def test_retry_after_is_honoured_and_capped() -> None:
    policy = RetryPolicy(random=lambda: 0.0, max_retry_after=30)
    assert policy.wait_before(0, retry_after=7) == 7
    assert policy.wait_before(2, retry_after=0.5) == 0.5
    assert policy.wait_before(0, retry_after=31) is None  # too long: report RATE_LIMITED
    assert policy.wait_before(3, retry_after=1) is None  # attempts used up


@pytest.mark.parametrize(
    ("kind", "maybe_applied", "always", "if_not_applied"),
    [
        (ErrorKind.RATE_LIMITED, False, True, True),
        (ErrorKind.UNAVAILABLE, False, True, True),
        (ErrorKind.SERVER, True, True, False),
        (ErrorKind.NETWORK, False, True, True),
        (ErrorKind.NETWORK, True, True, False),
        (ErrorKind.TIMEOUT, False, True, True),
        (ErrorKind.TIMEOUT, True, True, False),
        (ErrorKind.VALIDATION, False, False, False),
        (ErrorKind.CONFLICT, False, False, False),
        (ErrorKind.NOT_FOUND, False, False, False),
        (ErrorKind.AUTH, False, False, False),
        (ErrorKind.DUPLICATE_EXTERNAL_ID, False, False, False),
        (ErrorKind.MALFORMED, True, False, False),
        (ErrorKind.TLS, False, False, False),
    ],
)
def test_only_429_5xx_and_network_failures_are_retried(
    kind: ErrorKind, maybe_applied: bool, always: bool, if_not_applied: bool
) -> None:
    assert retryable(kind, maybe_applied=maybe_applied, resend=Resend.ALWAYS) is always
    assert retryable(kind, maybe_applied=maybe_applied, resend=Resend.IF_NOT_APPLIED) is (
        if_not_applied
    )


REQUEST = httpx.Request("POST", "http://x/external/exchange/product")


@pytest.mark.parametrize(
    ("exc", "kind", "maybe_applied"),
    [
        (httpx.ConnectError("refused", request=REQUEST), ErrorKind.NETWORK, False),
        (httpx.ConnectTimeout("slow", request=REQUEST), ErrorKind.TIMEOUT, False),
        (httpx.PoolTimeout("busy", request=REQUEST), ErrorKind.TIMEOUT, False),
        (httpx.ProxyError("no tunnel", request=REQUEST), ErrorKind.NETWORK, False),
        (httpx.ReadTimeout("late", request=REQUEST), ErrorKind.TIMEOUT, True),
        (httpx.WriteTimeout("late", request=REQUEST), ErrorKind.TIMEOUT, True),
        (httpx.ReadError("reset", request=REQUEST), ErrorKind.NETWORK, True),
        (httpx.RemoteProtocolError("gone", request=REQUEST), ErrorKind.NETWORK, True),
        (httpx.DecodingError("gzip", request=REQUEST), ErrorKind.MALFORMED, True),
        (
            httpx.ConnectError("[SSL: CERTIFICATE_VERIFY_FAILED] self-signed", request=REQUEST),
            ErrorKind.TLS,
            False,
        ),
    ],
)
def test_transport_failures_know_whether_the_request_may_have_arrived(
    exc: httpx.RequestError, kind: ErrorKind, maybe_applied: bool
) -> None:
    assert transport_failure(exc) == (kind, maybe_applied)
