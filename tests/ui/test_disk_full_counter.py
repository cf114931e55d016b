"""A full disk at the counter says "Disk full" to the cashier, not "Something went wrong",
and nothing is lost (issue #18, a bad day for IT).

The credit is queued in the outbox before any send, in one transaction with its
journal row; a full disk refuses that transaction. The kiosk's database is real; the
full disk is a temporary trigger on the counter's own connection that refuses the
outbox's insert with SQLite's own words ("database or disk is full"), so the
transaction fails as it would on a full disk. Then: the cashier reads "Disk full", the
sale is still on screen, nothing was sent or recorded; once IT frees space, the same
tap credits it once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from kiosk.core.counter.sale import CreditStatus, SaleState
from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.screens.points.screen import PointsScreen
from tests.qt_async import until
from tests.ui.screens.points.points_support import (
    LEFT,
    Run,
    credits_sent,
    ledger_of,
    points_screen,
    preview_amount,
    settled,
)

FULL = """
CREATE TEMP TRIGGER disk_full BEFORE INSERT ON outbox_rows
BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END
"""


@pytest.fixture
def screen(qtbot: QtBot, session: CounterSession, arun: Run) -> Iterator[PointsScreen]:
    yield from points_screen(qtbot, session, arun)


@pytest.mark.parametrize("size", [(1024, 768), (1280, 800)])
def test_a_full_disk_says_disk_full_and_loses_nothing(
    qtbot: QtBot,
    screen: PointsScreen,
    session: CounterSession,
    sim_world: World,
    arun: Run,
    expect_log: Callable[[str], None],
    size: tuple[int, int],
) -> None:
    expect_log("^points: disk full, nothing saved: database or disk is full$")
    screen.resize(*size)
    worker = session.journal.worker

    async def scenario() -> None:
        await preview_amount(qtbot, screen, "2.000")
        await worker.run(lambda conn: conn.execute(FULL))
        await until(lambda: screen.credit_button.armed)
        qtbot.mouseClick(screen.credit_button, LEFT)
        await until(lambda: screen.banner.kind == "error" and not screen.credit_button.busy)
        assert screen.banner.text().startswith("Disk full: nothing was saved or sent.")
        assert "Something went wrong" not in screen.banner.text()
        # Nothing lost: the sale waits on screen, nothing recorded, nothing sent.
        sale = screen.flow.sale
        assert sale.state is SaleState.FAILED
        assert sale.amount_text == "2.000"
        assert await session.journal.today() == []
        outbox = session.outbox
        assert outbox is not None
        assert (await outbox.status()).pending == 0
        assert credits_sent(sim_world) == []
        # IT frees space: the same sale, tapped again, is credited once.
        await worker.run(lambda conn: conn.execute("DROP TRIGGER disk_full"))
        await until(lambda: screen.credit_button.armed)
        qtbot.mouseClick(screen.credit_button, LEFT)
        await settled(screen)
        outcome = screen.flow.sale.outcome
        assert outcome is not None
        assert outcome.status is CreditStatus.CREDITED
        assert len(ledger_of(sim_world, outcome.external_id)) == 1

    arun(scenario())


def test_the_counter_sentence_in_spanish(spanish: Any) -> None:
    from kiosk.ui.messages import error_text

    assert error_text(OSError(28, "No space left on device")) == (
        "Disco lleno: no se guardó ni se envió nada. Llame a soporte técnico para liberar "
        "espacio en esta terminal y vuelva a intentar."
    )
