"""Cancelling a credit from today's journal, against the simulator in process.

Each test credits for real through the API client, records the credit in a real
journal (SQLite in a temporary folder) and cancels it; the simulator's ledger and
the client's balance say what really happened.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

import pytest

from kiosk.api.client import LoyaltyClient
from kiosk.api.errors import ApiError, ErrorKind
from kiosk.api.models.points import CancelResult, CreditClient, CreditRequest
from kiosk.core.counter.cancel import CancelOutcome, can_cancel, cancel_credit
from kiosk.core.db import DatabaseWorker
from kiosk.core.journal import AsyncJournal, JournalEntry, OperationKind, Outcome, client_display
from kiosk.core.session import BranchInfo, CounterSession, SessionConfig
from kiosk.sim import create_app
from kiosk.sim.control import SimControl
from kiosk.sim.transport import SimTransport
from kiosk.sim.world import World
from tests.conftest import MAIN_KEY

T = TypeVar("T")
JUAN = 1  # seeded client: juan.perez@example.com


async def no_wait(seconds: float) -> None:
    await asyncio.sleep(0)


class Counter:
    """A session over the simulator with a real journal; counts journal notifications."""

    def __init__(self, world: World, tmp: Path) -> None:
        self.world = world
        self.control = SimControl(world)
        api = LoyaltyClient(
            f"http://sim-{uuid.uuid4().hex[:8]}.test",
            MAIN_KEY,
            branch_id=1,
            transport=SimTransport(create_app(world, controls=True)),
            sleep=no_wait,
        )
        self.worker = DatabaseWorker(tmp / "kiosk.sqlite3")
        config = SessionConfig("training", BranchInfo(1, "Sucursal Centro"), "k-test")
        self.session = CounterSession(api, AsyncJournal(self.worker), config)
        self.notified = 0
        self.session.journal_changed.connect(lambda _: self._count())

    def _count(self) -> None:
        self.notified += 1

    def client(self, client_id: int = JUAN) -> dict[str, Any]:
        return self.world.merchants[1].tables["clients"][client_id]

    def operation(self, external_id: str) -> dict[str, Any]:
        return next(op for op in self.control.ledger() if op.get("externalId") == external_id)

    async def credit(self, amount: str = "1500", ticket: str = "123") -> JournalEntry:
        """Credit the seeded client for real and journal it as the Points screen does."""
        record = self.client()
        external_id = f"b1-20260101-T{ticket}-{uuid.uuid4().hex[:6]}"
        result = await self.session.api.credit(
            CreditRequest(external_id, CreditClient(email=record["email"]), amount=float(amount))
        )
        assert result.operation is not None
        return await self.session.journal.record(
            OperationKind.CREDIT,
            Outcome.OK,
            client=client_display(record["name"], record["email"]),
            external_id=external_id,
            points=result.operation.points.total,
            amount=Decimal(amount),
            ticket=ticket,
        )


@pytest.fixture
def counter(sim_world: World, tmp_path: Path) -> Iterator[Counter]:
    return Counter(sim_world, tmp_path)


def run(counter: Counter, scenario: Callable[[], Coroutine[Any, Any, T]]) -> T:
    async def wrapped() -> T:
        await counter.worker.start()
        try:
            return await scenario()
        finally:
            await counter.session.api.aclose()
            await counter.worker.close()

    return asyncio.run(asyncio.wait_for(wrapped(), 20))


def test_cancel_takes_the_points_back_and_journals_it(counter: Counter) -> None:
    async def scenario() -> None:
        session = counter.session
        session.set_client(await session.api.search_client(counter.client()["email"]))
        before = counter.client()["score"]
        credit = await counter.credit()
        assert credit.points
        assert counter.client()["score"] == before + credit.points
        await session.refresh_client()
        assert session.client is not None
        assert session.client.balance == before + credit.points
        counter.notified = 0

        report = await cancel_credit(session, credit)

        assert report.outcome is CancelOutcome.CANCELED
        assert report.points == credit.points
        assert not report.already_canceled
        assert credit.external_id is not None
        assert counter.operation(credit.external_id)["state"] == "canceled"
        assert counter.client()["score"] == before
        assert session.client.balance == before  # the active client was read again
        rows = await session.journal.today()
        assert [(r.kind, r.outcome) for r in rows] == [
            (OperationKind.CANCEL, Outcome.OK),
            (OperationKind.CREDIT, Outcome.OK),
        ]
        cancel_row, credit_row = rows
        assert credit_row.canceled
        assert not can_cancel(credit_row)
        assert cancel_row == report.cancel_row
        assert cancel_row.points == -credit.points
        assert cancel_row.client == credit.client
        assert cancel_row.ticket == "123"
        assert cancel_row.external_id == credit.external_id
        assert counter.notified == 1

    run(counter, scenario)


def test_a_lost_answer_then_404_is_a_cancel_done(
    counter: Counter, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"^PUT /external/tags/cancel/")  # the dropped attempt and its retry
    session = counter.session

    async def scenario() -> None:
        session.set_client(await session.api.search_client(counter.client()["email"]))
        before = counter.client()["score"]
        credit = await counter.credit()
        await session.refresh_client()
        counter.control.add_fault("drop", r"^/external/tags/cancel/", method="PUT")

        report = await cancel_credit(session, credit)

        assert report.outcome is CancelOutcome.CANCELED
        assert report.already_canceled
        assert report.points == credit.points  # from the journal: the answer was lost
        puts = counter.control.requests(path=r"^/external/tags/cancel/")
        assert [(r["fault"], r["handler_status"]) for r in puts] == [("drop", 200), (None, 404)]
        assert counter.client()["score"] == before
        assert session.client is not None
        assert session.client.balance == before
        rows = await session.journal.today()
        assert rows[0].kind is OperationKind.CANCEL
        assert rows[0].points == -(credit.points or 0)
        assert rows[1].canceled

    run(counter, scenario)


def test_404_marks_the_credit_so_and_changes_nothing(counter: Counter) -> None:
    async def scenario() -> None:
        session = counter.session
        ghost = await session.journal.record(
            OperationKind.CREDIT,
            Outcome.OK,
            client="Ana · a***@example.com",
            external_id="b1-20260101-T999-never",
            points=300,
            ticket="999",
        )
        credit = await counter.credit()
        assert credit.external_id is not None
        await cancel_credit(session, credit)  # canceled here...
        stale = replace(credit, canceled_at=None)  # ...while another screen still showed it
        counter.notified = 0

        for entry in (ghost, stale):
            report = await cancel_credit(session, entry)
            assert report.outcome is CancelOutcome.NOT_FOUND
            assert report.cancel_row is None

        rows = {row.id: row for row in await session.journal.today()}
        assert rows[ghost.id].canceled
        assert not can_cancel(rows[ghost.id])
        kinds = [row.kind for row in rows.values()]
        assert kinds.count(OperationKind.CANCEL) == 1  # only the real cancel
        assert counter.notified == 2

    run(counter, scenario)


def test_a_failure_leaves_the_credit_cancelable(
    counter: Counter, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"^PUT /external/tags/cancel/")
    session = counter.session

    async def scenario() -> None:
        credit = await counter.credit()
        assert credit.external_id is not None
        counter.control.add_fault("status", r"^/external/tags/cancel/", status=503, count=4)
        with pytest.raises(ApiError) as raised:
            await cancel_credit(session, credit)
        assert raised.value.kind is ErrorKind.UNAVAILABLE
        assert counter.operation(credit.external_id)["state"] == "active"
        rows = await session.journal.today()
        assert len(rows) == 1
        assert can_cancel(rows[0])

    run(counter, scenario)


@pytest.mark.parametrize("data", [True, None, {}], ids=["true", "null", "empty-object"])
def test_a_cancels_2xx_of_another_shape_is_a_cancel_done(counter: Counter, data: Any) -> None:
    """The contract does not show the cancel's answer: the service applies it and says
    ``data: true`` (or nothing the kiosk reads); the counter journals a cancel."""
    session = counter.session
    body = {"success": True, "status": 200, "message": "OK", "data": data}

    async def scenario() -> None:
        before = counter.client()["score"]
        credit = await counter.credit()
        assert credit.external_id is not None
        cancel = r"^/external/tags/cancel/"
        counter.control.add_fault("status", cancel, status=200, body=body, apply=True)

        report = await cancel_credit(session, credit)

        assert report.outcome is CancelOutcome.CANCELED
        assert report.points == credit.points  # from the journal: the answer had none
        assert counter.operation(credit.external_id)["state"] == "canceled"
        assert counter.client()["score"] == before
        rows = await session.journal.today()
        assert [(r.kind, r.outcome) for r in rows] == [
            (OperationKind.CANCEL, Outcome.OK),
            (OperationKind.CREDIT, Outcome.OK),
        ]
        assert rows[1].canceled
        assert len(counter.control.requests(path=cancel)) == 1

    run(counter, scenario)


def test_the_send_step_can_be_replaced(counter: Counter) -> None:
    """The outbox (issue #5) will pass its own ``send``; the rest stays the same."""
    sent: list[str] = []

    async def queued(session: CounterSession, external_id: str) -> CancelResult:
        sent.append(external_id)
        return CancelResult(external_id=external_id, client_id=None, points=None)

    async def scenario() -> None:
        credit = await counter.credit()
        report = await cancel_credit(counter.session, credit, send=queued)
        assert sent == [credit.external_id]
        assert report.outcome is CancelOutcome.CANCELED
        assert report.points == credit.points
        assert counter.control.requests(path=r"^/external/tags/cancel/") == []

    run(counter, scenario)


def _entry(**changes: Any) -> JournalEntry:
    from datetime import UTC, date, datetime

    base = JournalEntry(
        id=1,
        at=datetime(2026, 1, 1, 15, tzinfo=UTC),
        local_date=date(2026, 1, 1),
        kind=OperationKind.CREDIT,
        outcome=Outcome.OK,
        external_id="b1-x",
        points=10,
    )
    return replace(base, **changes)


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({}, True),
        ({"kind": OperationKind.EXCHANGE}, False),
        ({"kind": OperationKind.CANCEL}, False),
        ({"outcome": Outcome.PENDING}, False),
        ({"outcome": Outcome.ALREADY_CREDITED}, False),
        ({"outcome": Outcome.FAILED}, False),
        ({"external_id": None}, False),
    ],
)
def test_which_rows_can_be_canceled(changes: dict[str, Any], expected: bool) -> None:
    assert can_cancel(_entry(**changes)) is expected


def test_a_row_that_cannot_be_canceled_is_refused(counter: Counter) -> None:
    async def scenario() -> None:
        with pytest.raises(ValueError, match="only an active credit"):
            await cancel_credit(counter.session, _entry(outcome=Outcome.FAILED))
        assert counter.control.requests() == []

    run(counter, scenario)
