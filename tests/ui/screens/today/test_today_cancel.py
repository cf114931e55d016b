"""Cancelling a credit from Today once a manager PIN exists, under a cashier's fingers.

The counter window as the app builds it (``build_view`` with manager mode, so Today's
cancel is guarded by the PIN), at 1280x800 and 1024x768, in English and Spanish; a
real credit made for a long-named client through the session and journaled as the
Points screen does. Every tap lands on the widget that is visible at that point.
Set ``KIOSK_SHOTS`` to a folder to also save PNGs of the states seen.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QPoint, QRect, Qt
from PySide6.QtWidgets import QAbstractButton, QApplication, QWidget
from pytestqt.qtbot import QtBot

from kiosk.core.journal import JournalEntry
from kiosk.core.security.lock import ManagerLock
from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.counter import Counter, build_view
from kiosk.ui.i18n import install_translators
from kiosk.ui.manager.authorize import PinSheet
from kiosk.ui.screens.today.screen import TodayScreen
from tests.qt_async import until
from tests.ui.keys import Keys
from tests.ui.manager.manager_support import Clocks, make_lock
from tests.ui.manager.test_manager_wiring import context
from tests.ui.screens.today.test_today import CANCEL_PATH, Rig
from tests.ui.theme_support import app_theme

LEFT = Qt.MouseButton.LeftButton
PIN = "2468"
SIZES = [(1280, 800), (1024, 768)]
LONG_NAME = "María de los Ángeles Fernández Castellanos de la Santísima Trinidad"


def tr(context_name: str, text: str, n: int = -1) -> str:
    return QCoreApplication.translate(context_name, text, None, n)


@pytest.fixture(params=["en", "es"])
def language(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    installed = install_translators(qapp, request.param)
    try:
        yield request.param
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)


class CounterRig:
    """The counter window with Today guarded by ``lock``, and what a cashier does there."""

    def __init__(
        self, qtbot: QtBot, session: CounterSession, world: World, lock: ManagerLock
    ) -> None:
        self.qtbot = qtbot
        self.rig = Rig(qtbot, session, world)
        self.lock = lock
        self.hands = Keys()
        self.view: Counter = build_view(session, context(lock))
        qtbot.addWidget(self.view)

    async def open(self, size: tuple[int, int]) -> TodayScreen:
        self.size = size
        self.view.resize(*size)
        self.view.show()
        self.view.show_screen("today")
        today = self.view.current
        assert isinstance(today, TodayScreen)
        self.today = today
        return today

    async def credit(self) -> JournalEntry:
        self.rig.client()["name"] = LONG_NAME
        credit = await self.rig.credit("1500000", "4521")
        assert credit.points is not None
        assert credit.points > 9999
        return credit

    def at(self, widget: QWidget) -> QPoint:
        return widget.mapTo(self.view, widget.rect().center())

    def tap(self, widget: QWidget) -> None:
        """A finger on ``widget``: it must be the visible widget at that spot."""
        assert widget.isVisible(), f"{widget!r} is not visible"
        point = self.at(widget)
        assert self.view.rect().contains(point)
        under = self.view.childAt(point)
        assert under is widget or widget.isAncestorOf(under), f"{under!r} is over {widget!r}"
        self.qtbot.mouseClick(widget, LEFT)

    def tap_cancel(self, entry_id: int) -> None:
        """A finger on the row's painted "Cancel credit": the table's viewport is there."""
        table = self.today.table
        rect = table.action_rect(entry_id)
        assert rect is not None
        point = table.viewport().mapTo(self.view, rect.center())
        assert self.view.rect().contains(point)
        assert self.view.childAt(point) is table.viewport()
        self.qtbot.mouseClick(table.viewport(), LEFT, pos=rect.center())

    def tap_at(self, point: QPoint) -> None:
        """A finger at ``point`` of the window, on whatever is there now."""
        under = self.view.childAt(point)
        assert under is not None
        self.qtbot.mouseClick(under, LEFT, pos=under.mapFrom(self.view, point))

    def press(self, key: Qt.Key | str) -> None:
        """A key on the physical keyboard: to the widget that has the focus."""
        focus = QApplication.focusWidget()
        assert focus is not None
        assert focus.window() is self.view
        self.hands.press(key, widget=focus)  # a person's key, 150 ms after the one before

    def pin_sheet(self) -> PinSheet | None:
        shown = [s for s in self.today.findChildren(PinSheet) if s.isVisible()]
        assert len(shown) <= 1
        return shown[0] if shown else None

    def cancels(self) -> int:
        return len(self.rig.control.requests(path=CANCEL_PATH))

    def shot(self, name: str, language: str) -> None:
        folder = os.environ.get("KIOSK_SHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            path = Path(folder) / f"today_cancel_{name}_{language}_{self.size[0]}.png"
            self.view.grab().save(str(path))

    async def ask_cancel(self, credit: JournalEntry) -> None:
        today = self.today
        await until(lambda: credit.id in today.table.cancelable_ids())
        self.tap_cancel(credit.id)
        assert today.sheet.isVisible()
        await until(lambda: today.sheet.confirm.armed)

    def check_pin_layout(self, sheet: PinSheet) -> None:
        """The whole pad fits in the window, keys of a thumb's size, nothing overlaps,
        the words are the cancel's, and there is one way back."""
        view, today = self.view, self.today
        window = view.rect()
        chrome = view.height() - today.height()  # band, rail's overflow, status bar
        assert today.minimumSizeHint().height() <= self.size[1] - chrome
        assert sheet.height() >= sheet.minimumSizeHint().height()  # not squashed
        pad = sheet.panel.pad
        buttons = [
            b for b in today.findChildren(QAbstractButton) if b.isVisible() and b.window() is view
        ]
        rects: list[tuple[QRect, QAbstractButton]] = []
        for button in buttons:
            rect = QRect(button.mapTo(view, QPoint(0, 0)), button.size())
            assert window.contains(rect), f"{button.text()!r} reaches out of the window"
            assert min(rect.width(), rect.height()) >= 44, f"{button.text()!r}: {rect}"
            rects.append((rect, button))
        for index, (rect, button) in enumerate(rects):
            for other_rect, other in rects[index + 1 :]:
                assert not rect.intersects(other_rect), f"{button.text()!r} / {other.text()!r}"
        for key in pad.keys.values():
            assert key.isVisible()
            assert key.width() >= 64
            assert key.height() >= 64
        whole = QRect(sheet.mapTo(view, QPoint(0, 0)), sheet.size())
        assert window.contains(whole)
        assert sheet.panel.hint.text() == tr(
            "TodayScreen", "Enter the manager PIN to cancel this credit."
        )
        assert "manager mode" not in sheet.panel.hint.text()
        backs = [b for b in buttons if b.text() in (sheet.back.text(), today.sheet.back.text())]
        assert backs == [sheet.back]
        assert QApplication.focusWidget() is pad  # typed digits go to the pad


@pytest.fixture
def counter(
    qtbot: QtBot,
    qapp: QApplication,
    session: CounterSession,
    sim_world: World,
    tmp_path: Path,
    arun: Callable[..., Any],
) -> Iterator[CounterRig]:
    lock = make_lock(tmp_path, Clocks())
    arun(lock.set_pin(PIN))
    lock.relock()
    with app_theme(qapp):
        rig = CounterRig(qtbot, session, sim_world, lock)
        yield rig
        rig.view.shutdown()


@pytest.mark.parametrize("size", SIZES)
def test_cancel_with_the_pin_typed_on_the_keyboard(
    counter: CounterRig, arun: Callable[..., Any], language: str, size: tuple[int, int]
) -> None:
    async def scenario() -> None:
        credit = await counter.credit()
        today = await counter.open(size)
        await counter.ask_cancel(credit)
        counter.shot("confirm", language)
        # Enter, Enter on the confirmation: one cancel asked, the PIN pad comes.
        counter.press(Qt.Key.Key_Return)
        counter.press(Qt.Key.Key_Return)
        await until(lambda: counter.pin_sheet() is not None)
        sheet = counter.pin_sheet()
        assert sheet is not None
        counter.check_pin_layout(sheet)
        counter.press(Qt.Key.Key_Return)  # a third Enter: nothing typed, nothing sent
        assert sheet.isVisible()
        assert counter.cancels() == 0
        counter.shot("pin", language)
        # A wrong PIN says so, and the pad stays.
        for digit in "1357":
            counter.press(digit)
        assert sheet.panel.pad.count == 4
        counter.press(Qt.Key.Key_Return)
        wrong = tr("LockPanel", "Wrong PIN. %n tries left before a wait.", 2)
        await until(lambda: sheet.panel.message.text() == wrong)
        assert sheet.isVisible()
        assert counter.cancels() == 0
        counter.shot("wrong", language)
        # Backspace works too: the right PIN, typed with a slip.
        for key in ["2", "4", "9", Qt.Key.Key_Backspace, "6", "8"]:
            counter.press(key)
        assert sheet.panel.pad.count == 4
        counter.press(Qt.Key.Key_Return)
        counter.press(Qt.Key.Key_Return)
        await until(lambda: today.banner.kind == "success")
        assert counter.pin_sheet() is None
        assert not today.sheet.isVisible()
        assert counter.cancels() == 1
        assert counter.rig.operation(credit.external_id or "")["state"] == "canceled"
        assert not counter.lock.unlocked  # the PIN authorized that one cancel only
        assert today.stack.isVisible()
        counter.shot("done", language)

    arun(scenario())


@pytest.mark.parametrize("size", SIZES)
def test_cancel_with_the_pin_tapped_and_a_double_tap_on_confirm(
    counter: CounterRig, arun: Callable[..., Any], language: str, size: tuple[int, int]
) -> None:
    async def scenario() -> None:
        credit = await counter.credit()
        today = await counter.open(size)
        await counter.ask_cancel(credit)
        confirm = today.sheet.confirm
        spot = counter.at(confirm)
        counter.tap(confirm)
        counter.tap(confirm)  # the double tap's second half, before anything moved
        await until(lambda: counter.pin_sheet() is not None)
        sheet = counter.pin_sheet()
        assert sheet is not None
        counter.tap_at(spot)  # ... or after: it lands on nothing that acts
        assert sheet.isVisible()
        assert sheet.panel.pad.count == 0
        counter.check_pin_layout(sheet)
        pad = sheet.panel.pad
        for digit in PIN:
            counter.tap(pad.keys[digit])
        counter.tap(pad.keys["back"])
        counter.tap(pad.keys[PIN[-1]])
        assert pad.count == len(PIN)
        authorize = sheet.panel.button
        counter.tap(authorize)
        counter.qtbot.mouseClick(authorize, LEFT)  # a double tap on Authorize
        await until(lambda: today.banner.kind == "success")
        assert counter.cancels() == 1
        assert counter.rig.operation(credit.external_id or "")["state"] == "canceled"
        assert not counter.lock.unlocked

    arun(scenario())


@pytest.mark.parametrize("size", SIZES)
def test_back_from_the_pin_returns_to_the_confirmation_without_an_error(
    counter: CounterRig, arun: Callable[..., Any], language: str, size: tuple[int, int]
) -> None:
    async def scenario() -> None:
        credit = await counter.credit()
        today = await counter.open(size)
        await counter.ask_cancel(credit)
        counter.tap(today.sheet.confirm)
        await until(lambda: counter.pin_sheet() is not None)
        sheet = counter.pin_sheet()
        assert sheet is not None
        counter.press("1")
        counter.tap(sheet.back)
        await until(lambda: counter.pin_sheet() is None)
        # Back at the question, as it was: no banner, nothing sent, the list back.
        assert today.sheet.isVisible()
        assert today.sheet.subject == credit
        assert today.sheet.back.isVisible()
        assert today.sheet.confirm.isVisible()
        assert today.stack.isVisible()
        assert not today.banner.isVisible()
        not_authorized = tr("TodayScreen", "This cancel was not authorized. Nothing changed.")
        assert today.banner.text() != not_authorized
        assert counter.cancels() == 0
        assert not counter.lock.unlocked
        counter.shot("back", language)
        # The same cancel can be confirmed again (after the guard), and goes through.
        assert not today.sheet.confirm.armed
        await until(lambda: today.sheet.confirm.armed)
        counter.tap(today.sheet.confirm)
        await until(lambda: counter.pin_sheet() is not None)
        for digit in PIN:
            counter.press(digit)
        counter.press(Qt.Key.Key_Enter)
        await until(lambda: today.banner.kind == "success")
        assert counter.cancels() == 1
        assert not today.sheet.isVisible()
        assert today.stack.isVisible()

    arun(scenario())


@pytest.mark.parametrize("size", SIZES)
def test_a_discard_asks_the_pin_under_the_pending_list_in_its_own_words(
    counter: CounterRig, arun: Callable[..., Any], language: str, size: tuple[int, int]
) -> None:
    async def scenario() -> None:
        today = await counter.open(size)
        today.show_pending()
        await until(lambda: not today.tasks.running("load"))
        asking = asyncio.ensure_future(today.authorize_discard(1))
        await until(lambda: counter.pin_sheet() is not None)
        sheet = counter.pin_sheet()
        assert sheet is not None
        assert sheet.panel.hint.text() == tr(
            "TodayScreen", "Enter the manager PIN to discard this operation."
        )
        assert today.stack.isVisible()  # the list it is about stays
        whole = QRect(sheet.mapTo(counter.view, QPoint(0, 0)), sheet.size())
        assert counter.view.rect().contains(whole)
        assert sheet.height() >= sheet.minimumSizeHint().height()
        assert QApplication.focusWidget() is sheet.panel.pad
        counter.shot("discard_pin", language)
        counter.tap(sheet.back)
        assert await asking is None
        assert counter.pin_sheet() is None
        assert not today.banner.isVisible()
        await until(lambda: not today.tasks.running("load"))

    arun(scenario())
