"""The money exchange's amount under a cashier's fingers (issue #14): the same keypad
as Points, on the same side (the left, under its amount); the figure in the preview's
format, whole; a digit past the largest amount refused at the key with the reason.
The counter's window at 1280x800 and 1024x768, English and Spanish."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from kiosk.core.session import CounterSession
from kiosk.ui.main_window import CounterView
from kiosk.ui.screens.rewards.screen import RewardsScreen
from tests.qt_async import until
from tests.ui.keys import Keys
from tests.ui.layout_audit import audit
from tests.ui.screens.points.points_support import JUAN, Run
from tests.ui.screens.points.points_window import SIZES, language, shot, tap

TOO_LARGE = {
    "en": "The largest amount is $ 10.000.000,00: that digit was not added.",
    "es": "El monto máximo es $ 10.000.000,00: no se agregó el dígito.",
}


@pytest.fixture(params=SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def size(request: pytest.FixtureRequest) -> tuple[int, int]:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture(params=["en", "es"])
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
) -> Iterator[tuple[CounterView, RewardsScreen]]:
    with language(qapp, lang):
        screen = RewardsScreen(session)
        view = CounterView(session, [screen])
        qtbot.addWidget(view)
        view.resize(*size)
        view.show()
        yield view, screen
        for widget in (screen, view):
            session.client_changed.disconnect(widget._client_changed)


def in_view(view: QWidget, widget: QWidget) -> QRect:
    return QRect(widget.mapTo(view, widget.rect().topLeft()), widget.size())


def test_the_money_keypad_sits_left_under_its_amount_and_refuses_a_12_digit_amount(
    qtbot: QtBot, counter: tuple[CounterView, RewardsScreen], arun: Run, lang: str
) -> None:
    view, screen = counter
    money = screen.money

    async def scenario() -> None:
        screen.session.set_client(await screen.session.api.search_client(JUAN))
        view.show_screen(screen.key)
        await until(lambda: bool(screen.grid.tiles) and not screen.tasks.running("catalog"))
        tap(qtbot, view, screen.money_tab)
        await until(lambda: money.isVisible())
        keypad, amount = in_view(view, money.keypad), in_view(view, money.amount)
        assert keypad.top() > amount.bottom()  # under its amount
        assert keypad.right() < in_view(view, money.exchange).left()  # on the left
        assert keypad.left() < view.width() // 2
        top = in_view(view, money.keypad.buttons["1"])
        for key in "123456789012":
            tap(qtbot, view, money.keypad.buttons[key])
        assert money.amount.text() == "1234567"
        assert money.amount.display.text() == "$ 1.234.567,00"
        assert money.error.isVisible()
        assert money.error.text() == TOO_LARGE[lang]
        assert in_view(view, money.keypad.buttons["1"]) == top  # the message moved nothing
        shot(view, f"money-too-large-{lang}-{view.width()}")
        assert [f.line() for f in audit(view, "money") if "rewards_money" in f.owner] == []
        hands = Keys()  # a person's keys (a scanner's burst is no typing)
        hands.person("9", widget=money.amount)  # the keyboard refuses it too
        assert money.amount.text() == "1234567"
        money.amount.clear()
        hands.person("10000000,00", widget=money.amount)
        display = money.amount.display
        assert display.text() == "$ 10.000.000,00"
        assert display.fontMetrics().horizontalAdvance(display.text()) <= display.width()
        assert money.echo.text().endswith("$ 10.000.000,00")
        shot(view, f"money-largest-{lang}-{view.width()}")
        hands.press(Qt.Key.Key_Backspace, widget=money.amount)
        assert money.amount.text() == "10000000,0"

    arun(scenario())
