"""Why a server could not be reached, in IT's words: the host and the likely cause.

``unreachable(exc, host)`` turns httpx's connect failures (``ConnectError: [Errno -2]
Name or service not known``) into "cannot reach api.example.com: the name is not
found (DNS) ...": the name not found (DNS), the connection refused (the service down,
or a firewall), no route (the network), no answer (a firewall dropping it), the proxy.
Other failures keep their own words. The original text stays at the end, in
parentheses, for support.
"""

from __future__ import annotations

import errno
import socket
from collections.abc import Iterator

import httpx

DNS = "its name is not found (DNS): check the address in kiosk.ini and this computer's DNS"
REFUSED = "the connection was refused: the service is down, or a firewall or proxy refuses it"
NO_ROUTE = "no route to it: check this computer's network connection and gateway"
NO_ANSWER = "no answer to the connection: a firewall may be dropping it, or a proxy is needed"
PROXY = "the proxy refused or failed the connection: check the proxy settings"
RESET = "the connection was cut: a firewall, proxy or filter may be closing it"

_DNS_TEXT = (
    "name or service not known",
    "nodename nor servname",
    "getaddrinfo failed",
    "temporary failure in name resolution",
    "no address associated",
    "name resolution",
    "[errno -2]",
    "[errno -3]",
    "[errno -5]",
    "[errno 11001]",
    "[errno 11004]",
)
_REFUSED_TEXT = ("connection refused", "actively refused", "[errno 111]", "[winerror 10061]")
_NO_ROUTE_TEXT = ("network is unreachable", "no route to host", "[winerror 10065]")
_RESET_TEXT = ("connection reset", "[errno 104]", "[winerror 10054]")
_NO_ROUTE_ERRNOS = frozenset({errno.ENETUNREACH, errno.EHOSTUNREACH})


def _chain(exc: BaseException) -> Iterator[BaseException]:
    seen: BaseException | None = exc
    for _ in range(8):
        if seen is None:
            return
        yield seen
        seen = seen.__cause__ or seen.__context__


def cause(exc: httpx.RequestError) -> str | None:
    """The likely cause of a failed connection, or None when it is not one."""
    chain = list(_chain(exc))
    text = " ".join(str(item) for item in chain).lower()
    if isinstance(exc, httpx.ProxyError):
        return PROXY
    if any(isinstance(item, socket.gaierror) for item in chain) or any(
        marker in text for marker in _DNS_TEXT
    ):
        return DNS
    if any(isinstance(item, ConnectionRefusedError) for item in chain) or any(
        marker in text for marker in _REFUSED_TEXT
    ):
        return REFUSED
    if any(isinstance(item, OSError) and item.errno in _NO_ROUTE_ERRNOS for item in chain) or any(
        marker in text for marker in _NO_ROUTE_TEXT
    ):
        return NO_ROUTE
    if isinstance(exc, httpx.ConnectTimeout):
        return NO_ANSWER
    if isinstance(exc, httpx.ConnectError) and any(marker in text for marker in _RESET_TEXT):
        return RESET
    return None


def unreachable(exc: httpx.RequestError, server: str) -> str:
    """What to log and show for a transport failure reaching ``server`` (its base URL)."""
    raw = f"{type(exc).__name__}: {exc}".rstrip(": ")
    why = cause(exc)
    if why is None:
        return raw
    return f"cannot reach {server or 'the server'}: {why} ({raw})"
