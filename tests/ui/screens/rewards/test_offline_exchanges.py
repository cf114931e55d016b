"""Exchanges and deliveries need a live answer: offline the Rewards and Redeem screens
refuse with a message that says nothing was sent, and nothing is queued (the
simulator's request log shows no request made later); an unverified client gets no
rewards at all."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from kiosk.api.errors import ApiError
from kiosk.core.counter.offline_client import confirm_typed
from kiosk.core.session import CounterSession
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from kiosk.ui.screens.redeem.screen import RedeemScreen
from kiosk.ui.screens.rewards.screen import RewardsScreen
from tests.qt_async import until
from tests.ui.screens.identify.identify_support import fast_session  # noqa: F401  (fixture)

LEFT = Qt.MouseButton.LeftButton
PRODUCTS = r"^/external/products"
LOOKUP_PATH = "^/external/purchase/code/"
REDEEM_PATH = "^/external/purchase/redeem/"
OFFLINE = (
    "No connection: exchanges need the service to check the balance and stock. "
    "Nothing was sent; try again when the connection returns."
)
DELIVERY_OFFLINE = (
    "No connection: deliveries need the service to check the code. "
    "Nothing was sent; try again when the connection returns."
)


def _rewards(qtbot: QtBot, session: CounterSession) -> RewardsScreen:
    screen = RewardsScreen(session)
    qtbot.addWidget(screen)
    screen.resize(1280, 800)
    screen.show()
    return screen


def _redeem(qtbot: QtBot, session: CounterSession) -> RedeemScreen:
    screen = RedeemScreen(session)
    qtbot.addWidget(screen)
    screen.resize(1280, 800)
    screen.show()
    screen.entered()
    return screen


def _rich_client(world: World) -> dict[str, Any]:
    clients = world.merchants[1].tables["clients"].values()
    return max(
        (c for c in clients if c.get("status") == "ACTIVE" and c.get("email")),
        key=lambda c: c["score"],
    )


async def _go_offline(session: CounterSession, control: SimControl) -> None:
    """A read that cannot reach the service: the counter is offline."""
    rule = control.add_fault("drop", r"^/external/levels", count=None)
    with pytest.raises(ApiError):
        await session.call(lambda: session.api.list_levels())
    control.state.faults[:] = [f for f in control.state.faults if f.id != rule]
    assert not session.online


def test_rewards_refuse_an_unverified_client_and_ask_nothing(
    qtbot: QtBot,
    fast_session: CounterSession,  # noqa: F811
    sim_world: World,
) -> None:
    session = fast_session
    screen = _rewards(qtbot, session)
    control = SimControl(sim_world)
    before = len(control.requests())
    unverified = confirm_typed("ana.offline@example.com", "ana.offline@example.com").client
    session.set_client(unverified)
    screen.entered()
    assert screen.pages.currentWidget() is screen.empty
    assert screen.empty.text() == "Identify the client online to use rewards"
    # The money tab too: nothing is asked, whatever is tapped.
    screen.show_money()
    screen.money.amount.setText("1000")
    qtbot.mouseClick(screen.money.exchange, LEFT)
    assert screen.pages.currentWidget() is not screen.sheet
    assert screen.banner.text() == "Identify the client online to use rewards"
    qtbot.mouseClick(screen.rewards_tab, LEFT)
    assert screen.empty.text() == "Identify the client online to use rewards"
    assert not screen.tasks.running("catalog")
    assert len(control.requests()) == before


def test_rewards_refuse_when_the_products_cannot_be_reached(
    qtbot: QtBot,
    fast_session: CounterSession,  # noqa: F811
    sim_world: World,
    arun: Callable[..., Any],
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"products|levels|retry")
    session = fast_session
    screen = _rewards(qtbot, session)
    control = SimControl(sim_world)
    record = _rich_client(sim_world)
    control.add_fault("drop", PRODUCTS, count=None)

    async def scenario() -> None:
        session.set_client(await session.api.search_client(record["email"]))
        screen.entered()
        await until(lambda: screen.empty.text() == OFFLINE)
        await until(lambda: not screen.tasks.running("catalog"))

    arun(scenario())
    assert screen.banner.text() == ""  # said once, on the page (issue #21)
    assert screen.pages.currentWidget() is screen.empty
    assert screen.empty.text() == OFFLINE
    assert not session.online
    assert not control.requests(path=r"^/external/(exchange|purchase)", method="POST")


def test_an_exchange_is_refused_offline_before_anything_is_sent_and_never_later(
    qtbot: QtBot,
    fast_session: CounterSession,  # noqa: F811
    sim_world: World,
    arun: Callable[..., Any],
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"levels|retry")
    session = fast_session
    screen = _rewards(qtbot, session)
    control = SimControl(sim_world)
    record = _rich_client(sim_world)

    async def scenario() -> None:
        session.set_client(await session.api.search_client(record["email"]))
        screen.entered()
        await until(lambda: screen.grid.tiles and not screen.tasks.running("catalog"))
        target = next(t for t in screen.grid.tiles.values() if t.card.affordable)
        qtbot.mouseClick(target, LEFT)
        assert screen.pages.currentWidget() is screen.sheet
        await _go_offline(session, control)
        since = control.requests()[-1]["seq"]
        await until(lambda: screen.sheet.confirm.armed)  # (a commit: armed once seen)
        qtbot.mouseClick(screen.sheet.confirm, LEFT)
        assert screen.banner.text() == OFFLINE
        assert screen.pages.currentWidget() is screen.grid
        # Back online (any call goes through): still nothing is sent on its own.
        await session.call(lambda: session.api.list_levels())
        for _ in range(5):
            await until(lambda: True)
        assert session.online
        assert control.requests(since=since, method="POST") == []

    arun(scenario())


def test_redeem_refuses_offline_and_sends_nothing_later(
    qtbot: QtBot,
    fast_session: CounterSession,  # noqa: F811
    sim_world: World,
    arun: Callable[..., Any],
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"purchase|retry|levels")
    session = fast_session
    screen = _redeem(qtbot, session)
    control = SimControl(sim_world)
    rule = control.add_fault("drop", LOOKUP_PATH, count=None)

    async def scenario() -> None:
        qtbot.keyClicks(screen.code, "PEND2345")
        qtbot.keyClick(screen.code, Qt.Key.Key_Return)
        await until(lambda: screen.banner.kind == "error")
        await until(lambda: not screen.tasks.running("lookup"))
        assert screen.banner.text() == DELIVERY_OFFLINE
        assert not screen.deliver_button.isEnabled()
        # The code found once back online, then offline again: the delivery is refused.
        control.state.faults[:] = [f for f in control.state.faults if f.id != rule]
        qtbot.keyClick(screen.code, Qt.Key.Key_Return)
        await until(lambda: screen.deliver_button.isEnabled())
        qtbot.mouseClick(screen.deliver_button, LEFT)
        await _go_offline(session, control)
        await until(lambda: screen.sheet.confirm.armed)  # (a commit: armed once seen)
        qtbot.mouseClick(screen.sheet.confirm, LEFT)
        assert screen.banner.text() == DELIVERY_OFFLINE
        assert screen.pages.currentWidget() is screen.card
        await session.call(lambda: session.api.list_levels())
        for _ in range(5):
            await until(lambda: True)

    arun(scenario())
    assert control.requests(path=REDEEM_PATH) == []
    assert sim_world.merchants[1].tables["purchases"]
    pending = [
        p for p in sim_world.merchants[1].tables["purchases"].values() if p["code"] == "PEND2345"
    ]
    assert pending[0]["status"] == "pending"


def test_a_delivery_whose_connection_never_opened_says_nothing_was_sent(
    qtbot: QtBot,
    fast_session: CounterSession,  # noqa: F811
    sim_world: World,
    arun: Callable[..., Any],
    expect_log: Callable[[str], None],
) -> None:
    """A 503 is "cannot process now" (nothing applied): the service's own message; only a
    connection that never carried the request is "no connection"."""
    expect_log(r"purchase|retry|redeem")
    session = fast_session
    screen = _redeem(qtbot, session)
    control = SimControl(sim_world)

    async def scenario() -> None:
        qtbot.keyClicks(screen.code, "PEND2345")
        qtbot.keyClick(screen.code, Qt.Key.Key_Return)
        await until(lambda: screen.deliver_button.isEnabled())
        control.add_fault("status", REDEEM_PATH, status=503, count=None)
        qtbot.mouseClick(screen.deliver_button, LEFT)
        await until(lambda: screen.sheet.confirm.armed)  # (a commit: armed once seen)
        qtbot.mouseClick(screen.sheet.confirm, LEFT)
        await until(lambda: screen.banner.kind == "error")

    arun(scenario())
    assert "cannot process this right now" in screen.banner.text()
    pending = [
        p for p in sim_world.merchants[1].tables["purchases"].values() if p["code"] == "PEND2345"
    ]
    assert pending[0]["status"] == "pending"
