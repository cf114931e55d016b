"""Points under a cashier's fingers (issue #14): the counter's window at 1280x800 and
1024x768, in English and Spanish, driven by taps on the widget that is visible at that
spot and by the keyboard. Preview and credit are two buttons in two places; a double
tap or Enter, Enter on Preview never credits, not even once the preview is shown; the
credit goes exactly once (the simulator's ledger); a digit past the largest amount is
refused at the key with the reason, the figure always whole. Each state is rendered to
PNG (``KIOSK_SHOTS``, /tmp/shots by default) and audited for the layout."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from kiosk.core.amounts import MAX_AMOUNT, format_amount
from kiosk.core.counter.sale import SaleState
from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.main_window import CounterView
from kiosk.ui.screens.points.screen import PointsScreen
from tests.qt_async import until
from tests.ui.keys import Keys
from tests.ui.layout_audit import audit
from tests.ui.screens.points.points_support import (
    JUAN,
    Run,
    armed,
    credits_sent,
    ledger_of,
    previewed,
    release_screens,
    settled,
)
from tests.ui.screens.points.points_window import SIZES, language, points_window, shot, tap

PREVIEW_PATH = r"^/external/tags/add/preview$"
LANGS = ["en", "es"]
TOO_LARGE = {
    "en": "The largest amount is $ 10.000.000,00: that digit was not added.",
    "es": "El monto máximo es $ 10.000.000,00: no se agregó el dígito.",
}


@pytest.fixture(params=SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def size(request: pytest.FixtureRequest) -> tuple[int, int]:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture(params=LANGS)
def lang(request: pytest.FixtureRequest) -> str:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture
def counter(
    qtbot: QtBot,
    qapp: QApplication,
    session: CounterSession,
    arun: Run,
    size: tuple[int, int],
    lang: str,
) -> Iterator[tuple[CounterView, PointsScreen]]:
    """Juan at the counter, the Points screen shown in the themed window."""
    session.config.kiosk_id = "0a1b2c3d"
    session.set_client(arun(session.api.search_client(JUAN)))
    with language(qapp, lang):
        view, screen = points_window(qtbot, session, size)
        yield view, screen
        release_screens(session, [screen])
        session.client_changed.disconnect(view._client_changed)


def check_layout(view: QWidget, state: str) -> None:
    """The state fits the window's real size (nothing grew it), passes the layout audit
    for what this screen holds, and is rendered to PNG."""
    shot(view, state)
    assert (view.width(), view.height()) in SIZES
    assert view.minimumSizeHint().height() <= view.height()  # nothing squeezed either
    findings = [f.line() for f in audit(view, state) if "points" in f.owner]
    assert findings == []


def tap_keys(qtbot: QtBot, view: CounterView, screen: PointsScreen, keys: str) -> None:
    for key in keys:
        tap(qtbot, view, screen.pad.keypad.buttons[key])


def double_tap(qtbot: QtBot, view: CounterView, widget: QWidget) -> None:
    tap(qtbot, view, widget)
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)  # the second tap, same spot


def test_a_double_tap_on_preview_never_credits_and_the_credit_goes_once(
    qtbot: QtBot, counter: tuple[CounterView, PointsScreen], arun: Run, sim_world: World, lang: str
) -> None:
    view, screen = counter
    preview = screen.preview_button

    async def scenario() -> None:
        check_layout(view, f"empty-{lang}-{view.width()}")
        tap_keys(qtbot, view, screen, "2500,5")
        assert screen.pad.amount.text() == "$ 2.500,50"  # the store's locale, as previewed
        at = preview.mapTo(view, preview.rect().center())
        double_tap(qtbot, view, preview)
        await until(lambda: screen.preview_card.isVisible() and not preview.busy)
        # The preview is on screen; the finger is still where Preview was: a third tap.
        assert view.childAt(at) is preview or preview.isAncestorOf(view.childAt(at))
        assert not preview.isEnabled()
        qtbot.mouseClick(preview, Qt.MouseButton.LeftButton)
        credit = screen.credit_button
        assert credit.isVisible()
        assert not credit.geometry().intersects(preview.geometry())  # never under the finger
        assert not credit.armed
        check_layout(view, f"previewed-{lang}-{view.width()}")
        await armed(screen)
        assert credits_sent(sim_world) == []  # nothing credited, not even after the guard
        assert screen.flow.sale.state is SaleState.PREVIEWED
        double_tap(qtbot, view, credit)  # the credit, tapped twice: one request
        await settled(screen)
        outcome = screen.flow.sale.outcome
        assert outcome is not None
        assert len(ledger_of(sim_world, outcome.external_id)) == 1
        assert len(credits_sent(sim_world)) == 1
        check_layout(view, f"result-{lang}-{view.width()}")

    arun(scenario())


def test_enter_enter_never_credits_unseen_nor_dismisses_the_result(
    qtbot: QtBot, counter: tuple[CounterView, PointsScreen], arun: Run, sim_world: World, lang: str
) -> None:
    _view, screen = counter

    async def scenario() -> None:
        screen.setFocus()
        qtbot.keyClicks(screen, "1500")
        qtbot.keyClick(screen, Qt.Key.Key_Return)
        qtbot.keyClick(screen, Qt.Key.Key_Return)  # Enter, Enter while the preview runs
        await until(lambda: screen.preview_card.isVisible() and not screen.preview_button.busy)
        qtbot.keyClick(screen, Qt.Key.Key_Return)  # ... and as soon as it shows
        assert credits_sent(sim_world) == []
        await armed(screen)
        assert credits_sent(sim_world) == []
        qtbot.keyClick(screen, Qt.Key.Key_Return)  # seen, armed: Enter credits
        qtbot.keyClick(screen, Qt.Key.Key_Return)
        await settled(screen)
        qtbot.keyClick(screen, Qt.Key.Key_Return)  # the result stays the guard time
        assert screen.pages.currentWidget() is screen.result
        outcome = screen.flow.sale.outcome
        assert outcome is not None
        assert len(ledger_of(sim_world, outcome.external_id)) == 1
        assert len(credits_sent(sim_world)) == 1

    arun(scenario())


def test_a_double_tap_on_preview_of_point_items_never_credits(
    qtbot: QtBot, counter: tuple[CounterView, PointsScreen], arun: Run, sim_world: World, lang: str
) -> None:
    view, screen = counter

    async def scenario() -> None:
        tap(qtbot, view, screen.items_tab)
        await until(lambda: len(screen.grid.tiles) > 1 and not screen.tasks.running("items"))
        first, second = list(screen.grid.tiles.values())[:2]
        for tile in (first, second, first):
            tap(qtbot, view, tile)
        check_layout(view, f"items-{lang}-{view.width()}")
        double_tap(qtbot, view, screen.preview_button)
        await until(lambda: screen.preview_card.isVisible() and not screen.preview_button.busy)
        qtbot.mouseClick(screen.preview_button, Qt.MouseButton.LeftButton)
        credit = screen.credit_button
        assert not credit.geometry().intersects(screen.preview_button.geometry())
        check_layout(view, f"items-previewed-{lang}-{view.width()}")
        await armed(screen)
        assert credits_sent(sim_world) == []
        double_tap(qtbot, view, credit)
        await settled(screen)
        outcome = screen.flow.sale.outcome
        assert outcome is not None
        [op] = ledger_of(sim_world, outcome.external_id)
        assert sum(row["units"] for row in op["items"]) == 3
        assert len(credits_sent(sim_world)) == 1

    arun(scenario())


def fits(label: QWidget) -> bool:
    """The label's whole text fits its width at the font it is drawn with."""
    from PySide6.QtWidgets import QLabel

    assert isinstance(label, QLabel)
    return label.fontMetrics().horizontalAdvance(label.text()) <= label.contentsRect().width()


def test_a_12_digit_amount_is_refused_at_the_key_with_the_reason(
    qtbot: QtBot, counter: tuple[CounterView, PointsScreen], arun: Run, sim_world: World, lang: str
) -> None:
    view, screen = counter
    amount, problem = screen.pad.amount, screen.pad.problem
    keys = screen.pad.keypad.buttons

    async def scenario() -> None:
        top = keys["1"].mapTo(view, keys["1"].rect().topLeft())
        tap_keys(qtbot, view, screen, "123456789012")
        assert screen.flow.sale.amount_text == "1234567"  # the 8th digit was refused
        assert amount.text() == "$ 1.234.567,00"
        assert problem.isVisible()
        assert problem.text() == TOO_LARGE[lang]
        assert keys["1"].mapTo(view, keys["1"].rect().topLeft()) == top  # nothing moved
        check_layout(view, f"too-large-{lang}-{view.width()}")
        hands = Keys()  # a person's keys (a scanner's burst is no typing)
        hands.person("9", widget=screen)  # the keyboard refuses it too
        assert screen.flow.sale.amount_text == "1234567"
        hands.press(Qt.Key.Key_Backspace, widget=screen)
        assert not problem.isVisible()
        for _ in range(6):
            hands.press(Qt.Key.Key_Backspace, widget=screen)
        hands.person("10000000,00", widget=screen)  # the largest amount: whole, in one line
        assert amount.text() == format_amount(MAX_AMOUNT, screen.session.config.locale)
        assert fits(amount)
        assert amount.font_px >= 28
        check_layout(view, f"largest-{lang}-{view.width()}")
        hands.press(Qt.Key.Key_Backspace, widget=screen)
        hands.press(Qt.Key.Key_Backspace, widget=screen)
        hands.person("1", widget=screen)  # 10.000.000,1
        assert problem.text() == TOO_LARGE[lang]
        assert credits_sent(sim_world) == []

    arun(scenario())


LUCIA = "35678123"  # 4.990 accumulated: Bronce, 10 points below Plata (5.000)
NEW_LEVEL = {"en": "New level: Plata", "es": "Nuevo nivel: Plata"}


def test_a_promoting_credit_says_the_new_level_and_the_card_shows_it(
    qtbot: QtBot,
    counter: tuple[CounterView, PointsScreen],
    arun: Run,
    session: CounterSession,
    sim_world: World,
    lang: str,
) -> None:
    """A real promotion: the simulator assigns levels a second after the credit
    (``level_delay_seconds``); the screen's waits move the simulator's clock instead of
    sleeping, so the first re-read still says Bronce and a later one Plata."""
    view, screen = counter
    waits: list[float] = []

    async def wait(seconds: float) -> None:
        waits.append(seconds)
        sim_world.clock.advance(seconds)
        await asyncio.sleep(0)

    screen.level_sleep = wait

    async def scenario() -> None:
        session.set_client(await session.api.search_client(LUCIA))
        assert view.card.level.text() == "Bronce"
        qtbot.keyClicks(screen, "5000")
        tap(qtbot, view, screen.preview_button)
        await previewed(screen)
        tap(qtbot, view, screen.credit_button)
        await settled(screen)
        assert screen.result.level.isVisible()
        assert screen.result.level.text() == NEW_LEVEL[lang]
        assert view.card.level.text() == "Plata"
        assert 1 <= len(waits) <= 3
        assert sum(waits) >= sim_world.settings.level_delay_seconds
        check_layout(view, f"new-level-{lang}-{view.width()}")

    arun(scenario())


def test_a_credit_that_promotes_no_one_waits_for_nothing(
    qtbot: QtBot, counter: tuple[CounterView, PointsScreen], arun: Run, lang: str
) -> None:
    view, screen = counter
    waits: list[float] = []

    async def wait(seconds: float) -> None:
        waits.append(seconds)

    screen.level_sleep = wait

    async def scenario() -> None:
        qtbot.keyClicks(screen, "1000")
        tap(qtbot, view, screen.preview_button)
        await previewed(screen)
        tap(qtbot, view, screen.credit_button)
        await settled(screen)
        assert waits == []  # Juan stays Plata: one read of the levels, no retry
        assert not screen.result.level.isVisible()

    arun(scenario())
