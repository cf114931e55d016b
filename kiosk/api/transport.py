"""The HTTP connection: timeouts, proxies and certificates for corporate networks.

- Proxies come from the environment (``HTTPS_PROXY``, ``HTTP_PROXY``, ``NO_PROXY``,
  ``ALL_PROXY``): ``httpx`` with ``trust_env=True``.
- Certificates come from the operating system's store through ``truststore`` (so a
  TLS-inspecting proxy whose root IT installed on the machine is trusted), plus
  ``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` when set. Without ``truststore``, Python's
  default context. Verification is never turned off: there is no option for it.
"""

from __future__ import annotations

import functools
import os
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx

from kiosk.api import logsafety
from kiosk.api.decode import ACCEPT_ENCODING

MIN_OPERATION_TIMEOUT = 15.0
# Seconds for a connection to open (TCP and TLS) before the call counts as offline.
CONNECT_TIMEOUT = 1.5


@dataclass(frozen=True)
class Timeouts:
    """Seconds. ``operation`` covers credits and exchanges (notifications and bonus
    calculation make them slow: the contract asks for at least 15 s); ``default``
    every other call; ``connect`` opening a connection.

    ``default`` and ``operation`` bound the whole call (``deadline``), not only each
    read: a server that drips a byte a second cannot hold a credit longer than that.

    ``connect`` is short: a connection that does not open within it means the network
    is down (a live service opens one in milliseconds, a distant one in a few hundred),
    and the cashier gets the offline answer within it instead of a spinner."""

    default: float = 10.0
    operation: float = 20.0
    connect: float = CONNECT_TIMEOUT

    def for_call(self, *, operation: bool) -> httpx.Timeout:
        return self._operation if operation else self._default

    def deadline(self, *, operation: bool) -> float:
        """Seconds for the whole call: connect, send, every read of the answer."""
        return self.operation if operation else self.default

    @functools.cached_property
    def _default(self) -> httpx.Timeout:
        return httpx.Timeout(self.default, connect=min(self.connect, self.default))

    @functools.cached_property
    def _operation(self) -> httpx.Timeout:
        return httpx.Timeout(self.operation, connect=min(self.connect, self.operation))


def ssl_context() -> ssl.SSLContext:
    """A verifying TLS context on the OS certificate store when available."""
    try:
        import truststore
    except ImportError:  # pragma: no cover - truststore is a dependency
        context = ssl.create_default_context()
    else:
        context = truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    cafile = os.environ.get("SSL_CERT_FILE")
    capath = os.environ.get("SSL_CERT_DIR")
    if (cafile and os.path.isfile(cafile)) or (capath and os.path.isdir(capath)):
        context.load_verify_locations(
            cafile=cafile if cafile and os.path.isfile(cafile) else None,
            capath=capath if capath and os.path.isdir(capath) else None,
        )
    if context.verify_mode != ssl.CERT_REQUIRED or not context.check_hostname:
        raise RuntimeError("TLS verification must stay on")
    return context


def http_client(
    base_url: str,
    *,
    transport: httpx.AsyncBaseTransport | None,
    timeouts: Timeouts,
    user_agent: str,
) -> httpx.AsyncClient:
    """The one ``httpx.AsyncClient`` of a ``LoyaltyClient`` (the session adds the key
    to its default headers)."""
    register_proxy_passwords()
    # Only the encodings kiosk.api.decode undoes under the answer's cap.
    headers = {
        "accept": "application/json",
        "accept-encoding": ACCEPT_ENCODING,
        "user-agent": user_agent,
    }
    timeout = timeouts.for_call(operation=False)
    if transport is not None:
        return httpx.AsyncClient(
            base_url=base_url, transport=transport, headers=headers, timeout=timeout
        )
    return httpx.AsyncClient(
        base_url=base_url,
        headers=headers,
        timeout=timeout,
        verify=ssl_context(),
        trust_env=True,
        follow_redirects=False,
        limits=httpx.Limits(max_connections=10, max_keepalive_connections=5, keepalive_expiry=30),
    )


PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")


def register_proxy_passwords() -> None:
    """A proxy URL from the environment may carry ``user:password@``: mask the
    password in every log line, as the API key is."""
    for name in PROXY_VARIABLES:
        for value in (os.environ.get(name), os.environ.get(name.lower())):
            if not value:
                continue
            try:
                password = urlsplit(value if "://" in value else f"http://{value}").password
            except ValueError:
                continue
            if password:
                logsafety.register_secret(password)
