"""What the cashier reads before crediting is whole (issue #21, item 5), at 1280x800 and
1024x768, in English and Spanish, reached by taps: the preview of $ 9.999.999,00 shows
its amount and total, every label of the card ("Bas…", "Leve…", "Poin…" were cut),
the credit button's words ("Acreditar 1.851 puntos" was cut at both ends), and the
header's masked document beside a long email ("DNI" lost its "D"). The credit button
stands in one place in both flows (amount and point items)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.main_window import CounterView
from kiosk.ui.screens.points.screen import PointsScreen
from tests.qt_async import until
from tests.ui.layout_audit import audit
from tests.ui.screens.points.conftest import juan_at_points
from tests.ui.screens.points.points_support import JUAN, Run, previewed
from tests.ui.screens.points.points_window import shot, tap

LONG_EMAIL = "maria.jose.guadalupe.esperanza.gonzalez@almacendelsol-clientes.example.com"


@pytest.fixture
def counter(
    qtbot: QtBot,
    qapp: QApplication,
    session: CounterSession,
    sim_world: World,
    arun: Run,
    size: tuple[int, int],
    lang: str,
) -> Iterator[tuple[CounterView, PointsScreen]]:
    """Juan, with a long email, at the counter: the Points screen in the themed window."""
    clients = sim_world.merchants[1].tables["clients"]
    record = next(c for c in clients.values() if c["document_number"] == JUAN)
    record["email"] = LONG_EMAIL
    yield from juan_at_points(qtbot, qapp, session, arun, size, lang)


def in_view(view: QWidget, widget: QWidget) -> QRect:
    return QRect(widget.mapTo(view, QPoint(0, 0)), widget.size())


def test_a_big_amount_previews_whole_with_the_header(
    qtbot: QtBot, counter: tuple[CounterView, PointsScreen], arun: Run, lang: str
) -> None:
    view, screen = counter

    async def scenario() -> None:
        for key in "9999999":
            tap(qtbot, view, screen.pad.keypad.buttons[key])
        tap(qtbot, view, screen.preview_button)
        await previewed(screen)

    arun(scenario())
    shot(view, f"read-whole-{lang}-{view.width()}")
    card = screen.preview_card
    assert card.amount.text() == "$ 9.999.999,00"
    assert screen.credit_button.text().endswith(("124.998 points", "124.998 puntos"))
    findings = [f.line() for f in audit(view, "big preview")]
    assert findings == []
    assert "DNI ****3456" in view.card.document.text()


def test_the_credit_button_stands_in_one_place_in_both_flows(
    qtbot: QtBot, counter: tuple[CounterView, PointsScreen], arun: Run
) -> None:
    view, screen = counter
    places: list[QRect] = []

    async def scenario() -> None:
        for key in "15000":
            tap(qtbot, view, screen.pad.keypad.buttons[key])
        tap(qtbot, view, screen.preview_button)
        await previewed(screen)
        places.append(in_view(view, screen.credit_button))
        screen.new_sale()
        tap(qtbot, view, screen.items_tab)
        await until(lambda: len(screen.grid.tiles) >= 2)
        first, second = list(screen.grid.tiles)[:2]
        for item in (first, second, first):
            tap(qtbot, view, screen.grid.tiles[item])
        tap(qtbot, view, screen.preview_button)
        await previewed(screen)
        assert screen.preview_card.units.isVisible()  # the card is taller in this flow
        places.append(in_view(view, screen.credit_button))

    arun(scenario())
    amount_place, items_place = places
    assert amount_place == items_place


def test_a_banner_covers_neither_the_tabs_nor_the_ticket(
    qtbot: QtBot, counter: tuple[CounterView, PointsScreen], arun: Run, lang: str
) -> None:
    """Preview tapped on an empty basket: the banner says to tap the items first, in its
    kept room, over no tab, field or tile (issue #21: it covered the top of the Amount
    tab)."""
    view, screen = counter

    async def scenario() -> None:
        tap(qtbot, view, screen.items_tab)
        await until(lambda: len(screen.grid.tiles) >= 2)
        tap(qtbot, view, screen.preview_button)
        await until(lambda: screen.banner.kind == "error")

    arun(scenario())
    shot(view, f"banner-{lang}-{view.width()}")
    covered = [f.line() for f in audit(view, "empty basket") if "covers" in f.what]
    assert covered == []
    tap(qtbot, view, screen.amount_tab)  # still under the finger
    assert screen.amount_tab.isChecked()
