"""A hostile or broken server never strands an outbox row nor misleads it (issue #22,
items 10 and 12).

The simulator applies the credit, then a fault answers in its place: points beyond any
integer (10**400), negative points, a 409 naming another operation's external id, a 201
for another client. A row is never left where neither the sender nor a manager can
reach it, whatever a step raises (settling included); figures the contract does not
allow are never settled; a duplicate answer is ours only when it names our id.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.types import ASGIApp

from kiosk.core.journal import Outcome
from kiosk.core.outbox.queue import Resolution, RowState
from kiosk.sim.world import World
from tests.core.outbox.harness import Kiosk, email, run_kiosk
from tests.qt_async import until

CREDIT = r"^/external/tags/add$"
DUPLICATE = "Ya existe una operación de puntos con el externalId {} para este negocio"


@pytest.fixture(autouse=True)
def _expected_logs(expect_log: Callable[[str], None]) -> None:
    expect_log(r"^(POST|PUT) /external/tags/")


def credit_answer(total: Any, *, client_id: int = 1) -> dict[str, Any]:
    """A 201 in the contract's shape whose ``totalPointsToGive`` is ``total``."""
    points = {"amount": 1500, "initialPointsToGive": 150, "totalPointsToGive": total}
    data = {"pointOperationId": 900, "clientId": client_id, "points": points}
    return {"success": True, "status": 201, "message": "OK", "data": data}


def applied_then(k: Kiosk, body: dict[str, Any], *, status: int = 201, apply: bool = True) -> None:
    """The next credit is applied by the simulator (``apply``), then answered ``body``."""
    k.control.add_fault("status", CREDIT, status=status, body=body, apply=apply, count=1)


async def journal_entry(k: Kiosk, journal_id: int | None) -> Any:
    [entry] = [e for e in await k.journal.today() if e.id == journal_id]
    return entry


# -- item 10: numbers the contract does not allow ------------------------------------


@pytest.mark.parametrize("total", [10**400, -50], ids=["10^400", "negative"])
def test_a_credit_answered_with_points_the_contract_forbids_settles_as_ours_without_them(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path, total: Any
) -> None:
    async def scenario(k: Kiosk) -> None:
        applied_then(k, credit_answer(total))
        submitted, entry = await k.sale(k.request(k.kiosk_id(), email=email(sim_world)))
        assert await k.sender.step() == 0  # never raises, whatever the answer held
        row = await k.outbox.get(submitted.row.id)
        assert row is not None
        assert row.state is RowState.PENDING  # the sender sends it again (same id)
        assert row.may_have_reached_server
        assert row.last_error_kind in ("malformed", "unexpected")
        await k.sender.drain()
        row = await k.outbox.get(submitted.row.id)
        assert row is not None
        assert (row.state, row.resolution) == (RowState.DONE, Resolution.CONFIRMED)
        assert row.points is None  # never -50 nor 10**400
        assert len(k.ops(row.external_id)) == 1
        settled = await journal_entry(k, entry.id)
        assert settled.outcome is Outcome.OK
        assert settled.points is None or settled.points >= 0

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def test_a_cancel_answered_with_points_beyond_any_integer_is_still_the_cancel(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(k: Kiosk) -> None:
        submitted, _ = await k.sale(k.request(k.kiosk_id(), email=email(sim_world)))
        await k.sender.drain()
        cancel = await k.outbox.submit_cancel(submitted.row.external_id)
        k.control.add_fault(
            "status", r"^/external/tags/cancel/", status=200, apply=True, count=1,
            body={"success": True, "data": {"points": {"totalPointsToGive": 10**400}}},
        )  # fmt: skip
        await k.sender.drain()
        row = await k.outbox.get(cancel.row.id)
        assert row is not None
        assert (row.state, row.resolution, row.points) == (
            RowState.DONE, Resolution.CANCELED, None,
        )  # fmt: skip
        assert [op["state"] for op in k.ops(row.external_id)] == ["canceled"]

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


class DiskGone(OSError):
    """What a disk that stopped taking writes raises (the test's stand-in)."""


def test_a_step_that_breaks_while_settling_leaves_its_row_to_be_sent_again(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    expect_log: Any,
) -> None:  # fmt: skip
    expect_log(r"outbox: row \d+: its attempt broke")

    async def scenario(k: Kiosk) -> None:
        submitted, _ = await k.sale(k.request(k.kiosk_id(), email=email(sim_world)))
        settle = k.outbox.settle

        async def broken(*args: Any, **kwargs: Any) -> Any:
            monkeypatch.setattr(k.outbox, "settle", settle)  # once
            raise DiskGone("disk I/O error")

        monkeypatch.setattr(k.outbox, "settle", broken)
        assert await k.sender.step() == 0
        row = await k.outbox.get(submitted.row.id)
        assert row is not None
        assert row.state is RowState.PENDING
        assert row.last_error_kind == "unexpected"
        assert row.last_error is not None
        assert "could not finish this attempt" in row.last_error
        await k.sender.drain()
        row = await k.outbox.get(submitted.row.id)
        assert row is not None
        assert (row.state, row.resolution) == (RowState.DONE, Resolution.CONFIRMED)
        assert len(k.ops(row.external_id)) == 1

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def test_a_row_a_broken_step_left_sending_is_reached_by_retry_now_and_by_discard(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    expect_log: Any,
) -> None:  # fmt: skip
    expect_log(r"outbox: row \d+: its attempt broke")
    expect_log(r"outbox: row \d+ \(credit \S+\) discarded")

    async def scenario(k: Kiosk) -> None:
        first, _ = await k.sale(k.request(k.kiosk_id(), email=email(sim_world, 0)))
        second, _ = await k.sale(k.request(k.kiosk_id(), email=email(sim_world, 1)))

        async def gone(*args: Any, **kwargs: Any) -> Any:
            raise DiskGone("disk I/O error")

        for attempt in range(2):  # every write back refused: the rows stay "sending"
            monkeypatch.setattr(k.outbox, "settle", gone)
            monkeypatch.setattr(k.outbox, "reschedule", gone)
            with pytest.raises(DiskGone):
                await k.sender.step()
            row = await k.outbox.get((first, second)[attempt].row.id)
            assert row is not None
            assert row.state is RowState.SENDING
            monkeypatch.undo()
            if attempt == 0:
                # The manager's "retry now" reaches it (the disk is back): sent again.
                assert await k.outbox.retry_now() >= 1
                row = await k.outbox.get(first.row.id)
                assert row is not None
                assert (row.state, row.may_have_reached_server) == (RowState.PENDING, True)
                assert await k.sender.step() == 0
                row = await k.outbox.get(first.row.id)
                assert row is not None
                assert (row.state, row.resolution) == (RowState.DONE, Resolution.CONFIRMED)
        # ... and a manager may discard a row left that way (it may have been applied).
        settlement = await k.outbox.discard(second.row.id)
        assert (settlement.state, settlement.resolution) == (
            RowState.VOIDED, Resolution.DISCARDED,
        )  # fmt: skip
        entry = await journal_entry(k, second.row.journal_id)
        assert "it may have been applied" in entry.detail

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def test_a_row_on_its_way_cannot_be_discarded_nor_sent_twice(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(k: Kiosk) -> None:
        submitted, _ = await k.sale(k.request(k.kiosk_id(), email=email(sim_world)))
        before = await k.outbox.begin_attempt(submitted.row.id)  # the sender's mark
        assert before is not None
        await k.outbox.retry_now()
        row = await k.outbox.get(submitted.row.id)
        assert row is not None
        assert row.state is RowState.SENDING  # on its way: not made pending again
        with pytest.raises(Exception, match="only a pending or dead-letter row"):
            await k.outbox.discard(submitted.row.id)
        k.outbox.attempt_over(submitted.row.id)

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


# -- item 12: a duplicate answer is ours only when it names our id ---------------------


def duplicate_body(external_id: str) -> dict[str, Any]:
    return {
        "statusCode": 409, "timestamp": "2026-11-22T12:00:00Z", "path": "/external/tags/add",
        "method": "POST", "message": DUPLICATE.format(external_id), "errors": None, "data": None,
    }  # fmt: skip


@pytest.mark.parametrize("typed", [False, True], ids=["kiosk-made-id", "typed-ticket"])
def test_a_409_naming_another_external_id_is_a_refusal_not_our_credit(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path, typed: bool, expect_log: Any
) -> None:
    expect_log(r"dead letter")
    expect_log(r"a duplicate refusal that does not name this id")

    async def scenario(k: Kiosk) -> None:
        ours = k.ticket_id("A-1001") if typed else k.kiosk_id()
        other = k.ticket_id("A-1002") if typed else k.kiosk_id()
        applied_then(k, duplicate_body(other), status=409, apply=False)
        submitted, entry = await k.sale(k.request(ours, email=email(sim_world)), points=150)
        await k.sender.drain()
        row = await k.outbox.get(submitted.row.id)
        assert row is not None
        # Not settled as ours (points lost silently), nor as "already credited": a
        # dead letter a manager sees, with the server's words.
        assert (row.state, row.resolution) == (RowState.DEAD, Resolution.REJECTED)
        assert row.last_error_kind == "conflict"
        assert k.ops(ours) == []
        settled = await journal_entry(k, entry.id)
        assert settled.outcome is Outcome.REJECTED
        # Sent again by the manager, it lands once.
        await k.outbox.requeue(row.id)
        await k.sender.drain()
        row = await k.outbox.get(submitted.row.id)
        assert row is not None
        assert (row.state, row.resolution) == (RowState.DONE, Resolution.CREDITED)
        assert len(k.ops(ours)) == 1

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def test_a_201_names_the_client_it_credited_in_the_settlement(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(k: Kiosk) -> None:
        applied_then(k, credit_answer(150, client_id=424242))
        submitted, _ = await k.sale(k.request(k.kiosk_id(), email=email(sim_world)))
        seen = []
        k.outbox.settled.connect(seen.append)
        await k.sender.drain()
        [settlement] = seen
        assert (settlement.resolution, settlement.points) == (Resolution.CREDITED, 150)
        assert settlement.client_id == 424242
        assert json.dumps(submitted.row.body)  # the body itself carries no client id

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def test_the_running_sender_puts_back_a_row_it_could_not_write_back(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    expect_log: Any,
) -> None:  # fmt: skip
    expect_log(r"outbox: row \d+: its attempt broke")
    expect_log(r"outbox sender: a step failed; trying again")

    async def scenario(k: Kiosk) -> None:
        submitted, _ = await k.sale(k.request(k.kiosk_id(), email=email(sim_world)))
        settle, reschedule = k.outbox.settle, k.outbox.reschedule
        broken: list[str] = []

        async def gone(*args: Any, **kwargs: Any) -> Any:
            broken.append("write refused")
            monkeypatch.setattr(k.outbox, "settle", settle)  # the disk is back after this
            monkeypatch.setattr(k.outbox, "reschedule", reschedule)
            raise DiskGone("disk I/O error")

        async def first_settle(*args: Any, **kwargs: Any) -> Any:
            monkeypatch.setattr(k.outbox, "settle", settle)
            raise DiskGone("disk I/O error")

        monkeypatch.setattr(k.outbox, "settle", first_settle)
        monkeypatch.setattr(k.outbox, "reschedule", gone)
        seen: list[Resolution] = []
        k.outbox.settled.connect(lambda settlement: seen.append(settlement.resolution))
        task = k.sender.start()
        # No manager, no restart: the running sender puts the row back and sends it.
        await until(lambda: seen == [Resolution.CONFIRMED], message=f"settled {seen}")
        assert broken == ["write refused"]
        assert not task.done()
        row = await k.outbox.get(submitted.row.id)
        assert row is not None
        assert row.state is RowState.DONE
        assert len(k.ops(row.external_id)) == 1

    run_kiosk(sim_app, sim_world, tmp_path, scenario)
