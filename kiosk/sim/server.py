"""Serve the simulator over loopback from a background thread (tests, benches, demos)."""

from __future__ import annotations

import threading
import time
from types import TracebackType

import uvicorn
from starlette.types import ASGIApp


class SimServer:
    """uvicorn on ``host:port`` (port 0 picks a free one) in a daemon thread.

    Use as a context manager; ``base_url`` is known once started.
    """

    def __init__(self, app: ASGIApp, host: str = "127.0.0.1", port: int = 0) -> None:
        config = uvicorn.Config(
            app, host=host, port=port, log_level="warning", lifespan="off", access_log=False
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="sim-server", daemon=True)
        self.host = host
        self.port = port

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self, timeout: float = 10.0) -> str:
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the simulator did not start")
            time.sleep(0.005)
        sockets = self._server.servers[0].sockets
        self.port = int(sockets[0].getsockname()[1])
        return self.base_url

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)

    def __enter__(self) -> SimServer:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
