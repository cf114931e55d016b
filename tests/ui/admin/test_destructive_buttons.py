"""A destructive button is as big as the buttons beside it (issue #21): at 1280x800 and
1024x768, in English and Spanish, "Schedule removal", "Delete operator", "Delete
level" stand as tall as Back and Save in their forms, and as Back in their
confirmation."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.admin.clients import ClientsSection
from kiosk.ui.admin.levels import LevelsSection
from kiosk.ui.admin.operators import OperatorsSection
from kiosk.ui.admin.section import AdminSection
from tests.qt_async import until
from tests.ui.admin.admin_layout_support import LANGUAGES, SIZES, in_manager_window, language
from tests.ui.theme_support import app_theme

SECTIONS: list[type[AdminSection]] = [ClientsSection, OperatorsSection, LevelsSection]


@pytest.fixture
def themed(qapp: QApplication) -> Iterator[None]:
    with app_theme(qapp):
        yield


def buttons(root: QWidget) -> list[QPushButton]:
    return [b for b in root.findChildren(QPushButton) if b.isVisible() and b.text()]


def neighbours(root: QWidget, danger: QPushButton) -> list[QPushButton]:
    """The buttons in the destructive one's row (their tops within its height), or when
    it stands on a row of its own (a narrow window), those of its footer."""
    top = danger.mapTo(root, QPoint(0, 0)).y()
    others = [b for b in buttons(root) if b is not danger and b.property("role") != "tile"]
    row = [b for b in others if abs(b.mapTo(root, QPoint(0, 0)).y() - top) < danger.height()]
    return row or [b for b in others if b.parentWidget() is danger.parentWidget()]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("cls", SECTIONS, ids=lambda c: c.__name__)
def test_destructive_buttons_as_big_as_their_neighbours(
    cls: type[AdminSection],
    size: tuple[int, int],
    lang: str,
    qapp: QApplication,
    qtbot: QtBot,
    themed: None,
    session: CounterSession,
    sim_world: World,
    arun: Callable[..., Any],
    tmp_path: Path,
) -> None:
    with language(qapp, lang):
        section = cls(session)

        def same_as_neighbours(root: QWidget) -> QPushButton:
            dangers = [b for b in buttons(root) if b.property("role") == "danger"]
            assert dangers
            danger = dangers[0]
            beside = neighbours(root, danger)
            assert beside, danger.text()
            for other in beside:
                assert danger.height() == other.height(), (danger.text(), other.text())
                assert danger.height() >= 48
            return danger

        async def scenario() -> None:
            await in_manager_window(qtbot, session, section, tmp_path, size)
            await until(lambda: section.list.loads >= 1 and not section.tasks.running("list"))
            await until(lambda: not section.tasks.running("levels"))
            table = section.list.table
            rect = table.visualRect(section.list.model.index(0, 0))
            qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
            await until(lambda: section.pages.currentWidget() is not section.list)
            busy = ("form", "registered", "branches")
            await until(lambda: not any(section.tasks.running(n) for n in busy))
            danger = same_as_neighbours(section)
            qtbot.mouseClick(danger, Qt.MouseButton.LeftButton)
            await until(lambda: section.sheet.isVisible())
            same_as_neighbours(section.sheet)

        arun(scenario())
