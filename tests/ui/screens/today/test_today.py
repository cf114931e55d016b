"""The Today screen: the kiosk's journal of the day, and cancelling a credit from it.

Credits are made for real through the API client against the simulator and
journaled as the Points screen does; the simulator's ledger and balances say
what a cancel really did. Set ``KIOSK_SHOTS`` to a folder to also save 1280x800
PNGs of the states seen.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.api.models.points import CreditClient, CreditRequest
from kiosk.core.journal import JournalEntry, OperationKind, Outcome, client_display
from kiosk.core.session import CounterSession
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from kiosk.ui.main_window import CounterView
from kiosk.ui.screens.today.model import ACTION, AMOUNT, CLIENT, KIND, POINTS, RESULT, TICKET, TIME
from kiosk.ui.screens.today.screen import TodayScreen
from tests.qt_async import until
from tests.ui.theme_support import app_theme

JUAN = 1  # seeded client juan.perez@example.com
CANCEL_PATH = r"^/external/tags/cancel/"


@pytest.fixture
def themed(qapp: QApplication) -> Iterator[None]:
    with app_theme(qapp):
        yield


class Rig:
    def __init__(self, qtbot: QtBot, session: CounterSession, world: World) -> None:
        self.qtbot = qtbot
        self.session = session
        self.world = world
        self.control = SimControl(world)

    def open(self) -> TodayScreen:
        """The Today screen in the counter view (which enters it); call inside the loop."""
        self.screen = TodayScreen(self.session)
        self.view = CounterView(self.session, [self.screen])
        self.qtbot.addWidget(self.view)
        self.view.resize(1280, 800)
        self.view.show()
        return self.screen

    def client(self, client_id: int = JUAN) -> dict[str, Any]:
        return self.world.merchants[1].tables["clients"][client_id]

    def operation(self, external_id: str) -> dict[str, Any]:
        return next(op for op in self.control.ledger() if op.get("externalId") == external_id)

    async def credit(self, amount: str, ticket: str | None) -> JournalEntry:
        """A real credit, journaled as the Points screen does."""
        record = self.client()
        external_id = f"b1-20260101-{ticket or 'k'}-{uuid.uuid4().hex[:8]}"
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

    def cell(self, row: int, column: int) -> str:
        return self.screen.table.cell_text(row, column)

    def tap_cancel(self, entry_id: int) -> None:
        """A tap on the row's painted "Cancel credit" (no widget: the table's viewport)."""
        table = self.screen.table
        rect = table.action_rect(entry_id)
        assert rect is not None
        assert table.viewport().rect().contains(rect)
        self.qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())

    def shot(self, name: str) -> None:
        folder = os.environ.get("KIOSK_SHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            self.view.grab().save(str(Path(folder) / f"{name}.png"))


@pytest.fixture
def rig(qtbot: QtBot, session: CounterSession, sim_world: World, themed: None) -> Rig:
    return Rig(qtbot, session, sim_world)


def test_empty_day_says_what_will_appear(rig: Rig, arun: Callable[..., Any]) -> None:
    async def scenario() -> None:
        screen = rig.open()
        await until(lambda: not screen.tasks.running("load") and screen.summary.text())
        assert screen.stack.currentWidget() is screen.empty
        assert "No operations on this kiosk today" in screen.empty.text()
        assert screen.summary.text() == "0 operations · 0 points credited"

    arun(scenario())


def test_lists_todays_operations_newest_first(rig: Rig, arun: Callable[..., Any]) -> None:
    async def scenario() -> None:
        session = rig.session
        credit = await rig.credit("150000", "123")
        await session.journal.record(
            OperationKind.EXCHANGE, Outcome.OK, client="Ana · a***@example.com", points=-500
        )
        failed = await session.journal.record(
            OperationKind.CREDIT,
            Outcome.FAILED,
            client="Ana · a***@example.com",
            external_id="b1-x-failed",
            amount=Decimal("10"),
        )
        screen = rig.open()
        await until(lambda: screen.table.rowCount() == 3)
        assert screen.stack.currentWidget() is screen.table
        assert [e.id for e in screen.table.entries] == [failed.id, failed.id - 1, credit.id]
        row = 2  # the credit, oldest
        assert rig.cell(row, TIME) == credit.at.astimezone().strftime("%H:%M")
        assert rig.cell(row, KIND) == "Credit"
        assert rig.cell(row, CLIENT) == "Juan Carlos Pérez\nj***@example.com"
        assert "juan.perez" not in rig.cell(row, CLIENT)
        assert credit.points is not None
        assert credit.points > 999
        assert rig.cell(row, POINTS) == f"{credit.points:,}".replace(",", ".")
        assert rig.cell(row, AMOUNT) == "$ 150.000,00"
        assert rig.cell(row, TICKET) == "123"
        assert rig.cell(row, RESULT) == "Done"
        assert (rig.cell(1, KIND), rig.cell(1, POINTS)) == ("Reward exchange", "-500")
        assert (rig.cell(0, KIND), rig.cell(0, RESULT)) == ("Credit", "Failed")
        # Only the credit that went through can be canceled.
        assert screen.table.cancelable_ids() == [credit.id]
        assert screen.table.action_rect(credit.id) is not None
        assert screen.table.action_rect(credit.id).height() >= 48  # type: ignore[union-attr]
        assert screen.table.journal_model.index(row, ACTION).data(
            Qt.ItemDataRole.AccessibleTextRole
        ) == ("Cancel credit")
        assert screen.summary.text() == (
            "3 operations · " + f"{credit.points:,}".replace(",", ".") + " points credited"
        )
        rig.shot("today")
        # A new operation elsewhere in the counter shows up at once.
        await rig.credit("200", None)
        session.notify_journal()
        await until(lambda: screen.table.rowCount() == 4)

    arun(scenario())


def test_cancel_a_credit_after_confirming_exactly_what_happens(
    rig: Rig, arun: Callable[..., Any], qtbot: QtBot
) -> None:
    async def scenario() -> None:
        session = rig.session
        session.set_client(await session.api.search_client(rig.client()["email"]))
        before = rig.client()["score"]
        credit = await rig.credit("150000", "123")
        assert credit.points is not None
        assert credit.external_id is not None
        await session.refresh_client()
        assert session.client is not None
        assert session.client.balance == before + credit.points
        screen = rig.open()
        await until(lambda: credit.id in screen.table.cancelable_ids())
        rig.tap_cancel(credit.id)
        assert screen.sheet.isVisible()
        points = f"{credit.points:,}".replace(",", ".")
        assert screen.sheet.heading.text() == (
            f"Cancel the credit of {points} points to Juan Carlos Pérez · j***@example.com "
            "(ticket 123)?"
        )
        assert "taken back from the client" in screen.sheet.message.text()
        assert rig.control.requests(path=CANCEL_PATH) == []  # nothing sent before confirming
        rig.shot("today-cancel-confirm")
        # "Cancel the credit" counts a tap once the question is painted and the guard passed.
        assert not screen.sheet.confirm.armed
        await until(lambda: screen.sheet.confirm.armed)
        # A double tap sends one cancel.
        qtbot.mouseClick(screen.sheet.confirm, Qt.MouseButton.LeftButton)
        qtbot.mouseClick(screen.sheet.confirm, Qt.MouseButton.LeftButton)
        await until(lambda: screen.banner.kind == "success")
        assert screen.banner.text() == (
            f"Credit canceled: {points} points taken back from "
            "Juan Carlos Pérez · j***@example.com."
        )
        assert not screen.sheet.isVisible()
        assert len(rig.control.requests(path=CANCEL_PATH)) == 1
        assert rig.operation(credit.external_id)["state"] == "canceled"
        assert rig.client()["score"] == before
        assert session.client.balance == before  # the card at the counter was refreshed
        await until(lambda: screen.table.rowCount() == 2 and rig.cell(1, RESULT) == "Canceled")
        assert (rig.cell(0, KIND), rig.cell(0, POINTS)) == ("Credit canceled", f"-{points}")
        assert (rig.cell(1, KIND), rig.cell(1, RESULT)) == ("Credit", "Canceled")
        assert screen.table.cancelable_ids() == []
        rig.shot("today-canceled")

    arun(scenario())


def test_a_credit_that_is_not_active_any_more_says_so(
    rig: Rig, arun: Callable[..., Any], qtbot: QtBot
) -> None:
    async def scenario() -> None:
        ghost = await rig.session.journal.record(
            OperationKind.CREDIT,
            Outcome.OK,
            client="Ana · a***@example.com",
            external_id="b1-20260101-T77-gone",
            points=300,
            ticket="77",
        )
        screen = rig.open()
        await until(lambda: ghost.id in screen.table.cancelable_ids())
        rig.tap_cancel(ghost.id)
        assert screen.sheet.heading.text() == (
            "Cancel the credit of 300 points to Ana · a***@example.com (ticket 77)?"
        )
        await until(lambda: screen.sheet.confirm.armed)
        qtbot.mouseClick(screen.sheet.confirm, Qt.MouseButton.LeftButton)
        await until(lambda: screen.banner.kind == "info")
        assert screen.banner.text() == (
            "This credit was already canceled or does not exist. Nothing was changed."
        )
        # Through the outbox: its cancel row says nothing was active; the credit is closed.
        await until(lambda: screen.table.rowCount() == 2 and rig.cell(1, RESULT) == "Canceled")
        assert (rig.cell(0, KIND), rig.cell(0, RESULT)) == ("Credit canceled", "Done")
        assert screen.table.cancelable_ids() == []
        assert [r["status"] for r in rig.control.requests(path=CANCEL_PATH)] == [404]
        rig.shot("today-not-found")

    arun(scenario())


def test_while_a_cancel_runs_nothing_else_can_start_and_a_refusal_keeps_the_sheet(
    rig: Rig, arun: Callable[..., Any], qtbot: QtBot, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"^today: bad_request|dead letter")  # the refusal: a dead letter, logged

    async def scenario() -> None:
        first = await rig.credit("150000", "1")
        second = await rig.credit("900", "2")
        screen = rig.open()
        await until(lambda: len(screen.table.cancelable_ids()) == 2)
        rig.control.add_fault("status", CANCEL_PATH, status=400, count=1)
        rig.tap_cancel(first.id)
        await until(lambda: screen.sheet.confirm.armed)
        qtbot.mouseClick(screen.sheet.confirm, Qt.MouseButton.LeftButton)
        # At once, before the request has even started:
        assert screen.sheet.confirm.busy
        assert not screen.sheet.confirm.isEnabled()
        assert not screen.sheet.back.isEnabled()
        assert not screen.table.actions_enabled
        screen.ask_cancel(second.id)  # ignored while the first runs
        assert screen.sheet.subject == first
        await until(lambda: screen.banner.kind == "error")
        assert "The service refused this request" in screen.banner.text()
        assert screen.sheet.isVisible()
        assert screen.sheet.back.isEnabled()
        assert screen.table.actions_enabled
        await until(lambda: screen.sheet.confirm.isEnabled())  # armed again, after the guard
        assert rig.operation(first.external_id or "")["state"] == "active"

    arun(scenario())


def test_authorize_hook_can_refuse_before_anything_is_sent(
    rig: Rig, arun: Callable[..., Any], qtbot: QtBot
) -> None:
    asked: list[int] = []

    async def manager_says_no(entry: JournalEntry) -> bool:
        asked.append(entry.id)
        return False

    async def scenario() -> None:
        credit = await rig.credit("150000", "5")
        screen = rig.open()
        screen.authorize_cancel = manager_says_no
        await until(lambda: credit.id in screen.table.cancelable_ids())
        rig.tap_cancel(credit.id)
        await until(lambda: screen.sheet.confirm.armed)
        qtbot.mouseClick(screen.sheet.confirm, Qt.MouseButton.LeftButton)
        await until(lambda: screen.banner.kind == "error")
        assert asked == [credit.id]
        assert "not authorized" in screen.banner.text()
        assert rig.control.requests(path=CANCEL_PATH) == []
        screen.reset()  # idle: the sheet goes
        assert not screen.sheet.isVisible()

    arun(scenario())
