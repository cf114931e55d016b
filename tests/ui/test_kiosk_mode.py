"""Kiosk mode: frameless full screen, no close while locked; the PIN, the operating
system ending the session and ``--shutdown`` (``force_close``) still close it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from kiosk.core.security.lock import ManagerLock
from kiosk.ui.manager.assemble import build_manager_gate
from kiosk.ui.manager.kiosk_mode import KioskModeGuard
from kiosk.ui.shell import KioskWindow
from tests.qt_async import until
from tests.ui.manager.manager_support import Clocks, make_lock


@pytest.fixture
def lock(tmp_path: Path) -> ManagerLock:
    return make_lock(tmp_path, Clocks())


@pytest.fixture
def kiosk(qtbot: QtBot, lock: ManagerLock) -> tuple[KioskWindow, KioskModeGuard, list[str]]:
    window = KioskWindow()
    qtbot.addWidget(window)
    events: list[str] = []
    window.closing.connect(lambda: events.append("closing"))
    guard = KioskModeGuard(window, lock)
    guard.close_refused.connect(lambda: events.append("refused"))
    guard.install()
    guard.show()
    return window, guard, events


def test_frameless_on_top_and_full_screen(
    kiosk: tuple[KioskWindow, KioskModeGuard, list[str]],
) -> None:
    window, guard, _ = kiosk
    flags = window.windowFlags()
    assert flags & Qt.WindowType.FramelessWindowHint
    assert flags & Qt.WindowType.WindowStaysOnTopHint
    assert window.isFullScreen()
    assert guard.installed


def test_close_is_ignored_while_locked(
    kiosk: tuple[KioskWindow, KioskModeGuard, list[str]], lock: ManagerLock
) -> None:
    window, guard, events = kiosk
    assert not lock.unlocked
    assert window.close() is False  # Alt+F4, the taskbar, window.close(): all the same
    assert window.isVisible()
    assert events == ["refused"]  # the shell's own close handling never ran
    assert not guard.may_close


def test_force_close_closes_without_the_pin(
    kiosk: tuple[KioskWindow, KioskModeGuard, list[str]],
) -> None:
    window, guard, events = kiosk
    assert window.close() is False
    guard.force_close()
    assert not window.isVisible()
    assert events == ["refused", "closing"]


def test_the_pin_opens_the_way_out(
    kiosk: tuple[KioskWindow, KioskModeGuard, list[str]],
    lock: ManagerLock,
    arun: Callable[..., Any],
) -> None:
    window, guard, events = kiosk

    async def scenario() -> None:
        await lock.set_pin("4826")  # unlocks manager mode
        assert guard.may_close
        lock.relock()
        assert window.close() is False
        await lock.attempt("4826")
        assert window.close() is True
        assert events == ["refused", "closing"]

    arun(scenario())


def test_the_operating_system_ending_the_session_may_close_it(
    kiosk: tuple[KioskWindow, KioskModeGuard, list[str]],
) -> None:
    window, guard, events = kiosk
    assert window.close() is False
    guard._session_ending(None)  # what QGuiApplication.commitDataRequest calls
    assert window.close() is True
    assert events == ["refused", "closing"]


def test_quitting_the_application_may_close_it(qtbot: QtBot, lock: ManagerLock) -> None:
    window = KioskWindow()
    qtbot.addWidget(window)
    guard = KioskModeGuard(window, lock)
    guard.install()
    window.show()  # the app's own first-paint show: full screen already
    assert window.isFullScreen()
    assert window.close() is False
    guard._quitting()  # what QCoreApplication.aboutToQuit calls
    assert window.close() is True


def test_minimized_goes_back_to_full_screen(
    kiosk: tuple[KioskWindow, KioskModeGuard, list[str]], arun: Callable[..., Any]
) -> None:
    window, _, _ = kiosk

    async def scenario() -> None:
        window.showMinimized()
        assert window.isMinimized()
        await until(lambda: not window.isMinimized())
        assert window.isFullScreen()

    arun(scenario())


def test_close_the_kiosk_from_manager_mode(
    kiosk: tuple[KioskWindow, KioskModeGuard, list[str]],
    lock: ManagerLock,
    arun: Callable[..., Any],
    qtbot: QtBot,
) -> None:
    window, _, events = kiosk
    admin = ("Point items", "points", lambda: QLabel("admin screen"))  # as admin_sections gives
    gate = build_manager_gate(lock, [admin], idle_seconds=60, on_exit=window.close)
    window.setCentralWidget(gate)

    async def scenario() -> None:
        await lock.set_pin("4826")
        view = gate.view
        assert view is not None
        assert view.sections[0].title == "Point items"
        assert view.exit_button.isVisible()
        qtbot.mouseClick(view.exit_button, Qt.MouseButton.LeftButton)
        assert window.isVisible()  # asks first
        assert view.confirm_exit.isVisible()
        await until(lambda: view.confirm_exit.confirm.armed)  # (a commit: armed once seen)
        qtbot.mouseClick(view.confirm_exit.confirm, Qt.MouseButton.LeftButton)
        assert not window.isVisible()
        assert events == ["closing"]

    arun(scenario())
