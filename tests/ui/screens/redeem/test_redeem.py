"""The Redeem screen against the in-process simulator: the seeded codes (pending,
delivered, expired, canceled), an unknown code, a 429 on the look-up, a dropped
connection on the delivery and a double tap."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from kiosk.core.journal import OperationKind
from kiosk.core.session import CounterSession
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from kiosk.ui.screens.redeem.screen import RedeemScreen
from tests.qt_async import until

LEFT = Qt.MouseButton.LeftButton
REDEEM_PATH = "^/external/purchase/redeem/"
LOOKUP_PATH = "^/external/purchase/code/"


def stored(world: World, code: str) -> dict[str, Any]:
    purchases = world.merchants[1].tables["purchases"].values()
    return next(p for p in purchases if p["code"] == code)


def make_screen(qtbot: QtBot, session: CounterSession) -> RedeemScreen:
    screen = RedeemScreen(session)
    qtbot.addWidget(screen)
    screen.resize(1280, 800)
    screen.show()
    screen.entered()
    return screen


async def look_up(qtbot: QtBot, screen: RedeemScreen, typed: str, timeout: float = 5) -> None:
    screen.code.clear()
    qtbot.keyClicks(screen.code, typed)
    qtbot.keyClick(screen.code, Qt.Key.Key_Return)
    await until(lambda: not screen.tasks.running("lookup"), timeout=timeout)


async def tap_confirm(qtbot: QtBot, screen: RedeemScreen) -> None:
    """Tap the sheet's Confirm once it is shown and armed (a tap before is ignored)."""
    await until(lambda: screen.sheet.confirm.armed, message="Confirm never armed")
    qtbot.mouseClick(screen.sheet.confirm, LEFT)


async def deliver(qtbot: QtBot, screen: RedeemScreen, timeout: float = 5) -> None:
    qtbot.mouseClick(screen.deliver_button, LEFT)
    assert screen.pages.currentWidget() is screen.sheet
    await tap_confirm(qtbot, screen)
    await until(lambda: not screen.tasks.running("deliver"), timeout=timeout)


def test_a_pending_code_is_delivered_once(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: World
) -> None:
    screen = make_screen(qtbot, session)
    control = SimControl(sim_world)
    journal_events: list[None] = []
    session.journal_changed.connect(journal_events.append)

    async def scenario() -> None:
        assert screen.pages.currentWidget() is screen.empty
        assert "type the code" in screen.empty_text.text()
        assert not screen.deliver_button.isEnabled()
        await look_up(qtbot, screen, " pend 2345")
        assert screen.code.text() == "PEND2345"
        assert screen.pages.currentWidget() is screen.card
        assert screen.card.status.text() == "Pending: not delivered yet"
        assert screen.card.reward.text() == "Café con medialunas"
        assert screen.card.code.text() == "PEND2345"
        client = stored(sim_world, "PEND2345")["client"]
        assert client["firstName"] in screen.card.client.text()
        assert client["email"] not in screen.card.client.text()
        assert "***@" in screen.card.client.text()
        assert screen.card.created.text().count("/") == 2
        assert screen.deliver_button.isEnabled()
        # The sheet says what will happen; Back changes nothing.
        qtbot.mouseClick(screen.deliver_button, LEFT)
        assert screen.sheet.message.text() == (
            f"Deliver Café con medialunas to {client['firstName']} {client['lastName']}."
        )
        assert not screen.action_row.isVisible()
        qtbot.mouseClick(screen.sheet.back, LEFT)
        assert stored(sim_world, "PEND2345")["status"] == "pending"

        await deliver(qtbot, screen)
        assert screen.banner.kind == "success"
        assert screen.banner.text().startswith("Delivered")
        assert screen.card.status.text() == "Delivered"
        assert not screen.deliver_button.isEnabled()
        assert stored(sim_world, "PEND2345")["status"] == "delivered"
        assert len(control.requests(path=REDEEM_PATH, method="POST")) == 1
        await until(lambda: journal_events)
        rows = await session.journal.today()
        assert [(r.kind, r.detail) for r in rows] == [
            (OperationKind.REDEEM, "Café con medialunas · PEND2345")
        ]

    arun(scenario())


def test_an_already_delivered_code_changes_nothing(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: World
) -> None:
    screen = make_screen(qtbot, session)
    control = SimControl(sim_world)
    before = dict(stored(sim_world, "ENTR6789"))

    async def scenario() -> None:
        await look_up(qtbot, screen, "entr6789")
        assert screen.card.status.text() == "Delivered"
        assert screen.banner.kind == "error"
        assert "already delivered" in screen.banner.text()
        assert "Nothing to do" in screen.banner.text()
        assert not screen.deliver_button.isEnabled()
        qtbot.mouseClick(screen.deliver_button, LEFT)
        assert screen.pages.currentWidget() is screen.card
        assert control.requests(path=REDEEM_PATH) == []
        assert stored(sim_world, "ENTR6789") == before
        assert await session.journal.today() == []

    arun(scenario())


def test_an_expired_code_is_refused_and_nothing_changes(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: World
) -> None:
    screen = make_screen(qtbot, session)
    before = dict(stored(sim_world, "VENC3456"))

    async def scenario() -> None:
        await look_up(qtbot, screen, "VENC3456")
        # The record of an expired code still says pending: only the API knows.
        assert screen.deliver_button.isEnabled()
        await deliver(qtbot, screen)
        assert screen.banner.kind == "error"
        assert "expired" in screen.banner.text()
        assert "Nothing was changed" in screen.banner.text()
        assert screen.card.status.text() == "Expired"
        assert not screen.deliver_button.isEnabled()
        assert stored(sim_world, "VENC3456") == before
        assert await session.journal.today() == []

    arun(scenario())


def test_a_canceled_code_cannot_be_delivered(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: World
) -> None:
    screen = make_screen(qtbot, session)
    control = SimControl(sim_world)

    async def scenario() -> None:
        await look_up(qtbot, screen, "CANC-4567")
        assert screen.card.status.text() == "Canceled"
        assert "canceled" in screen.banner.text()
        assert not screen.deliver_button.isEnabled()
        assert control.requests(path=REDEEM_PATH) == []
        assert stored(sim_world, "CANC4567")["status"] == "canceled"

    arun(scenario())


def test_an_unknown_code_says_it_does_not_exist(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: World
) -> None:
    screen = make_screen(qtbot, session)

    async def scenario() -> None:
        await look_up(qtbot, screen, "PEND2345")
        await look_up(qtbot, screen, "ZZZZ9999")
        # Said once, on the page, with the next step (issue #21: the banner said it again).
        assert (
            screen.empty_text.text() == "No purchase has the code ZZZZ9999. Check it and try again."
        )
        assert screen.banner.text() == ""
        assert screen.pages.currentWidget() is screen.empty
        assert screen.purchase is None
        assert not screen.deliver_button.isEnabled()
        # Not a code at all: said at once, nothing sent.
        control = SimControl(sim_world)
        sent = len(control.requests(path=LOOKUP_PATH))
        await look_up(qtbot, screen, "ab@c")
        assert "letters and digits" in screen.banner.text()
        assert len(control.requests(path=LOOKUP_PATH)) == sent

    arun(scenario())


def test_a_429_on_the_look_up_is_retried_by_the_client(
    qtbot: QtBot,
    session: CounterSession,
    arun: Callable[..., Any],
    sim_world: World,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"rate_limited, retry")
    screen = make_screen(qtbot, session)
    control = SimControl(sim_world)
    control.add_fault("status", LOOKUP_PATH, method="GET", status=429, count=1)

    async def scenario() -> None:
        await look_up(qtbot, screen, "PEND2345", timeout=10)
        assert screen.card.code.text() == "PEND2345"
        assert screen.banner.text() == ""
        statuses = [r.get("status") for r in control.requests(path=LOOKUP_PATH)]
        assert statuses == [429, 200]

    arun(scenario())


def test_a_dropped_connection_on_deliver_is_reconciled_by_reading_the_code(
    qtbot: QtBot,
    session: CounterSession,
    arun: Callable[..., Any],
    sim_world: World,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"redeem")
    screen = make_screen(qtbot, session)
    control = SimControl(sim_world)

    async def scenario() -> None:
        await look_up(qtbot, screen, "PEND2345")
        control.add_fault("drop", REDEEM_PATH, method="POST")
        await deliver(qtbot, screen, timeout=15)
        assert screen.banner.kind == "success"
        assert screen.card.status.text() == "Delivered"
        assert stored(sim_world, "PEND2345")["status"] == "delivered"
        assert len(control.requests(path=REDEEM_PATH, method="POST")) == 1
        assert [r.get("fault") for r in control.requests(path=REDEEM_PATH)] == ["drop"]
        await until(lambda: not screen.tasks.running("journal"))
        assert [r.kind for r in await session.journal.today()] == [OperationKind.REDEEM]

    arun(scenario())


def test_a_double_tap_on_deliver_sends_once(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: World
) -> None:
    screen = make_screen(qtbot, session)
    control = SimControl(sim_world)

    async def scenario() -> None:
        await look_up(qtbot, screen, "PEND2345")
        qtbot.mouseClick(screen.deliver_button, LEFT)
        qtbot.mouseClick(screen.deliver_button, LEFT)
        await tap_confirm(qtbot, screen)
        qtbot.mouseClick(screen.sheet.confirm, LEFT)
        assert not screen.sheet.back.isEnabled()
        await until(lambda: not screen.tasks.running("deliver"))
        assert screen.banner.kind == "success"
        assert len(control.requests(path=REDEEM_PATH, method="POST")) == 1
        await until(lambda: not screen.tasks.running("journal"))
        assert len(await session.journal.today()) == 1

    arun(scenario())


def test_a_complete_code_is_looked_up_as_typed_and_reset_forgets_it(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: World
) -> None:
    screen = make_screen(qtbot, session)
    control = SimControl(sim_world)

    async def scenario() -> None:
        qtbot.keyClicks(screen.code, "cash2345")
        await until(lambda: screen.purchase is not None)
        assert screen.card.reward.text() == "$ 1.000,00 in money"
        assert screen.card.kind.text() == "Money exchange"
        assert len(control.requests(path=LOOKUP_PATH)) == 1
        screen.reset()
        assert screen.purchase is None
        assert screen.code.text() == ""
        assert screen.card.client.text() == ""
        assert screen.pages.currentWidget() is screen.empty

    arun(scenario())


def test_leaving_the_screen_mid_delivery_does_not_cut_it(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: World
) -> None:
    screen = make_screen(qtbot, session)
    control = SimControl(sim_world)

    async def scenario() -> None:
        await look_up(qtbot, screen, "PEND2345")
        control.add_fault("latency", REDEEM_PATH, method="POST", seconds=0.3)
        qtbot.mouseClick(screen.deliver_button, LEFT)
        await tap_confirm(qtbot, screen)
        await until(lambda: control.requests(path=REDEEM_PATH))
        screen.leave()
        await until(lambda: stored(sim_world, "PEND2345")["status"] == "delivered")
        await until(lambda: screen._write is not None and not screen._write.running)
        assert [r.kind for r in await session.journal.today()] == [OperationKind.REDEEM]
        screen.entered()
        await until(lambda: screen.banner.kind == "success")
        assert screen.card.status.text() == "Delivered"
        assert len(control.requests(path=REDEEM_PATH, method="POST")) == 1

    arun(scenario())
