"""Idle at the whole counter (issue #21, items 3 and 4): it clears a client and never
takes away a screen that needs none; every key restarts its count, the rail's F-keys
too; a half-done sale is warned of ("Still there?") and can be kept; a previewed sale
cleared all the same shows in Today as "Previewed, not credited"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.core.journal import OperationKind, Outcome
from kiosk.core.session import CounterSession
from kiosk.ui.counter import Counter, build_view
from kiosk.ui.screens.points.screen import PointsScreen
from kiosk.ui.screens.today.screen import TodayScreen
from kiosk.ui.widgets.idle import UserInput
from tests.qt_async import until
from tests.ui.screens.points.points_support import JUAN, previewed

LEFT = Qt.MouseButton.LeftButton


def counter(qtbot: QtBot, session: CounterSession, size: tuple[int, int] = (1280, 800)) -> Counter:
    view = build_view(session)
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    view.windowHandle().requestActivate()
    qtbot.waitUntil(lambda: QGuiApplication.focusWindow() is view.windowHandle())
    return view


def press(view: Counter, key: Qt.Key) -> None:
    """A key as the keyboard sends it, through the window (a shortcut takes it there).
    Outside the test's coroutine: QTest delivers it in a nested pass of events."""
    QTest.keyClick(view.windowHandle(), key)


def test_idle_leaves_the_code_screen_on_screen(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any]
) -> None:
    view = counter(qtbot, session)

    async def scenario() -> None:
        qtbot.mouseClick(view.rail_buttons["code"], LEFT)
        code = view.current
        assert code is not None
        assert code.key == "code"
        resets = [0]
        code_reset = code.reset

        def counted() -> None:
            resets[0] += 1
            code_reset()

        code.reset = counted  # type: ignore[method-assign]
        view.idle.timer.setInterval(20)
        view.idle.start()
        await until(lambda: resets[0] >= 1)  # idle came, and went
        assert view.current is code
        assert view.stack.currentWidget() is code
        view.shutdown()

    arun(scenario())


def test_the_rail_f_keys_restart_the_idle_count(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any]
) -> None:
    view = counter(qtbot, session)
    view.idle.start()
    listener = UserInput.of()
    assert listener is not None
    seen: list[int] = []

    def note() -> None:
        seen.append(1)

    listener.input.connect(note)
    try:
        press(view, Qt.Key.Key_F1)  # the rail's Identify, by its shortcut (shown already)
    finally:
        listener.input.disconnect(note)
    assert seen  # the idle count heard it (and started again)

    async def scenario() -> None:
        view.shutdown()

    arun(scenario())


def _identify_and_preview(qtbot: QtBot, view: Counter, session: CounterSession) -> Any:
    async def go() -> PointsScreen:
        session.config.kiosk_id = "0a1b2c3d"
        session.set_client(await session.api.search_client(JUAN))
        view.rail_buttons["points"].click()
        points = view.current
        assert isinstance(points, PointsScreen)
        qtbot.keyClicks(points, "3000")
        qtbot.keyClick(points, Qt.Key.Key_Return)
        await previewed(points)
        return points

    return go()


def test_idle_warns_before_clearing_a_previewed_sale_and_keep_keeps_it(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any]
) -> None:
    view = counter(qtbot, session, (1024, 768))

    async def scenario() -> None:
        points = await _identify_and_preview(qtbot, view, session)
        focused = QApplication.focusWidget()
        view.idle_warning.timer.setInterval(60_000)  # the grace does not run out here
        view.idle.timer.setInterval(20)
        view.idle.start()
        await until(lambda: view.idle_warning.isVisible())
        assert session.client is not None  # nothing cleared yet
        assert "15 s" in view.idle_warning.message.text()
        assert view.idle_warning.keep.isVisible()
        view.idle.timer.setInterval(60_000)
        qtbot.mouseClick(view.idle_warning.keep, LEFT)
        await until(lambda: not view.idle_warning.isVisible())
        assert view.current is points
        assert points.preview_card.isVisible()  # the sale is as it was
        assert session.client is not None
        assert view.idle.timer.isActive()  # counting again
        assert focused is not None
        assert QApplication.focusWidget() is focused  # the keyboard where it was
        view.shutdown()

    arun(scenario())


def test_a_previewed_sale_cleared_by_idle_shows_in_today(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], spanish: Any
) -> None:
    view = counter(qtbot, session)

    async def scenario() -> None:
        points = await _identify_and_preview(qtbot, view, session)
        asked = points.flow.sale.preview
        assert asked is not None
        written: list[object] = []
        session.journal_changed.connect(written.append)
        view.idle_warning.timer.setInterval(5)  # the 15 s grace, in 75 ms
        view.idle.timer.setInterval(20)
        view.idle.start()
        await until(lambda: session.client is None)
        assert view.current is not None
        assert view.current.key == "identify"
        await until(lambda: bool(written))
        await session.changes_announced()
        [row] = [r for r in await session.journal.today() if r.kind is OperationKind.CREDIT]
        assert row.outcome is Outcome.ABANDONED
        assert row.points == asked.points.total
        assert row.external_id is None  # nothing was sent
        qtbot.mouseClick(view.rail_buttons["today"], LEFT)
        today = view.screens["today"]
        assert isinstance(today, TodayScreen)
        model = today.table.journal_model
        await until(lambda: model.rowCount() == 1)
        texts = [model.index(0, c).data() for c in range(model.columnCount())]
        assert "Previsualizada, no acreditada" in texts
        view.shutdown()

    arun(scenario())
