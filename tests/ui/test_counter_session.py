"""End to end: a whole cashier's session on the real counter (every screen, built by
``build_view`` and warmed up), against the in-process simulator, through taps and
keys (``tests/bench/counter_script.py``, the same script the event-loop stall bench
runs over loopback). What happened is checked in the simulator's world and in the
kiosk's journal, not only on screen.

The code rotation itself is not awaited here: the Code screen's poller runs on this
process's monotonic clock, which the test cannot move, and a rotation takes a real
minute (the bench waits for one). The simulator's clock is frozen, so the code the
kiosk shows is known; the script then moves it a window on (a new code on the
server) and the kiosk must not read again before its own expiry.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from kiosk.core.amounts import AmountLocale
from kiosk.core.counter.rewards import RewardCard, with_balance
from kiosk.core.journal import OperationKind, Outcome
from kiosk.core.session import CounterSession
from kiosk.sim.control import SimControl
from kiosk.sim.validation import current_code
from kiosk.sim.world import World
from kiosk.ui.counter import build_view
from kiosk.ui.screens.rewards.grid import RewardGrid, RewardTile
from tests.bench.counter_script import (
    MEMBER_EMAIL,
    MONEY_AMOUNT,
    NEW_CLIENT_DOCUMENT,
    NEW_CLIENT_EMAIL,
    PENDING_CODE,
    run_counter_session,
)
from tests.qt_async import until

CODE_READ = r"^/external/validation-code/\d+/current$"


def table(world: World, name: str) -> dict[int, dict[str, Any]]:
    return world.merchants[1].tables[name]


def test_a_whole_counter_session_lands_in_the_world_and_the_journal(
    qtbot: QtBot, session: CounterSession, sim_world: World, arun: Callable[..., Any]
) -> None:
    session.config.kiosk_id = "0a1b2c3d"
    control = SimControl(sim_world)
    branch_id = session.config.branch.id
    member = next(c for c in table(sim_world, "clients").values() if c["email"] == MEMBER_EMAIL)
    clients_before = set(table(sim_world, "clients"))
    purchases_before = set(table(sim_world, "purchases"))
    qr = next(q for q in table(sim_world, "qrs").values() if q["branchId"] == branch_id)
    control.freeze()  # at "now": the code the kiosk reads is the one computed in advance()
    codes: list[str] = []
    steps: list[str] = []
    view = build_view(session)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()

    async def advance(seconds: float) -> None:
        codes.append(current_code(qr, sim_world.clock.time())[0])
        control.advance(seconds)
        codes.append(current_code(qr, sim_world.clock.time())[0])

    async def scenario() -> Any:
        await view.load()
        view.warm_up()
        await until(lambda: len(view.screens) == len(view.specs), timeout=10)
        await until(
            lambda: not any(s.tasks.running("preload") for s in view.screens.values()),
            timeout=10,
        )
        record = await run_counter_session(
            view, session, on_step=steps.append, advance_clock=advance
        )
        assert view.current is not None
        assert view.current.key == "today"
        view.shutdown()
        return record

    record = arun(scenario(), timeout=60)

    # Every step ran, in order (the empty label marks the end).
    assert steps[0] == "identify-scan"
    assert steps[-2:] == ["today-cancel", ""]
    assert {"enroll", "points-items-credit", "rewards-money", "redeem-deliver"} <= set(steps)

    # Enrolled: the new client exists with what was scanned and typed, at our branch.
    [new_id] = set(table(sim_world, "clients")) - clients_before
    new = table(sim_world, "clients")[new_id]
    assert record.enrolled_client_id == new_id
    assert (new["document_number"], new["email"]) == (NEW_CLIENT_DOCUMENT, NEW_CLIENT_EMAIL)
    assert (new["first_name"], new["last_name"]) == ("Ana", "Lopez")
    assert new["_branch_id"] == session.config.branch.id
    assert record.member_client_id == member["id"]

    # Both credits in the ledger for the member, with the kiosk's external ids; the
    # amount credit canceled from Today, the items credit still active.
    ledger = {op["externalId"]: op for op in control.ledger() if op.get("externalId")}
    amount = ledger[record.amount_credit]
    items = ledger[record.items_credit]
    assert amount["clientId"] == items["clientId"] == member["id"]
    assert amount["branchId"] == items["branchId"] == session.config.branch.id
    assert amount["points"]["amount"] == 1234.56  # es-AR "1.234,56", not 1,23
    assert amount["totalPoints"] == record.amount_points
    assert items["totalPoints"] == record.items_points
    assert {row["id"]: row["units"] for row in items["items"]} == record.items_units
    assert (amount["state"], items["state"]) == ("canceled", "active")
    assert record.canceled_credit == record.amount_credit

    # Two purchases made for the member (a reward and money); one code delivered.
    made = {
        p["code"]: p
        for pid, p in table(sim_world, "purchases").items()
        if pid not in purchases_before
    }
    assert set(made) == {record.exchange_code, record.money_code}
    assert all(p["_client_id"] == member["id"] for p in made.values())
    assert made[record.money_code]["moneyAmount"] == float(MONEY_AMOUNT)
    assert record.delivered_code == PENDING_CODE
    delivered = [p for p in table(sim_world, "purchases").values() if p["status"] == "delivered"]
    assert PENDING_CODE in {p["code"] for p in delivered}
    assert made[record.exchange_code]["status"] == "pending"

    # The code shown was the simulator's code of that moment; a window later the
    # simulator has another, and the kiosk did not read again before its own expiry.
    assert record.first_code is not None
    assert codes[0] == record.first_code
    assert codes[1] != codes[0]
    assert record.rotated_code is None
    assert len(control.requests(path=CODE_READ)) == 1

    # Today listed every operation of the session; the journal says the same.
    rows = arun(session.journal.today())
    kinds = [r.kind for r in sorted(rows, key=lambda r: r.id)]
    assert kinds == [
        OperationKind.ENROLLMENT,
        OperationKind.CREDIT,
        OperationKind.CREDIT,
        OperationKind.EXCHANGE,
        OperationKind.MONEY_EXCHANGE,
        OperationKind.REDEEM,
        OperationKind.CANCEL,
    ]
    assert record.today_rows == len(rows)
    credits = {r.external_id: r for r in rows if r.kind is OperationKind.CREDIT}
    assert credits[record.amount_credit].canceled
    assert not credits[record.items_credit].canceled
    assert all(r.outcome is Outcome.OK for r in rows)
    assert all(MEMBER_EMAIL not in r.client for r in rows)  # masked


def test_the_rewards_grid_keeps_its_tiles_and_builds_new_ones_ahead(
    qtbot: QtBot, arun: Callable[..., Any]
) -> None:
    """(The stall fixes of the bench: a new balance updates the tiles in place; a first
    catalog is built a tile per loop turn before it is shown.)"""
    grid = RewardGrid(AmountLocale.ES_AR)
    qtbot.addWidget(grid)
    grid.show()
    cards = [RewardCard(pid, f"Reward {pid}", "", pid, 500 * pid, 2000) for pid in (1, 2, 3)]
    assert arun(grid.prepare(cards)) is True
    assert grid.tiles == {}  # built, not shown yet
    grid.set_cards(cards)
    tiles = dict(grid.tiles)
    assert [t.card.product_id for t in tiles.values()] == [1, 2, 3]
    assert tiles[3].property("reach") == "true"  # 1.500 of 2.000: within reach
    chosen: list[RewardCard] = []
    grid.chosen.connect(chosen.append)

    grid.set_cards(with_balance(grid.cards(), 1200))  # after an exchange
    assert grid.tiles == tiles  # the same widgets, updated
    assert tiles[3].property("reach") == "false"
    assert tiles[3].status.text() == "Missing 300 pts"
    QTest.mouseClick(tiles[2], Qt.MouseButton.LeftButton)
    assert [c.balance for c in chosen] == [1200]  # the tile's current card

    grid.set_cards([*grid.cards()[:2], RewardCard(9, "New", "", 9, 100, 1200)])
    assert set(grid.tiles) == {1, 2, 9}
    assert grid.tiles[1] is tiles[1]


def test_the_warm_up_stops_when_the_counter_closes(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any]
) -> None:
    """A counter closed during its warm-up (IT's --shutdown right after the start)
    builds nothing more, and a view destroyed meanwhile is never touched again."""
    view = build_view(session)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()

    async def scenario() -> None:
        await view.load()
        built = len(view.screens)
        view.warm_up()
        await until(lambda: len(view.screens) > built, timeout=10)  # under way
        view.shutdown()
        so_far = len(view.screens)
        for _ in range(20):  # twenty loop turns: the warm-up would have gone on
            await asyncio.sleep(0)
        assert len(view.screens) == so_far < len(view.specs)

        other = build_view(session)
        other.warm_up()
        other.deleteLater()  # destroyed with steps left: they never run
        for _ in range(20):
            await asyncio.sleep(0)

    arun(scenario())


def test_the_rewards_grid_keeps_a_bounded_number_of_hidden_tiles(qtbot: QtBot) -> None:
    """Clients with different catalogues all day: the tiles hidden for the next client
    stop at ``SPARE_TILES`` (the longest kept go), the shown ones stay."""
    from kiosk.ui.screens.rewards.grid import SPARE_TILES

    grid = RewardGrid(AmountLocale.ES_AR)
    qtbot.addWidget(grid)
    grid.show()
    for client in range(12):  # ten rewards each, none shared
        first = client * 10 + 1
        grid.set_cards(
            [RewardCard(p, f"Reward {p}", "", p, 100, 2000) for p in range(first, first + 10)]
        )
    assert set(grid.tiles) == set(range(111, 121))
    assert len(grid._spare) == SPARE_TILES
    assert min(grid._spare) == 111 - SPARE_TILES  # the newest hidden ones are kept
    # The others are deleted (deferred): no widget is left behind for them.
    qtbot.waitUntil(lambda: len(grid._inner.findChildren(RewardTile)) == 10 + SPARE_TILES)
