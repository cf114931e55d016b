"""A merchant's fleet after an outage: 20 kiosks, one 10/s limit, every credit once.

    .venv/bin/python tests/bench/fleet.py [--kiosks 20] [--credits 15] [--outage 6]
        [--runs 1] [--seed 1] [--budget 1.2] [--timelines]

One simulator in its own process over loopback (its real 10/s merchant limit on).
Each kiosk has its own outbox file, its own client and its own client-side limiter
(as separate kiosk processes would: none of them knows the others' traffic), all
with the merchant's key, in one asyncio process. During the outage every request
is dropped before it is applied; the kiosks keep taking sales and their senders
back off. When the connection returns each kiosk is told (``retry_now``, what the
counter does when its own calls go through again) and they all drain at once: the
429s of the shared limit are expected and absorbed. Checked in the ledger: every
credit exactly once, none lost. Reported: drain time against the theoretical
minimum (credits / 10 per second), the 429s, and where the time over the minimum
went, read from the simulator's own request log (its ``time.monotonic``, the same
clock as ours on Linux):

- ``start``: from the connection's return to the first request at the server;
- ``window idle``: seconds of the merchant's window left unused between the first
  request and the last credit, while two kiosks or more still had rows (the gaps
  between kiosks) and while one kiosk alone had them (the tail);
- ``seen``: from the last credit to the bench seeing every outbox empty.

Each run has its own simulator (``--runs``, seeds ``--seed``, ``--seed`` + 1...).
``--timelines``: each kiosk's requests (seconds after the return; ``x`` a 429).
Exit status 1 when a credit is doubled or lost, or a run misses ``--budget``.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from kiosk.api.client import LoyaltyClient
from kiosk.api.ratelimit import RateLimiter
from kiosk.api.retry import NO_RETRY
from kiosk.core.db import DatabaseWorker
from kiosk.core.outbox.queue import Binding, JournalNote, Outbox
from kiosk.core.outbox.sender import Sender
from kiosk.core.outbox.share import Share
from tests.bench.outbox import BRANCH, KEY, control, credit, simulator

TAGS = r"^/external/tags/"
LIMIT, WINDOW = 10, 1.0  # the contract's /external/tags/* limit, per merchant


@dataclass
class Run:
    drained: float
    minimum: float
    refused: int
    doubled: int
    lost: int

    @property
    def ratio(self) -> float:
        return self.drained / self.minimum


class CountedShare(Share):
    """The sender's share, counting its 429s by what the kiosk held when refused."""

    def __init__(self) -> None:
        super().__init__()
        self.refusals: Counter[str] = Counter()
        self._owner = False  # the request in flight reuses a place the kiosk held

    def sending(self, now: float) -> None:
        self._owner = bool(self._taken) and self._taken[-1] > now - 2 * self.period
        super().sending(now)

    def refused(self, now: float, rand: float) -> bool:
        alone, probe = self.places is None, self._probing
        held = super().refused(now, rand)
        kind = (
            "alone" if alone else "probe" if probe else "place taken" if self._owner else "no place"
        )
        self.refusals[kind] += 1
        return held


@dataclass
class Kiosk:
    name: str
    worker: DatabaseWorker
    api: LoyaltyClient
    outbox: Outbox
    sender: Sender
    share: CountedShare


async def open_kiosk(url: str, folder: Path, index: int, seed: int) -> Kiosk:
    name = f"f{index:07x}"
    worker = DatabaseWorker(folder / f"kiosk-{index}.sqlite3")
    await worker.start()
    api = LoyaltyClient(url, KEY, branch_id=BRANCH, retry=NO_RETRY, limiter=RateLimiter())
    outbox = Outbox(worker, Binding.of("training", url, KEY, BRANCH))
    rng = random.Random(seed * 1000 + index)
    share = CountedShare()
    sender = Sender(outbox, api, random=rng.random, share=share)
    sender.start()
    return Kiosk(name, worker, api, outbox, sender, share)


async def take_sales(kiosk: Kiosk, credits: int, spread: float, rng: random.Random) -> None:
    for n in range(credits):
        await asyncio.sleep(rng.uniform(0, 2 * spread / credits))
        await kiosk.outbox.submit_credit(credit(kiosk.name, n), journal=JournalNote())


async def fleet(url: str, folder: Path, args: argparse.Namespace, seed: int) -> Run:
    rng = random.Random(seed)
    control(url, "/_sim/faults", {"match": {"path": TAGS}, "kind": "drop", "apply": False,
                                  "count": None})  # fmt: skip
    kiosks = [await open_kiosk(url, folder, i, seed) for i in range(args.kiosks)]
    total = args.kiosks * args.credits
    await asyncio.gather(*(take_sales(k, args.credits, args.outage, rng) for k in kiosks))
    outage = control(url, "/_sim/health")["requests"]
    control(url, "/_sim/faults", method="DELETE")
    restored = time.monotonic()
    await asyncio.gather(*(k.outbox.retry_now() for k in kiosks))
    while True:
        pending = [(await k.outbox.status()).pending for k in kiosks]
        if not any(pending):
            break
        await asyncio.sleep(0.05)
    drained = time.monotonic() - restored
    attempts = sum(k.sender.stats.attempts for k in kiosks)
    refusals = sum((k.share.refusals for k in kiosks), Counter[str]())
    for k in kiosks:
        await k.sender.stop()
        await k.api.aclose()
        await k.worker.close()
    log = control(url, "/_sim/requests")
    after = [r for r in log if r["seq"] > outage and r["path"].startswith("/external/tags/")]
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
    print(
        "429s by what the kiosk held: "
        + ", ".join(f"{k} {v}" for k, v in sorted(refusals.items()))
        + " (alone: before it knew of the fleet; no place: waiting for one; probe: asking "
        "for one more; place taken: another kiosk took a place it was about to reuse)"
    )
    print(where_the_time_went(after, restored, drained, minimum))
    print(f"ledger: {len(ledger)} credits, {doubled} duplicated, {lost} lost")
    if args.timelines:
        for name, line in sorted(timelines(after, restored).items()):
            print(f"  {name}: {line}")
    return Run(drained, minimum, statuses.get("429", 0), doubled, lost)


def kiosk_of(record: dict[str, Any]) -> str:
    external_id = record.get("external_id") or ""
    parts = external_id.split("-")
    return parts[2] if len(parts) > 2 else "?"


def unused(accepted: list[float], start: float, end: float) -> float:
    """Seconds of the merchant's window left unused in [start, end]: the integral of
    (LIMIT - requests counted in the window) / LIMIT."""
    if end <= start:
        return 0.0
    events = sorted([(t, 1) for t in accepted] + [(t + WINDOW, -1) for t in accepted])
    counted = sum(1 for t in accepted if start - WINDOW < t <= start)
    total, at = 0.0, start
    for t, change in events:
        if t <= start:
            continue
        if t >= end:
            break
        total += (t - at) * max(0, LIMIT - counted) / LIMIT
        at, counted = t, counted + change
    return total + (end - at) * max(0, LIMIT - counted) / LIMIT


def where_the_time_went(
    log: list[dict[str, Any]], restored: float, drained: float, minimum: float
) -> str:
    if not log:
        return "where the time went: no request after the outage"
    accepted = sorted(r["monotonic"] for r in log if r["status"] in (200, 201))
    first = min(r["monotonic"] for r in log)
    last = accepted[-1] if accepted else first
    finished = sorted(
        max(r["monotonic"] for r in log if kiosk_of(r) == name and r["status"] in (200, 201))
        for name in {kiosk_of(r) for r in log if r["status"] in (200, 201)}
    )
    alone = finished[-2] if len(finished) > 1 else first  # one kiosk left with rows from here
    refused = Counter(kiosk_of(r) for r in log if r["status"] == 429)
    per_kiosk = sorted(refused.get(name, 0) for name in {kiosk_of(r) for r in log})
    return (
        f"where the time went: {drained - minimum:+.1f} s over the minimum = start "
        f"{first - restored:.2f} s, window idle {unused(accepted, first, alone):.2f} s between "
        f"kiosks + {unused(accepted, alone, last):.2f} s in the tail (one kiosk left for "
        f"{last - alone:.2f} s), seen {restored + drained - last:.2f} s after the last "
        f"credit; kiosks done from {finished[0] - restored:.1f} to "
        f"{finished[-1] - restored:.1f} s; 429s per kiosk {per_kiosk[0]}..{per_kiosk[-1]} "
        f"(median {statistics.median(per_kiosk):g})"
    )


def timelines(log: list[dict[str, Any]], restored: float) -> dict[str, str]:
    lines: dict[str, list[str]] = defaultdict(list)
    for r in sorted(log, key=lambda r: r["monotonic"]):
        mark = "" if r["status"] in (200, 201) else "x" if r["status"] == 429 else f"!{r['status']}"
        lines[kiosk_of(r)].append(f"{r['monotonic'] - restored:.2f}{mark}")
    return {name: " ".join(items) for name, items in lines.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kiosks", type=int, default=20)
    parser.add_argument("--credits", type=int, default=15, help="credits per kiosk")
    parser.add_argument("--outage", type=float, default=6.0, help="seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=1, help="each with its own simulator")
    parser.add_argument("--budget", type=float, default=1.2, help="drain / minimum, per run")
    parser.add_argument("--timelines", action="store_true", help="each kiosk's requests")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)  # every dropped or refused attempt logs a warning
    runs: list[Run] = []
    for n in range(args.runs):
        if args.runs > 1:
            print(f"-- run {n + 1} of {args.runs} (seed {args.seed + n})")
        with tempfile.TemporaryDirectory() as tmp, simulator() as url:
            runs.append(asyncio.run(fleet(url, Path(tmp), args, args.seed + n)))
    ratios = [r.ratio for r in runs]
    refused = [r.refused for r in runs]
    if len(runs) > 1:
        print(
            f"{len(runs)} runs: drain/minimum {min(ratios):.2f}..{max(ratios):.2f} (median "
            f"{statistics.median(ratios):.2f}), 429s {min(refused)}..{max(refused)} (median "
            f"{statistics.median(refused):g})"
        )
    sound = all(r.doubled == 0 and r.lost == 0 for r in runs)
    within = all(ratio <= args.budget for ratio in ratios)
    print(f"budget (every credit once; drain <= {args.budget:g}x the minimum in every run): "
          f"{'ok' if sound and within else 'MISSED'}")  # fmt: skip
    return 0 if sound and within else 1


if __name__ == "__main__":
    sys.exit(main())
