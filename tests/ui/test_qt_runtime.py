"""The Qt binding the kiosk runs on must not corrupt the interpreter.

PySide6 6.12.0 drops a reference to ``True`` on every ``Signal.emit()`` called from
Python; a kiosk that stays open long enough dies with "Fatal Python error:
bool_dealloc". pyproject.toml excludes that release; this test fails loudly if a
build with the same defect is ever installed.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot


class Emitter(QObject):
    bare = Signal()
    text = Signal(str)


def test_void_methods_keep_none_alive(qtbot: QtBot) -> None:
    label = QLabel()
    before = sys.getrefcount(None)
    for _ in range(200):
        label.setText("x")
    assert sys.getrefcount(None) - before >= -5  # other threads may move it a little


def test_emit_keeps_reference_counts_intact(qtbot: QtBot) -> None:
    emitter = Emitter()
    before = sys.getrefcount(True)
    for _ in range(50):
        emitter.bare.emit()
        emitter.text.emit("x")
    assert sys.getrefcount(True) - before >= 0
