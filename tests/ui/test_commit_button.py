"""The commit button's two guards, under a cashier's taps: armed only once painted and
the guard time has passed; one accepted tap, one request."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from kiosk.ui.widgets.commit_button import ARM_GUARD_MS, CommitButton
from tests.qt_async import until

LEFT = Qt.MouseButton.LeftButton


def make(qtbot: QtBot, guard_ms: int = ARM_GUARD_MS) -> tuple[QWidget, CommitButton, list[int]]:
    window = QWidget()
    qtbot.addWidget(window)
    button = CommitButton("Credit 1.234 points", guard_ms=guard_ms)
    QVBoxLayout(window).addWidget(button)
    window.resize(400, 120)
    hits: list[int] = []
    button.committed.connect(lambda: hits.append(1))
    return window, button, hits


def test_a_tap_before_the_guard_time_is_ignored(qtbot: QtBot, arun: Callable[..., Any]) -> None:
    window, button, hits = make(qtbot)
    window.show()

    async def scenario() -> None:
        button.arm()
        armed_at = time.monotonic()
        qtbot.mouseClick(button, LEFT)
        qtbot.mouseClick(button, LEFT)
        await until(lambda: button.armed, timeout=3)
        assert time.monotonic() - armed_at >= ARM_GUARD_MS / 1000 * 0.9
        assert hits == []
        qtbot.mouseClick(button, LEFT)
        qtbot.mouseClick(button, LEFT)  # the double tap's second half: busy already
        assert hits == [1]
        assert button.busy
        assert not button.isEnabled()

    arun(scenario())


def test_enter_enter_commits_once(qtbot: QtBot, arun: Callable[..., Any]) -> None:
    window, button, hits = make(qtbot, guard_ms=50)
    window.show()

    async def scenario() -> None:
        button.arm()
        button.setFocus()
        qtbot.keyClick(button, Qt.Key.Key_Space)
        assert hits == []  # not armed yet: the key is swallowed
        await until(lambda: button.armed)
        qtbot.keyClick(button, Qt.Key.Key_Space)
        qtbot.keyClick(button, Qt.Key.Key_Space)
        assert hits == [1]

    arun(scenario())


def test_a_hidden_button_arms_only_after_it_is_shown_and_painted(
    qtbot: QtBot, arun: Callable[..., Any]
) -> None:
    window, button, _hits = make(qtbot, guard_ms=20)

    async def scenario() -> None:
        button.arm()  # armed while nothing is on screen
        for _ in range(10):
            await until(lambda: True)
        assert not button.armed
        window.show()
        await until(lambda: button.armed)

    arun(scenario())


def test_finish_rearms_only_when_asked_and_disarm_drops_the_arming(
    qtbot: QtBot, arun: Callable[..., Any]
) -> None:
    window, button, hits = make(qtbot, guard_ms=20)
    window.show()

    async def scenario() -> None:
        button.arm()
        await until(lambda: button.armed)
        qtbot.mouseClick(button, LEFT)
        button.finish(rearm=True)  # an error: the same commit may be tried again
        assert not button.armed  # ... after the guard again
        await until(lambda: button.armed)
        qtbot.mouseClick(button, LEFT)
        button.finish()
        assert not button.armed
        assert not button.isEnabled()
        button.setEnabled(True)  # enabling from outside arms, never skips the guard
        assert not button.armed
        button.disarm()
        await until(lambda: not button._guard.isActive())
        assert not button.armed
        assert hits == [1, 1]

    arun(scenario())
