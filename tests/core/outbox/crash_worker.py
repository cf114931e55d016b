"""A kiosk process for the crash test: queues sales through the outbox and sends them.

Run by ``tests/core/outbox/test_crash.py`` (and ``tests/bench/soak.py``) against a
loopback simulator, and killed with SIGKILL at random moments::

    python tests/core/outbox/crash_worker.py --db PATH --url URL --sales 40 [--branch 1] [--key K]

Sale ``n`` always has the same external id, so a sale whose queueing a kill
interrupted (rolled back) is queued again after the restart, as the cashier
would redo it; a sale already queued is not queued twice (the outbox gives back
its row). Prints ``ready`` once the outbox is open and resumed, ``queued N``,
and ``drained`` before exiting 0 when every sale is settled.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import date
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from kiosk.api.client import LoyaltyClient
from kiosk.api.models.points import CreditClient, CreditRequest
from kiosk.api.retry import NO_RETRY
from kiosk.api.transport import Timeouts
from kiosk.core.counter.tickets import kiosk_external_id
from kiosk.core.db import DatabaseWorker
from kiosk.core.outbox.queue import Binding, JournalNote, Outbox
from kiosk.core.outbox.sender import Backoff, Sender

DAY = date(2026, 11, 22)
KIOSK_ID = "c0ffee00"
EMAILS_DOMAIN = "crash.example.org"


def sale_id(branch_id: int, n: int) -> str:
    token = f"{n:012d}"
    return kiosk_external_id(branch_id, DAY, KIOSK_ID, token=lambda: token)


def sale(branch_id: int, n: int) -> CreditRequest:
    return CreditRequest(
        external_id=sale_id(branch_id, n),
        client=CreditClient(email=f"sale{n % 7}@{EMAILS_DOMAIN}"),
        amount=float(1000 + 100 * n),
        branch_id=branch_id,
    )


async def main(args: argparse.Namespace) -> int:
    worker = DatabaseWorker(Path(args.db))
    await worker.start()
    api = LoyaltyClient(
        args.url,
        args.key,
        branch_id=args.branch,
        retry=NO_RETRY,
        timeouts=Timeouts(default=2.0, operation=2.0, connect=1.0),
    )
    outbox = Outbox(worker, Binding.of("training", args.url, args.key, args.branch))
    sender = Sender(outbox, api, backoff=Backoff(base=0.05, cap=0.4))
    try:
        await outbox.resume()
        print("ready", flush=True)
        task = sender.start()
        for n in range(args.sales):
            request = sale(args.branch, n)
            note = JournalNote(amount=Decimal(str(request.amount)))
            submitted = await outbox.submit_credit(request, journal=note)
            if submitted.created:
                print(f"queued {n}", flush=True)
            await asyncio.sleep(0.01)
        while (await outbox.status()).pending:
            if task.done():
                task.result()
            await asyncio.sleep(0.02)
        print("drained", flush=True)
        return 0
    finally:
        await sender.stop()
        await api.aclose()
        await worker.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--url", required=True)
    parser.add_argument("--key", default="sim-demo-key")  # the simulator's demo key
    parser.add_argument("--sales", type=int, default=40)
    parser.add_argument("--branch", type=int, default=1)
    sys.exit(asyncio.run(main(parser.parse_args())))
