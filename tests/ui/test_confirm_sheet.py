"""The one confirmation sheet (``kiosk.ui.widgets.confirm_sheet``), under a cashier's and a
manager's taps and keys, at the counter's sizes, in both languages: what it says, when
its action accepts a tap or Enter (once painted and the guard passed, once), Back, the
PIN step, the card and page looks, and texts that are never squeezed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QRect, Qt
from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from kiosk.ui.widgets.confirm_sheet import ConfirmSheet
from kiosk.ui.widgets.fit_label import FitLabel
from kiosk.ui.widgets.relayout import PageStack
from tests.qt_async import until
from tests.ui.manager.settings_support import language as language_of
from tests.ui.theme_support import app_theme

LEFT = Qt.MouseButton.LeftButton
SIZES = [(1280, 800), (1024, 768)]
LONG_NAME = "María José Guadalupe Esperanza González Fernández de la Cruz"


@pytest.fixture(params=["en", "es"])
def language(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    with app_theme(qapp), language_of(qapp, request.param):
        yield request.param


def back_text() -> str:
    return QCoreApplication.translate("ConfirmSheet", "Back")


def card_in_window(
    qtbot: QtBot, size: tuple[int, int], **options: Any
) -> tuple[QWidget, ConfirmSheet, list[str]]:
    """A window of the counter's size: a page that takes the room left, the card under
    it (as on Today); ``said`` records the sheet's signals."""
    window = QWidget()
    qtbot.addWidget(window)
    page = QLabel("the day's list")
    sheet = ConfirmSheet(**options)
    layout = QVBoxLayout(window)
    layout.addWidget(page, 1)
    layout.addWidget(sheet)
    said: list[str] = []
    sheet.confirmed.connect(lambda: said.append("confirmed"))
    sheet.dismissed.connect(lambda: said.append("dismissed"))
    window.resize(*size)
    window.show()
    return window, sheet, said


def ask(sheet: ConfirmSheet, **extra: Any) -> None:
    sheet.ask(
        f"Delete the point item “{LONG_NAME}”?",
        "It disappears from the counter buttons of every branch. This cannot be undone.",
        "Delete item",
        **extra,
    )


def settle() -> None:
    """Every layout asked so far, done (as a loop turn would before painting)."""
    for _ in range(4):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        QApplication.processEvents()


def need(label: QLabel) -> int:
    """The height ``label``'s wrapped text needs at its width."""
    flags = Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignLeft
    room = QRect(0, 0, label.contentsRect().width(), 100_000)
    return label.fontMetrics().boundingRect(room, flags, label.text()).height()


def press(qtbot: QtBot, key: Qt.Key) -> None:
    """A key on the physical keyboard: to the widget that has the focus."""
    focus = QApplication.focusWidget()
    assert focus is not None
    qtbot.keyClick(focus, key)


@pytest.mark.parametrize("size", SIZES)
def test_a_card_confirms_once_seen_and_once_only(
    qtbot: QtBot, arun: Callable[..., Any], language: str, size: tuple[int, int]
) -> None:
    window, sheet, said = card_in_window(qtbot, size)

    async def scenario() -> None:
        window.activateWindow()
        ask(sheet, action="delete", subject=7)
        assert sheet.isVisible()
        assert sheet.asking == "delete"
        assert sheet.back.text() == back_text()
        assert sheet.confirm.property("role") == "danger"
        # What opened it, tapped twice, or Enter, Enter: the second lands here, unarmed.
        qtbot.mouseClick(sheet.confirm, LEFT)
        press(qtbot, Qt.Key.Key_Return)
        assert said == []
        await until(lambda: sheet.confirm.armed)
        press(qtbot, Qt.Key.Key_Return)  # the sheet has the focus: Enter confirms
        press(qtbot, Qt.Key.Key_Enter)
        qtbot.mouseClick(sheet.confirm, LEFT)
        assert said == ["confirmed"]
        assert sheet.confirm.busy
        sheet.set_running(True)
        assert not sheet.back.isEnabled()
        sheet.finish()
        assert sheet.back.isEnabled()
        assert not sheet.confirm.armed  # until the next question

    arun(scenario())


@pytest.mark.parametrize("size", SIZES)
def test_back_hides_a_card_and_forgets_what_it_asked(
    qtbot: QtBot, arun: Callable[..., Any], language: str, size: tuple[int, int]
) -> None:
    _window, sheet, said = card_in_window(qtbot, size)
    extra = QLabel("reasons")

    async def scenario() -> None:
        ask(sheet, action="remove", subject="client 7", extra=extra)
        assert extra.isVisible()
        await until(lambda: sheet.confirm.armed)
        qtbot.mouseClick(sheet.back, LEFT)
        assert said == ["dismissed"]
        assert not sheet.isVisible()
        assert (sheet.asking, sheet.action, sheet.subject) == ("", "", None)
        assert not sheet.confirm.armed
        assert not extra.isVisibleTo(sheet)  # kept in the sheet for the next time
        # The next question without the extra widget, as the accent's own action.
        ask(sheet, danger=False, icon_name="redeem")
        assert sheet.confirm.property("role") == "primary"
        assert not extra.isVisibleTo(sheet)

    arun(scenario())


@pytest.mark.parametrize("size", SIZES)
def test_while_a_pin_is_asked_the_buttons_step_aside(
    qtbot: QtBot, arun: Callable[..., Any], language: str, size: tuple[int, int]
) -> None:
    window, sheet, said = card_in_window(qtbot, size, confirm_width=280)

    async def scenario() -> None:
        window.activateWindow()
        ask(sheet)
        await until(lambda: sheet.confirm.armed)
        qtbot.mouseClick(sheet.confirm, LEFT)
        assert said == ["confirmed"]
        sheet.set_running(True)
        sheet.asking_pin(True)
        assert sheet.heading.isVisible()
        assert not sheet.message.isVisible()
        assert not sheet.back.isVisible()
        assert not sheet.confirm.isVisible()
        sheet.setFocus()
        press(qtbot, Qt.Key.Key_Return)  # (the PIN pad's Enter, not this one)
        assert said == ["confirmed"]
        # The PIN sheet was left: the question again, the same cancel may be confirmed.
        sheet.asking_pin(False)
        sheet.finish(rearm=True)
        assert sheet.message.isVisible()
        assert sheet.back.isVisible()
        assert sheet.back.isEnabled()
        assert QApplication.focusWidget() is sheet
        await until(lambda: sheet.confirm.armed)
        press(qtbot, Qt.Key.Key_Return)
        assert said == ["confirmed", "confirmed"]

    arun(scenario())


def test_finish_rearms_only_a_question_still_asked(qtbot: QtBot, arun: Callable[..., Any]) -> None:
    window, sheet, _said = card_in_window(qtbot, SIZES[1])

    async def scenario() -> None:
        ask(sheet)
        await until(lambda: sheet.confirm.armed)
        qtbot.mouseClick(sheet.confirm, LEFT)
        sheet.dismiss()  # (the credit was canceled meanwhile elsewhere)
        sheet.finish(rearm=True)
        window.repaint()
        for _ in range(5):
            await until(lambda: True)
        assert not sheet.confirm.armed
        assert not sheet.confirm.busy

    arun(scenario())


@pytest.mark.parametrize("size", SIZES)
def test_a_page_is_left_by_its_screen(
    qtbot: QtBot, arun: Callable[..., Any], language: str, size: tuple[int, int]
) -> None:
    """Rewards and Redeem: a page of their stack, Back at the left and the action at the
    right right under the texts; Back says so and the screen shows another page."""
    window = QWidget()
    qtbot.addWidget(window)
    stack = PageStack(fit_current=True)  # as Redeem's: the page shown is never squeezed
    other = QLabel("the card")
    sheet = ConfirmSheet("redeem", danger=False, page=True)
    stack.addWidget(other)
    stack.addWidget(sheet)
    layout = QVBoxLayout(window)
    layout.addWidget(QLabel("the code field"))
    layout.addWidget(stack, 1)
    said: list[str] = []
    sheet.dismissed.connect(lambda: said.append("dismissed"))
    window.resize(*size)
    window.show()

    async def scenario() -> None:
        sheet.ask(
            "Confirm the delivery",
            f"Deliver Café con medialunas to {LONG_NAME}.",
            "Confirm delivery",
            detail=(
                f"Not the client identified ({LONG_NAME}): this purchase is another "
                "client's. Check who collects it before confirming.\n"
                "Code PEND2345 will be marked delivered and cannot be used again."
            ),
            hint="Keep the reward until the service confirms the delivery.",
        )
        stack.setCurrentWidget(sheet)
        assert sheet.detail.isVisible()
        assert sheet.hint.isVisible()
        assert sheet.confirm.property("role") == "primary"
        settle()
        for label in (sheet.heading, sheet.message, sheet.detail, sheet.hint):
            assert label.contentsRect().height() >= need(label)  # first shown: not squeezed
        back, confirm = sheet.back.geometry(), sheet.confirm.geometry()
        assert back.left() < confirm.left()
        below_texts = sheet.buttons.geometry().top() - sheet.hint.geometry().bottom()
        assert below_texts <= 24  # right under the texts, not at the bottom
        await until(lambda: sheet.confirm.armed)
        sheet.set_running(True)
        qtbot.mouseClick(sheet.back, LEFT)  # while it runs: nothing
        assert said == []
        sheet.finish()
        qtbot.mouseClick(sheet.back, LEFT)
        assert said == ["dismissed"]
        assert sheet.isVisible()  # the screen shows another page (the stack's business)
        assert not sheet.confirm.armed
        stack.setCurrentWidget(other)
        sheet.ask("Confirm the exchange", "Exchange a reward.", "Exchange")
        assert not sheet.detail.isVisible()
        assert not sheet.hint.isVisibleTo(sheet)

    arun(scenario())


@pytest.mark.parametrize("size", SIZES)
def test_a_card_in_the_page_s_place_keeps_its_texts_at_the_top(
    qtbot: QtBot, language: str, size: tuple[int, int]
) -> None:
    """Manager mode's sheet takes all the height of the page that asked: its texts stay
    together at the top, the buttons at the bottom (they were spread over the room)."""
    window = QWidget()
    qtbot.addWidget(window)
    sheet = ConfirmSheet(scroll=True)
    QVBoxLayout(window).addWidget(sheet)
    window.resize(*size)
    window.show()
    sheet.ask("Deliver exchange PEND2345?", "It is marked delivered.", "Deliver", danger=False)
    settle()
    heading, message = sheet.heading.geometry(), sheet.message.geometry()
    assert heading.height() == need(sheet.heading)  # not stretched over the room
    assert message.top() == heading.bottom() + 1 + 8  # right under it: the texts' spacing
    assert sheet.buttons.geometry().bottom() >= sheet.height() - 40  # at the bottom


@pytest.mark.parametrize("size", SIZES)
def test_wrapped_texts_keep_the_height_they_need(
    qtbot: QtBot, language: str, size: tuple[int, int]
) -> None:
    """A long question in a window short of room: the page above gives way, the card's
    texts are never cut (1024x768, a long name, Spanish)."""
    _window, sheet, _said = card_in_window(qtbot, (size[0] // 3, size[1]))
    ask(sheet)
    settle()
    for label in (sheet.heading, sheet.message):
        assert isinstance(label, FitLabel)
        assert need(label) > label.fontMetrics().height()  # wrapped on several lines
        assert label.contentsRect().height() >= need(label)
