"""Crediting a sale against the simulator in process (faults included), checked in
the simulator's ledger: fixed external ids, tickets, retries, refusals, the sender
seam. The sale's own state machine is in ``test_sale.py``."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from starlette.types import ASGIApp

from kiosk.api.client import LoyaltyClient
from kiosk.api.errors import ApiError, ErrorKind, Reason
from kiosk.api.models.points import CreditRequest, CreditResult, Preview, PreviewPoints
from kiosk.core.amounts import AmountError
from kiosk.core.counter.credit import MAYBE_APPLIED, CreditFlow
from kiosk.core.counter.sale import (
    CreditStatus,
    NoPreview,
    SaleError,
    SaleMode,
    SaleProblem,
    SaleState,
)
from kiosk.core.counter.tickets import ticket_external_id
from kiosk.core.db import DatabaseWorker
from kiosk.core.journal import AsyncJournal, Outcome
from kiosk.core.session import BranchInfo, CounterSession, SessionConfig
from kiosk.sim.control import SimControl
from kiosk.sim.seed_people import MAIN_SUSPENDED
from kiosk.sim.transport import SimTransport
from kiosk.sim.world import World
from tests.conftest import MAIN_KEY

DAY = date(2026, 11, 22)
KIOSK = "0a1b2c3d"
JUAN = "30123456"  # Juan Carlos Pérez, Plata (x1.25) in the seed
CREDIT = r"^/external/tags/add$"


def _preview(total: int = 10) -> Preview:
    return Preview(PreviewPoints(total=total, initial=total))


# -- against the simulator ---------------------------------------------------------------


async def _no_wait(seconds: float) -> None:
    await asyncio.sleep(0)


@asynccontextmanager
async def counter(app: ASGIApp, world: World, tmp_path: Path) -> AsyncIterator[CounterSession]:
    """A counter session over the simulator (retries without real waits)."""
    merchant = world.merchants[1]
    branch = merchant.tables["branches"][min(merchant.tables["branches"])]
    api = LoyaltyClient(
        f"http://sim-{uuid.uuid4().hex[:8]}.test",
        MAIN_KEY,
        branch_id=branch["id"],
        transport=SimTransport(app),
        sleep=_no_wait,
    )
    worker = DatabaseWorker(tmp_path / f"{uuid.uuid4().hex[:6]}.sqlite3")
    await worker.start()
    config = SessionConfig("training", BranchInfo(branch["id"], branch["name"]), KIOSK)
    session = CounterSession(api, AsyncJournal(worker), config)
    try:
        yield session
    finally:
        await api.aclose()
        await worker.close()


Scenario = Callable[[CounterSession, CreditFlow, SimControl], Coroutine[Any, Any, None]]


def run(app: ASGIApp, world: World, tmp_path: Path, scenario: Scenario, who: str = JUAN) -> None:
    async def main() -> None:
        async with counter(app, world, tmp_path) as session:
            session.set_client(await session.api.search_client(who))
            flow = CreditFlow(session, today=lambda: DAY)
            await scenario(session, flow, SimControl(world))

    asyncio.run(main())


def ops_with(control: SimControl, external_id: str) -> list[dict[str, Any]]:
    return [op for op in control.ledger() if op.get("externalId") == external_id]


def client_record(world: World, client_id: int) -> dict[str, Any]:
    record: dict[str, Any] = world.merchants[1].tables["clients"][client_id]
    return record


def test_credit_by_amount_end_to_end(sim_app: ASGIApp, sim_world: World, tmp_path: Path) -> None:
    async def scenario(session: CounterSession, flow: CreditFlow, control: SimControl) -> None:
        client = session.client
        assert client is not None
        journal_events: list[None] = []
        session.journal_changed.connect(journal_events.append)
        flow.sale.set_amount_text("1.234,56")
        preview = await flow.preview()
        assert flow.sale.amount == Decimal("1234.56")
        assert preview.points.initial == 12
        assert preview.points.total == 15
        attempt = flow.begin_credit()
        request = attempt.request
        assert request.amount == 1234.56
        assert request.point_items is None
        assert request.client.email == client.email
        assert request.branch_id == session.config.branch.id
        assert request.extra_data is not None
        assert request.extra_data[0]["kiosk_id"] == KIOSK
        outcome = await flow.complete_credit(attempt)
        assert outcome.status is CreditStatus.CREDITED
        assert outcome.points == 15
        assert outcome.balance == client.balance + 15
        assert session.client is not None
        assert session.client.balance == client.balance + 15
        assert client_record(sim_world, client.id)["score"] == client.balance + 15
        [op] = ops_with(control, outcome.external_id)
        assert op["totalPoints"] == 15
        assert op["origin"] == "external-integration"
        assert json.loads(op["extra_data"])[0]["kiosk_id"] == KIOSK
        assert outcome.external_id.startswith(f"b{session.config.branch.id}-20261122-k{KIOSK}-")
        [row] = await session.journal.today()
        assert (row.outcome, row.points, row.amount) == (Outcome.OK, 15, Decimal("1234.56"))
        assert row.external_id == outcome.external_id
        assert journal_events == [None]  # the Today screen was told
        assert "Juan Carlos" in row.client
        assert "***@" in row.client
        assert client.email is not None
        assert client.email not in row.client
        assert flow.sale.state is SaleState.DONE
        first_id = outcome.external_id
        flow.new_sale()
        flow.sale.set_amount_text("500")
        await flow.preview()
        again = await flow.credit()
        assert again.external_id != first_id  # a new sale, a new id

    run(sim_app, sim_world, tmp_path, scenario)


def test_credit_by_items_sends_repeated_ids(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(session: CounterSession, flow: CreditFlow, control: SimControl) -> None:
        items = sorted(sim_world.merchants[1].tables["point_items"].values(), key=lambda i: i["id"])
        fixed = next(i for i in items if i["points"] and i["branchId"] is None)
        priced = next(i for i in items if i["amount"] and i["branchId"] is None)
        flow.sale.set_mode(SaleMode.ITEMS)
        for item_id in (fixed["id"], priced["id"], fixed["id"]):
            flow.sale.add_item(item_id)
        preview = await flow.preview()
        attempt = flow.begin_credit()
        assert attempt.request.point_items == [fixed["id"], fixed["id"], priced["id"]]
        outcome = await flow.complete_credit(attempt)
        assert outcome.points == preview.points.total
        [op] = ops_with(control, outcome.external_id)
        assert op["points"]["selectedRewardType"] == "items"
        units = {entry["id"]: entry["units"] for entry in op["items"]}
        assert units == {fixed["id"]: 2, priced["id"]: 1}
        [row] = await session.journal.today()
        assert row.amount == Decimal(str(priced["amount"]))

    run(sim_app, sim_world, tmp_path, scenario)


def test_ticket_id_and_a_ticket_already_credited(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(session: CounterSession, flow: CreditFlow, control: SimControl) -> None:
        expected = ticket_external_id(session.config.branch.id, DAY, "0003-00012345")
        flow.sale.set_amount_text("2.000")
        flow.sale.set_ticket_text("0003 00012345")
        await flow.preview()
        first = await flow.credit()
        assert first.external_id == expected
        assert first.status is CreditStatus.CREDITED
        balance = client_record(sim_world, first.operation.client_id)["score"]  # type: ignore[union-attr]
        # The same ticket again, as a new sale: the API refuses the id at the first attempt.
        flow.new_sale()
        flow.sale.set_amount_text("2.000")
        flow.sale.set_ticket_text("0003-00012345")
        await flow.preview()
        again = await flow.credit()
        assert again.status is CreditStatus.ALREADY_CREDITED
        assert again.points is None
        assert len(ops_with(control, expected)) == 1
        assert client_record(sim_world, first.operation.client_id)["score"] == balance  # type: ignore[union-attr]
        rows = await session.journal.today()
        assert [r.outcome for r in rows] == [Outcome.ALREADY_CREDITED, Outcome.OK]
        assert rows[0].ticket == "0003-00012345"
        assert rows[0].points is None

    run(sim_app, sim_world, tmp_path, scenario)


@pytest.mark.parametrize("ticket", ["", "0007-1"])
def test_dropped_connection_resends_the_same_id_once_in_the_ledger(
    sim_app: ASGIApp,
    sim_world: World,
    tmp_path: Path,
    ticket: str,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"tags/add")

    async def scenario(session: CounterSession, flow: CreditFlow, control: SimControl) -> None:
        flow.sale.set_amount_text("3.000")
        flow.sale.set_ticket_text(ticket)
        await flow.preview()
        control.add_fault("drop", CREDIT, method="POST", count=1)
        outcome = await flow.credit()
        # Applied, answer lost, resent with the same id: the 409 is our own credit.
        assert outcome.status is CreditStatus.CREDITED
        assert outcome.confirmed_by_duplicate
        assert outcome.points == flow.sale.preview.points.total  # type: ignore[union-attr]
        assert len(ops_with(control, outcome.external_id)) == 1
        sent = control.requests(path=CREDIT, method="POST")
        assert [r.get("external_id") for r in sent] == [outcome.external_id] * 2
        [row] = await session.journal.today()
        assert row.outcome is Outcome.OK

    run(sim_app, sim_world, tmp_path, scenario)


def test_own_retry_after_a_lost_answer_is_success_even_on_a_ticket(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"tags/add")

    async def scenario(session: CounterSession, flow: CreditFlow, control: SimControl) -> None:
        flow.sale.set_amount_text("4.000")
        flow.sale.set_ticket_text("0009-77")
        await flow.preview()
        control.add_fault("drop", CREDIT, method="POST", count=4)  # every attempt of the call
        with pytest.raises(ApiError) as lost:
            await flow.credit()
        assert lost.value.kind is ErrorKind.NETWORK
        sale = flow.sale
        assert sale.state is SaleState.FAILED
        assert sale.maybe_applied
        external_id = sale.external_id
        assert external_id is not None
        assert len(ops_with(control, external_id)) == 1
        outcome = await flow.credit()  # the cashier taps "Try again": same id, a 409
        assert outcome.external_id == external_id
        assert outcome.status is CreditStatus.CREDITED
        assert outcome.confirmed_by_duplicate
        assert len(ops_with(control, external_id)) == 1
        rows = await session.journal.today()
        assert [r.outcome for r in rows] == [Outcome.OK, Outcome.FAILED]
        assert MAYBE_APPLIED in rows[1].detail

    run(sim_app, sim_world, tmp_path, scenario)


def test_a_new_sale_of_a_ticket_whose_answer_was_lost_is_ours(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"tags/add")

    async def scenario(session: CounterSession, flow: CreditFlow, control: SimControl) -> None:
        flow.sale.set_amount_text("4.000")
        flow.sale.set_ticket_text("0009-78")
        await flow.preview()
        control.add_fault("drop", CREDIT, method="POST", count=4)
        with pytest.raises(ApiError):
            await flow.credit()
        flow.new_sale()  # the cashier left and came back: the journal remembers the doubt
        flow.sale.set_amount_text("4.000")
        flow.sale.set_ticket_text("0009-78")
        await flow.preview()
        outcome = await flow.credit()
        assert outcome.status is CreditStatus.CREDITED
        assert outcome.confirmed_by_duplicate

    run(sim_app, sim_world, tmp_path, scenario)


@pytest.mark.parametrize("status", [429, 503])
def test_busy_or_unavailable_once_is_retried_by_the_client(
    sim_app: ASGIApp,
    sim_world: World,
    tmp_path: Path,
    status: int,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"tags/add.*retry")

    async def scenario(session: CounterSession, flow: CreditFlow, control: SimControl) -> None:
        flow.sale.set_amount_text("1.500")
        await flow.preview()
        control.add_fault("status", CREDIT, method="POST", status=status, count=1)
        outcome = await flow.credit()
        assert outcome.status is CreditStatus.CREDITED
        assert not outcome.confirmed_by_duplicate
        assert len(ops_with(control, outcome.external_id)) == 1
        assert len(control.requests(path=CREDIT, method="POST")) == 2

    run(sim_app, sim_world, tmp_path, scenario)


def test_refusals_leave_the_sale_to_fix(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"tags/add")

    async def scenario(session: CounterSession, flow: CreditFlow, control: SimControl) -> None:
        flow.sale.set_amount_text("0,50")  # half a point: nothing to credit
        with pytest.raises(ApiError) as none:
            await flow.preview()
        assert none.value.reason is Reason.NO_POINTS
        assert flow.sale.state is SaleState.EDITING
        flow.sale.set_amount_text("-5")
        with pytest.raises(AmountError):
            await flow.preview()
        flow.sale.set_mode(SaleMode.ITEMS)
        with pytest.raises(SaleError) as empty:
            await flow.preview()
        assert empty.value.problem is SaleProblem.EMPTY_BASKET
        with pytest.raises(SaleError):
            flow.begin_credit()  # never previewed
        assert control.requests(path=CREDIT, method="POST") == []

    run(sim_app, sim_world, tmp_path, scenario)


def test_a_suspended_client_is_refused(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"tags/add")

    async def scenario(session: CounterSession, flow: CreditFlow, control: SimControl) -> None:
        flow.sale.set_amount_text("1.000")
        with pytest.raises(ApiError) as refused:
            await flow.preview()
        assert refused.value.kind is ErrorKind.SUSPENDED
        # Even without a preview the API refuses the credit (the flow would need one).
        assert session.client is not None
        flow.sale.previewed(
            _preview(),
            client_id=session.client.id,
            amount=Decimal(1000),
            revision=flow.sale.revision,
        )
        with pytest.raises(ApiError) as credit:
            await flow.credit()
        assert credit.value.kind is ErrorKind.SUSPENDED
        assert flow.sale.state is SaleState.FAILED
        assert not flow.sale.maybe_applied
        [row] = await session.journal.today()
        assert row.outcome is Outcome.FAILED
        assert row.detail == "suspended"
        assert flow.sale.external_id
        assert ops_with(control, flow.sale.external_id) == []

    run(sim_app, sim_world, tmp_path, scenario, who=MAIN_SUSPENDED)


class _Sender:
    """A sender that fails first, then answers (the outbox's seam)."""

    def __init__(self) -> None:
        self.requests: list[CreditRequest] = []

    async def send(self, request: CreditRequest) -> CreditResult:
        self.requests.append(request)
        if len(self.requests) == 1:
            error = ApiError(ErrorKind.TIMEOUT)
            error.after_lost_answer = True
            raise error
        return CreditResult(request.external_id, None, already_credited=True)


def test_the_sender_is_one_seam_and_sees_one_id_per_sale(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(session: CounterSession, flow: CreditFlow, control: SimControl) -> None:
        sender = _Sender()
        flow.sender = sender
        flow.sale.set_amount_text("800")
        await flow.preview()
        with pytest.raises(ApiError):
            await flow.credit()
        outcome = await flow.credit()
        assert outcome.confirmed_by_duplicate
        assert [r.external_id for r in sender.requests] == [outcome.external_id] * 2
        assert control.requests(path=CREDIT, method="POST") == []

    run(sim_app, sim_world, tmp_path, scenario)


def test_a_second_credit_of_a_crediting_sale_is_refused(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(session: CounterSession, flow: CreditFlow, control: SimControl) -> None:
        flow.sale.set_amount_text("700")
        await flow.preview()
        attempt = flow.begin_credit()
        with pytest.raises(SaleError) as twice:
            flow.begin_credit()
        assert twice.value.problem is SaleProblem.BUSY
        outcome = await flow.complete_credit(attempt)
        assert len(ops_with(control, outcome.external_id)) == 1
        assert len(control.requests(path=CREDIT, method="POST")) == 1

    run(sim_app, sim_world, tmp_path, scenario)


PREVIEW = r"^/external/tags/add/preview$"


@pytest.mark.parametrize(
    "data", [{}, {"puntos": 15, "ok": True}, None], ids=["empty", "unexpected", "null"]
)
def test_a_preview_answered_without_figures_goes_on_to_one_credit(
    sim_app: ASGIApp,
    sim_world: World,
    tmp_path: Path,
    expect_log: Callable[[str], None],
    data: dict[str, Any] | None,
) -> None:
    """The contract does not show the preview's shape: a 2xx without the figures is no
    error; the sale goes on without them and the credit gives what the service computes."""
    expect_log(r"preview unavailable")
    body = {"success": True, "status": 200, "message": "OK", "data": data}

    async def scenario(session: CounterSession, flow: CreditFlow, control: SimControl) -> None:
        control.add_fault("status", PREVIEW, status=200, body=body)
        flow.sale.set_amount_text("1.234,56")
        assert await flow.preview() is None
        sale = flow.sale
        assert sale.state is SaleState.PREVIEWED
        assert sale.no_preview is NoPreview.UNAVAILABLE
        assert sale.preview is None
        assert sale.amount == Decimal("1234.56")
        outcome = await flow.credit()
        assert outcome.status is CreditStatus.CREDITED
        [op] = ops_with(control, outcome.external_id)
        assert outcome.points == op["totalPoints"] == 15  # the credit's answer: the figures
        assert len(control.requests(path=CREDIT, method="POST")) == 1

    run(sim_app, sim_world, tmp_path, scenario)
