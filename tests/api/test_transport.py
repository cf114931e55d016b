"""Corporate networks: proxies from the environment, the OS certificate store, and TLS
verification that stays on."""

from __future__ import annotations

import asyncio
import shutil
import ssl
import subprocess
from pathlib import Path

import httpx
import pytest
import truststore

from kiosk.api import ErrorKind, LoyaltyClient, logsafety
from kiosk.api.transport import Timeouts, ssl_context
from tests.api.conftest import run
from tests.api.fakes import FakeClock
from tests.api.support import fails


def test_proxy_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.corp.example:3128")
    monkeypatch.setenv("NO_PROXY", "intranet.corp.example")

    async def scenario() -> None:
        async with LoyaltyClient("https://api.loyalty.example", "key-123456") as api:
            http = api._http
            proxied = http._transport_for_url(httpx.URL("https://api.loyalty.example/external"))
            direct = http._transport_for_url(httpx.URL("https://intranet.corp.example/x"))
            assert type(proxied._pool).__name__ == "AsyncHTTPProxy"  # type: ignore[attr-defined]
            assert type(direct._pool).__name__ == "AsyncConnectionPool"  # type: ignore[attr-defined]

    run(scenario())


def test_a_proxy_password_is_masked_in_logs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "http://kiosk:Pr0xy-S3cret@proxy.corp.example:3128")

    async def scenario() -> None:
        async with LoyaltyClient("https://api.loyalty.example", "key-123456"):
            pass

    run(scenario())
    line = logsafety.redact("CONNECT via http://kiosk:Pr0xy-S3cret@proxy.corp.example:3128")
    assert "Pr0xy-S3cret" not in line
    logsafety.forget_secret("Pr0xy-S3cret")


def test_tls_context_uses_the_os_store_and_verifies() -> None:
    context = ssl_context()
    assert isinstance(context, truststore.SSLContext)
    assert context.verify_mode == ssl.CERT_REQUIRED
    assert context.check_hostname


def test_an_injected_transport_is_used_as_is() -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers["x-api-key"])
        return httpx.Response(200, json={"success": True, "status": 200, "data": []})

    async def scenario() -> None:
        async with LoyaltyClient(
            "http://sim.test", "key-abcdef", transport=httpx.MockTransport(handler)
        ) as api:
            assert await api.check_key()

    run(scenario())
    assert seen == ["key-abcdef"]


def test_operation_timeout_is_at_least_15_seconds_by_default() -> None:
    timeouts = Timeouts()
    assert timeouts.operation >= 15
    assert timeouts.for_call(operation=True).read >= 15


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command")
def test_a_self_signed_server_is_refused_and_not_retried(
    tmp_path: Path, fake_clock: FakeClock, client_warnings: None
) -> None:
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_context.load_cert_chain(cert, key)

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.close()

    async def scenario() -> None:
        server = await asyncio.start_server(serve, "127.0.0.1", 0, ssl=server_context)
        port = server.sockets[0].getsockname()[1]
        async with (
            server,
            LoyaltyClient(
                f"https://127.0.0.1:{port}",
                "key-123456",
                clock=fake_clock.time,
                sleep=fake_clock.sleep,
            ) as api,
        ):
            error = await fails(api.list_branches())
        assert error.kind is ErrorKind.TLS
        assert "CERTIFICATE_VERIFY_FAILED" in error.message

    run(scenario())
    assert fake_clock.sleeps == []  # a certificate does not get better by waiting
