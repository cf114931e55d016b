"""The Points screen against the simulator in process: amounts typed in es-AR on the
keypad and the keyboard, preview, credit and result, double taps, and the error
paths (suspended client, no points, dropped connection, a ticket already
credited), each checked in the simulator's ledger. Point items: test_points_items.py."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from kiosk.api.errors import ApiError, ErrorKind, Reason
from kiosk.core.amounts import format_points
from kiosk.core.counter.sale import SaleState
from kiosk.core.journal import Outcome
from kiosk.core.session import CounterSession
from kiosk.sim.control import SimControl
from kiosk.sim.seed_people import MAIN_SUSPENDED
from kiosk.sim.world import World
from kiosk.ui.messages import error_text
from kiosk.ui.screens.points.screen import PointsScreen
from tests.qt_async import until
from tests.ui.screens.points.points_support import (
    CREDIT,
    LEFT,
    Run,
    credit,
    credits_sent,
    journal_rows,
    ledger_of,
    points_screen,
    preview_amount,
    score,
    settled,
)


@pytest.fixture
def screen(qtbot: QtBot, session: CounterSession, arun: Run) -> Iterator[PointsScreen]:
    yield from points_screen(qtbot, session, arun)


def test_amount_typed_on_the_keyboard_in_es_ar_is_echoed_on_the_preview(
    qtbot: QtBot, screen: PointsScreen, arun: Run, sim_world: World
) -> None:
    async def scenario() -> None:
        assert screen.pad.amount.text() == "$ 0,00"
        assert screen.preview_button.text() == "Preview"
        qtbot.keyClicks(screen, "1.234,56")
        assert screen.pad.amount.text() == "$ 1.234,56"
        qtbot.keyClick(screen, Qt.Key.Key_Backspace)
        qtbot.keyClicks(screen, "6x")  # a letter is not an amount key
        assert screen.pad.amount.text() == "$ 1.234,56"
        qtbot.keyClick(screen, Qt.Key.Key_Return)  # Enter: the next step
        await until(lambda: screen.preview_card.isVisible())
        assert screen.preview_card.amount.text() == "$ 1.234,56"  # not 1,23: read in es-AR
        base = math.floor(1234.56 / sim_world.merchants[1].rules.currency_per_point)
        assert screen.preview_card.base.text() == format_points(base, "es-AR")
        preview = screen.flow.sale.preview
        assert preview is not None
        assert preview.points.initial == base
        assert preview.points.total > base  # Juan is Plata: a level bonus
        total = format_points(preview.points.total, "es-AR")
        assert screen.preview_card.total.text() == f"{total} pts"
        assert screen.credit_button.text() == f"Credit {total} points"
        assert screen.preview_button.text() == "Preview"  # never changes its words

    arun(scenario())


def test_amount_typed_on_the_keypad(qtbot: QtBot, screen: PointsScreen, arun: Run) -> None:
    async def scenario() -> None:
        for key in ("1", "2", "3", "4", ",", "5", "6", "7"):
            qtbot.mouseClick(screen.pad.keypad.buttons[key], LEFT)
        qtbot.mouseClick(screen.pad.keypad.buttons["\b"], LEFT)
        assert screen.pad.amount.text() == "$ 1.234,56"  # as the preview shows it
        assert screen.pad.keypad.buttons[","].text() == ","  # the locale's decimal key
        qtbot.mouseClick(screen.preview_button, LEFT)
        await until(lambda: screen.preview_card.isVisible())
        assert screen.preview_card.amount.text() == "$ 1.234,56"

    arun(scenario())


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("", "Type the purchase amount."),
        ("1,234.56", "Check the separators: use . for thousands and , for decimals."),
        ("1,234", "Check the separators: use . for thousands and , for decimals."),
        (",001", "An amount has at most two decimals."),
        ("0", "The amount must be greater than zero."),
    ],
)
def test_an_invalid_amount_is_refused_clearly_and_nothing_is_sent(
    qtbot: QtBot, screen: PointsScreen, arun: Run, sim_world: World, typed: str, message: str
) -> None:
    async def scenario() -> None:
        qtbot.keyClicks(screen, typed)
        qtbot.keyClick(screen, Qt.Key.Key_Return)
        await until(lambda: screen.pad.problem.isVisible())
        assert screen.pad.problem.text() == message
        assert not screen.preview_card.isVisible()
        assert SimControl(sim_world).requests(path="preview") == []
        qtbot.keyClick(screen, Qt.Key.Key_Backspace)  # editing clears the message
        assert not screen.pad.problem.isVisible()

    arun(scenario())


def test_preview_credit_result_with_the_new_balance(
    qtbot: QtBot, screen: PointsScreen, arun: Run, session: CounterSession, sim_world: World
) -> None:
    client = session.client
    assert client is not None
    before = score(sim_world, client.id)

    async def scenario() -> None:
        await preview_amount(qtbot, screen, "2.500")
        preview = screen.flow.sale.preview
        assert preview is not None
        await credit(qtbot, screen)
        outcome = screen.flow.sale.outcome
        assert outcome is not None
        [op] = ledger_of(sim_world, outcome.external_id)
        assert op["totalPoints"] == preview.points.total
        after = score(sim_world, client.id)
        assert after == before + preview.points.total
        points = format_points(preview.points.total, "es-AR")
        assert screen.result.headline.text() == f"+{points} points"
        assert (
            screen.result.balance.text() == f"New balance: {format_points(after, 'es-AR')} points"
        )
        assert session.client is not None
        assert session.client.balance == after  # the card shows it too
        rows = await session.journal.today()
        assert [(r.outcome, r.points, r.external_id) for r in rows] == [
            (Outcome.OK, preview.points.total, outcome.external_id)
        ]
        qtbot.mouseClick(screen.result.next, LEFT)  # New sale: empty again
        assert screen.pages.currentIndex() == 0
        assert screen.pad.amount.text() == "$ 0,00"
        assert screen.flow.sale.state is SaleState.EDITING

    arun(scenario())


def test_changing_the_amount_after_a_preview_invalidates_it(
    qtbot: QtBot, screen: PointsScreen, arun: Run
) -> None:
    async def scenario() -> None:
        await preview_amount(qtbot, screen, "1.000")
        assert screen.credit_button.text().startswith("Credit")
        qtbot.keyClicks(screen, "0")  # 10.000: a slip of ten times
        assert not screen.preview_card.isVisible()
        assert not screen.credit_button.isVisible()
        assert not screen.credit_button.armed
        assert screen.preview_button.isEnabled()
        assert screen.flow.sale.preview is None

    arun(scenario())


def test_a_double_tap_on_credit_sends_once(
    qtbot: QtBot, screen: PointsScreen, arun: Run, sim_world: World
) -> None:
    async def scenario() -> None:
        await preview_amount(qtbot, screen, "3.000")
        qtbot.mouseClick(screen.credit_button, LEFT)
        qtbot.mouseClick(screen.credit_button, LEFT)
        qtbot.keyClick(screen, Qt.Key.Key_Return)
        await settled(screen)
        outcome = screen.flow.sale.outcome
        assert outcome is not None
        assert len(ledger_of(sim_world, outcome.external_id)) == 1
        assert len(credits_sent(sim_world)) == 1

    arun(scenario())


def test_every_action_is_disabled_while_the_credit_runs(
    qtbot: QtBot, screen: PointsScreen, arun: Run, sim_world: World
) -> None:
    async def scenario() -> None:
        await preview_amount(qtbot, screen, "1.500")
        SimControl(sim_world).add_fault("latency", CREDIT, method="POST", seconds=0.4)
        qtbot.mouseClick(screen.credit_button, LEFT)
        await until(lambda: screen.credit_button.busy)
        for widget in (
            screen.pad.keypad, screen.amount_tab, screen.items_tab, screen.ticket,
            screen.preview_button, screen.credit_button,
        ):  # fmt: skip
            assert not widget.isEnabled()
        assert screen.credit_button.text() == "Crediting…"
        qtbot.keyClicks(screen, "9")
        assert screen.flow.sale.amount_text == "1.500"  # typing is refused too
        await settled(screen)
        assert screen.pad.keypad.isEnabled()
        assert screen.ticket.isEnabled()

    arun(scenario())


def test_a_suspended_client_gets_a_banner(
    qtbot: QtBot,
    screen: PointsScreen,
    arun: Run,
    session: CounterSession,
    sim_world: World,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"suspended")

    async def scenario() -> None:
        session.set_client(await session.api.search_client(MAIN_SUSPENDED))
        qtbot.keyClicks(screen, "5.000")
        qtbot.keyClick(screen, Qt.Key.Key_Return)
        await until(lambda: screen.banner.isVisible())
        assert screen.banner.kind == "error"
        assert screen.banner.text() == error_text(ApiError(ErrorKind.SUSPENDED))
        assert "suspended" in screen.banner.text()
        assert not screen.preview_card.isVisible()
        assert credits_sent(sim_world) == []

    arun(scenario())


def test_a_preview_that_gives_no_points_says_so_in_plain_words(
    qtbot: QtBot, screen: PointsScreen, arun: Run, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"no_points")

    async def scenario() -> None:
        qtbot.keyClicks(screen, "0,50")
        qtbot.keyClick(screen, Qt.Key.Key_Return)
        await until(lambda: screen.banner.isVisible())
        assert screen.banner.text() == error_text(
            ApiError(ErrorKind.BAD_REQUEST, reason=Reason.NO_POINTS)
        )
        assert screen.preview_button.isEnabled()
        assert not screen.credit_button.isVisible()

    arun(scenario())


def test_a_dropped_connection_on_the_credit_ends_in_one_credit_and_success(
    qtbot: QtBot,
    screen: PointsScreen,
    arun: Run,
    sim_world: World,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"tags/add")

    async def scenario() -> None:
        await preview_amount(qtbot, screen, "4.000")
        SimControl(sim_world).add_fault("drop", CREDIT, method="POST", count=1)
        await credit(qtbot, screen)
        outcome = screen.flow.sale.outcome
        assert outcome is not None
        assert outcome.confirmed_by_duplicate
        assert len(ledger_of(sim_world, outcome.external_id)) == 1
        assert [r["external_id"] for r in credits_sent(sim_world)] == [outcome.external_id] * 2
        assert screen.result.headline.text().startswith("+")
        assert "New balance" in screen.result.balance.text()

    arun(scenario())


@pytest.mark.parametrize("status", [429, 503])
def test_busy_or_unavailable_once_is_retried_and_succeeds(
    qtbot: QtBot,
    screen: PointsScreen,
    arun: Run,
    sim_world: World,
    status: int,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"tags/add.*retry")

    async def scenario() -> None:
        await preview_amount(qtbot, screen, "1.200")
        SimControl(sim_world).add_fault("status", CREDIT, method="POST", status=status, count=1)
        await credit(qtbot, screen)
        outcome = screen.flow.sale.outcome
        assert outcome is not None
        assert not outcome.confirmed_by_duplicate
        assert len(ledger_of(sim_world, outcome.external_id)) == 1
        assert len(credits_sent(sim_world)) == 2

    arun(scenario())


def test_lost_answers_end_in_a_pending_receipt_then_exactly_one_credit(
    qtbot: QtBot,
    screen: PointsScreen,
    arun: Run,
    session: CounterSession,
    sim_world: World,
    expect_log: Callable[[str], None],
) -> None:
    """Through the outbox: the cashier is not asked to try again; the sale is kept and
    the sender resends the same id until the duplicate answer confirms it."""
    expect_log(r"tags/add|credit failed")

    async def scenario() -> None:
        qtbot.mouseClick(screen.ticket, LEFT)
        qtbot.keyClicks(screen.ticket, "0003-77")
        screen.setFocus()
        await preview_amount(qtbot, screen, "2.000")
        SimControl(sim_world).add_fault("drop", CREDIT, method="POST", count=4)
        await credit(qtbot, screen)
        assert screen.result.headline.text() == "Saved: the credit will be sent automatically."
        external_id = screen.flow.sale.external_id
        assert external_id is not None
        assert external_id in screen.result.details.text()
        [row] = await journal_rows(session, Outcome.OK)  # the sender confirmed it
        assert row.external_id == external_id
        assert len(ledger_of(sim_world, external_id)) == 1
        sent = [r["external_id"] for r in credits_sent(sim_world)]
        assert sent == [external_id] * 5  # 4 dropped (applied by the first), then a 409

    arun(scenario(), timeout=40)


def test_a_ticket_already_credited_gives_no_new_points(
    qtbot: QtBot, screen: PointsScreen, arun: Run, session: CounterSession, sim_world: World
) -> None:
    client = session.client
    assert client is not None

    async def scenario() -> None:
        qtbot.keyClicks(screen.ticket, "0003-00012345")
        screen.setFocus()
        await preview_amount(qtbot, screen, "2.000")
        await credit(qtbot, screen)
        external_id = screen.flow.sale.external_id
        balance = score(sim_world, client.id)
        qtbot.mouseClick(screen.result.next, LEFT)
        assert screen.ticket.text() == ""
        qtbot.keyClicks(screen.ticket, "0003 00012345")  # the same ticket, typed again
        screen.setFocus()
        await preview_amount(qtbot, screen, "2.000")
        await credit(qtbot, screen)
        assert screen.flow.sale.external_id == external_id
        assert screen.result.headline.text() == "This ticket was already credited"
        assert screen.result.balance.text() == "No new points were given."
        assert "Ticket 0003-00012345" in screen.result.details.text()
        assert len(ledger_of(sim_world, external_id)) == 1
        assert score(sim_world, client.id) == balance
        rows = await session.journal.today()
        assert [r.outcome for r in rows] == [Outcome.ALREADY_CREDITED, Outcome.OK]

    arun(scenario())


def test_a_bad_ticket_number_is_marked_before_anything_is_sent(
    qtbot: QtBot, screen: PointsScreen, arun: Run, sim_world: World
) -> None:
    async def scenario() -> None:
        qtbot.keyClicks(screen.ticket, "12$4")
        screen.setFocus()
        qtbot.keyClicks(screen, "100")
        qtbot.keyClick(screen, Qt.Key.Key_Return)
        await until(lambda: screen.ticket_problem.isVisible())
        assert "ticket number" in screen.ticket_problem.text()
        assert SimControl(sim_world).requests(path="tags") == []

    arun(scenario())


def test_leaving_during_a_credit_does_not_abandon_it(
    qtbot: QtBot, screen: PointsScreen, arun: Run, session: CounterSession, sim_world: World
) -> None:
    async def scenario() -> None:
        await preview_amount(qtbot, screen, "1.800")
        SimControl(sim_world).add_fault("latency", CREDIT, method="POST", seconds=0.3)
        qtbot.mouseClick(screen.credit_button, LEFT)
        await until(lambda: credits_sent(sim_world))  # on its way (held by the latency)
        screen.leave()  # the cashier switched screens: the task is cancelled...
        await until(lambda: screen.flow.sale.state is SaleState.DONE)  # ...not the credit
        outcome = screen.flow.sale.outcome
        assert outcome is not None
        assert len(ledger_of(sim_world, outcome.external_id)) == 1
        assert [r.outcome for r in await session.journal.today()] == [Outcome.OK]
        screen.entered()
        assert screen.pages.currentWidget() is screen.result

    arun(scenario())


def test_a_kiosk_without_a_valid_id_refuses_to_credit_and_says_so(
    qtbot: QtBot,
    screen: PointsScreen,
    arun: Run,
    session: CounterSession,
    sim_world: World,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"points: unexpected failure")
    session.config.kiosk_id = "k-test"  # not 8 hex digits: no external id can be made

    async def scenario() -> None:
        await preview_amount(qtbot, screen, "1.000")
        qtbot.mouseClick(screen.credit_button, LEFT)
        assert screen.banner.kind == "error"
        assert "call a manager" in screen.banner.text()
        assert screen.flow.sale.state is SaleState.PREVIEWED  # nothing locked, nothing sent
        assert credits_sent(sim_world) == []

    arun(scenario())
