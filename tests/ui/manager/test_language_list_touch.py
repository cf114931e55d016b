"""The language list of manager settings at touch size (issue #21): at 1280x800 and
1024x768, in English and Spanish, each entry of the opened list is at least 48 px tall
and as wide as the box, and the other boxes' lists too (theme)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox
from pytestqt.qtbot import QtBot
from starlette.types import ASGIApp

from kiosk.core.session import CounterSession
from tests.qt_async import until
from tests.ui.manager.manager_support import in_counter_window, themed
from tests.ui.manager.settings_support import Rig, language
from tests.ui.manager.test_settings_wheel_undo import tap

SIZES = [(1280, 800), (1024, 768)]
TOUCH_PX = 48


@pytest.fixture(autouse=True)
def _themed(qapp: QApplication) -> Iterator[None]:
    with themed(qapp):
        yield


@pytest.fixture
def rig(qtbot: QtBot, sim_app: ASGIApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Rig:
    return Rig(qtbot, sim_app, tmp_path / "home", monkeypatch)


@pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing the keyboard)")
@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x768"])
def test_the_language_list_has_touch_sized_entries(
    rig: Rig,
    arun: Callable[..., Any],
    session: CounterSession,
    tmp_path: Path,
    qapp: QApplication,
    size: tuple[int, int],
    lang: str,
) -> None:
    with language(qapp, lang):
        screen = rig.open()

        async def opened(combo: QComboBox) -> None:
            screen.scroller.ensureWidgetVisible(combo, 0, 200)
            tap(combo, rig.qtbot)
            view = combo.view()
            await until(lambda: view.isVisible())
            for row in range(combo.count()):
                rect = view.visualRect(combo.model().index(row, 0))
                assert rect.height() >= TOUCH_PX, (combo.itemText(row), rect)
                assert rect.width() >= combo.width() - 8, (combo.itemText(row), rect)
            rig.qtbot.keyClick(view, Qt.Key.Key_Escape)
            await until(lambda: not view.isVisible())

        async def scenario() -> None:
            window = await in_counter_window(rig.qtbot, session, screen, tmp_path / "lock")
            window.resize(*size)
            await until(lambda: not screen.tasks.running("branches"))
            await until(lambda: not screen.tasks.running("choices"))
            await opened(screen.counter.language)
            await opened(screen.counter.theme)

        arun(scenario())
