"""Layout work of the Redeem screen's answers (issue #4, event-loop stalls).

``QWidget.show()`` lays the whole screen out before it returns: the delivery answer
(card page, action row, banner) used to pay that three times in one loop turn. Now
the answer lays the screen out once (``one_relayout``) and a banner shown on its own
is laid out with the next pass of the loop (``show_deferred``), before any paint.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QPoint, QRect
from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from kiosk.core.session import CounterSession
from kiosk.ui.widgets.relayout import one_relayout, show_deferred
from tests.qt_async import until
from tests.ui.event_count import EventCount
from tests.ui.screens.redeem.test_redeem import LEFT, look_up, make_screen


async def settle() -> None:
    """A few passes of the loop: posted layout requests delivered (never a nested loop)."""
    for _ in range(3):
        await asyncio.sleep(0.01)


def test_the_delivery_answer_lays_the_screen_out_once(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any]
) -> None:
    screen = make_screen(qtbot, session)

    async def scenario() -> None:
        await look_up(qtbot, screen, "PEND2345")
        qtbot.mouseClick(screen.deliver_button, LEFT)
        assert screen.pages.currentWidget() is screen.sheet
        assert not screen.action_row.isVisible()
        await settle()
        resizes = EventCount(QEvent.Type.Resize)
        screen.pages.installEventFilter(resizes)
        await until(lambda: screen.sheet.confirm.armed)
        qtbot.mouseClick(screen.sheet.confirm, LEFT)
        await until(lambda: screen.banner.kind == "success" and not screen.tasks.running("deliver"))
        await settle()
        # The card back, the action row and the banner shown: the pages shrink once
        # (before: once for the action row, once more for the banner).
        assert screen.pages.currentWidget() is screen.card
        assert screen.action_row.isVisible()
        assert resizes.count == 1
        # The banner stands in the hint's room beside Deliver (issue #21: at the top it
        # covered the code field and Look up).
        assert screen.action_row.geometry().contains(screen.banner.geometry())
        deliver = screen.deliver_button
        deliver_at = QRect(deliver.mapTo(screen, QPoint(0, 0)), deliver.size())
        assert not screen.banner.geometry().intersects(deliver_at)
        assert screen.pages.geometry().bottom() < screen.action_row.geometry().top()

    arun(scenario())


def test_a_banner_never_moves_the_content(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any]
) -> None:
    """Issue #14 (defect 8): a banner is drawn over the room its slot keeps; showing,
    changing or dismissing it moves nothing the cashier is about to tap."""
    screen = make_screen(qtbot, session)

    async def scenario() -> None:
        await settle()
        top = screen.pages.y()
        screen.banner.show_error("Something went wrong. Try again.")
        assert screen.banner.isVisible()
        assert screen.banner.text() == "Something went wrong. Try again."
        await settle()
        assert screen.pages.y() == top
        screen.banner.show_error("Still wrong.")
        assert screen.banner.text() == "Still wrong."
        screen.banner.dismiss()
        await settle()
        assert screen.pages.y() == top

    arun(scenario())


def test_one_relayout_lays_out_once_at_the_end_and_nests(qtbot: QtBot) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    layout = QVBoxLayout(host)
    first, second = QLabel("first"), QLabel("second")
    for label in (first, second):
        label.hide()
        layout.addWidget(label)
    layout.addStretch(1)
    host.resize(400, 300)
    host.show()
    QApplication.processEvents()
    with one_relayout(host):
        first.show()
        with one_relayout(host):  # nested: the outer block lays out
            second.show()
        assert not layout.isEnabled()
        assert second.geometry().top() <= first.geometry().top()  # not placed yet
    assert layout.isEnabled()
    assert first.geometry().bottom() < second.geometry().top()  # placed at the end


def test_show_deferred_without_a_parent_layout_just_shows(qtbot: QtBot) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    child = QLabel("free", host)
    child.hide()
    host.show()
    show_deferred(child)
    assert child.isVisible()
