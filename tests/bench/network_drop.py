"""How long the cashier waits for the offline answer when the network drops (#21, item 6).

    .venv/bin/python tests/bench/network_drop.py [--rounds 3]

Real sockets, real clock, the API client with its default timeouts and retries:

1. refused: a loopback port with nothing listening (the service down, a firewall that
   refuses): a search (identify) and a preview, each as the cashier's call;
2. black hole: a loopback server whose accept queue is full, so new connections get
   no answer at all (a cable pulled, a firewall that drops): the same two calls, which
   end at the connect timeout;
3. back: the outbox's waits between tries of a row whose service cannot be reached,
   after 1..10 failures in a row (the longest wait once the network is back).

Prints the seconds; exit status 1 when a cashier's call took over 2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

from kiosk.api import LoyaltyClient
from kiosk.api.errors import ApiError
from kiosk.core.outbox.attempts import Backoff

BUDGET_S = 2.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def black_hole() -> Iterator[int]:
    """A listening port whose accept queue is full: a new connection is never answered."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(0)
    port = int(server.getsockname()[1])
    fillers: list[socket.socket] = []
    try:
        for _ in range(8):  # fill the queue (never accepted)
            filler = socket.socket()
            filler.setblocking(False)
            with suppress(BlockingIOError):
                filler.connect(("127.0.0.1", port))
            fillers.append(filler)
        yield port
    finally:
        for filler in fillers:
            filler.close()
        server.close()


async def timed(call: Callable[[], Awaitable[Any]]) -> tuple[float, str]:
    started = time.perf_counter()
    try:
        await call()
        outcome = "answered"
    except ApiError as error:
        outcome = error.kind.value + (" (never connected)" if error.unconnected else "")
    return time.perf_counter() - started, outcome


async def measure(url: str) -> list[tuple[str, float, str]]:
    results: list[tuple[str, float, str]] = []
    async with LoyaltyClient(url, "bench-key-123456", branch_id=1) as api:
        for name, call in (
            ("identify", lambda: api.search_client("30123456")),
            ("preview", lambda: api.preview(1, amount=3000.0, branch_id=1)),
        ):
            seconds, outcome = await timed(call)
            results.append((name, seconds, outcome))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    worst = 0.0
    for round_ in range(1, args.rounds + 1):
        refused = asyncio.run(measure(f"http://127.0.0.1:{free_port()}"))
        with black_hole() as port:
            dropped = asyncio.run(measure(f"http://127.0.0.1:{port}"))
        for label, results in (("refused", refused), ("black hole", dropped)):
            for name, seconds, outcome in results:
                worst = max(worst, seconds)
                print(f"round {round_}  {label:10}  {name:8}  {seconds:6.2f} s  {outcome}")
    backoff = Backoff()
    waits = [backoff.wait(n, None, 1.0, unreached=True) for n in range(1, 11)]
    print("outbox: longest wait between tries, network down, after 1..10 failures:")
    print("  " + "  ".join(f"{w:.1f}" for w in waits) + " s")
    print(f"worst cashier's wait: {worst:.2f} s (budget {BUDGET_S:.1f} s)")
    return 0 if worst <= BUDGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
