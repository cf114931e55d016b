"""A preview answered without figures (issue #17, item 14), under a cashier's fingers:
the counter's window at 1280x800 and 1024x768, in English and Spanish. The contract does
not show the preview's shape, so a 2xx without the figures is no error: the screen says
"Preview unavailable", offers the credit without figures (armed only once that answer is
painted and the guard time passed), and a double tap on it credits exactly once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from kiosk.core.amounts import format_points
from kiosk.core.counter.sale import CreditOutcome, CreditStatus, NoPreview, SaleState
from kiosk.core.session import CounterSession
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from kiosk.ui.main_window import CounterView
from kiosk.ui.screens.points.panels import CreditResultView
from kiosk.ui.screens.points.screen import PointsScreen
from tests.qt_async import until
from tests.ui.screens.points.points_support import (
    Run,
    armed,
    credits_sent,
    ledger_of,
    settled,
)
from tests.ui.screens.points.test_points_taps import check_layout, double_tap, tap_keys

PREVIEW_PATH = r"^/external/tags/add/preview$"
NO_FIGURES: dict[str, Any] = {"success": True, "status": 200, "message": "OK", "data": {}}
HINT = {
    "en": "Preview unavailable: the service did not say how many points this sale gives. "
    "The credit gives what the service computes; the result shows it.",
    "es": "Vista previa no disponible: el servicio no dijo cuántos puntos da esta venta. "
    "La acreditación da lo que calcule el servicio; el resultado lo muestra.",
}
BUTTON = {"en": "Credit anyway", "es": "Acreditar igual"}
GIVEN = {"en": "+%1 points", "es": "+%1 puntos"}


def test_a_preview_without_figures_offers_the_credit_and_a_double_tap_credits_once(
    qtbot: QtBot,
    counter: tuple[CounterView, PointsScreen],
    arun: Run,
    sim_world: World,
    lang: str,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"without the preview's figures .*: preview unavailable$")
    view, screen = counter
    SimControl(sim_world).add_fault("status", PREVIEW_PATH, status=200, body=NO_FIGURES)
    preview, credit = screen.preview_button, screen.credit_button
    hint = screen.side.hint

    async def scenario() -> None:
        tap_keys(qtbot, view, screen, "1500")
        double_tap(qtbot, view, preview)
        await until(lambda: hint.text() == HINT[lang] and not preview.busy)
        sale = screen.flow.sale
        assert sale.state is SaleState.PREVIEWED
        assert sale.no_preview is NoPreview.UNAVAILABLE
        assert not screen.banner.isVisible()  # no error: an answer the contract allows
        assert hint.isVisible()
        assert not screen.preview_card.isVisible()  # no figures are made up
        assert credit.isVisible()
        assert credit.text() == BUTTON[lang]
        assert not credit.geometry().intersects(preview.geometry())
        assert not credit.armed  # painted first, then the guard time
        qtbot.mouseClick(credit, Qt.MouseButton.LeftButton)  # too soon: ignored
        assert credits_sent(sim_world) == []
        check_layout(view, f"no-figures-{lang}-{view.width()}")
        await armed(screen)
        assert credits_sent(sim_world) == []
        double_tap(qtbot, view, credit)  # the credit, tapped twice: one request
        await settled(screen)
        outcome = sale.outcome
        assert outcome is not None
        assert outcome.status is CreditStatus.CREDITED
        [op] = ledger_of(sim_world, outcome.external_id)
        assert len(credits_sent(sim_world)) == 1
        assert outcome.points == op["totalPoints"]
        given = format_points(op["totalPoints"], screen.session.config.locale)
        assert screen.result.headline.text() == GIVEN[lang].replace("%1", given)
        check_layout(view, f"no-figures-result-{lang}-{view.width()}")

    arun(scenario())


def test_a_credit_whose_figure_is_unknown_says_credited_without_a_number(
    qtbot: QtBot, session: CounterSession
) -> None:
    """Confirmed by a duplicate answer after a sale without figures: no "+ points"."""
    view = CreditResultView(session.config.locale)
    qtbot.addWidget(view)
    outcome = CreditOutcome(CreditStatus.CREDITED, "K-1", None, confirmed_by_duplicate=True)
    view.show_outcome(outcome, None, 0, None)
    assert view.headline.text() == "Points credited"
