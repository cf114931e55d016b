"""Issue #14, defect 3: scrolling the manager's settings with the mouse wheel changes no
setting (the wheel over an unfocused combo scrolls the page), and "Undo changes" restores
the saved values exactly, the branch and its validation QR included, without asking the
service again (it may be refusing or out of reach by then)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QComboBox, QWidget
from pytestqt.qtbot import QtBot
from starlette.types import ASGIApp

from kiosk.core.session import CounterSession
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from kiosk.ui.manager.settings_screen import SettingsScreen
from tests.qt_async import until
from tests.ui.keys import Keys
from tests.ui.manager.manager_support import in_counter_window, themed
from tests.ui.manager.settings_support import Rig
from tests.ui.wheel_support import turn_wheel

SIZES = [(1280, 800), (1024, 768)]


@pytest.fixture(autouse=True)
def _themed(qapp: QApplication) -> Iterator[None]:
    with themed(qapp):
        yield


@pytest.fixture
def rig(qtbot: QtBot, sim_app: ASGIApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Rig:
    return Rig(qtbot, sim_app, tmp_path / "home", monkeypatch)


def saved_centro(rig: Rig, world: World) -> tuple[int, tuple[int, ...]]:
    """Sucursal Centro (branch 1) saved with its active QR and two counter buttons."""
    tables = world.merchants[1].tables
    qr = next(q["qrId"] for q in tables["qrs"].values() if q["branchId"] == 1 and q["_active"])
    items = sorted(i["id"] for i in tables["point_items"].values() if i["branchId"] in (None, 1))
    chosen = (items[1], items[0])
    rig.machine(
        "[connection]\nbranch_id = 1\n[counter]\n"
        f"validation_qr_id = {qr}\npoint_items = {chosen[0]}, {chosen[1]}\n"
    )
    return qr, chosen


async def loaded(screen: SettingsScreen) -> None:
    await until(lambda: screen.branch.branch_combo.count() == 3)
    await until(lambda: screen.branch.items.count() > 0)
    await until(lambda: not screen.tasks.running("choices"))


def tap(widget: QWidget, qtbot: QtBot) -> None:
    """A tap at the middle of ``widget``, which must be what shows there."""
    assert widget.isVisible()
    window = widget.window()
    middle = QPoint(widget.width() // 2, widget.height() // 2)
    under = window.childAt(widget.mapTo(window, middle))
    assert under is widget or widget.isAncestorOf(under), f"{under!r} is under the finger"
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=middle)


async def pick(combo: QComboBox, text: str, qtbot: QtBot) -> None:
    """Open ``combo`` with a tap, move to the entry ``text`` in its list with the arrow
    keys and take it with Enter (a click on the list right after it opened is ignored by
    Qt for a double-click interval: the tap that opened it must not also choose)."""
    tap(combo, qtbot)
    view = combo.view()
    await until(lambda: view.isVisible())
    row = combo.findText(text)
    assert row >= 0, text
    current = view.currentIndex().row()
    key = Qt.Key.Key_Down if row > current else Qt.Key.Key_Up
    for _ in range(abs(row - current)):
        qtbot.keyClick(view, key)
    assert view.currentIndex().row() == row
    qtbot.keyClick(view, Qt.Key.Key_Return)
    await until(lambda: not view.isVisible())
    assert combo.currentText() == text


@pytest.mark.parametrize("size", SIZES)
def test_the_wheel_over_settings_scrolls_the_page_and_changes_nothing(
    rig: Rig,
    arun: Callable[..., Any],
    sim_world: World,
    session: CounterSession,
    tmp_path: Path,
    size: tuple[int, int],
) -> None:
    qr, chosen = saved_centro(rig, sim_world)
    screen = rig.open()
    branch, counter = screen.branch, screen.counter
    control = SimControl(sim_world)

    async def scenario() -> None:
        window = await in_counter_window(rig.qtbot, session, screen, tmp_path / "lock")
        window.resize(*size)
        await loaded(screen)
        asked = len(control.requests())
        bar = screen.scroller.verticalScrollBar()
        moved = False
        assert bar.maximum() > 0, "the settings page does not scroll at this size"
        for combo in (branch.branch_combo, branch.qr_combo, counter.language, counter.theme):
            before = combo.currentIndex()
            for notches in (-1, 1):  # down the page, then up
                screen.scroller.ensureWidgetVisible(combo, 0, 200)
                position = bar.value()
                if position == (bar.maximum() if notches < 0 else bar.minimum()):
                    continue  # no room that way: the other way is tried
                assert not combo.hasFocus()
                turn_wheel(combo, notches)
                assert combo.currentIndex() == before, combo.currentText()
                assert (bar.value() - position) * notches < 0, "the page did not scroll"
                moved = True
            assert moved
            moved = False
        window.grab().save(f"/tmp/shots/manager-settings-wheel-{size[0]}.png")
        assert branch.branch_combo.currentText() == "Sucursal Centro"
        assert branch.qr_id() == qr
        assert branch.item_ids() == chosen
        assert screen.draft() == rig.model.draft()
        assert len(control.requests()) == asked  # no branch was "chosen" by the wheel

    arun(scenario())


# A combo's list is a popup: the offscreen platform says it cannot raise it or grab keys.
@pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing the keyboard)")
@pytest.mark.parametrize("size", SIZES)
def test_undo_restores_the_saved_branch_qr_and_every_field(
    rig: Rig,
    arun: Callable[..., Any],
    sim_world: World,
    session: CounterSession,
    tmp_path: Path,
    size: tuple[int, int],
) -> None:
    qr, chosen = saved_centro(rig, sim_world)
    screen = rig.open()
    branch, counter, connection = screen.branch, screen.counter, screen.connection
    control = SimControl(sim_world)
    qtbot = rig.qtbot

    async def scenario() -> None:
        window = await in_counter_window(qtbot, session, screen, tmp_path / "lock")
        window.resize(*size)
        await loaded(screen)
        saved = rig.model.draft()
        assert screen.draft() == saved
        # The manager changes nearly everything, with taps.
        screen.scroller.ensureWidgetVisible(branch.branch_combo, 0, 200)
        await pick(branch.branch_combo, "Sucursal Rosario", qtbot)
        await until(lambda: branch.qr_combo.count() > 1 and not screen.tasks.running("choices"))
        assert "Rosario" in branch.qr_combo.currentText() or branch.qr_id() is None
        screen.scroller.ensureWidgetVisible(branch.qr_combo, 0, 200)
        await pick(branch.qr_combo, branch.qr_combo.itemText(1), qtbot)
        screen.scroller.ensureWidgetVisible(counter.idle, 0, 200)
        tap(counter.idle.plus, qtbot)
        tap(counter.manager_idle.minus, qtbot)
        screen.scroller.ensureWidgetVisible(counter.language, 0, 200)
        await pick(counter.language, "Español", qtbot)
        await pick(counter.theme, "Dark", qtbot)
        screen.scroller.ensureWidgetVisible(connection.qa_url, 0, 200)
        tap(connection.qa_url, qtbot)
        Keys().person("https://qa.example.test", widget=connection.qa_url)  # a person's keys
        changed = screen.draft()
        assert changed.branch_id == 3
        assert changed.validation_qr_id != qr
        assert changed.point_items == ()
        assert changed.idle_timeout_seconds != saved.idle_timeout_seconds
        assert changed.language != saved.language
        assert changed.theme != saved.theme
        assert changed.qa_url == "https://qa.example.test"
        # From now on the service answers nothing: undo must not need it.
        control.add_fault("status", "^/external", status=503, count=None)
        asked = len(control.requests())
        tap(screen.undo_button, qtbot)
        await until(lambda: not screen.tasks.running("branches"))
        await until(lambda: not screen.tasks.running("choices"))
        assert branch.branch_combo.currentText() == "Sucursal Centro"
        assert branch.branch_id() == 1
        assert "Av. Corrientes 1234" in branch.details.text()
        assert branch.qr_id() == qr
        assert "Sucursal Centro" in branch.qr_combo.currentText()
        assert branch.item_ids() == chosen
        assert counter.idle.value() == saved.idle_timeout_seconds
        assert counter.manager_idle.value() == saved.manager_idle_timeout_seconds
        assert connection.qa_url.text() == ""
        assert screen.draft() == saved
        assert screen.banner.kind != "error"
        assert len(control.requests()) == asked
        screen.scroller.ensureWidgetVisible(branch.qr_combo, 0, 200)
        window.grab().save(f"/tmp/shots/manager-settings-undo-{size[0]}.png")
        # Saving now changes nothing.
        tap(screen.save_button, qtbot)
        await until(lambda: screen.banner.kind == "info")
        assert rig.applied == []

    arun(scenario())
