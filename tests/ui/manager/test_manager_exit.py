"""Closing the kiosk from manager mode: the question in the header's place, its action a
commit (a double tap on "Close the kiosk" never closes it unseen), Back brings the
header back; at the counter's sizes, in both languages."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from kiosk.ui.manager.manager_view import ManagerView, Section
from tests.qt_async import until
from tests.ui.manager.settings_support import language as language_of
from tests.ui.theme_support import app_theme

LEFT = Qt.MouseButton.LeftButton
SIZES = [(1280, 800), (1024, 768)]


@pytest.fixture(params=["en", "es"])
def language(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    with app_theme(qapp), language_of(qapp, request.param):
        yield request.param


def tr(text: str) -> str:
    return QCoreApplication.translate("ManagerView", text)


@pytest.mark.parametrize("size", SIZES)
def test_close_the_kiosk_asks_first_and_closes_once(
    qtbot: QtBot, arun: Callable[..., Any], language: str, size: tuple[int, int]
) -> None:
    view = ManagerView([Section("Point items", "points", lambda: QLabel("items"))], can_exit=True)
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    exits: list[int] = []
    view.exit_requested.connect(lambda: exits.append(1))
    sheet = view.confirm_exit

    async def scenario() -> None:
        view.activateWindow()
        point = view.exit_button.mapTo(view, view.exit_button.rect().center())
        qtbot.mouseClick(view.exit_button, LEFT)
        assert sheet.isVisible()
        assert sheet.heading.text() == tr("Close the kiosk?")
        assert sheet.confirm.text() == tr("Close the kiosk")
        assert not view.header.isVisible()  # the question in its place: the section keeps room
        assert view.stack.isVisible()
        # The double tap's second half lands on the question, on whatever is there.
        target = view.childAt(point) or view
        qtbot.mouseClick(target, LEFT, pos=target.mapFrom(view, point))
        qtbot.mouseClick(sheet.confirm, LEFT)
        assert exits == []
        qtbot.mouseClick(sheet.back, LEFT)
        assert not sheet.isVisible()
        assert view.header.isVisible()
        assert exits == []
        # Asked again: once seen, Enter closes it, once.
        qtbot.mouseClick(view.exit_button, LEFT)
        await until(lambda: sheet.confirm.armed)
        focus = QApplication.focusWidget()
        assert focus is sheet
        qtbot.keyClick(focus, Qt.Key.Key_Return)
        qtbot.keyClick(focus, Qt.Key.Key_Return)
        assert exits == [1]

    arun(scenario())
