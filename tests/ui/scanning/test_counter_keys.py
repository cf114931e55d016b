"""The keyboard at the counter (issue #21, minors): after a tap on Preview the keys still
edit the amount; each rail button says its key (F1-F6); Escape discards a preview,
closes a sheet, goes back. The whole counter at 1280x800 and 1024x768, en and es."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.core.counter.sale import SaleState
from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.counter import Counter
from tests.qt_async import until
from tests.ui.keys import Keys
from tests.ui.scanning.counter_support import tap
from tests.ui.scanning.test_scans import exchanges
from tests.ui.screens.identify.identify_support import creations
from tests.ui.screens.points.points_support import Run, credits_sent

KEYS = {
    "identify": "F1",
    "points": "F2",
    "rewards": "F3",
    "redeem": "F4",
    "code": "F5",
    "today": "F6",
}


def test_after_a_tap_on_preview_the_keyboard_still_edits_the_amount(
    qtbot: QtBot, view: Counter, sim_world: World, arun: Run
) -> None:
    hands = Keys()

    async def scenario() -> None:
        view.show_screen("points")
        screen: Any = view.current
        hands.person("1500")
        tap(qtbot, screen.preview_button)  # a mouse tap: the focus may stay on a button
        await until(lambda: screen.flow.sale.state is SaleState.PREVIEWED)
        assert not screen.credit_button.armed
        hands.person("0")  # the keyboard, at once: to whatever has the focus
        focus = QApplication.focusWidget()
        assert focus is not None
        assert focus is screen or screen.isAncestorOf(focus)  # not "Change client"
        assert screen.flow.sale.amount_text == "15000"
        assert screen.flow.sale.state is SaleState.EDITING
        hands.press(Qt.Key.Key_Backspace)
        assert screen.flow.sale.amount_text == "1500"
        assert credits_sent(sim_world) == []

    arun(scenario())


def test_each_rail_button_says_its_key_and_the_key_opens_it(
    qtbot: QtBot, view: Counter, arun: Run, lang: str
) -> None:
    word = {"en": "key", "es": "tecla"}[lang]

    async def scenario() -> None:
        for key, name in KEYS.items():
            button = view.rail_buttons[key]
            assert f"({word} {name})" in button.toolTip(), button.toolTip()
            assert name in button.accessibleDescription()
            assert button.key_name == name
        view.session.clear_client()
        assert "(" + word + " F2)" in view.rail_buttons["points"].toolTip()
        assert "\n" in view.rail_buttons["points"].toolTip()  # ... and why it is off
        qtbot.keyClick(view, Qt.Key.Key_F5)
        assert view.current is not None
        assert view.current.key == "code"

    arun(scenario())


def test_escape_discards_a_preview_closes_a_sheet_and_goes_back(
    qtbot: QtBot, view: Counter, sim_world: World, arun: Run
) -> None:
    hands = Keys()

    async def scenario() -> None:
        view.show_screen("points")
        points: Any = view.current
        hands.person("2500")
        hands.press(Qt.Key.Key_Return)
        await until(lambda: points.flow.sale.state is SaleState.PREVIEWED)
        await until(lambda: points.credit_button.armed)
        hands.press(Qt.Key.Key_Escape)  # the preview is discarded, the amount stays
        assert points.flow.sale.state is SaleState.EDITING
        assert points.flow.sale.amount_text == "2500"
        assert not points.credit_button.armed
        assert not points.preview_card.isVisible()
        hands.press(Qt.Key.Key_Return)  # Enter previews again (never credits)
        await until(lambda: points.flow.sale.state is SaleState.PREVIEWED)
        assert credits_sent(sim_world) == []
        view.show_screen("rewards")
        rewards: Any = view.current
        tap(qtbot, rewards.money_tab)
        hands.person("1000")
        hands.press(Qt.Key.Key_Return)
        assert rewards.pages.currentWidget() is rewards.sheet
        hands.press(Qt.Key.Key_Escape)  # the sheet closes: nothing exchanged
        assert rewards.pages.currentWidget() is rewards.money
        assert exchanges(sim_world) == []
        hands.press(Qt.Key.Key_Escape)  # nothing open: back to where the cashier was
        assert view.current is points

    arun(scenario())


def test_escape_leaves_the_enrollment_form_without_enrolling(
    qtbot: QtBot, view: Counter, session: CounterSession, sim_world: World, arun: Run
) -> None:
    hands = Keys()

    async def scenario() -> None:
        session.clear_client()
        screen: Any = view.current
        hands.scan("44123987")  # nobody has it
        await until(lambda: screen.pages.currentWidget() is screen.built("matches"))
        tap(qtbot, screen.matches.enroll_button)
        assert screen.pages.currentWidget() is screen.enroll
        hands.press(Qt.Key.Key_Escape)
        assert screen.pages.currentWidget() is screen.matches
        assert screen.field.hasFocus()
        assert view.current is screen
        assert creations(sim_world) == 0

    arun(scenario())
