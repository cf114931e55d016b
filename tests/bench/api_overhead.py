"""Overhead of ``LoyaltyClient`` over a bare ``httpx.AsyncClient``, same requests.

Run: ``.venv/bin/python tests/bench/api_overhead.py [-n 200] [--warmup 20] [--log]``

The simulator (``SimServer`` + ``create_app``, its rate limits off) is served over
loopback from a child process, so that it does not share the GIL with the client
being measured, as the real API would not (``--same-process``: a thread of this
process, as the tests do).
For a search, a preview and a credit, each iteration times one call through the
client (key, limiter, retry loop, log line, typed parsing) and the same request
through a bare ``httpx.AsyncClient`` (same headers and body, ``response.json()``),
in alternating order, after a warm-up. Calls to ``/external/tags/*`` are paced
outside the timed section, before each pair (so an idle gap falls before either
side alike), so that the client's limiter never waits (checked: every limiter
wait is recorded and must be zero). ``--log`` adds an INFO file handler
with the redacting filter, as the app runs. Budget: client median <= 1.15x bare.
Exit status 1 when over budget.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import multiprocessing
import statistics
import sys
import tempfile
import time
from collections import deque
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from kiosk.api import LoyaltyClient, RateLimiter, logsafety
from kiosk.api.models import CreditClient, CreditRequest
from kiosk.api.ratelimit import TAGS, Rule
from kiosk.sim import DEFAULT_API_KEY, build_world, create_app
from kiosk.sim.server import SimServer
from kiosk.sim.world import SimSettings

BUDGET = 1.15
DNI = "30123456"


class RecordingLimiter(RateLimiter):
    def __init__(self) -> None:
        super().__init__()
        self.waits: list[float] = []

    async def acquire(self, rule: Rule, key: str = "merchant", **options: Any) -> float:
        waited = await super().acquire(rule, key, **options)
        self.waits.append(waited)
        return waited


class Pacer:
    """Keeps the client's own tag calls under 10 per (1 s + margin), outside the timing."""

    def __init__(self, limiter: RateLimiter) -> None:
        self.window = TAGS.window + limiter.margin + 0.1
        self.starts: deque[float] = deque(maxlen=TAGS.limit)

    async def before(self) -> None:
        if len(self.starts) == TAGS.limit:
            wait = self.starts[0] + self.window - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
        self.starts.append(time.monotonic())


Call = Callable[[int], Awaitable[Any]]


async def timed(call: Call, i: int) -> float:
    start = time.perf_counter()
    await call(i)
    return time.perf_counter() - start


def serve(urls: Any, stop: Any) -> None:
    """Child process: the simulator over loopback until ``stop`` is set."""
    app = create_app(build_world(settings=SimSettings(rate_limits=False)))
    with SimServer(app) as server:
        urls.put(server.base_url)
        stop.wait()


async def bench(
    n: int, warmup: int, same_process: bool
) -> dict[str, tuple[list[float], list[float]]]:
    world = build_world(settings=SimSettings(rate_limits=False))  # the server's seed data
    branch = min(world.merchants[1].tables["branches"])
    client_id = next(
        c["id"]
        for c in world.merchants[1].tables["clients"].values()
        if c["document_number"] == DNI
    )
    if same_process:
        server = SimServer(create_app(world))
        base_url = server.start()
        stop_server: Callable[[], None] = server.stop
    else:
        context = multiprocessing.get_context("spawn")
        urls, stop = context.Queue(), context.Event()
        child = context.Process(target=serve, args=(urls, stop), daemon=True)
        child.start()
        base_url = urls.get(timeout=60)

        def stop_server() -> None:
            stop.set()
            child.join(timeout=10)

    try:
        return await measure(base_url, branch, client_id, n, warmup)
    finally:
        stop_server()


async def measure(
    base_url: str, branch: int, client_id: int, n: int, warmup: int
) -> dict[str, tuple[list[float], list[float]]]:
    limiter = RecordingLimiter()
    pacer = Pacer(limiter)
    results: dict[str, tuple[list[float], list[float]]] = {}
    async with (
        LoyaltyClient(base_url, DEFAULT_API_KEY, branch_id=branch, limiter=limiter) as api,
        httpx.AsyncClient(
            base_url=base_url, timeout=20, headers={"x-api-key": DEFAULT_API_KEY}
        ) as bare,
    ):

        async def bare_call(method: str, path: str, **kw: Any) -> Any:
            response = await bare.request(method, path, **kw)
            response.raise_for_status()
            return response.json()

        def credit_body(external_id: str) -> dict[str, Any]:
            return {
                "client": {"dni": DNI},
                "amount": 1500,
                "branch_id": branch,
                "external_id": external_id,
                "origin": "external-integration",
            }

        ops: dict[str, tuple[Call, Call, bool]] = {
            "search": (
                lambda i: api.search_client(DNI),
                lambda i: bare_call("GET", "/external/clients/search", params={"query": DNI}),
                False,
            ),
            "preview": (
                lambda i: api.preview(client_id, amount=1500),
                lambda i: bare_call(
                    "POST",
                    "/external/tags/add/preview",
                    json={"clientId": client_id, "amount": 1500, "branch_id": branch},
                ),
                True,
            ),
            "credit": (
                lambda i: api.credit(
                    CreditRequest(f"BENCH-C-{i}", CreditClient(document=DNI), amount=1500)
                ),
                lambda i: bare_call("POST", "/external/tags/add", json=credit_body(f"BENCH-B-{i}")),
                True,
            ),
        }
        for name in ops:
            results[name] = ([], [])
        for i in range(warmup + n):
            for name, (client_call, bare_call_, limited) in ops.items():
                pairs = [(0, client_call), (1, bare_call_)]
                if i % 2:
                    pairs.reverse()
                if limited:  # before the pair: any idle gap precedes either side alike
                    await pacer.before()
                for which, call in pairs:
                    elapsed = await timed(call, i)
                    if i >= warmup:
                        results[name][which].append(elapsed)
    if any(w > 0 for w in limiter.waits):
        raise SystemExit(f"the limiter waited {sum(limiter.waits):.3f} s: pacing is wrong")
    return results


def report(results: dict[str, tuple[list[float], list[float]]]) -> bool:
    ok = True
    print(
        f"{'call':<8} {'client ms':>10} {'bare ms':>9} {'ratio':>6} {'extra us':>9} "
        f"{'client p90':>11} {'bare p90':>9}"
    )
    for name, (client, bare) in results.items():
        c, b = statistics.median(client), statistics.median(bare)
        c90 = statistics.quantiles(client, n=10)[-1]
        b90 = statistics.quantiles(bare, n=10)[-1]
        ratio = c / b
        ok = ok and ratio <= BUDGET
        print(
            f"{name:<8} {c * 1e3:>10.3f} {b * 1e3:>9.3f} {ratio:>6.3f} "
            f"{(c - b) * 1e6:>9.0f} {c90 * 1e3:>11.3f} {b90 * 1e3:>9.3f}"
        )
    print(f"budget <= {BUDGET}x: {'OK' if ok else 'OVER'}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=200, help="timed calls per kind and side")
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument(
        "--same-process",
        action="store_true",
        help="serve the simulator from a thread of this process (shares the GIL)",
    )
    parser.add_argument(
        "--log", action="store_true", help="INFO logging to a file through the redacting filter"
    )
    args = parser.parse_args()
    if args.log:
        path = Path(tempfile.mkstemp(prefix="api_overhead_", suffix=".log")[1])
        handler = logsafety.install(logging.FileHandler(path))
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
        logging.getLogger("kiosk").addHandler(handler)
        logging.getLogger("kiosk").setLevel(logging.INFO)
        print(f"logging INFO to {path}")
    started = time.monotonic()
    results = asyncio.run(bench(args.n, args.warmup, args.same_process))
    where = "a thread of this process" if args.same_process else "a child process"
    print(
        f"simulator in {where}; n={args.n} per side and call, warm-up {args.warmup}, "
        f"{time.monotonic() - started:.0f} s, Python {sys.version.split()[0]}, "
        f"httpx {httpx.__version__}"
    )
    return 0 if report(results) else 1


if __name__ == "__main__":
    sys.exit(main())
