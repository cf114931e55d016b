"""The counter with its store-and-forward outbox (issue #5), against the simulator in
process: the Points screen's credit through the outbox (online, server down, a
dropped connection, a dead letter), the status bar's pending counter, the Pending
list of the Today screen (retry now, discard behind the manager's PIN), and the
cancel of a credit never sent (voided with it, no request). The sender runs on a
virtual clock (``outbox_kit``): its backoffs cost no real time.

Set ``KIOSK_SHOTS`` to a folder to save 1280x800 PNGs of the states seen.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from kiosk.core.counter.sale import CreditStatus
from kiosk.core.journal import Outcome
from kiosk.core.outbox.queue import RowState
from kiosk.core.session import CounterSession
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from kiosk.ui.counter import Counter
from kiosk.ui.screens.points.screen import PointsScreen
from kiosk.ui.screens.today.pending import ERROR
from kiosk.ui.screens.today.screen import TodayScreen
from tests.qt_async import until
from tests.ui.conftest import OutboxKit
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
)

CANCEL_PATH = r"^/external/tags/cancel/"


@pytest.fixture
def screen(qtbot: QtBot, session: CounterSession, arun: Run) -> Iterator[PointsScreen]:
    yield from points_screen(qtbot, session, arun)


@pytest.fixture
def view(qtbot: QtBot, session: CounterSession, screen: PointsScreen) -> Counter:
    """The counter around the Points and Today screens (status bar wired to the outbox)."""
    counter = Counter(session, [screen, TodayScreen(session)])
    counter.show_outbox()
    qtbot.addWidget(counter)
    counter.resize(1280, 800)
    counter.show()
    return counter


def shot(widget: QWidget, name: str) -> None:
    folder = os.environ.get("KIOSK_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        widget.grab().save(str(Path(folder) / f"{name}.png"))


def test_online_credit_is_credited_once_and_settled_by_the_outbox(
    qtbot: QtBot, screen: PointsScreen, arun: Run, session: CounterSession, sim_world: World
) -> None:
    async def scenario() -> None:
        await preview_amount(qtbot, screen, "2.000")
        await credit(qtbot, screen)
        outcome = screen.flow.sale.outcome
        assert outcome is not None
        assert outcome.status is CreditStatus.CREDITED
        assert screen.result.headline.text().startswith("+")
        assert "New balance" in screen.result.balance.text()
        assert len(ledger_of(sim_world, outcome.external_id)) == 1
        [row] = await journal_rows(session, Outcome.OK)  # one row: the outbox's
        assert row.external_id == outcome.external_id
        assert row.points == outcome.points
        assert session.outbox is not None
        assert (await session.outbox.status()).pending == 0

    arun(scenario())


def test_server_down_gives_a_pending_receipt_then_the_sender_drains_it(
    qtbot: QtBot,
    view: Counter,
    screen: PointsScreen,
    arun: Run,
    session: CounterSession,
    sim_world: World,
    outbox_kit: OutboxKit,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"tags/add")
    control = SimControl(sim_world)

    async def scenario() -> None:
        await preview_amount(qtbot, screen, "3.000")
        control.add_fault("status", CREDIT, method="POST", status=503, count=None)
        await credit(qtbot, screen)
        outcome = screen.flow.sale.outcome
        assert outcome is not None
        assert outcome.status is CreditStatus.PENDING
        assert screen.result.headline.text() == "Saved: the credit will be sent automatically."
        assert screen.result.balance.text().startswith("1 pending.")
        assert outcome.external_id in screen.result.details.text()
        await until(lambda: view.status.pending_count == 1)
        assert view.status.pending.text() == "1 pending"
        shot(view, "outbox-pending-receipt")
        assert ledger_of(sim_world, outcome.external_id) == []
        [row] = await session.journal.today()
        assert row.outcome is Outcome.PENDING
        assert outbox_kit.time.sleeps  # the sender waited (virtually) between tries
        control.clear_faults()  # the server is back: the sender's next try goes through
        await until(lambda: view.status.pending_count == 0)
        [row] = await journal_rows(session, Outcome.OK)
        assert row.external_id == outcome.external_id
        assert len(ledger_of(sim_world, outcome.external_id)) == 1

    arun(scenario())


def test_a_dropped_connection_after_apply_credits_exactly_once(
    qtbot: QtBot,
    screen: PointsScreen,
    arun: Run,
    session: CounterSession,
    sim_world: World,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"tags/add")

    async def scenario() -> None:
        await preview_amount(qtbot, screen, "1.000")
        SimControl(sim_world).add_fault("drop", CREDIT, method="POST", count=1)
        await credit(qtbot, screen)
        outcome = screen.flow.sale.outcome
        assert outcome is not None
        assert outcome.status is CreditStatus.CREDITED
        assert outcome.confirmed_by_duplicate  # the resend's 409: our first attempt did it
        assert len(ledger_of(sim_world, outcome.external_id)) == 1
        assert len(credits_sent(sim_world)) == 2
        [row] = await journal_rows(session, Outcome.OK)
        assert "confirmed" in row.detail

    arun(scenario())


def test_a_dead_letter_shows_the_reason_and_waits_in_the_pending_list_for_a_manager(
    qtbot: QtBot,
    view: Counter,
    screen: PointsScreen,
    arun: Run,
    session: CounterSession,
    sim_world: World,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"dead letter|credit failed|refused|discarded")
    asked: list[object] = []
    answers = [False, True]

    async def manager(row_id: object) -> bool:
        asked.append(row_id)
        return answers.pop(0)

    async def scenario() -> None:
        await preview_amount(qtbot, screen, "2.500")
        client = session.client
        assert client is not None
        sim_world.merchants[1].tables["clients"][client.id]["status"] = "SUSPENDED"
        await until(lambda: screen.credit_button.armed)
        qtbot.mouseClick(screen.credit_button, LEFT)
        await until(lambda: screen.banner.kind == "error" and not screen.credit_button.busy)
        assert "suspended" in screen.banner.text()
        assert "Pending list" in screen.banner.text()
        outbox = session.outbox
        assert outbox is not None
        [dead] = await outbox.dead()
        assert dead.external_id == screen.flow.sale.external_id
        await until(lambda: view.status.dead_count == 1)
        assert "1 refused" in view.status.pending.text()
        # The Pending list in Today.
        view.show_pending()
        today = view.screens["today"]
        assert isinstance(today, TodayScreen)
        today.authorize_discard = manager
        panel = today.pending_panel
        await until(lambda: today.stack.currentWidget() is panel and panel.table.rowCount() == 1)
        assert today.pending_tab.text() == "Pending (1)"
        error = panel.table.cell_text(0, ERROR)
        assert error.startswith("Refused: ")
        assert "suspended" in error
        shot(view, "outbox-pending-list-dead")

        # Discard: one tap only arms the button; the second, once "Tap again" has been
        # read, asks for the manager's PIN (refused, then given).
        now = [100.0]
        panel.table.clock = lambda: now[0]

        def tap_discard() -> None:  # "Discard" is painted in its row: a tap on the spot
            rect = panel.table.action_rect(dead.id)
            assert rect is not None
            qtbot.mouseClick(panel.table.viewport(), LEFT, pos=rect.center())
            now[0] += 1.0  # the next tap comes a second later

        tap_discard()
        assert panel.table.action_text(dead.id) == "Tap again to discard"
        assert asked == []
        tap_discard()
        await until(lambda: today.banner.kind == "error")
        assert "Not authorized" in today.banner.text()
        assert len(await outbox.dead()) == 1  # still there
        await until(lambda: dead.id in panel.table.discard_ids() and panel.table.actions_enabled)
        tap_discard()
        tap_discard()
        await until(lambda: today.banner.kind == "success")
        assert asked == [dead.id, dead.id]
        assert await outbox.dead() == []
        await until(lambda: panel.table.rowCount() == 0 and view.status.dead_count == 0)
        row = await session.journal.find_credit(dead.external_id)
        assert row is not None
        assert row.outcome is Outcome.FAILED
        assert "discarded" in row.detail
        assert ledger_of(sim_world, dead.external_id) == []
        await until(lambda: not today.tasks.running("load"))

    arun(scenario())


def test_cancel_of_a_credit_never_sent_voids_both_without_a_request(
    qtbot: QtBot,
    view: Counter,
    screen: PointsScreen,
    arun: Run,
    session: CounterSession,
    sim_world: World,
    outbox_kit: OutboxKit,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"tags/add")
    control = SimControl(sim_world)

    async def scenario() -> None:
        await preview_amount(qtbot, screen, "4.000")
        control.add_fault("status", CREDIT, method="POST", status=503, count=None)
        await credit(qtbot, screen)
        outcome = screen.flow.sale.outcome
        assert outcome is not None
        assert outcome.status is CreditStatus.PENDING
        outbox_kit.time.hold = True  # the sender waits in its backoff: nothing sent meanwhile
        await until(lambda: outbox_kit.time.holding)
        view.show_screen("today")
        today = view.screens["today"]
        assert isinstance(today, TodayScreen)
        [entry] = await session.journal.today()
        await until(lambda: entry.id in today.table.cancelable_ids())
        rect = today.table.action_rect(entry.id)
        assert rect is not None
        qtbot.mouseClick(today.table.viewport(), LEFT, pos=rect.center())
        await until(lambda: today.sheet.confirm.armed)  # (a commit: armed once seen)
        qtbot.mouseClick(today.sheet.confirm, LEFT)
        await until(lambda: today.banner.kind == "success")
        assert "voided" in today.banner.text()
        rows = await journal_rows(session, Outcome.VOIDED, Outcome.VOIDED)
        assert {r.external_id for r in rows} == {outcome.external_id}
        assert control.requests(path=CANCEL_PATH) == []
        assert ledger_of(sim_world, outcome.external_id) == []
        assert session.outbox is not None
        status = await session.outbox.status()
        assert (status.pending, status.dead) == (0, 0)
        outbox_kit.time.hold = False
        await until(lambda: not today.tasks.running("load"))

    arun(scenario())


def test_retry_now_sends_what_waits_and_the_counter_goes_back_to_zero(
    qtbot: QtBot,
    view: Counter,
    screen: PointsScreen,
    arun: Run,
    session: CounterSession,
    sim_world: World,
    outbox_kit: OutboxKit,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"tags/add")
    control = SimControl(sim_world)

    async def scenario() -> None:
        await preview_amount(qtbot, screen, "1.500")
        control.add_fault("status", CREDIT, method="POST", status=503, count=None)
        await credit(qtbot, screen)
        outbox_kit.time.hold = True  # the sender waits in its backoff
        await until(lambda: outbox_kit.time.holding)
        view.show_pending()
        today = view.screens["today"]
        assert isinstance(today, TodayScreen)
        panel = today.pending_panel
        await until(lambda: panel.table.rowCount() == 1)
        assert panel.summary.text() == "1 waiting to be sent"
        assert panel.retry.isEnabled()
        control.clear_faults()
        outbox_kit.time.hold = False
        qtbot.mouseClick(panel.retry, LEFT)
        await until(lambda: view.status.pending_count == 0)
        await until(lambda: panel.table.rowCount() == 0)
        await until(lambda: not today.tasks.running("load"))
        assert panel.empty.isVisible()
        outcome = screen.flow.sale.outcome
        assert outcome is not None
        assert len(ledger_of(sim_world, outcome.external_id)) == 1

    arun(scenario())


def test_a_row_waiting_over_24_hours_warns_the_manager(
    qtbot: QtBot,
    view: Counter,
    screen: PointsScreen,
    arun: Run,
    session: CounterSession,
    sim_world: World,
    outbox_kit: OutboxKit,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"tags/add")

    async def scenario() -> None:
        await preview_amount(qtbot, screen, "1.000")
        SimControl(sim_world).add_fault("status", CREDIT, method="POST", status=503, count=None)
        await credit(qtbot, screen)
        outbox_kit.time.hold = True  # the sender waits in its backoff
        await until(lambda: outbox_kit.time.holding)
        outbox_kit.time.advance(25 * 3600)
        outbox = session.outbox
        assert outbox is not None
        status = await outbox.status()
        assert status.stale
        await until(lambda: view.status.stale)
        assert "over 24 h" in view.status.pending.text()
        view.show_pending()
        today = view.screens["today"]
        assert isinstance(today, TodayScreen)
        await until(lambda: today.pending_panel.table.rowCount() == 1)
        assert today.pending_panel.warning.isVisible()
        assert "more than 24 hours" in today.pending_panel.warning.text()
        [entry] = await outbox.pending()
        assert entry.state is RowState.PENDING  # kept, never dropped
        SimControl(sim_world).clear_faults()
        outbox_kit.time.hold = False
        await outbox.retry_now()
        await until(lambda: view.status.pending_count == 0)
        await until(lambda: today.pending_panel.table.rowCount() == 0)
        await until(lambda: not today.tasks.running("load"))

    arun(scenario())


def test_the_counter_asks_a_managers_pin_to_discard(qtbot: QtBot, session: CounterSession) -> None:
    from kiosk.ui.counter import build_view

    class Lock:
        unlocked = False

        def has_pin(self) -> bool:
            return True

    view = build_view(session)
    qtbot.addWidget(view)
    view.guard_today_with(Lock)
    today = view.build("today")
    assert isinstance(today, TodayScreen)
    assert today.authorize_discard.__qualname__.startswith("pin_authorizer")


def test_offline_the_credit_goes_on_without_a_preview_and_is_sent_later(
    qtbot: QtBot,
    view: Counter,
    screen: PointsScreen,
    arun: Run,
    session: CounterSession,
    sim_world: World,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"tags/add|preview")
    control = SimControl(sim_world)

    async def scenario() -> None:
        # The service cannot be reached: the preview's connection is dropped.
        control.add_fault("drop", r"^/external/tags/add/preview$", count=None, apply=False)
        control.add_fault("drop", CREDIT, method="POST", count=None, apply=False)
        qtbot.keyClicks(screen, "2.500")
        qtbot.keyClick(screen, Qt.Key.Key_Return)
        # The preview retries (1, 2, 4 s) before the kiosk decides it is offline.
        await until(
            lambda: (
                screen.credit_button.text() == "Save the credit" and not screen.preview_button.busy
            ),
            timeout=20,
        )
        assert session.online is False
        assert not screen.preview_card.isVisible()
        assert "computed when the connection returns" in screen.side.hint.text()
        await credit(qtbot, screen)
        outcome = screen.flow.sale.outcome
        assert outcome is not None
        assert outcome.status is CreditStatus.PENDING
        assert ledger_of(sim_world, outcome.external_id) == []
        control.clear_faults()  # the connection returns: the outbox sends it
        await until(lambda: len(ledger_of(sim_world, outcome.external_id)) == 1, timeout=10)

    arun(scenario())


@pytest.mark.parametrize(
    ("lang", "size"),
    [("en", (1280, 800)), ("es", (1280, 800)), ("en", (1024, 768)), ("es", (1024, 768))],
    ids=["en-1280x800", "es-1280x800", "en-1024x768", "es-1024x768"],
)
def test_the_pending_list_never_scrolls_sideways_and_discard_is_in_reach(
    qtbot: QtBot,
    view: Counter,
    arun: Run,
    session: CounterSession,
    sim_world: World,
    qapp: Any,
    lang: str,
    size: tuple[int, int],
    expect_log: Callable[[str], None],
) -> None:
    """Dead letters with the service's reason, at a counter's sizes in both languages:
    every column but the reference keeps its room, nothing scrolls sideways, and a
    tap lands on "Discard"."""
    from kiosk.api.models.points import CreditClient, CreditRequest
    from tests.ui.theme_support import app_theme
    from tests.ui.translated import translated

    expect_log(r"dead letter|refused")
    SimControl(sim_world).add_fault("status", CREDIT, status=400, count=3)
    client = next(iter(sim_world.merchants[1].tables["clients"].values()))

    async def scenario() -> None:
        outbox = session.outbox
        assert outbox is not None
        for n in range(3):
            request = CreditRequest(
                f"b3-20261122-k0a1b2c3d-{n + 1:012x}",
                CreditClient(email=client["email"]),
                amount=1_234_567.89 + n,
            )
            await outbox.submit_credit(request)
        await until(lambda: view.status.dead_count == 3)
        view.show_pending()
        today = view.screens["today"]
        assert isinstance(today, TodayScreen)
        panel, table = today.pending_panel, today.pending_panel.table
        await until(lambda: today.stack.currentWidget() is panel and table.rowCount() == 3)
        await until(lambda: not today.tasks.running("load"))
        assert not table.horizontalScrollBar().isVisible()
        header = table.horizontalHeader()
        assert header.sectionSize(ERROR) >= 180  # the reason stays readable
        inside = table.viewport().rect()
        for row_id in table.discard_ids():
            rect = table.action_rect(row_id)
            assert rect is not None
            assert inside.contains(rect)
        first = table.discard_ids()[0]
        rect = table.action_rect(first)
        assert rect is not None
        qtbot.mouseClick(table.viewport(), LEFT, pos=rect.center())
        assert table.armed == first  # the tap reached it: "Tap again to discard"

    with app_theme(qapp), translated(qapp, lang):
        view.resize(*size)
        arun(scenario())
