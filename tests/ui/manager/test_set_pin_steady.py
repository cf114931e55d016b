"""Training's first PIN, chosen twice on the pad, at 1280x800 and 1024x768 in English
and Spanish: the pad stands still while the words above and under it change (choose,
confirm, "do not match", a PIN anyone would try)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QPoint, Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from kiosk.core.session import CounterSession
from kiosk.ui.main_window import CounterView
from kiosk.ui.manager.gate import ManagerGate, ManagerScreen
from kiosk.ui.manager.lock_panel import Mode
from tests.qt_async import until
from tests.ui.manager.manager_support import Clocks, make_lock
from tests.ui.manager.test_manager_lock import section_view
from tests.ui.theme_support import app_theme
from tests.ui.translated import translated

SIZES = [(1280, 800), (1024, 768)]


@pytest.fixture(params=["en", "es"])
def language(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    with app_theme(qapp), translated(qapp, request.param):
        yield request.param


def settle() -> None:
    """Every layout asked so far, done (as the loop's next turn would before painting)."""
    for _ in range(4):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)


@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x768"])
def test_the_set_pin_pad_stands_still(
    qtbot: QtBot,
    arun: Callable[..., Any],
    session: CounterSession,
    tmp_path: Path,
    language: str,
    size: tuple[int, int],
) -> None:
    lock = make_lock(tmp_path, Clocks())  # training, no PIN yet
    gate = ManagerGate(lock, section_view, idle_seconds=60)
    window = CounterView(session, [ManagerScreen(session, gate)])
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    panel = gate.panel
    pad = panel.pad
    watched: list[QWidget] = [pad.dots, *pad.keys.values()]

    def where() -> list[tuple[QPoint, int, int]]:
        """Where the dots and each key are, and the row of the buttons under them (the
        main button narrows when "Start again" stands beside it)."""
        settle()
        row = panel.button.mapTo(window, QPoint(0, 0)).y(), panel.button.height()
        return [
            *((w.mapTo(window, QPoint(0, 0)), w.width(), w.height()) for w in watched),
            (QPoint(0, row[0]), 0, row[1]),
        ]

    def tap(widget: QWidget) -> None:
        qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)

    def type_pin(pin: str) -> None:
        for digit in pin:
            tap(pad.keys[digit])

    async def scenario() -> None:
        await until(lambda: panel.isVisible() and panel.mode is Mode.CHOOSE)
        first = where()
        steps: list[tuple[str, Callable[[], object]]] = [
            ("1 digit", lambda: type_pin("5")),
            ("4 digits", lambda: type_pin("318")),
            ("confirm", lambda: tap(panel.button)),
            ("confirm, typed", lambda: type_pin("5390")),
            ("do not match", lambda: tap(panel.button)),
            ("common", lambda: (type_pin("1234"), tap(panel.button))),
            ("typed again", lambda: type_pin("97")),
            ("cleared", lambda: tap(pad.keys["clear"])),
        ]
        for name, step in steps:
            step()
            assert where() == first, name
            if name in ("do not match", "common"):
                assert panel.message.text(), name  # a sentence under the pad, which stays
        assert panel.mode is Mode.CHOOSE

    arun(scenario())
