"""The outbox's sender against the in-process simulator, one rule at a time.

Faults are deterministic (``count`` rules); the sender's waits run on a virtual
clock, so a 60-second backoff costs nothing. Every case is checked in the
simulator's ledger and request log, not only in the outbox.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from starlette.types import ASGIApp

from kiosk.api.ratelimit import TAGS
from kiosk.core.journal import Outcome
from kiosk.core.outbox.queue import Resolution, RowState
from kiosk.core.outbox.sender import PLACE_LEAD, Backoff, Sender
from kiosk.sim.seed_people import MAIN_SUSPENDED
from kiosk.sim.world import World
from tests.core.outbox.harness import Kiosk, email, new_path, open_kiosk, run_kiosk

CREDIT = r"^/external/tags/add$"
CANCEL = r"^/external/tags/cancel/"


@pytest.fixture(autouse=True)
def _transport_warnings(expect_log: Callable[[str], None]) -> None:
    """The client logs each failed attempt (a dropped connection) as a warning."""
    expect_log(r"^(POST|PUT) /external/tags/\S* -> \w+Error")


# -- the schedule -------------------------------------------------------------------------


def test_backoff_grows_is_capped_jittered_and_honours_retry_after() -> None:
    backoff = Backoff(base=1.0, cap=60.0, jitter=0.2)
    assert [backoff.wait(n, None, 0.5) for n in range(1, 9)] == [1, 2, 4, 8, 16, 32, 60, 60]
    assert backoff.wait(1, None, 0.0) == pytest.approx(0.8)
    assert backoff.wait(1, None, 1.0) == pytest.approx(1.2)
    assert backoff.wait(1, 7.0, 0.5) == pytest.approx(7.125)  # Retry-After wins, plus spread
    assert backoff.wait(7, 2.0, 0.5) == pytest.approx(60.0)  # the backoff wins when longer
    assert backoff.wait(1, 10**9, 0.0) == pytest.approx(3600.0)  # an absurd Retry-After
    # 429s: the window is the fleet's; the Retry-After plus a spread capped at 2 s.
    assert [backoff.crowded(n, 1.0, 1.0) for n in range(1, 8)] == [
        1.25, 1.5, 2.0, 3.0, 3.0, 3.0, 3.0
    ]  # fmt: skip
    assert backoff.crowded(3, None, 0.0) == 1.0
    assert backoff.crowded(1, 20.0, 0.5) == pytest.approx(20.125)


# -- credits ------------------------------------------------------------------------------


def test_a_credit_is_sent_once_and_settles_its_journal_row(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(k: Kiosk) -> None:
        submitted, entry = await k.sale(k.request(k.kiosk_id(), email=email(sim_world)))
        assert await k.sender.drain() == 1
        row = await k.outbox.get(submitted.row.id)
        assert row is not None
        assert (row.state, row.resolution, row.attempts) == (
            RowState.DONE,
            Resolution.CREDITED,
            1,
        )
        [op] = k.ops(row.external_id)
        assert row.points == op["totalPoints"] > 0
        journal = await k.journal.today()
        [settled] = [e for e in journal if e.id == entry.id]
        assert (settled.outcome, settled.points) == (Outcome.OK, op["totalPoints"])
        assert "@" not in str(row.body) or "***@" in str(row.body["client"]["email"])
        assert row.body["redacted"] is True  # personal data blanked once sent

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def test_apply_then_drop_resends_the_same_id_and_the_409_is_ours(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(k: Kiosk) -> None:
        k.control.add_fault("drop", CREDIT)
        submitted, entry = await k.sale(k.request(k.kiosk_id(), email=email(sim_world)))
        await k.sender.drain()
        row = await k.outbox.get(submitted.row.id)
        assert row is not None
        assert row.resolution is Resolution.CONFIRMED
        assert row.attempts == 2
        assert row.may_have_reached_server
        assert len(k.ops(row.external_id)) == 1
        sent = k.requests(row.external_id)
        assert [r["status"] for r in sent] == [None, 409]  # dropped, then the duplicate
        [settled] = [e for e in await k.journal.today() if e.id == entry.id]
        assert settled.outcome is Outcome.OK
        assert "duplicate" in settled.detail

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def test_each_attempt_says_whether_the_service_answered(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    """The counter's connection state follows the background sends too: a dropped
    connection is "not reached", any answer (a 503 as well) is "reached"."""

    async def scenario(k: Kiosk) -> None:
        reached: list[bool] = []
        k.sender.reached.connect(reached.append)
        k.control.add_fault("drop", CREDIT)
        k.control.add_fault("status", CREDIT, status=503, count=1)
        submitted, _ = await k.sale(k.request(k.kiosk_id(), email=email(sim_world)))
        await k.sender.drain()
        row = await k.outbox.get(submitted.row.id)
        assert row is not None
        assert row.resolution in (Resolution.CREDITED, Resolution.CONFIRMED)
        assert reached == [False, True, True]  # dropped, 503, credited (or our 409)

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def test_a_typed_ticket_already_credited_gives_no_new_points(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(k: Kiosk) -> None:
        ticket = k.ticket_id("0003-00012345")
        await k.api.credit(k.request(ticket, email=email(sim_world)))  # another sale, earlier
        balance = [op["totalPoints"] for op in k.ops(ticket)]
        # A 429 first: it cannot have reached the server, so the 409 after it still
        # means "that ticket was credited before", not "our own earlier attempt".
        k.control.add_fault("status", CREDIT, status=429)
        submitted, entry = await k.sale(k.request(ticket, email=email(sim_world, 1)), points=18)
        assert entry.points == 18  # the preview's, while it waits
        assert submitted.row.ticket_typed
        await k.sender.drain()
        row = await k.outbox.get(submitted.row.id)
        assert row is not None
        assert (row.state, row.resolution, row.points) == (
            RowState.DONE,
            Resolution.ALREADY_CREDITED,
            None,
        )
        assert [r["status"] for r in k.requests(ticket)] == [201, 429, 409]
        assert [op["totalPoints"] for op in k.ops(ticket)] == balance
        [settled] = [e for e in await k.journal.today() if e.id == entry.id]
        assert settled.outcome is Outcome.ALREADY_CREDITED
        assert settled.points is None  # no new points

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def test_a_first_attempt_409_on_a_kiosk_id_is_counted_ours_with_a_warning(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"refused as a duplicate on its first attempt")

    async def scenario(k: Kiosk) -> None:
        external_id = k.kiosk_id()
        await k.api.credit(k.request(external_id, email=email(sim_world)))
        submitted, _ = await k.sale(k.request(external_id, email=email(sim_world)))
        await k.sender.drain()
        row = await k.outbox.get(submitted.row.id)
        assert row is not None
        assert row.resolution is Resolution.CONFIRMED
        assert len(k.ops(external_id)) == 1

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def test_transient_failures_back_off_1_2_4_and_honour_retry_after(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(k: Kiosk) -> None:
        k.control.add_fault("status", CREDIT, status=503, count=3)
        k.control.add_fault("status", CREDIT, status=429, headers={"Retry-After": "30"})
        submitted, _ = await k.sale(k.request(k.kiosk_id(), email=email(sim_world)))
        assert await k.sender.step() == 0
        waiting = await k.outbox.get(submitted.row.id)
        assert waiting is not None
        assert (waiting.state, waiting.attempts, waiting.last_error_kind) == (
            RowState.PENDING,
            1,
            "unavailable",
        )
        assert not waiting.may_have_reached_server  # a 503 is never applied
        assert waiting.next_attempt_at - k.time.now == pytest.approx(1, rel=0.21)
        await k.sender.drain()
        row = await k.outbox.get(submitted.row.id)
        assert row is not None
        assert (row.resolution, row.attempts) == (Resolution.CREDITED, 5)
        waits = [w for w in k.time.sleeps if w > 0.5]
        assert waits[:3] == [pytest.approx(1, rel=0.21), pytest.approx(2, rel=0.21),
                             pytest.approx(4, rel=0.21)]  # fmt: skip
        assert 30 <= max(waits) <= 32.5  # Retry-After: 30, not the 8 s of the schedule
        assert len(k.ops(row.external_id)) == 1

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def test_retry_now_sends_at_once_and_starts_the_backoff_again(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(k: Kiosk) -> None:
        k.control.add_fault("status", CREDIT, status=503, count=4)
        submitted, _ = await k.sale(k.request(k.kiosk_id(), email=email(sim_world)))
        while len(k.control.requests()) < 3:
            wait = await k.sender.step()
            assert wait is not None
            k.time.now += wait  # the waits pass: 1, then 2 s
        row = await k.outbox.get(submitted.row.id)
        assert row is not None
        assert row.next_attempt_at - k.time.now == pytest.approx(4, rel=0.21)
        assert await k.outbox.retry_now() == 1
        assert await k.sender.step() == 0  # sent at once: the fourth 503
        row = await k.outbox.get(submitted.row.id)
        assert row is not None
        assert row.next_attempt_at - k.time.now == pytest.approx(1, rel=0.21)  # not 8 s
        await k.sender.drain()
        assert len(k.ops(row.external_id)) == 1

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def test_a_refusal_goes_to_the_dead_letters_and_the_queue_goes_on(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"dead letter")
    expect_log(r"discarded")

    async def scenario(k: Kiosk) -> None:
        refused, entry = await k.sale(k.request(k.kiosk_id(), document=MAIN_SUSPENDED))
        fine, _ = await k.sale(k.request(k.kiosk_id(), email=email(sim_world)))
        await k.sender.drain()
        dead = await k.outbox.get(refused.row.id)
        assert dead is not None
        assert (dead.state, dead.resolution, dead.last_error_kind) == (
            RowState.DEAD,
            Resolution.REJECTED,
            "suspended",
        )
        assert "403" in (dead.last_error or "")
        assert dead.body["client"]["dni"] == MAIN_SUSPENDED  # kept for a manager to fix
        assert k.ops(dead.external_id) == []
        done = await k.outbox.get(fine.row.id)
        assert done is not None
        assert done.state is RowState.DONE
        status = await k.outbox.status()
        assert (status.pending, status.dead) == (0, 1)
        [listed] = await k.outbox.dead()
        assert listed.id == dead.id
        assert listed.last_error is not None
        assert listed.last_error.startswith("suspended:")
        [settled] = [e for e in await k.journal.today() if e.id == entry.id]
        assert settled.outcome is Outcome.REJECTED
        discarded = await k.outbox.discard(dead.id)
        assert discarded.resolution is Resolution.DISCARDED
        gone = await k.outbox.get(dead.id)
        assert gone is not None
        assert MAIN_SUSPENDED not in str(gone.body)  # personal data blanked
        assert (await k.outbox.status()).dead == 0

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def test_rows_drain_in_order_and_a_live_one_goes_first(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(k: Kiosk) -> None:
        backlog = [k.kiosk_id() for _ in range(4)]
        for external_id in backlog:
            await k.sale(k.request(external_id, email=email(sim_world)))
        live = k.kiosk_id()
        await k.sale(k.request(live, email=email(sim_world, 1)), live=True)
        await k.sender.drain()
        sent = [r["external_id"] for r in k.control.requests(path=CREDIT)]
        assert sent == [live, *backlog]

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def test_a_live_credit_goes_first_without_waiting_for_a_background_place(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    """The sender never blocks on a backlog row's place in the limiter: it idles until
    the place is near, so the cashier's credit, queued meanwhile, goes at once."""

    async def scenario(k: Kiosk) -> None:
        start = k.time.now
        await k.api.limiter.acquire(TAGS)  # the cashier's preview
        for _ in range(7):  # the backlog's burst: every place but the cashier's reserve
            await k.api.limiter.acquire(TAGS, background=True)
        backlog = k.kiosk_id()
        queued, _ = await k.sale(k.request(backlog, email=email(sim_world)))
        wait = await k.sender.step()
        assert wait == pytest.approx(1.0 + k.api.limiter.margin - PLACE_LEAD)
        assert k.sender.stats.attempts == 0  # not begun: not marked, not waiting
        assert k.control.requests(path=CREDIT) == []
        live = k.kiosk_id()
        await k.sale(k.request(live, email=email(sim_world, 1)), live=True)
        assert await k.sender.step() == 0.0
        assert [r["external_id"] for r in k.control.requests(path=CREDIT)] == [live]
        assert k.time.now == start  # no wait for a place
        await k.sender.drain()
        assert [r["external_id"] for r in k.control.requests(path=CREDIT)] == [live, backlog]
        row = await k.outbox.get(queued.row.id)
        assert row is not None
        assert (row.resolution, row.attempts) == (Resolution.CREDITED, 1)  # the idle step: none

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def test_an_unverified_offline_client_is_created_by_its_credit(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(k: Kiosk) -> None:
        request = k.request(k.kiosk_id(), email="nueva.clienta@example.com", document="44123987")
        submitted, _ = await k.sale(request)
        await k.sender.drain()
        [op] = k.ops(submitted.row.external_id)
        client = sim_world.merchants[1].tables["clients"][op["clientId"]]
        assert (client["email"], client["document_number"]) == (
            "nueva.clienta@example.com",
            "44123987",
        )

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


# -- cancels --------------------------------------------------------------------------------


def test_a_cancel_waits_behind_its_credit_and_reverts_it(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(k: Kiosk) -> None:
        k.control.add_fault("drop", CREDIT, apply=False)  # lost on the way: may have arrived
        credit, entry = await k.sale(k.request(k.kiosk_id(), email=email(sim_world)))
        await k.sender.step()
        cancel = await k.outbox.submit_cancel(credit.row.external_id)
        assert cancel.created
        assert cancel.voided is None
        assert cancel.row.state is RowState.PENDING
        await k.sender.drain()
        sent = [(r["method"], r["status"]) for r in k.requests(credit.row.external_id)]
        assert sent == [("POST", None), ("POST", 201), ("PUT", 200)]
        [op] = k.ops(credit.row.external_id)
        assert op["state"] == "canceled"
        row = await k.outbox.get(cancel.row.id)
        assert row is not None
        assert row.resolution is Resolution.CANCELED
        assert row.points == op["totalPoints"]
        [marked] = [e for e in await k.journal.today() if e.id == entry.id]
        assert marked.canceled

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def test_a_cancel_resent_after_a_drop_takes_the_404_as_done(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(k: Kiosk) -> None:
        credit, _ = await k.sale(k.request(k.kiosk_id(), email=email(sim_world)))
        await k.sender.drain()
        k.control.add_fault("drop", CANCEL)
        cancel = await k.outbox.submit_cancel(credit.row.external_id)
        await k.sender.drain()
        row = await k.outbox.get(cancel.row.id)
        assert row is not None
        assert (row.resolution, row.attempts) == (Resolution.ALREADY_CANCELED, 2)
        [op] = k.ops(credit.row.external_id)
        assert op["state"] == "canceled"
        # Nothing was ever credited under this id: a plain 404, nothing to cancel.
        unknown = await k.outbox.submit_cancel(k.kiosk_id())
        await k.sender.drain()
        nothing = await k.outbox.get(unknown.row.id)
        assert nothing is not None
        assert nothing.resolution is Resolution.NOTHING_TO_CANCEL

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def test_cancelling_a_credit_never_sent_voids_both_without_a_request(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(k: Kiosk) -> None:
        # Tried once during the outage, refused with 503: it cannot have arrived.
        k.control.add_fault("status", CREDIT, status=503)
        credit, entry = await k.sale(k.request(k.kiosk_id(), email=email(sim_world)))
        await k.sender.step()
        cancel = await k.outbox.submit_cancel(credit.row.external_id)
        assert cancel.row.state is RowState.VOIDED
        assert cancel.voided is not None
        assert cancel.voided.resolution is Resolution.VOIDED
        await k.sender.drain()
        assert len(k.control.requests()) == 1  # the 503 only
        assert k.ops(credit.row.external_id) == []
        [voided] = [e for e in await k.journal.today() if e.id == entry.id]
        assert voided.outcome is Outcome.VOIDED
        assert (await k.outbox.status()).pending == 0

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


# -- crash, binding, waiting --------------------------------------------------------------------


def test_a_row_caught_mid_send_is_resent_with_its_id_on_start(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    path = new_path(tmp_path)

    async def crashed() -> str:
        async with open_kiosk(sim_app, sim_world, path) as k:
            submitted, _ = await k.sale(k.request(k.kiosk_id(), email=email(sim_world)))
            await k.outbox.begin_attempt(submitted.row.id)  # marked, durably...
            await k.api.credit(k.request(submitted.row.external_id, email=email(sim_world)))
            return submitted.row.external_id  # ... sent, and the kiosk died before settling

    async def restarted(external_id: str) -> None:
        async with open_kiosk(sim_app, sim_world, path) as k:
            assert (await k.outbox.pending())[0].state is RowState.SENDING
            await k.sender.drain()
            [row] = [r for r in await k.outbox.pending()] or [None]
            assert row is None
            assert len(k.ops(external_id)) == 1
            assert [r["status"] for r in k.requests(external_id)] == [201, 409]

    external_id = asyncio.run(crashed())
    asyncio.run(restarted(external_id))


def test_wait_settled_until_retry_gives_a_pending_receipt_then_the_outcome(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(k: Kiosk) -> None:
        k.control.add_fault("drop", CREDIT, apply=False)
        submitted, _ = await k.sale(k.request(k.kiosk_id(), email=email(sim_world)), live=True)
        task = k.sender.start()
        first = await k.outbox.wait_settled(submitted.row.id, within=5, until_retry=True)
        assert first is None  # the cashier gets a "pending" receipt
        settled = await k.outbox.wait_settled(submitted.row.id, within=5)
        assert settled is not None
        assert settled.resolution is Resolution.CREDITED
        assert not task.done()
        await k.sender.stop()
        assert task.cancelled()

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def counted_steps(sender: Sender) -> list[float | None]:
    """What each of ``sender``'s steps returned, in order (its run loop calls
    ``step``)."""
    steps: list[float | None] = []
    step = sender.step

    async def counted() -> float | None:
        steps.append(wait := await step())
        return wait

    sender.step = counted  # type: ignore[method-assign]
    return steps


def test_wakes_from_a_busy_counter_keep_one_alarm_for_the_row_due(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    """Each credit wakes the sender; while a row waits for its retry, a wake must not
    start a new sleep each time (qasync holds a cancelled timer until its delay has
    passed: thousands of operations would pile up thousands of timers)."""
    from tests.qt_async import until

    started: list[float] = []
    never = asyncio.Event()

    async def held(seconds: float) -> None:  # a sleep that lasts until cancelled
        started.append(seconds)
        await never.wait()

    async def scenario(k: Kiosk) -> None:
        k.control.add_fault("status", CREDIT, status=503, count=1)
        await k.sale(k.request(k.kiosk_id(), email=email(sim_world)))
        k.sender._sleep = held
        steps = counted_steps(k.sender)
        k.sender.start()
        await until(lambda: len(started) == 1, message="the sender waits for the retry")
        assert steps[0] == 0  # sent (and refused: a 503)
        assert steps[-1] == started[0] > 0  # it waits for the retry
        before = len(steps)
        for wakes in range(1, 6):
            k.outbox.work_added.emit(False)  # what each new credit does
            await until(lambda n=wakes: len(steps) == before + n, message="the sender woke")
        assert steps[before:] == [started[0]] * 5  # the row still waits, as long
        assert len(started) == 1  # one alarm, kept across the five wakes
        never.set()  # the alarm rings: the row is sent (the clock moved past its time)

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def test_the_sender_takes_no_step_before_what_it_was_told_to_await(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    """``start(prepare)``: the client's modules imported off the loop come first; the
    rows waiting are sent right after."""
    from tests.qt_async import until

    async def scenario(k: Kiosk) -> None:
        submitted, _ = await k.sale(k.request(k.kiosk_id(), email=email(sim_world)))
        gate = asyncio.Event()
        steps = counted_steps(k.sender)
        k.sender.start(gate.wait())
        for _ in range(20):
            await asyncio.sleep(0)  # turns of the loop: nothing may step meanwhile
        assert steps == []
        gate.set()
        await until(lambda: bool(steps), message="the sender steps once prepared")
        await until(lambda: len(k.ops(submitted.row.external_id)) == 1, message="sent")

    run_kiosk(sim_app, sim_world, tmp_path, scenario)
