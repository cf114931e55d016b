"""A merchant's fleet at scale: 200 kiosks back from a one-hour outage, on a virtual clock.

    .venv/bin/python tests/bench/fleet_scale.py [--kiosks 200] [--outage 3600]
        [--sale-gap 60 600] [--latency 0.015] [--seed 1] [--runs 1] [--wall-limit 900]

One simulator in process (``SimTransport``: nothing leaves the machine), its real
10/s merchant limit on ``/external/tags/*`` counted on the same virtual clock as the
kiosks (``tests/bench/fleet_clock.py``: time stands still while anything can run,
jumps to the next timer when nothing can; each kiosk's SQLite work runs in its
thread in real time and costs no virtual time). Each kiosk has its own outbox file,
client, client-side limiter and ``Share`` (as separate machines: none knows the
others' traffic), all with the merchant's key. Each request crosses a network of
``--latency`` seconds each way (+-50 %, seeded).

The day: every kiosk takes sales at its own pace (a mean gap drawn in ``--sale-gap``
seconds, exponential gaps: counters of busy and quiet branches); for ``--outage``
seconds no request reaches the service (a refused connection) and the sales queue
up: outboxes of different sizes. Then the connection returns, every kiosk is told at
once (``retry_now``: the worst case, the whole fleet at the same instant) and the
cashiers go on crediting; a credit taken from then on is live (the cashier waits for
it). Checked and reported:

- every credit exactly once in the simulator's ledger (none lost, none doubled);
- the drain (the return to the last backlog credit accepted) against the minimum the
  limit allows: the smallest T with 10 T >= backlog + live credits taken within T;
- each live credit's wait (taken to accepted) while the backlog drains, the longest;
- the 429s per credit (every credit sent after the return).

Exit status 1 when a credit is doubled or lost, the drain misses ``--budget`` x the
minimum, a live credit waits more than ``--live-budget`` seconds, the 429s per credit
reach ``--refusal-budget`` (0.7: the 20-kiosk bench, ``fleet.py``, today), or the run
passes ``--wall-limit`` real seconds (it stops there by itself: the bench's own check
while the backlog drains, and the loop's, 10 s later, whatever runs).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import math
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from kiosk.api.client import LoyaltyClient
from kiosk.api.ratelimit import RateLimiter
from kiosk.api.retry import NO_RETRY
from kiosk.core.db import DatabaseWorker
from kiosk.core.outbox.queue import Binding, JournalNote, Outbox
from kiosk.core.outbox.sender import Sender
from kiosk.sim.app import create_app
from kiosk.sim.clock import SimClock
from kiosk.sim.control import SimControl
from kiosk.sim.seed import build_world
from kiosk.sim.transport import SimTransport
from tests.bench.fleet import CountedShare
from tests.bench.fleet_clock import VirtualLoop, WallLimit, run_virtual
from tests.bench.outbox import BRANCH, KEY, credit

BASE_URL = "http://sim.fleet"
EPOCH = 1_795_000_000.0  # the virtual clock's 0, as epoch seconds (the walls' clocks)
LIMIT = 10.0  # the contract's /external/tags/* requests per second, per merchant


class VirtualSimClock(SimClock):
    """The simulator's clock on the loop's virtual time."""

    def __init__(self, loop: VirtualLoop) -> None:
        super().__init__()
        self._loop = loop

    def time(self) -> float:
        return EPOCH + self._loop.time() + self._offset


@dataclass
class Net:
    """The fleet's network: a latency each way, an outage, and what the service saw."""

    app: object
    latency: float
    rng: random.Random
    down: bool = True
    # (virtual arrival time, kiosk, status, external id) of every request that arrived.
    seen: list[tuple[float, str, int, str]] = field(default_factory=list)
    settled: dict[str, float] = field(default_factory=dict)  # external id -> first 2xx/409

    def one_way(self) -> float:
        return self.latency * (0.5 + self.rng.random())


class KioskNet(httpx.AsyncBaseTransport):
    def __init__(self, net: Net, name: str) -> None:
        self.net, self.name = net, name
        self._inner = SimTransport(net.app)  # type: ignore[arg-type]

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        net = self.net
        await asyncio.sleep(net.one_way())
        if net.down:
            raise httpx.ConnectError("connection refused (the outage)", request=request)
        arrived = asyncio.get_running_loop().time()
        response = await self._inner.handle_async_request(request)
        external_id = ""
        if request.content:
            with contextlib.suppress(ValueError, AttributeError):
                external_id = str(json.loads(request.content).get("external_id", ""))
        net.seen.append((arrived, self.name, response.status_code, external_id))
        if external_id and (200 <= response.status_code < 300 or response.status_code == 409):
            net.settled.setdefault(external_id, arrived)
        await asyncio.sleep(net.one_way())
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


@dataclass
class Kiosk:
    name: str
    worker: DatabaseWorker
    api: LoyaltyClient
    outbox: Outbox
    sender: Sender
    share: CountedShare
    gap: float  # mean seconds between sales
    taken: int = 0


@dataclass
class Run:
    kiosks: int
    backlog: int
    live: int
    drained: float
    minimum: float
    refused: int
    sent_credits: int
    live_waits: list[float]
    doubled: int
    lost: int
    wall: float
    finished: bool
    backlog_sizes: list[int]
    refusals: Counter[str]
    buckets: list[str] = field(default_factory=list)  # per 10 s: accepted/429s

    @property
    def ratio(self) -> float:
        return self.drained / self.minimum if self.minimum > 0 else math.inf

    @property
    def per_credit(self) -> float:
        return self.refused / max(1, self.sent_credits)


async def open_kiosk(net: Net, folder: Path, index: int, seed: int, gap: float) -> Kiosk:
    loop = asyncio.get_running_loop()

    def wall() -> float:
        return EPOCH + loop.time()

    name = f"f{index:07x}"
    worker = DatabaseWorker(folder / f"kiosk-{index}.sqlite3")
    await worker.start()
    api = LoyaltyClient(
        BASE_URL,
        KEY,
        branch_id=BRANCH,
        transport=KioskNet(net, name),
        retry=NO_RETRY,
        limiter=RateLimiter(clock=loop.time),
        clock=loop.time,
        wall_clock=wall,
    )
    outbox = Outbox(worker, Binding.of("training", BASE_URL, KEY, BRANCH), clock=wall)
    share = CountedShare()
    rng = random.Random(seed * 100_003 + index)
    sender = Sender(outbox, api, clock=wall, random=rng.random, share=share)
    sender.start()
    return Kiosk(name, worker, api, outbox, sender, share, gap)


async def take_sales(
    kiosk: Kiosk,
    rng: random.Random,
    until: float,
    live_from: float,
    taken: dict[str, tuple[float, bool]],
) -> None:
    """Sales at the kiosk's pace until ``until`` (virtual seconds; changed by the bench)."""
    loop = asyncio.get_running_loop()
    while True:
        await asyncio.sleep(rng.expovariate(1.0 / kiosk.gap))
        now = loop.time()
        if now >= until:
            return
        request = credit(kiosk.name, kiosk.taken)
        kiosk.taken += 1
        live = now >= live_from
        taken[request.external_id] = (now, live)
        await kiosk.outbox.submit_credit(request, journal=JournalNote(), live=live)


def minimum_drain(backlog: int, live_times: list[float]) -> float:
    """The smallest T with LIMIT x T >= backlog + the live credits taken within T."""
    count = backlog
    for t in sorted(live_times):
        if count / LIMIT <= t:
            break
        count += 1
    return count / LIMIT


async def fleet(args: argparse.Namespace, folder: Path, seed: int) -> Run:
    loop = asyncio.get_running_loop()
    assert isinstance(loop, VirtualLoop)
    wall_start = time.monotonic()
    rng = random.Random(seed)
    world = build_world(clock=VirtualSimClock(loop))
    net = Net(create_app(world), args.latency, random.Random(seed + 7))
    low, high = args.sale_gap
    kiosks = [
        await open_kiosk(net, folder, i, seed, rng.uniform(low, high)) for i in range(args.kiosks)
    ]
    start = loop.time()
    back_at = start + args.outage
    taken: dict[str, tuple[float, bool]] = {}
    shops = [
        asyncio.create_task(take_sales(k, random.Random(seed * 7919 + i), math.inf, back_at, taken))
        for i, k in enumerate(kiosks)
    ]
    await asyncio.sleep(back_at - loop.time())
    net.down = False
    backlog_ids = {eid for eid, (t, _) in taken.items() if t < back_at}
    sizes = sorted(sum(1 for eid in backlog_ids if k.name in eid) for k in kiosks)
    seen_before = len(net.seen)
    await asyncio.gather(*(k.outbox.retry_now() for k in kiosks))
    finished = True
    # The backlog drains; cashiers go on. Checked in memory (no file read per look).
    while not backlog_ids.issubset(net.settled):
        await asyncio.sleep(0.5)
        if time.monotonic() - wall_start > args.wall_limit:
            finished = False
            break
    drain_end = max((net.settled[e] for e in backlog_ids if e in net.settled), default=back_at)
    for shop in shops:
        shop.cancel()
    await asyncio.gather(*shops, return_exceptions=True)
    # The live credits of the drain's tail go too; then every outbox is empty.
    while finished and not set(taken).issubset(net.settled):
        await asyncio.sleep(0.5)
        if time.monotonic() - wall_start > args.wall_limit:
            finished = False
    pending = [(await k.outbox.status()).pending for k in kiosks]
    finished = finished and not any(pending)
    if any(pending):
        print(f"still pending at the end: {sum(pending)}")
    for k in kiosks:
        await k.sender.stop()
        await k.api.aclose()
        await k.worker.close()
    after = net.seen[seen_before:]
    refused = sum(1 for r in after if r[2] == 429)
    live_during = [(eid, t) for eid, (t, live) in taken.items() if live and t <= drain_end]
    live_waits = [net.settled[eid] - t for eid, t in live_during if eid in net.settled]
    minimum = minimum_drain(
        len(backlog_ids), [t - back_at for _, (t, live) in taken.items() if live]
    )
    ledger = Counter(op["externalId"] for op in SimControl(world).ledger())
    doubled = sum(1 for eid in taken if ledger.get(eid, 0) > 1)
    lost = sum(1 for eid in taken if ledger.get(eid, 0) == 0)
    sent_credits = len({r[3] for r in after if r[3]})
    buckets: dict[int, list[int]] = {}
    for at, _, status, _ in after:
        bucket = buckets.setdefault(int((at - back_at) // 10), [0, 0])
        bucket[0 if status != 429 else 1] += 1
    timeline = [f"{b * 10}s:{ok}/{no}" for b, (ok, no) in sorted(buckets.items())]
    return Run(
        kiosks=len(kiosks),
        backlog=len(backlog_ids),
        live=sum(1 for _, live in taken.values() if live),
        drained=drain_end - back_at,
        minimum=minimum,
        refused=refused,
        sent_credits=sent_credits,
        live_waits=live_waits,
        doubled=doubled,
        lost=lost,
        wall=time.monotonic() - wall_start,
        finished=finished,
        backlog_sizes=sizes,
        refusals=sum((k.share.refusals for k in kiosks), Counter[str]()),
        buckets=timeline,
    )


def report(run: Run, args: argparse.Namespace) -> None:
    waits = sorted(run.live_waits) or [0.0]
    p99 = waits[min(len(waits) - 1, int(0.99 * len(waits)))]
    sizes = run.backlog_sizes
    print(
        f"{run.kiosks} kiosks, {args.outage:.0f} s outage: backlog {run.backlog} credits "
        f"(per kiosk {sizes[0]}..{sizes[-1]}, median {statistics.median(sizes):g}); "
        f"{run.live} live credits taken after the return"
    )
    print(
        f"drained in {run.drained:.1f} s (virtual) after the return; minimum {run.minimum:.1f} s "
        f"(backlog + live credits meanwhile at 10/s): {run.ratio:.3f}x"
    )
    print(
        f"live credits during the drain: {len(run.live_waits)}, wait median "
        f"{statistics.median(waits):.2f} s, p99 {p99:.2f} s, longest {waits[-1]:.2f} s"
    )
    print(
        f"429s: {run.refused} for {run.sent_credits} credits sent = {run.per_credit:.3f} per "
        "credit; by what the kiosk held: "
        + ", ".join(f"{k} {v}" for k, v in sorted(run.refusals.items()))
    )
    if args.timeline:
        print("accepted/429s per 10 s after the return: " + " ".join(run.buckets))
    print(
        f"ledger: {run.doubled} duplicated, {run.lost} lost; wall time {run.wall:.1f} s"
        + ("" if run.finished else " (STOPPED at --wall-limit)")
    )


def passed(run: Run, args: argparse.Namespace) -> bool:
    return (
        run.finished
        and run.doubled == 0
        and run.lost == 0
        and run.ratio <= args.budget
        and max(run.live_waits, default=0.0) <= args.live_budget
        and run.per_credit < args.refusal_budget
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kiosks", type=int, default=200)
    parser.add_argument("--outage", type=float, default=3600.0, help="virtual seconds")
    parser.add_argument(
        "--sale-gap", type=float, nargs=2, default=(60.0, 600.0), metavar=("LOW", "HIGH"),
        help="each kiosk's mean seconds between sales, drawn in [LOW, HIGH]",
    )  # fmt: skip
    parser.add_argument("--latency", type=float, default=0.015, help="seconds each way")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--budget", type=float, default=1.2, help="drain / minimum")
    parser.add_argument("--live-budget", type=float, default=2.0, help="seconds")
    parser.add_argument("--refusal-budget", type=float, default=0.7, help="429s per credit")
    parser.add_argument("--timeline", action="store_true", help="requests per 10 s")
    parser.add_argument("--wall-limit", type=float, default=900.0, help="real seconds per run")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)  # every refused attempt logs a warning
    runs: list[Run] = []
    for n in range(args.runs):
        if args.runs > 1:
            print(f"-- run {n + 1} of {args.runs} (seed {args.seed + n})")
        with tempfile.TemporaryDirectory() as tmp:
            seed = args.seed + n
            try:
                run = run_virtual(
                    lambda seed=seed, tmp=tmp: fleet(args, Path(tmp), seed),
                    wall_limit=args.wall_limit + 10.0,  # the run's own checks come first
                )
            except WallLimit as stopped:
                print(f"STOPPED: {stopped}")
                return 1
        report(run, args)
        runs.append(run)
    ok = all(passed(r, args) for r in runs)
    print(
        f"budget (every credit once; drain <= {args.budget:g}x the minimum; live credits "
        f"<= {args.live_budget:g} s; 429s per credit < {args.refusal_budget:g}): "
        f"{'ok' if ok else 'MISSED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
