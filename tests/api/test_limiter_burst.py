"""A burst of 50 credits against the rate-limited simulator, in real time (~4.5 s).

The simulator counts requests to ``/external/tags/*`` per merchant in a sliding
one-second window and answers 429 beyond 10. The client's limiter must keep every
window at 10 or fewer, so no 429 is ever seen, and must serve the cashier's credits
before the outbox's backlog.
"""

from __future__ import annotations

import asyncio

from kiosk.api import LoyaltyClient, Timeouts
from kiosk.api.models import CreditClient, CreditRequest
from kiosk.sim.control import SimControl
from tests.api.conftest import run
from tests.api.support import JUAN_DNI
from tests.conftest import MAIN_KEY


def test_burst_of_50_credits_never_exceeds_10_per_second(
    sim_url: str, control: SimControl, main_branches: list[int]
) -> None:
    async def scenario() -> None:
        async with LoyaltyClient(
            sim_url,
            MAIN_KEY,
            branch_id=main_branches[0],
            timeouts=Timeouts(default=60, operation=60),  # no retry on a loaded machine
        ) as api:

            def credit(external_id: str, background: bool) -> asyncio.Task[object]:
                request = CreditRequest(external_id, CreditClient(document=JUAN_DNI), amount=1000)
                return asyncio.ensure_future(api.credit(request, background=background))

            backlog = [credit(f"OUTBOX-{i:02d}", True) for i in range(25)]
            # The backlog's first ten are on the wire before the cashier starts (one loop
            # turn was assumed before; a loaded machine needed more): then the cashier's 25
            # must pass the 15 the limiter still holds.
            deadline = asyncio.get_running_loop().time() + 10
            while len(control.requests(path="^/external/tags/")) < 10:
                assert asyncio.get_running_loop().time() < deadline, "the backlog never went"
                await asyncio.sleep(0.005)
            counter = [credit(f"COUNTER-{i:02d}", False) for i in range(25)]
            results = await asyncio.gather(*backlog, *counter)
        assert all(not r.already_credited for r in results)  # type: ignore[attr-defined]

    run(scenario())
    log = control.requests(path="^/external/tags/")
    assert len(log) == 50
    assert [r["status"] for r in log] == [201] * 50  # never a 429
    arrivals = [r["monotonic"] for r in log]
    busiest = max(sum(1 for u in arrivals if t <= u < t + 1.0) for t in arrivals)
    assert busiest <= 10
    order = [r["external_id"] for r in log]
    # The first ten of the backlog went at once; then the cashier's credits, all 25,
    # before the rest of the backlog: the two full windows after the first are theirs.
    assert all(eid.startswith("OUTBOX-") for eid in order[:10])
    assert all(eid.startswith("COUNTER-") for eid in order[10:30])
    assert len({op["externalId"] for op in control.ledger()} & set(order)) == 50
