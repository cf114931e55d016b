"""Bodies built to hurt the reader (issue #22, items 8 and 9): compression bombs and JSON
nested deeper than Python parses.

Against a small hostile server of our own on loopback. A bomb (gzip, ``gzip, gzip``,
chunked deflate without a length) is refused as ``MALFORMED`` while it decodes: the
memory it costs stays near the answer's cap (``tracemalloc`` counts every byte zlib and
httpx allocate) and the event loop is never held for long. A body nested 10,000 deep
is ``MALFORMED`` too, the error every screen already words as "an answer we cannot
read", never an untyped ``RecursionError``.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import socket
import time
import tracemalloc
import zlib

import pytest

from kiosk.api import LoyaltyClient
from kiosk.api.errors import ErrorKind
from kiosk.api.retry import NO_RETRY
from kiosk.api.session import MAX_LIST_BODY, MAX_RECORD_BODY
from kiosk.core.counter.offline_client import cannot_check
from tests.api.conftest import run
from tests.api.hostile_server import Handler, HostileServer, fixed, head
from tests.api.support import JUAN_EMAIL, fails
from tests.conftest import MAIN_KEY

# 64 MiB once decoded: far past both caps, small enough that the unbounded reader of
# the past only grew by that much when the test was run on it.
BOMB = 64 * 1024 * 1024
RECORD = {"success": True, "status": 200, "data": {"id": 7, "score": 120, "first_name": "Ana"}}


def _zeros_gzip(size: int) -> bytes:
    out = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = bytes(1024 * 1024)
    parts = [out.compress(block) for _ in range(size // len(block))]
    return b"".join(parts) + out.flush()


def _zeros_deflate(size: int) -> bytes:
    out = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS)
    block = bytes(1024 * 1024)
    parts = [out.compress(block) for _ in range(size // len(block))]
    return b"".join(parts) + out.flush()


def encoded(body: bytes, encoding: str) -> Handler:
    """A 200 with ``content-encoding: <encoding>`` and its length."""

    def handle(_line: str, conn: socket.socket) -> None:
        extra = f"content-encoding: {encoding}\r\n"
        conn.sendall(head(length=len(body), extra=extra) + body)

    return handle


def chunked(body: bytes, encoding: str) -> Handler:
    """A 200 in 16 KiB chunks, without a length."""

    def handle(_line: str, conn: socket.socket) -> None:
        extra = f"content-encoding: {encoding}\r\ntransfer-encoding: chunked\r\n"
        conn.sendall(head(extra=extra))
        for start in range(0, len(body), 16384):
            part = body[start : start + 16384]
            conn.sendall(f"{len(part):x}\r\n".encode() + part + b"\r\n")
        conn.sendall(b"0\r\n\r\n")

    return handle


BOMBS = {
    "gzip": lambda: encoded(_zeros_gzip(BOMB), "gzip"),
    "gzip-gzip": lambda: encoded(gzip.compress(_zeros_gzip(BOMB), 9), "gzip, gzip"),
    "chunked-deflate": lambda: chunked(_zeros_deflate(BOMB), "deflate"),
}


async def _refused_with_costs(api: LoyaltyClient, *, listing: bool) -> tuple[int, float]:
    """Runs one call that must be refused as MALFORMED; its memory peak (bytes over
    the start) and the longest the event loop went without turning (seconds)."""
    longest = 0.0
    done = False

    async def ticker() -> None:
        nonlocal longest
        last = time.perf_counter()
        while not done:
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            longest = max(longest, now - last)
            last = now

    ticks = asyncio.create_task(ticker())
    tracemalloc.start()
    try:
        start, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        call = api.list_levels() if listing else api.search_client(JUAN_EMAIL)
        error = await fails(call)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        done = True
        await ticks
    assert error.kind is ErrorKind.MALFORMED
    return peak - start, longest


@pytest.mark.parametrize("bomb", list(BOMBS), ids=list(BOMBS))
@pytest.mark.parametrize("listing", [False, True], ids=["record", "list"])
def test_a_compression_bomb_is_refused_while_it_decodes(
    bomb: str, listing: bool, client_warnings: None
) -> None:
    cap = MAX_LIST_BODY if listing else MAX_RECORD_BODY
    with HostileServer(BOMBS[bomb]()) as server:
        api = LoyaltyClient(server.base_url, MAIN_KEY, branch_id=1, retry=NO_RETRY)

        async def scenario() -> tuple[int, float]:
            try:
                return await _refused_with_costs(api, listing=listing)
            finally:
                await api.aclose()

        grown, longest = run(scenario())
    # What is held is about the cap (measured: +0.5-0.7 MiB for a record, +4.2-4.4 MiB
    # for a list), never the bomb's 64 MiB.
    assert grown < cap + 1024 * 1024, f"memory grew by {grown / 2**20:.1f} MiB"
    # Measured: 0.01-0.03 s; the bound leaves room for a machine under load.
    assert longest < 1.0, f"the event loop stood still for {longest:.2f} s"


def test_a_gzipped_answer_under_the_cap_is_read() -> None:
    body = json.dumps(RECORD).encode()
    for handler in (
        encoded(gzip.compress(body), "gzip"),
        encoded(gzip.compress(gzip.compress(body)), "gzip, gzip"),
        chunked(zlib.compress(body), "deflate"),
        chunked(zlib.compress(body)[2:-4], "deflate"),  # raw deflate, as some servers send
        encoded(body, "identity"),
    ):
        with HostileServer(handler) as server:
            api = LoyaltyClient(server.base_url, MAIN_KEY, branch_id=1, retry=NO_RETRY)

            async def scenario(api: LoyaltyClient = api) -> None:
                try:
                    client = await api.search_client(JUAN_EMAIL)
                    assert (client.id, client.balance, client.first_name) == (7, 120, "Ana")
                finally:
                    await api.aclose()

            run(scenario())
            assert "accept-encoding: gzip, deflate" in server.request_heads[0].lower()


@pytest.mark.parametrize(
    ("body", "encoding"),
    [
        (b"\x1b\x00\x00", "br"),
        (b"{}", "compress"),
        (b"not gzip at all", "gzip"),
        (gzip.compress(json.dumps(RECORD).encode())[:-12], "gzip"),
        (gzip.compress(json.dumps(RECORD).encode())[:-4], "gzip"),  # whole JSON, no trailer
        (gzip.compress(gzip.compress(gzip.compress(gzip.compress(b"{}")))), "gzip, " * 3 + "gzip"),
    ],
    ids=["br", "compress", "not-gzip", "cut-short", "no-trailer", "four-layers"],
)
def test_an_encoding_not_asked_for_or_broken_is_malformed(
    body: bytes, encoding: str, client_warnings: None
) -> None:
    with HostileServer(encoded(body, encoding)) as server:
        api = LoyaltyClient(server.base_url, MAIN_KEY, branch_id=1, retry=NO_RETRY)

        async def scenario() -> None:
            try:
                error = await fails(api.search_client(JUAN_EMAIL))
                assert error.kind is ErrorKind.MALFORMED
            finally:
                await api.aclose()

        run(scenario())


@pytest.mark.parametrize("status", [200, 400, 500])
@pytest.mark.parametrize("opener", ["[", '{"a":'], ids=["arrays", "objects"])
def test_json_nested_10000_deep_is_a_malformed_answer(
    status: int, opener: str, client_warnings: None
) -> None:
    closer = "]" if opener == "[" else "}"
    body = (opener * 10_000 + "1" + closer * 10_000).encode()
    with HostileServer(fixed(body, status)) as server:
        api = LoyaltyClient(server.base_url, MAIN_KEY, branch_id=1, retry=NO_RETRY)

        async def scenario() -> None:
            try:
                error = await fails(api.search_client(JUAN_EMAIL))
                assert error.kind is ErrorKind.MALFORMED
                assert "nested too deep" in error.message
                # The identify screen offers the offline identify for it, as for
                # every other unreadable answer.
                assert cannot_check(error)
            finally:
                await api.aclose()

        run(scenario())
