"""A network failure names the server and the likely cause (issue #18, a bad day for IT):
"cannot reach https://api.example.test: its name is not found (DNS) ..." rather than
``ConnectError: [Errno -2] Name or service not known`` alone. The system's own words
stay at the end, in parentheses, for support.
"""

from __future__ import annotations

import asyncio
import errno
import socket
from collections.abc import Callable

import httpx
import pytest

from kiosk.api import reach
from kiosk.api.client import LoyaltyClient
from kiosk.api.errors import ApiError, ErrorKind
from kiosk.api.retry import NO_RETRY

URL = "https://api.example.test"
REQUEST = httpx.Request("GET", URL + "/external/branch")


def caused(error: httpx.RequestError, cause: BaseException) -> httpx.RequestError:
    error.__cause__ = cause
    return error


@pytest.mark.parametrize(
    ("exc", "why"),
    [
        (
            caused(
                httpx.ConnectError("[Errno -2] Name or service not known", request=REQUEST),
                socket.gaierror(-2, "Name or service not known"),
            ),
            reach.DNS,
        ),
        (httpx.ConnectError("[Errno 11001] getaddrinfo failed", request=REQUEST), reach.DNS),
        (
            caused(
                httpx.ConnectError("All connection attempts failed", request=REQUEST),
                ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused"),
            ),
            reach.REFUSED,
        ),
        (
            httpx.ConnectError(
                "[WinError 10061] No connection could be made because the target machine "
                "actively refused it",
                request=REQUEST,
            ),
            reach.REFUSED,
        ),
        (
            caused(
                httpx.ConnectError("[Errno 101] Network is unreachable", request=REQUEST),
                OSError(errno.ENETUNREACH, "Network is unreachable"),
            ),
            reach.NO_ROUTE,
        ),
        (httpx.ConnectTimeout("timed out", request=REQUEST), reach.NO_ANSWER),
        (httpx.ProxyError("407 Proxy Authentication Required", request=REQUEST), reach.PROXY),
        (httpx.ReadTimeout("timed out", request=REQUEST), None),  # reached it: its own words
    ],
    ids=[
        "dns",
        "dns-windows",
        "refused",
        "refused-windows",
        "no-route",
        "no-answer",
        "proxy",
        "read",
    ],
)
def test_the_likely_cause_of_a_failed_connection(exc: httpx.RequestError, why: str | None) -> None:
    assert reach.cause(exc) == why
    text = reach.unreachable(exc, URL)
    raw = f"{type(exc).__name__}: {exc}"
    if why is None:
        assert text == raw
    else:
        assert text == f"cannot reach {URL}: {why} ({raw})"


def test_the_api_error_names_the_server_and_dns(expect_log: Callable[[str], None]) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise caused(
            httpx.ConnectError("[Errno -2] Name or service not known", request=request),
            socket.gaierror(-2, "Name or service not known"),
        )

    async def scenario() -> ApiError:
        async with LoyaltyClient(
            URL, "a-key-of-the-test", transport=httpx.MockTransport(refuse), retry=NO_RETRY
        ) as api:
            with pytest.raises(ApiError) as caught:
                await api.list_branches()
            return caught.value

    expect_log(r"GET /external/branch -> cannot reach")
    error = asyncio.run(scenario())
    assert error.kind is ErrorKind.NETWORK
    assert error.message.startswith(f"cannot reach {URL}: its name is not found (DNS)")
    assert error.message.endswith("(ConnectError: [Errno -2] Name or service not known)")
