"""A cancel answered with points the contract forbids (issue #22, item 10): the cancel
is done (a cancel's 2xx is the cancel), and the journal keeps the credit's own points,
never 10**400 (which SQLite cannot even store) nor a sign the server chose."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kiosk.core.counter.cancel import CancelOutcome, cancel_credit
from kiosk.core.journal import OperationKind, Outcome
from kiosk.sim.world import World
from tests.core.counter.test_cancel import Counter, run

CANCEL = r"^/external/tags/cancel/"


@pytest.mark.parametrize("total", [10**400, -50], ids=["10^400", "negative"])
def test_a_cancel_answered_with_points_the_contract_forbids_journals_the_credits_own(
    sim_world: World, tmp_path: Path, total: Any
) -> None:
    counter = Counter(sim_world, tmp_path)
    points = {"amount": 1500, "initialPointsToGive": 15, "totalPointsToGive": total}
    body = {"success": True, "status": 200, "message": "OK", "data": {"points": points}}

    async def scenario() -> None:
        credit = await counter.credit()
        assert credit.external_id is not None
        assert credit.points
        counter.control.add_fault("status", CANCEL, status=200, body=body, apply=True)
        report = await cancel_credit(counter.session, credit)
        assert report.outcome is CancelOutcome.CANCELED
        assert report.points == credit.points
        assert counter.operation(credit.external_id)["state"] == "canceled"
        rows = await counter.session.journal.today()
        assert [(r.kind, r.outcome, r.points) for r in rows] == [
            (OperationKind.CANCEL, Outcome.OK, -credit.points),
            (OperationKind.CREDIT, Outcome.OK, credit.points),
        ]

    run(counter, scenario)
