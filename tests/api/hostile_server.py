"""A small hostile HTTP server on loopback: it answers what a test scripts, byte by byte.

``HostileServer(handler)`` runs a plain TCP server on an ephemeral port of 127.0.0.1 in
a thread; ``handler(request_line, connection)`` writes whatever it likes (a body that
drips a byte at a time, a body of 80 MB, nothing at all) and records what it saw.
Every loop it runs is bounded in bytes and time, and it stops with the test.
"""

from __future__ import annotations

import contextlib
import socket
import socketserver
import threading
import time
from collections.abc import Callable
from types import TracebackType

Handler = Callable[[str, socket.socket], None]


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


class HostileServer:
    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.request_lines: list[str] = []
        self.request_heads: list[str] = []  # the request line and the headers
        outer = self

        class _Handle(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                conn: socket.socket = self.request
                conn.settimeout(5.0)
                data = b""
                while b"\r\n\r\n" not in data and len(data) < 65536:
                    chunk = conn.recv(4096)
                    if not chunk:
                        return
                    data += chunk
                line = data.split(b"\r\n", 1)[0].decode("latin-1")
                outer.request_lines.append(line)
                outer.request_heads.append(data.split(b"\r\n\r\n", 1)[0].decode("latin-1"))
                with contextlib.suppress(OSError):  # the client hung up, as it should
                    outer.handler(line, conn)

        self._server = _Server(("127.0.0.1", 0), _Handle)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> HostileServer:
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)


def head(status: int = 200, *, length: int | None = None, extra: str = "") -> bytes:
    text = f"HTTP/1.1 {status} X\r\ncontent-type: application/json\r\n{extra}"
    if length is not None:
        text += f"content-length: {length}\r\n"
    return (text + "\r\n").encode()


def drip(body: bytes, every: float, *, stop: threading.Event) -> Handler:
    """Sends the head at once, then the body one byte every ``every`` seconds."""

    def handle(_line: str, conn: socket.socket) -> None:
        conn.sendall(head(length=len(body)))
        for byte in body:
            if stop.is_set():
                return
            conn.sendall(bytes([byte]))
            time.sleep(every)

    return handle


def flood(total: int, *, declare: bool) -> Handler:
    """A 200 whose body is ``total`` bytes of one JSON string, sent in 64 KiB chunks,
    with or without a content-length that says so."""

    def handle(_line: str, conn: socket.socket) -> None:
        prefix = b'{"data": {"id": 1, "first_name": "'
        suffix = b'"}}'
        filler = total - len(prefix) - len(suffix)
        conn.sendall(head(length=total if declare else None, extra="connection: close\r\n"))
        conn.sendall(prefix)
        chunk = b"a" * 65536
        sent = 0
        while sent < filler:
            part = chunk[: min(len(chunk), filler - sent)]
            conn.sendall(part)
            sent += len(part)
        conn.sendall(suffix)

    return handle


def fixed(body: bytes, status: int = 200) -> Handler:
    """One answer, whole, with its length."""

    def handle(_line: str, conn: socket.socket) -> None:
        conn.sendall(head(status, length=len(body)) + body)

    return handle
