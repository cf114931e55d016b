"""A long server wait never stops the counter (issue #22, item 14), and a credit the
service answered for another client is flagged (item 12), under a cashier's fingers: the
counter's window at 1280x800 and 1024x768, in English and Spanish.

A preview answered 429 with ``Retry-After: 86400`` says the service is busy and when
the kiosk asks it again (within a minute); the sale goes on, its credit saved in the
outbox with a "pending" receipt at once."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import datetime

from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.api.ratelimit import PROBE_AFTER
from kiosk.core.counter.sale import CreditOutcome, CreditStatus, NoPreview, SaleState
from kiosk.core.session import CounterSession
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from kiosk.ui.main_window import CounterView
from kiosk.ui.screens.points.panels import CreditResultView
from kiosk.ui.screens.points.screen import PointsScreen
from tests.qt_async import until
from tests.ui.conftest import OutboxKit
from tests.ui.screens.points.points_support import Run, armed, credits_sent
from tests.ui.screens.points.test_points_taps import check_layout, double_tap, tap_keys
from tests.ui.translated import translated

PREVIEW_PATH = r"^/external/tags/add/preview$"
HINT = {
    "en": r"The service is busy: no preview now\. The kiosk asks it again at "
    r"(\d\d:\d\d:\d\d)\. The credit is saved and sent automatically\.",
    "es": r"El servicio está ocupado: ahora no hay vista previa\. La terminal vuelve a "
    r"consultarlo a las (\d\d:\d\d:\d\d)\. La acreditación queda guardada y se envía "
    r"automáticamente\.",
}
BUTTON = {"en": "Save the credit", "es": "Guardar acreditación"}


def test_a_day_long_429_on_the_preview_says_busy_and_when_and_the_credit_is_saved(
    qtbot: QtBot,
    counter: tuple[CounterView, PointsScreen],
    arun: Run,
    sim_world: World,
    outbox_kit: OutboxKit,
    lang: str,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"^POST /external/tags/add/preview -> 429")
    view, screen = counter
    SimControl(sim_world).add_fault(
        "status", PREVIEW_PATH, status=429, headers={"Retry-After": "86400"}, count=1
    )
    outbox_kit.time.hold = True  # the sender waits out its backoff until the test ends
    preview, credit, hint = screen.preview_button, screen.credit_button, screen.side.hint

    async def scenario() -> None:
        tap_keys(qtbot, view, screen, "1500")
        before = time.time()
        double_tap(qtbot, view, preview)
        await until(lambda: hint.isVisible() and not preview.busy)
        sale = screen.flow.sale
        assert (sale.state, sale.no_preview) == (SaleState.PREVIEWED, NoPreview.BUSY)
        found = re.fullmatch(HINT[lang], hint.text())
        assert found is not None, hint.text()
        assert sale.retry_at is not None
        assert sale.retry_at <= before + PROBE_AFTER + 5  # asked again within a minute
        shown = datetime.fromtimestamp(sale.retry_at).strftime("%H:%M:%S")
        assert found.group(1) == shown
        assert not screen.banner.isVisible()  # not an error: the sale goes on
        assert credit.isVisible()
        assert credit.text() == BUTTON[lang]
        check_layout(view, f"busy-{lang}-{view.width()}")
        await armed(screen)
        double_tap(qtbot, view, credit)
        await until(lambda: sale.outcome is not None, timeout=10)
        outcome = sale.outcome
        assert outcome is not None
        assert outcome.status is CreditStatus.PENDING  # saved at once, not after 20 s
        assert credits_sent(sim_world) == []  # the lane is held: nothing sent meanwhile
        pending = await screen.session.outbox.pending()  # type: ignore[union-attr]
        assert [e.external_id for e in pending] == [outcome.external_id]

    arun(scenario())


def test_a_credit_for_another_client_is_flagged_on_the_result(
    qtbot: QtBot, session: CounterSession, qapp: QApplication
) -> None:
    view = CreditResultView(session.config.locale)
    qtbot.addWidget(view)
    outcome = CreditOutcome(CreditStatus.CREDITED, "K-1", 150, other_client=424242)
    view.show_outcome(outcome, None, 0, None)
    assert view.balance.text() == (
        "The service credited another client account (#424242), not this client. "
        "Call a manager to check where the points went."
    )
    with translated(qapp, "es"):
        view.show_outcome(outcome, None, 0, None)
        assert view.balance.text().startswith(
            "El servicio acreditó en otra cuenta de cliente (#424242)"
        )
    view.show_outcome(CreditOutcome(CreditStatus.CREDITED, "K-2", 150), None, 0, None)
    assert "another client" not in view.balance.text()
