"""A merchant's fleet after an outage: 20 kiosks, one 10/s limit, every credit once.

    .venv/bin/python tests/bench/fleet.py [--kiosks 20] [--credits 15] [--outage 6]

One simulator in its own process over loopback (its real 10/s merchant limit on).
Each kiosk has its own outbox file, its own client and its own client-side limiter
(as separate kiosk processes would: none of them knows the others' traffic), all
with the merchant's key, in one asyncio process. During the outage every request
is dropped before it is applied; the kiosks keep taking sales and their senders
back off. When the connection returns each kiosk is told (``retry_now``, what the
counter does when its own calls go through again) and they all drain at once: the
429s of the shared limit are expected and absorbed. Checked in the ledger: every
credit exactly once, none lost. Reported: drain time against the theoretical
minimum (credits / 10 per second).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from kiosk.api.client import LoyaltyClient
from kiosk.api.ratelimit import RateLimiter
from kiosk.api.retry import NO_RETRY
from kiosk.core.db import DatabaseWorker
from kiosk.core.outbox.queue import Binding, JournalNote, Outbox
from kiosk.core.outbox.sender import Sender
from tests.bench.outbox import BRANCH, KEY, control, credit, simulator

TAGS = r"^/external/tags/"


@dataclass
class Kiosk:
    name: str
    worker: DatabaseWorker
    api: LoyaltyClient
    outbox: Outbox
    sender: Sender


async def open_kiosk(url: str, folder: Path, index: int, seed: int) -> Kiosk:
    name = f"f{index:07x}"
    worker = DatabaseWorker(folder / f"kiosk-{index}.sqlite3")
    await worker.start()
    api = LoyaltyClient(url, KEY, branch_id=BRANCH, retry=NO_RETRY, limiter=RateLimiter())
    outbox = Outbox(worker, Binding.of("training", url, KEY, BRANCH))
    rng = random.Random(seed * 1000 + index)
    sender = Sender(outbox, api, random=rng.random)
    sender.start()
    return Kiosk(name, worker, api, outbox, sender)


async def take_sales(kiosk: Kiosk, credits: int, spread: float, rng: random.Random) -> None:
    for n in range(credits):
        await asyncio.sleep(rng.uniform(0, 2 * spread / credits))
        await kiosk.outbox.submit_credit(credit(kiosk.name, n), journal=JournalNote())


async def fleet(url: str, folder: Path, args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    control(url, "/_sim/faults", {"match": {"path": TAGS}, "kind": "drop", "apply": False,
                                  "count": None})  # fmt: skip
    kiosks = [await open_kiosk(url, folder, i, args.seed) for i in range(args.kiosks)]
    total = args.kiosks * args.credits
    await asyncio.gather(*(take_sales(k, args.credits, args.outage, rng) for k in kiosks))
    outage = control(url, "/_sim/health")["requests"]
    control(url, "/_sim/faults", method="DELETE")
    restored = time.perf_counter()
    await asyncio.gather(*(k.outbox.retry_now() for k in kiosks))
    while True:
        pending = [(await k.outbox.status()).pending for k in kiosks]
        if not any(pending):
            break
        await asyncio.sleep(0.05)
    drained = time.perf_counter() - restored
    attempts = sum(k.sender.stats.attempts for k in kiosks)
    for k in kiosks:
        await k.sender.stop()
        await k.api.aclose()
        await k.worker.close()
    log = control(url, "/_sim/requests")
    after = [r for r in log if r["seq"] > outage]
    statuses = Counter(str(r["status"]) for r in after)
    names = {k.name for k in kiosks}
    ledger = Counter(
        op["externalId"]
        for op in control(url, "/_sim/ledger")
        if op["externalId"].split("-")[2][1:] in names
    )
    doubled = sum(1 for n in ledger.values() if n > 1)
    lost = total - len(ledger)
    minimum = total / 10.0
    print(
        f"{args.kiosks} kiosks x {args.credits} credits = {total} queued during a "
        f"{args.outage:.0f} s outage ({outage} requests dropped)"
    )
    print(
        f"drained in {drained:.1f} s after the connection returned; theoretical minimum "
        f"{minimum:.1f} s ({total} / 10 per s): {drained / minimum:.2f}x"
    )
    print(
        f"after the outage: {len(after)} requests, "
        + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items()))
        + f"; {attempts} attempts by the senders in all"
    )
    print(f"ledger: {len(ledger)} credits, {doubled} duplicated, {lost} lost")
    return 0 if doubled == 0 and lost == 0 else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kiosks", type=int, default=20)
    parser.add_argument("--credits", type=int, default=15, help="credits per kiosk")
    parser.add_argument("--outage", type=float, default=6.0, help="seconds")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)  # every dropped or refused attempt logs a warning
    with tempfile.TemporaryDirectory() as tmp, simulator() as url:
        return asyncio.run(fleet(url, Path(tmp), args))


if __name__ == "__main__":
    sys.exit(main())
