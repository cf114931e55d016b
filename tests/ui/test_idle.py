"""Idle timers (``kiosk.ui.widgets.idle``): a tap or a key in any window of the kiosk
restarts the count; the listener filters the windows, not every widget's events."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from kiosk.ui.widgets.idle import IdleTimer, UserInput


def shown(qtbot: QtBot) -> tuple[QWidget, QLineEdit]:
    window = QWidget()
    field = QLineEdit()
    QVBoxLayout(window).addWidget(field)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window, field


def test_a_key_or_a_tap_in_the_window_restarts_the_count(qtbot: QtBot) -> None:
    window, _field = shown(qtbot)
    idle = IdleTimer(0.6, window)
    idle.start()
    handle = window.windowHandle()
    for send in (
        lambda: QTest.keyClick(handle, Qt.Key.Key_A),
        lambda: QTest.mouseClick(handle, Qt.MouseButton.LeftButton, pos=QPoint(5, 5)),
    ):
        qtbot.waitUntil(lambda: 0 < idle.timer.remainingTime() < 300)
        send()
        assert idle.timer.remainingTime() > 450  # restarted with its full interval
    with qtbot.waitSignal(idle.idle, timeout=2000):
        pass  # no more input: it fires


def test_input_while_stopped_starts_nothing_and_idle_fires_once(qtbot: QtBot) -> None:
    window, _field = shown(qtbot)
    idle = IdleTimer(60, window)
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_A)
    assert not idle.timer.isActive()
    fired: list[int] = []
    idle.idle.connect(lambda: fired.append(1))
    idle.timer.setInterval(5)
    idle.start()
    qtbot.waitUntil(lambda: bool(fired))
    assert not idle.timer.isActive()
    idle.detach()
    QTest.keyClick(window.windowHandle(), Qt.Key.Key_A)
    assert not idle.timer.isActive()


def test_one_listener_per_application_watching_windows_not_widgets(qtbot: QtBot) -> None:
    window, field = shown(qtbot)
    IdleTimer(60, window).start()  # a started timer watches the windows shown
    listener = UserInput.of()
    assert listener is not None
    assert listener is UserInput.of()
    seen: list[int] = []

    def note() -> None:
        seen.append(1)

    listener.input.connect(note)
    try:
        QTest.keyClick(window.windowHandle(), Qt.Key.Key_B)
        assert seen == [1, 1]  # its press and its release
        # Events Qt sends straight to a widget (not input from a person) are not seen.
        QTest.keyClick(field, Qt.Key.Key_C)
        assert seen == [1, 1]
    finally:
        listener.input.disconnect(note)
