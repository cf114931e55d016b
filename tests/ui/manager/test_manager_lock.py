"""Manager mode's lock: PIN set on first run, wrong PIN and lockout, idle re-lock, "Lock"."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from kiosk.core.security import lock as L
from kiosk.core.security.lock import ManagerLock, verify_pin
from kiosk.core.session import CounterSession
from kiosk.ui.manager.gate import ManagerGate, ManagerScreen
from kiosk.ui.manager.lock_panel import Mode
from kiosk.ui.manager.manager_view import ManagerView, Section
from tests.qt_async import until
from tests.ui.manager.manager_support import FAST, Clocks, make_lock, shot, themed, visible_text


@pytest.fixture(autouse=True)
def _themed(qapp: QApplication) -> Iterator[None]:
    with themed(qapp):
        yield


@pytest.fixture
def clocks() -> Clocks:
    return Clocks()


@pytest.fixture
def lock(tmp_path: Path, clocks: Clocks) -> ManagerLock:
    return make_lock(tmp_path, clocks)


def section_view() -> ManagerView:
    secret = QLabel("manager-only content")
    secret.setObjectName("secretContent")
    return ManagerView([Section("Settings", "settings", lambda: secret)])


def make_gate(qtbot: QtBot, lock: ManagerLock, idle: float = 60.0) -> ManagerGate:
    gate = ManagerGate(lock, section_view, idle_seconds=idle)
    gate.resize(1280, 800)
    qtbot.addWidget(gate)
    gate.show()
    return gate


def type_pin(qtbot: QtBot, gate: ManagerGate, pin: str) -> None:
    for digit in pin:
        qtbot.mouseClick(gate.panel.pad.keys[digit], Qt.MouseButton.LeftButton)


def test_first_run_sets_the_pin_twice_then_opens(
    qtbot: QtBot, arun: Callable[..., Any], lock: ManagerLock, tmp_path: Path
) -> None:
    gate = make_gate(qtbot, lock)
    panel = gate.panel

    async def scenario() -> None:
        assert panel.mode is Mode.CHOOSE
        assert gate.view is None
        assert not gate.findChildren(QLabel, "secretContent")
        type_pin(qtbot, gate, "1")
        assert not panel.button.isEnabled()  # 4 digits at least
        type_pin(qtbot, gate, "9")
        type_pin(qtbot, gate, "73")
        assert panel.pad.dots.count == 4
        shot(gate, "set_pin")
        qtbot.mouseClick(panel.button, Qt.MouseButton.LeftButton)
        assert panel.mode is Mode.CONFIRM
        type_pin(qtbot, gate, "1974")  # not the same
        qtbot.mouseClick(panel.button, Qt.MouseButton.LeftButton)
        assert panel.mode is Mode.CHOOSE
        assert "do not match" in panel.message.text()
        assert not lock.has_pin()
        type_pin(qtbot, gate, "1973")
        qtbot.mouseClick(panel.button, Qt.MouseButton.LeftButton)
        type_pin(qtbot, gate, "1973")
        qtbot.mouseClick(panel.button, Qt.MouseButton.LeftButton)
        await until(lambda: gate.view is not None and gate.view.isVisible())
        assert lock.unlocked
        assert gate.findChildren(QLabel, "secretContent")
        stored = lock.pins.current()
        assert stored is not None
        assert verify_pin("1973", stored)
        assert "1973" not in visible_text(gate)
        assert "1973" not in (tmp_path / L.PIN_FILE).read_text()

    arun(scenario())


def test_wrong_pin_then_lockout_with_a_countdown(
    qtbot: QtBot,
    arun: Callable[..., Any],
    lock: ManagerLock,
    clocks: Clocks,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"wrong manager PIN \(3 in a row\): locked for 30 s")

    async def scenario() -> None:
        await lock.set_pin("2468")
        lock.relock()
        gate = make_gate(qtbot, lock)
        panel = gate.panel
        assert panel.mode is Mode.ENTER
        shot(gate, "pin_pad")
        type_pin(qtbot, gate, "1111")
        qtbot.mouseClick(panel.button, Qt.MouseButton.LeftButton)
        await until(lambda: "Wrong PIN" in panel.message.text())
        assert "2 tries left" in panel.message.text()
        assert panel.pad.count == 0
        for tries in (2, 3):
            type_pin(qtbot, gate, "1111")
            qtbot.mouseClick(panel.button, Qt.MouseButton.LeftButton)
            await until(
                lambda tries=tries: (
                    lock.failures == tries and panel.pad.keys["1"].isEnabled() == (tries < 3)
                )
            )  # type: ignore[misc]
        # (The lock counts the failure before the panel has said it: wait for the words.)
        await until(lambda: panel.message.text() == "Too many wrong PINs. Try again in 0:30.")
        assert not panel.button.isEnabled()
        shot(gate, "lockout")
        type_pin(qtbot, gate, "2468")  # keys are off: nothing is typed
        assert panel.pad.count == 0
        clocks.advance(12)
        await until(lambda: panel.message.text().endswith("0:18."))
        clocks.advance(18)
        await until(lambda: panel.pad.keys["1"].isEnabled())
        assert panel.message.text() == "You can try again now."
        type_pin(qtbot, gate, "2468")
        qtbot.mouseClick(panel.button, Qt.MouseButton.LeftButton)
        await until(lambda: lock.unlocked and gate.view is not None)
        assert lock.failures == 0

    arun(scenario())


def test_the_lockout_is_still_there_after_a_restart(
    qtbot: QtBot,
    arun: Callable[..., Any],
    lock: ManagerLock,
    clocks: Clocks,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"wrong manager PIN \(3 in a row\)")

    async def scenario() -> None:
        await lock.set_pin("2468")
        lock.relock()
        for _ in range(3):
            await lock.attempt("0000")
        restarted = ManagerLock(
            lock.pins, lock.state_file, params=FAST, wall=lambda: clocks.wall, monotonic=lambda: 5.0
        )
        gate = make_gate(qtbot, restarted)
        assert gate.panel.message.text().startswith("Too many wrong PINs")
        assert not gate.panel.pad.keys["2"].isEnabled()

    arun(scenario())


def test_manager_mode_locks_again_when_idle(
    qtbot: QtBot, arun: Callable[..., Any], lock: ManagerLock
) -> None:
    async def scenario() -> None:
        await lock.set_pin("1357")
        gate = make_gate(qtbot, lock, idle=0.3)
        await until(lambda: gate.view is not None)
        view = gate.view
        assert gate.idle.timer.isActive()
        await until(lambda: not lock.unlocked, timeout=3)
        assert gate.view is None
        assert gate.stack.currentWidget() is gate.panel
        await until(lambda: not shiboken6.isValid(view))
        assert not gate.findChildren(ManagerView)
        assert gate.panel.mode is Mode.ENTER

    arun(scenario())


def test_the_lock_button_locks_and_destroys_the_view(
    qtbot: QtBot, arun: Callable[..., Any], lock: ManagerLock
) -> None:
    async def scenario() -> None:
        await lock.set_pin("1357")
        lock.relock()
        gate = make_gate(qtbot, lock)
        type_pin(qtbot, gate, "1357")
        qtbot.keyClick(gate.panel.pad, Qt.Key.Key_Return)  # Enter works as well
        await until(lambda: gate.view is not None and gate.view.isVisible())
        view = gate.view
        assert view is not None
        qtbot.mouseClick(view.lock_button, Qt.MouseButton.LeftButton)
        assert not lock.unlocked
        assert gate.view is None
        assert not gate.idle.timer.isActive()
        await until(lambda: not shiboken6.isValid(view))
        assert not gate.findChildren(QLabel, "secretContent")

    arun(scenario())


def test_leaving_the_manager_screen_locks(
    qtbot: QtBot, arun: Callable[..., Any], lock: ManagerLock, session: CounterSession
) -> None:
    async def scenario() -> None:
        await lock.set_pin("1357")
        screen = ManagerScreen(session, ManagerGate(lock, section_view, idle_seconds=60))
        qtbot.addWidget(screen)
        screen.show()
        assert screen.key == "manager"
        assert screen.title() == "Manager"
        assert screen.suspends_counter_idle
        screen.leave()
        assert not lock.unlocked
        assert not screen.suspends_counter_idle
        await lock.attempt("1357")
        screen.gate.hide()  # another rail screen shows (or the window is minimized)
        assert not lock.unlocked

    arun(scenario())


def test_a_manager_changes_the_pin_or_cancels(
    qtbot: QtBot, arun: Callable[..., Any], lock: ManagerLock
) -> None:
    async def scenario() -> None:
        await lock.set_pin("1357")
        gate = make_gate(qtbot, lock)
        view = gate.view
        assert view is not None
        assert view.pin_button.isVisible()
        qtbot.mouseClick(view.pin_button, Qt.MouseButton.LeftButton)
        panel = gate.panel
        assert gate.stack.currentWidget() is panel
        assert panel.heading.text() == "New manager PIN"
        assert lock.unlocked
        qtbot.mouseClick(panel.back, Qt.MouseButton.LeftButton)  # Cancel
        assert gate.stack.currentWidget() is view
        qtbot.mouseClick(view.pin_button, Qt.MouseButton.LeftButton)
        for _ in range(2):
            type_pin(qtbot, gate, "246813")
            qtbot.mouseClick(panel.button, Qt.MouseButton.LeftButton)
        await until(lambda: gate.stack.currentWidget() is view)
        stored = lock.pins.current()
        assert stored is not None
        assert verify_pin("246813", stored)
        assert gate.view is view  # the same session goes on

    arun(scenario())


def test_no_pin_change_when_it_provisioned_and_locked_it(
    qtbot: QtBot, arun: Callable[..., Any], tmp_path: Path, clocks: Clocks
) -> None:
    it_hash = L.hash_pin("9999", FAST)
    lock = make_lock(tmp_path, clocks, L.Provisioned(it_hash, True))

    async def scenario() -> None:
        gate = make_gate(qtbot, lock)
        type_pin(qtbot, gate, "9999")
        qtbot.mouseClick(gate.panel.button, Qt.MouseButton.LeftButton)
        await until(lambda: gate.view is not None)
        assert gate.view is not None
        assert not gate.view.pin_button.isVisible()

    arun(scenario())


def test_a_deleted_gate_stops_listening_to_the_lock(
    qtbot: QtBot, arun: Callable[..., Any], lock: ManagerLock
) -> None:
    async def scenario() -> None:
        gate = ManagerGate(lock, section_view, idle_seconds=60)
        gate.deleteLater()
        await until(lambda: not shiboken6.isValid(gate))
        await lock.set_pin("1357")  # emits "unlocked": no listener left to fail
        lock.relock()

    arun(scenario())
