"""The network drops in the middle of the day (issue #21, item 6): the first identify
gets its offline answer after one attempt, and the status bar says "No connection" as
soon as that attempt fails; a cancel of a sent credit answers "pending" after one
failed attempt instead of waiting for a second. Attempts are counted, not timed
(``tests/bench/network_drop.py`` prints the seconds)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from kiosk.api.models.points import CreditClient, CreditRequest
from kiosk.core.counter.cancel import CancelOutcome, cancel_credit
from kiosk.core.journal import Journal
from kiosk.core.outbox.queue import JournalNote
from kiosk.core.session import CounterSession
from kiosk.sim.transport import SimTransport
from kiosk.ui.counter import build_view
from kiosk.ui.screens.identify.screen import IdentifyScreen
from tests.qt_async import until
from tests.ui.conftest import OutboxKit
from tests.ui.screens.points.points_support import JUAN


def test_the_first_identify_after_the_drop_answers_offline_after_one_attempt(
    qtbot: QtBot,
    session: CounterSession,
    sim_transport: SimTransport,
    arun: Callable[..., Any],
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"-> cannot reach")
    expect_log(r"^identify: network")
    view = build_view(session)
    qtbot.addWidget(view)
    view.resize(1024, 768)
    view.show()
    attempts: list[bool] = []
    session.api.follow_reach(attempts.append)
    statuses: list[tuple[int, str]] = []
    session.online_changed.connect(
        lambda _online: statuses.append((len(attempts), view.status.connection.text()))
    )

    async def scenario() -> None:
        screen = view.current
        assert isinstance(screen, IdentifyScreen)
        assert view.status.connection.text() == "Online"
        sim_transport.unreachable = True  # the network drops
        qtbot.keyClicks(screen.field, JUAN)
        qtbot.keyClick(screen.field, Qt.Key.Key_Return)
        await until(lambda: screen.pages.currentWidget() is screen.offline)
        assert attempts == [False]  # one attempt: no 1 + 2 + 4 s of retries
        assert [text for _, text in statuses] == ["No connection"]
        assert not session.online
        view.shutdown()

    arun(scenario())


def test_a_cancel_in_the_outage_answers_pending_after_one_attempt(
    session: CounterSession,
    sim_transport: SimTransport,
    outbox_kit: OutboxKit,
    arun: Callable[..., Any],
    sim_world: Any,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"-> cannot reach")
    outbox = outbox_kit.outbox
    branch = session.config.branch.id
    clients = sim_world.merchants[1].tables["clients"].values()
    mail = next(c["email"] for c in clients if c.get("status") == "ACTIVE" and c.get("email"))

    async def scenario() -> None:
        request = CreditRequest(
            external_id=f"{branch}-20261127-k0a1b2c3d-000000000001",
            client=CreditClient(email=mail),
            amount=1500.0,
            branch_id=branch,
        )
        submitted = await outbox.submit_credit(
            request, journal=JournalNote(amount=Decimal("1500")), live=True
        )
        await until(lambda: outbox_kit.sender.stats.settled == 1)
        journal_id = submitted.row.journal_id
        assert journal_id is not None
        credit = await session.journal.worker.run(lambda conn: Journal(conn).get(journal_id))
        assert credit is not None
        sim_transport.unreachable = True  # the network drops
        before = outbox_kit.sender.stats.attempts
        report = await cancel_credit(session, credit)
        assert report.outcome is CancelOutcome.PENDING
        assert outbox_kit.sender.stats.attempts == before + 1  # not a second one waited
        assert not session.online

    arun(scenario())
