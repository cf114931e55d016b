"""A list that never ends (issue #22, item 11).

A server that ignores ``?page=`` and says ``totalPages`` 10**9 kept the level walk
fetching for ever. Against a small hostile server on loopback: a walk stops with a
typed error (``MALFORMED``) when ``currentPage`` is not the page asked, or when it
passes the pages its first page's ``totalItems`` allow (never more than
``MAX_WALK_PAGES``); an honest list of several pages is still read whole.
"""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Callable
from typing import Any

from kiosk.api import LoyaltyClient
from kiosk.api.endpoints._base import MAX_WALK_PAGES
from kiosk.api.errors import ErrorKind
from kiosk.api.retry import NO_RETRY
from tests.api.conftest import run
from tests.api.hostile_server import Handler, HostileServer, head
from tests.api.support import fails
from tests.conftest import MAIN_KEY

BILLION = 10**9
STOP = 3 * MAX_WALK_PAGES


def pages(meta: Callable[[int], dict[str, Any]], per_page: int = 1) -> Handler:
    """Answers ``GET /external/levels?page=N`` with ``per_page`` levels and ``meta(N)``;
    past ``STOP`` requests a 500, so a walk that never stops fails instead of hanging."""
    served = 0

    def handle(line: str, conn: socket.socket) -> None:
        nonlocal served
        served += 1
        if served > STOP:
            conn.sendall(head(500, length=2, extra="connection: close\r\n") + b"{}")
            return
        found = re.search(r"[?&]page=(\d+)", line)
        asked = int(found.group(1)) if found else 1
        levels = [
            {"id": asked * 1000 + i, "minPoints": asked * 1000 + i, "name": f"L{asked}-{i}"}
            for i in range(per_page)
        ]
        body = json.dumps({"data": levels, "meta": meta(asked), "links": {}}).encode()
        conn.sendall(head(length=len(body), extra="connection: close\r\n") + body)

    return handle


def walk(server: HostileServer) -> list[Any]:
    api = LoyaltyClient(server.base_url, MAIN_KEY, branch_id=1, retry=NO_RETRY)

    async def scenario() -> list[Any]:
        try:
            return [level async for level in api.iter_levels()]
        finally:
            await api.aclose()

    return run(scenario())


def walk_fails(server: HostileServer) -> Any:
    api = LoyaltyClient(server.base_url, MAIN_KEY, branch_id=1, retry=NO_RETRY)

    async def scenario() -> Any:
        async def levels() -> list[Any]:
            return [level async for level in api.iter_levels()]

        try:
            return await fails(levels())
        finally:
            await api.aclose()

    return run(scenario())


def test_a_server_that_ignores_the_page_asked_stops_the_walk_at_page_2(
    client_warnings: None,
) -> None:
    meta = lambda _asked: {"totalPages": BILLION, "currentPage": 1, "totalItems": BILLION}  # noqa: E731
    with HostileServer(pages(meta)) as server:
        error = walk_fails(server)
    assert error.kind is ErrorKind.MALFORMED
    assert "asked for page 2, answered page 1" in error.message
    assert len(server.request_lines) == 2


def test_a_walk_stops_past_the_pages_total_items_allow(client_warnings: None) -> None:
    # Each page follows the one asked, but 3 items at 1 a page never end.
    meta = lambda asked: {"totalPages": BILLION, "currentPage": asked, "totalItems": 3}  # noqa: E731
    with HostileServer(pages(meta)) as server:
        error = walk_fails(server)
    assert error.kind is ErrorKind.MALFORMED
    assert "does not end" in error.message
    assert len(server.request_lines) == 4  # 3 pages and one for an item added meanwhile


def test_a_walk_never_reads_more_than_its_cap(client_warnings: None) -> None:
    meta = lambda asked: {  # noqa: E731
        "totalPages": BILLION,
        "currentPage": asked,
        "totalItems": BILLION,
        "itemsPerPage": 1,
    }
    with HostileServer(pages(meta)) as server:
        error = walk_fails(server)
    assert error.kind is ErrorKind.MALFORMED
    assert len(server.request_lines) == MAX_WALK_PAGES


def test_an_honest_list_of_several_pages_is_read_whole() -> None:
    meta = lambda asked: {  # noqa: E731
        "totalPages": 3,
        "currentPage": asked,
        "totalItems": 6,
        "itemsPerPage": 2,
    }
    with HostileServer(pages(meta, per_page=2)) as server:
        levels = walk(server)
    assert [level.id for level in levels] == [1000, 1001, 2000, 2001, 3000, 3001]
    assert len(server.request_lines) == 3
