"""Serve the training simulator over HTTP: ``python -m kiosk.sim [options]``.

Prints one line with the base URL (the real port when ``--port 0``), then serves
with uvicorn until Ctrl-C. Loopback only unless ``--allow-remote``: it is a
sandbox with demo keys and test controls, not a service.
"""

from __future__ import annotations

import argparse
import ipaddress
import socket
import sys
from collections.abc import Sequence

import uvicorn

from kiosk.sim.app import create_app
from kiosk.sim.persist import PersistError, WorldStore, open_world
from kiosk.sim.seed import (
    DEFAULT_API_KEY,
    DEFAULT_OTHER_API_KEY,
    MAIN_MERCHANT_ID,
    OTHER_MERCHANT_ID,
    build_world,
)
from kiosk.sim.world import SimSettings

# A request hung by a ``timeout`` fault ends when the server stops; this bounds
# the wait for anything else still running at Ctrl-C.
GRACEFUL_SHUTDOWN_SECONDS = 5


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m kiosk.sim", description="Loyalty Points API training simulator"
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    parser.add_argument(
        "--port", type=int, default=8765, help="port (default 8765; 0 picks a free one)"
    )
    parser.add_argument("--api-key", help=f"main merchant's API key (default {DEFAULT_API_KEY!r})")
    parser.add_argument(
        "--other-api-key", help=f"second merchant's API key (default {DEFAULT_OTHER_API_KEY!r})"
    )
    parser.add_argument("--db", help="SQLite file that keeps the world across restarts")
    parser.add_argument("--no-rate-limits", action="store_true", help="never answer 429")
    parser.add_argument(
        "--controls", action="store_true", help="mount the test controls under /_sim/"
    )
    parser.add_argument(
        "--level-delay",
        type=float,
        default=None,
        metavar="S",
        help="seconds before the asynchronous level reassignment (default 1)",
    )
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a non-loopback --host (a sandbox: think twice)",
    )
    parser.add_argument(
        "--log-level", default="warning", help="uvicorn log level (default warning)"
    )
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error("--port must be 0..65535")
    if args.level_delay is not None and args.level_delay < 0:
        parser.error("--level-delay must not be negative")
    if not args.allow_remote and not is_loopback(args.host):
        parser.error(
            f"--host {args.host} is not a loopback address; add --allow-remote to serve it"
        )
    return args


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """A listening socket, so the printed port is real and early clients queue."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host.strip("[]"), port, type=socket.SOCK_STREAM
    )[0]
    sock = socket.socket(family, kind, proto)
    if sys.platform != "win32":  # on Windows SO_REUSEADDR lets two servers share a port
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(address)
    sock.listen(128)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    settings = SimSettings()
    if args.no_rate_limits:
        settings.rate_limits = False
    if args.level_delay is not None:
        settings.level_delay_seconds = args.level_delay
    store: WorldStore | None = None
    if args.db:
        try:
            world, store = open_world(
                args.db, api_key=args.api_key, other_api_key=args.other_api_key, settings=settings
            )
        except PersistError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    else:
        world = build_world(
            api_key=args.api_key or DEFAULT_API_KEY,
            other_api_key=args.other_api_key or DEFAULT_OTHER_API_KEY,
            settings=settings,
        )
    main_key = world.merchants[MAIN_MERCHANT_ID].api_key
    other_key = world.merchants[OTHER_MERCHANT_ID].api_key
    app = create_app(world, api_key=main_key, other_api_key=other_key, controls=args.controls)
    try:
        sock = bind(args.host, args.port)
    except OSError as error:
        print(f"error: cannot listen on {args.host}:{args.port}: {error}", file=sys.stderr)
        return 2
    print(f"Loyalty simulator serving {url_of(sock)} ({describe_keys(args, main_key, other_key)})")
    extras = [f"database {args.db}"] if args.db else []
    extras.append("test controls at /_sim/" if args.controls else "test controls off")
    if args.no_rate_limits:
        extras.append("rate limits off")
    print("  " + "; ".join(extras) + ". Ctrl-C stops it.", flush=True)
    config = uvicorn.Config(
        app,
        log_level=args.log_level,
        lifespan="off",
        access_log=False,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
    )
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
        if store is not None:
            store.close()
    return 0


def describe_keys(args: argparse.Namespace, main_key: str, other_key: str) -> str:
    """The demo keys are not secrets and are printed; a key given or stored is not."""
    parts = []
    for given, key, demo, name in (
        (args.api_key, main_key, DEFAULT_API_KEY, "merchant key"),
        (args.other_api_key, other_key, DEFAULT_OTHER_API_KEY, "other merchant key"),
    ):
        parts.append(
            f"{name}: {demo}" if given is None and key == demo else f"custom {name} in use"
        )
    return ", ".join(parts)


if __name__ == "__main__":
    sys.exit(main())
