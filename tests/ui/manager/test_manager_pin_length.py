"""#22 item 3: outside training a manager PIN chosen on the kiosk has 10 to 12 digits
(IT's hash sits in kiosk.ini, readable by every user): the screen says so and the pad
does not go on with fewer."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from kiosk.core.security import lock as L
from kiosk.core.security.lock import verify_pin
from kiosk.ui.manager.gate import ManagerGate
from kiosk.ui.manager.manager_view import ManagerView, Section
from tests.qt_async import until
from tests.ui.manager.manager_support import FAST, Clocks, make_lock, themed


@pytest.fixture(autouse=True)
def _themed(qapp: QApplication) -> Iterator[None]:
    with themed(qapp):
        yield


def tap(qtbot: QtBot, gate: ManagerGate, pin: str) -> None:
    for digit in pin:
        qtbot.mouseClick(gate.panel.pad.keys[digit], Qt.MouseButton.LeftButton)


def test_outside_training_a_new_pin_needs_ten_digits(
    qtbot: QtBot, arun: Callable[..., Any], tmp_path: Path
) -> None:
    it_hash = L.hash_pin("5820", FAST)  # IT's PIN of before the rule still opens
    lock = make_lock(tmp_path, Clocks(), L.Provisioned(it_hash, False, training=False))
    view = lambda: ManagerView([Section("Settings", "settings", lambda: QLabel("x"))])  # noqa: E731
    gate = ManagerGate(lock, view, idle_seconds=60.0)
    gate.resize(1280, 800)
    qtbot.addWidget(gate)
    gate.show()

    async def scenario() -> None:
        tap(qtbot, gate, "5820")
        qtbot.mouseClick(gate.panel.button, Qt.MouseButton.LeftButton)
        await until(lambda: gate.view is not None)
        assert gate.view is not None
        qtbot.mouseClick(gate.view.pin_button, Qt.MouseButton.LeftButton)
        panel = gate.panel
        assert panel.hint.text() == "Choose 10 to 12 digits that only managers know."
        tap(qtbot, gate, "246813")
        assert not panel.button.isEnabled()  # six digits: not enough here
        tap(qtbot, gate, "5790")
        assert panel.button.isEnabled()
        qtbot.mouseClick(panel.button, Qt.MouseButton.LeftButton)
        tap(qtbot, gate, "2468135790")
        qtbot.mouseClick(panel.button, Qt.MouseButton.LeftButton)
        await until(lambda: gate.stack.currentWidget() is gate.view)
        stored = lock.pins.current()
        assert stored is not None
        assert verify_pin("2468135790", stored)

    arun(scenario())
