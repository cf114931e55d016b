"""A loopback HTTP collector for the fleet tests: records each POST (path, headers,
body) and answers with the status it is told to."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Collector:
    url: str
    received: list[tuple[str, dict[str, str], bytes]] = field(default_factory=list)
    status: int = 200


@contextmanager
def collector() -> Iterator[Collector]:
    box: list[Collector] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            box[0].received.append((self.path, dict(self.headers.items()), body))
            self.send_response(box[0].status)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"OK")

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    box.append(Collector(f"http://127.0.0.1:{server.server_address[1]}"))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield box[0]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
