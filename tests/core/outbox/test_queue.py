"""The outbox's rows: durable before the first attempt, bound, visible, never dropped."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable, Coroutine
from datetime import date
from pathlib import Path
from typing import Any, TypeVar

import pytest
from starlette.types import ASGIApp

from kiosk.api.models.clients import Gender
from kiosk.api.models.points import CreditClient, CreditRequest, GiftCard
from kiosk.core.db import DatabaseWorker, open_database
from kiosk.core.journal import AsyncJournal, OperationKind, Outcome
from kiosk.core.outbox.body import BodyError, credit_body, credit_request, redacted_body
from kiosk.core.outbox.queue import (
    Binding,
    Outbox,
    OutboxError,
    OutboxStatus,
    Resolution,
    RowKind,
    RowState,
    SwitchRefused,
)
from kiosk.core.outbox.store import OutboxStore
from kiosk.sim import DEFAULT_API_KEY
from kiosk.sim.world import World
from tests.core.outbox.harness import BASE_URL, Kiosk, VirtualTime, email, run_kiosk

T = TypeVar("T")
KEY = "sk-live-do-not-store-9f8e7d"
TRAINING = Binding.of("training", BASE_URL, KEY, 3)
TICKET = "b3-20261122-T0003-00012345"
KIOSK_MADE = "b3-20261122-k0a1b2c3d-00000000000a"


class ThreadRecordingWorker(DatabaseWorker):
    """Remembers the thread every call of the outbox ran in."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.threads: set[str] = set()

    async def run(self, call: Callable[[sqlite3.Connection], T]) -> T:
        def recorded(conn: sqlite3.Connection) -> T:
            self.threads.add(threading.current_thread().name)
            return call(conn)

        return await super().run(recorded)


def request(external_id: str | None = KIOSK_MADE, **client: Any) -> CreditRequest:
    who = CreditClient(**(client or {"email": "ana.perez@gmail.com"}))
    return CreditRequest(external_id, who, amount=1234.5, extra_data=[{"kiosk_id": "0a1b2c3d"}])


Scenario = Callable[[Outbox, ThreadRecordingWorker, VirtualTime], Coroutine[Any, Any, None]]


def run(tmp_path: Path, scenario: Scenario, binding: Binding = TRAINING) -> None:
    async def main() -> None:
        worker = ThreadRecordingWorker(tmp_path / "kiosk.sqlite3")
        await worker.start()
        clock = VirtualTime()
        try:
            await scenario(Outbox(worker, binding, clock=clock.time), worker, clock)
        finally:
            await worker.close()

    asyncio.run(main())


# -- bodies -----------------------------------------------------------------------------------


def test_the_body_is_the_wire_body_and_comes_back_unchanged() -> None:
    full = request(
        email="ana.perez@gmail.com",
        document="30123456",
        first_name="Ana",
        last_name="Pérez",
        phone="+54 11 5555-0000",
        birthday=date(1990, 5, 17),
        gender=Gender.FEMALE,
    )
    body = credit_body(full, branch_id=3)
    assert body["external_id"] == KIOSK_MADE
    assert body["branch_id"] == 3
    assert body["client"]["dni"] == "30123456"
    assert credit_request(body).to_json(origin=body["origin"], branch_id=None) == body
    redacted = redacted_body(body)
    assert redacted["client"] == {"email": "a***@gmail.com", "dni": "****3456"}
    assert "Ana" not in str(redacted)
    assert "5555" not in str(redacted)
    with pytest.raises(BodyError, match="blanked"):
        credit_request(redacted)


def test_a_credit_without_id_or_with_gift_cards_is_not_queued() -> None:
    with pytest.raises(BodyError, match="external id"):
        credit_body(request(None), branch_id=3)
    gift = CreditRequest(
        KIOSK_MADE, CreditClient(email="a@b.co"), amount=1, gift_cards=[GiftCard("c@d.co")]
    )
    with pytest.raises(BodyError, match="gift cards"):
        credit_body(gift, branch_id=3)


# -- rows ---------------------------------------------------------------------------------------


def test_a_credit_is_durable_before_any_attempt_and_off_the_loop_thread(tmp_path: Path) -> None:
    async def scenario(outbox: Outbox, worker: ThreadRecordingWorker, _: VirtualTime) -> None:
        submitted = await outbox.submit_credit(request(TICKET))
        assert submitted.created
        row = submitted.row
        assert (row.kind, row.state, row.attempts, row.ticket_typed) == (
            RowKind.CREDIT,
            RowState.PENDING,
            0,
            True,
        )
        assert row.binding == TRAINING
        assert row.client_label == "a***@gmail.com"
        again = await outbox.submit_credit(request(TICKET, email="other@x.com"))
        assert not again.created
        assert again.row.id == row.id
        assert again.row.body["client"]["email"] == "ana.perez@gmail.com"
        assert worker.threads == {t for t in worker.threads if t.startswith("kiosk-db")}
        assert threading.current_thread().name not in worker.threads

    run(tmp_path, scenario)
    # Another connection (as after a power cut) sees the row; the key is nowhere.
    conn = open_database(tmp_path / "kiosk.sqlite3")
    [stored] = OutboxStore(conn).rows(RowState.PENDING)
    assert stored.external_id == TICKET
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    for file in tmp_path.iterdir():
        assert KEY.encode() not in file.read_bytes()


def test_begin_attempt_marks_sending_and_maybe_arrived_and_resume_puts_it_back(
    tmp_path: Path,
) -> None:
    async def scenario(outbox: Outbox, _: ThreadRecordingWorker, clock: VirtualTime) -> None:
        row = (await outbox.submit_credit(request())).row
        before = await outbox.begin_attempt(row.id)
        assert before is not None
        assert not before.may_have_reached_server
        assert await outbox.begin_attempt(row.id) is None  # not pending: nobody sends it twice
        sending = await outbox.get(row.id)
        assert sending is not None
        assert (sending.state, sending.attempts, sending.may_have_reached_server) == (
            RowState.SENDING,
            1,
            True,
        )
        assert sending.first_attempt_at == clock.now
        assert await outbox.resume() == 1
        resumed = await outbox.get(row.id)
        assert resumed is not None
        assert (resumed.state, resumed.may_have_reached_server) == (RowState.PENDING, True)
        assert resumed.external_id == row.external_id

    run(tmp_path, scenario)


def test_the_next_row_is_the_oldest_of_this_binding_after_its_credit(tmp_path: Path) -> None:
    async def scenario(outbox: Outbox, _: ThreadRecordingWorker, __: VirtualTime) -> None:
        first = (await outbox.submit_credit(request("b3-20261122-T1"))).row
        await outbox.begin_attempt(first.id)
        await outbox.reschedule(first.id, reached=True, wait=5, error_kind="timeout", error="x")
        cancel = (await outbox.submit_cancel(first.external_id)).row
        assert cancel.state is RowState.PENDING  # the credit may have arrived
        second = (await outbox.submit_credit(request("b3-20261122-T2"), live=True)).row
        assert (await outbox.next_row(TRAINING)) == second  # live first
        assert outbox.take_live(second.id)
        assert not outbox.take_live(second.id)
        assert (await outbox.next_row(TRAINING)) == await outbox.get(first.id)
        await outbox.settle(first.id, RowState.DONE, Resolution.CREDITED, points=12)
        assert (await outbox.next_row(TRAINING)) == cancel  # now the cancel may go
        elsewhere = Binding.of("production", "https://api.example", KEY, 3)
        assert await outbox.next_row(elsewhere) is None

    run(tmp_path, scenario)


def test_cancel_voids_a_never_sent_credit_and_refuses_what_cannot_be_canceled(
    tmp_path: Path,
) -> None:
    async def scenario(outbox: Outbox, worker: ThreadRecordingWorker, _: VirtualTime) -> None:
        journal = AsyncJournal(worker)
        entry = await journal.record(OperationKind.CREDIT, Outcome.PENDING, external_id=TICKET)
        credit = (await outbox.submit_credit(request(TICKET), journal=entry.id)).row
        settled: list[Resolution] = []
        outbox.settled.connect(lambda s: settled.append(s.resolution))
        cancel = await outbox.submit_cancel(TICKET)
        assert cancel.row.state is RowState.VOIDED
        assert cancel.voided is not None
        assert cancel.voided.id == credit.id
        assert settled == [Resolution.VOIDED, Resolution.VOIDED]
        assert "ana.perez" not in str(cancel.voided.body)
        [row] = await journal.today()
        assert (row.outcome, row.canceled) == (Outcome.VOIDED, True)
        assert await outbox.next_row(TRAINING) is None
        again = await outbox.submit_cancel(TICKET)
        assert not again.created
        other = (await outbox.submit_credit(request(KIOSK_MADE))).row
        await outbox.settle(other.id, RowState.DONE, Resolution.ALREADY_CREDITED)
        with pytest.raises(OutboxError, match="credited before"):
            await outbox.submit_cancel(KIOSK_MADE)

    run(tmp_path, scenario)


def test_switching_environment_key_or_branch_is_refused_while_rows_wait(
    tmp_path: Path, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"discarded")

    async def scenario(outbox: Outbox, _: ThreadRecordingWorker, __: VirtualTime) -> None:
        await outbox.check_switch(Binding.of("production", "https://api.example", "k", 1))
        row = (await outbox.submit_credit(request())).row
        await outbox.check_switch(TRAINING)  # the same place: fine
        for other, what in [
            (Binding.of("production", "https://api.example", KEY, 3), "environment"),
            (Binding.of("training", BASE_URL, "another-key", 3), "API key"),
            (Binding.of("training", BASE_URL, KEY, 4), "branch"),
            (Binding.of("training", "http://sim.other", KEY, 3), "server address"),
        ]:
            with pytest.raises(SwitchRefused, match=what) as refused:
                await outbox.switch(other)
            assert refused.value.waiting == 1
            assert KEY not in str(refused.value)
        await outbox.begin_attempt(row.id)
        await outbox.settle(row.id, RowState.DEAD, Resolution.REJECTED, error_kind="x")
        with pytest.raises(SwitchRefused):  # a dead letter still belongs to training
            await outbox.check_switch(Binding.of("production", "https://api.example", KEY, 3))
        await outbox.discard(row.id)
        await outbox.switch(Binding.of("production", "https://api.example", KEY, 3))
        assert outbox.binding.environment == "production"

    run(tmp_path, scenario)


def test_status_lists_events_and_the_24_hour_warning(
    tmp_path: Path, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"discarded")

    async def scenario(outbox: Outbox, _: ThreadRecordingWorker, clock: VirtualTime) -> None:
        seen: list[OutboxStatus] = []
        outbox.status_changed.connect(seen.append)
        first = (await outbox.submit_credit(request("b3-20261122-T1"))).row
        second = (await outbox.submit_credit(request("b3-20261122-T2"))).row
        assert [(s.pending, s.dead) for s in seen] == [(1, 0), (2, 0)]
        await outbox.begin_attempt(first.id)
        await outbox.reschedule(first.id, reached=False, wait=30, error_kind="unavailable",
                                error="No es posible procesar (503)")  # fmt: skip
        clock.now += 25 * 3600
        status = await outbox.status()
        assert status.stale
        assert status.oldest_pending_age == pytest.approx(25 * 3600)
        assert seen[-1].stale
        entries = await outbox.pending()
        assert [e.id for e in entries] == [first.id, second.id]
        assert entries[0].last_error == "unavailable: No es posible procesar (503)"
        assert entries[0].age == pytest.approx(25 * 3600)
        assert entries[0].stale
        assert entries[0].next_attempt_in == 0.0
        assert entries[0].attempts == 1
        await outbox.begin_attempt(first.id)
        await outbox.reschedule(first.id, reached=True, wait=60, error_kind="timeout", error="")
        assert (await outbox.pending())[0].next_attempt_in == pytest.approx(60)
        assert await outbox.retry_now() == 1
        assert (await outbox.pending())[0].next_attempt_in == 0.0
        await outbox.begin_attempt(second.id)
        with pytest.raises(OutboxError, match="pending or dead"):
            await outbox.discard(second.id)  # being sent: never discarded under the sender
        await outbox.resume()
        await outbox.discard(second.id)
        await outbox.settle(first.id, RowState.DONE, Resolution.CONFIRMED)
        assert (seen[-1].pending, seen[-1].dead, seen[-1].stale) == (0, 0, False)
        assert await outbox.pending() == []

    run(tmp_path, scenario)


def test_a_dead_letter_can_be_sent_again_and_settled_rows_can_be_purged(
    tmp_path: Path,
) -> None:
    async def scenario(outbox: Outbox, _: ThreadRecordingWorker, clock: VirtualTime) -> None:
        row = (await outbox.submit_credit(request())).row
        await outbox.begin_attempt(row.id)
        await outbox.settle(row.id, RowState.DEAD, Resolution.REJECTED, error_kind="suspended")
        with pytest.raises(OutboxError):
            await outbox.requeue(row.id + 1)
        again = await outbox.requeue(row.id)
        assert (again.state, again.resolution) == (RowState.PENDING, None)
        assert await outbox.purge(clock.now + 1) == 0  # never an unsettled row
        await outbox.begin_attempt(row.id)
        await outbox.settle(row.id, RowState.DONE, Resolution.CREDITED, points=5)
        waited = await outbox.wait_settled(row.id)
        assert waited is not None
        assert waited.points == 5
        assert await outbox.purge(clock.now) == 0
        assert await outbox.purge(clock.now + 1) == 1

    run(tmp_path, scenario)


def test_rows_of_another_binding_wait_and_a_switch_is_refused(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"its client is not the outbox's binding")

    async def scenario(k: Kiosk) -> None:
        await k.sale(k.request(k.kiosk_id(), email=email(sim_world)))
        production = Binding.of("production", "https://api.example", DEFAULT_API_KEY, k.branch_id)
        with pytest.raises(SwitchRefused, match="environment, server address") as refused:
            await k.outbox.check_switch(production)
        assert "1 queued operation" in str(refused.value)
        await k.sender.drain()
        await k.outbox.switch(production)  # nothing waits any more: allowed
        await k.sale(k.request(k.kiosk_id(), email=email(sim_world)))
        assert await k.sender.drain() == 0  # the client is still the simulator's: not sent
        status = await k.outbox.status()
        assert (status.pending, status.elsewhere) == (1, 0)
        with pytest.raises(SwitchRefused, match="environment"):
            await k.outbox.check_switch(Binding.of("training", BASE_URL, "x", k.branch_id))

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def test_pending_entries_say_what_the_sale_was(tmp_path: Path) -> None:
    """The Pending list tells sales apart by what was credited: the amount, or the
    units of point items (repeated ids or quantities); a cancel has neither."""

    async def scenario(outbox: Outbox, _: ThreadRecordingWorker, clock: VirtualTime) -> None:
        await outbox.submit_credit(request("b3-20261122-A1"))
        who = CreditClient(email="ana.perez@gmail.com")
        items = CreditRequest("b3-20261122-I1", who, point_items=[7, 7, 9])
        await outbox.submit_credit(items)
        amount, units = await outbox.pending()
        assert (amount.amount, amount.units) == (1234.5, None)
        assert (units.amount, units.units) == (None, 3)

    run(tmp_path, scenario)
