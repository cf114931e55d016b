"""Manager mode in the counter window, by taps and keys at 1280x800 and 1024x768, in
English and Spanish: what a section said (an exchange's code) never waits on the PIN
screen, a banner never covers "Change PIN" and "Lock", and digits typed on a keyboard
reach the PIN pad after a wrong PIN."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot
from starlette.types import ASGIApp

from kiosk.core.admin.manager_settings import ManagerSettings, TrainingLink
from kiosk.core.security.lock import LockoutPolicy
from kiosk.core.session import CounterSession
from kiosk.core.settings.layers import Settings
from kiosk.sim.transport import SimTransport
from kiosk.ui.admin.purchases import PurchasesSection
from kiosk.ui.counter import Counter, ManagerContext, build_view
from kiosk.ui.main_window import CounterView
from kiosk.ui.manager.gate import ManagerGate, ManagerScreen
from kiosk.ui.manager.lock_panel import BLOCKED, lock_text
from kiosk.ui.manager.manager_view import ManagerView, Section
from tests.conftest import MAIN_KEY
from tests.qt_async import until
from tests.ui.manager.manager_support import Clocks, make_lock
from tests.ui.theme_support import app_theme
from tests.ui.translated import translated

SIZES = [(1280, 800), (1024, 768)]
PIN = "2468"


@pytest.fixture(params=["en", "es"])
def language(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    with app_theme(qapp), translated(qapp, request.param):
        yield request.param


def tap(qtbot: QtBot, widget: QWidget) -> None:
    assert widget.isVisible(), widget
    assert widget.isEnabled(), widget
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def press(qtbot: QtBot, window: QWidget, key: str | Qt.Key) -> None:
    """A key on the physical keyboard: to the window's focus widget (the window itself
    when nothing in it has the focus)."""
    qtbot.keyClick(window.focusWidget() or window, key)


def rect_in(widget: QWidget, top: QWidget) -> QRect:
    return QRect(widget.mapTo(top, QPoint(0, 0)), widget.size())


class Counterpart:
    """The counter window with manager mode, locked, at ``size``."""

    def __init__(
        self,
        qtbot: QtBot,
        session: CounterSession,
        sim_app: ASGIApp,
        folder: Path,
        size: tuple[int, int],
    ) -> None:
        self.qtbot = qtbot
        self.lock = make_lock(folder, Clocks())
        model = ManagerSettings(
            Settings.load(None, None),
            transport_for=lambda *_: SimTransport(sim_app),
            training=TrainingLink(f"http://training-{uuid.uuid4().hex[:8]}.sim", MAIN_KEY),
        )
        manager = ManagerContext(settings=None, lock=self.lock, model=model, idle_seconds=900)
        self.view: Counter = build_view(session, manager)
        qtbot.addWidget(self.view)
        self.view.resize(*size)
        self.view.show()
        self.view.activateWindow()

    @property
    def screen(self) -> ManagerScreen:
        screen = self.view.current
        assert isinstance(screen, ManagerScreen)
        return screen

    @property
    def gate(self) -> ManagerGate:
        return self.screen.gate

    async def to_manager(self) -> None:
        tap(self.qtbot, self.view.rail_buttons["manager"])
        await until(lambda: isinstance(self.view.current, ManagerScreen))
        await until(lambda: self.view.focusWidget() is self.gate.panel.pad)

    def tap_pin(self, pin: str) -> None:
        for digit in pin:
            tap(self.qtbot, self.gate.panel.pad.keys[digit])
        tap(self.qtbot, self.gate.panel.button)

    async def unlock(self) -> ManagerView:
        self.tap_pin(PIN)
        await until(lambda: self.gate.view is not None and self.gate.view.isVisible())
        assert self.gate.view is not None
        return self.gate.view

    async def exchanges(self, view: ManagerView) -> PurchasesSection:
        row = next(i for i, s in enumerate(view.sections) if s.title in ("Exchanges", "Canjes"))
        item = view.list.item(row)
        self.qtbot.mouseClick(
            view.list.viewport(),
            Qt.MouseButton.LeftButton,
            pos=view.list.visualItemRect(item).center(),
        )
        section = view.current_widget()
        assert isinstance(section, PurchasesSection)
        await until(lambda: section.list.loads >= 1 and not section.tasks.running("list"))
        return section

    async def delivered_exchange_said(self, section: PurchasesSection) -> str:
        """Tap the delivered exchange: the banner says its code (only pending ones deliver)."""
        row = section.list.texts(0).index("ENTR6789")
        table = section.list.table
        table.scrollTo(section.list.model.index(row, 0))
        rect = table.visualRect(section.list.model.index(row, 0))
        self.qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        banner = self.screen.banner
        await until(lambda: banner.isVisible() and "ENTR6789" in banner.text())
        return banner.text()


@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x768"])
def test_an_exchange_code_never_waits_on_the_pin_screen(
    qtbot: QtBot,
    arun: Callable[..., Any],
    session: CounterSession,
    sim_app: ASGIApp,
    tmp_path: Path,
    language: str,
    size: tuple[int, int],
) -> None:
    counter = Counterpart(qtbot, session, sim_app, tmp_path, size)

    async def scenario() -> None:
        await counter.lock.set_pin(PIN)
        counter.lock.relock()
        await counter.to_manager()
        view = await counter.unlock()
        section = await counter.exchanges(view)
        await counter.delivered_exchange_said(section)
        banner = counter.screen.banner
        # Said under the header: "Change PIN" and "Lock" stay uncovered, and tappable.
        window = counter.view
        shown = rect_in(banner, window)
        for button in (view.pin_button, view.lock_button):
            assert button.isVisible()
            assert not shown.intersects(rect_in(button, window)), button.text()
        assert shown.top() >= rect_in(view.header, window).bottom()
        # A long message (a refusal in the service's words) stays in the kept room, in a
        # smaller type or cut with its whole text at hand, never over the header.
        long_text = " ".join(["The service refused the change of this record."] * 6)
        banner.show_error(long_text)
        assert banner.text() == long_text
        assert rect_in(banner, window).top() >= rect_in(view.header, window).bottom()
        shown = rect_in(banner, window)
        for button in (view.pin_button, view.lock_button):
            assert not shown.intersects(rect_in(button, window)), button.text()
        await counter.delivered_exchange_said(section)
        tap(qtbot, view.lock_button)
        await until(lambda: counter.gate.view is None)
        assert not banner.isVisible()
        assert "ENTR6789" not in banner.text()
        # Unlocked again: nothing of before is said; locked from elsewhere (another rail
        # button) with a banner up: the PIN screen is clean when the manager comes back.
        view = await counter.unlock()
        assert not banner.isVisible()
        section = await counter.exchanges(view)
        await counter.delivered_exchange_said(section)
        tap(qtbot, counter.view.rail_buttons["code"])
        await until(lambda: not counter.lock.unlocked)
        await counter.to_manager()
        assert not counter.screen.banner.isVisible()
        assert counter.gate.panel.isVisible()

    arun(scenario())
    counter.view.shutdown()


@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x768"])
def test_keyboard_digits_reach_the_pad_after_a_wrong_pin(
    qtbot: QtBot,
    arun: Callable[..., Any],
    session: CounterSession,
    sim_app: ASGIApp,
    tmp_path: Path,
    language: str,
    size: tuple[int, int],
) -> None:
    counter = Counterpart(qtbot, session, sim_app, tmp_path, size)

    async def scenario() -> None:
        await counter.lock.set_pin(PIN)
        counter.lock.relock()
        await counter.to_manager()
        view = await counter.unlock()
        section = await counter.exchanges(view)
        await counter.delivered_exchange_said(section)
        tap(qtbot, view.lock_button)
        panel = counter.gate.panel
        counter.tap_pin("1111")  # taps, then a tap on Unlock
        await until(lambda: counter.lock.failures == 1 and panel.pad.keys["1"].isEnabled())
        # (The counter's scan watch hands a person's keys on within ~60 ms: wait for them.)
        for digit in "135":
            press(qtbot, counter.view, digit)
        await until(lambda: panel.pad.count == 3)
        press(qtbot, counter.view, Qt.Key.Key_Backspace)
        press(qtbot, counter.view, "7")
        await until(lambda: not counter.view.scan_watch.holding and panel.pad.count == 3)
        press(qtbot, counter.view, Qt.Key.Key_Return)  # 137: too short, nothing sent
        await until(lambda: not counter.view.scan_watch.holding)
        assert counter.lock.failures == 1
        press(qtbot, counter.view, "9")
        press(qtbot, counter.view, Qt.Key.Key_Return)
        await until(lambda: counter.lock.failures == 2 and panel.pad.keys["1"].isEnabled())
        for digit in PIN:
            press(qtbot, counter.view, digit)
        press(qtbot, counter.view, Qt.Key.Key_Return)
        await until(lambda: counter.lock.unlocked)

    arun(scenario())
    counter.view.shutdown()


@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x768"])
def test_tries_left_in_good_grammar_then_how_the_lockout_ends(
    qtbot: QtBot,
    arun: Callable[..., Any],
    session: CounterSession,
    sim_app: ASGIApp,
    tmp_path: Path,
    language: str,
    size: tuple[int, int],
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"wrong manager PIN \(3 in a row\): locked for 30 s")
    counter = Counterpart(qtbot, session, sim_app, tmp_path, size)
    said = {
        "en": (
            "Wrong PIN. 2 tries left before a wait.",
            "Wrong PIN. 1 try left before a wait.",
            "Too many wrong PINs. Try again in 0:30.",
        ),
        "es": (
            "PIN incorrecto. Quedan 2 intentos antes de una espera.",
            "PIN incorrecto. Queda 1 intento antes de una espera.",
            "Demasiados PIN incorrectos. Intente de nuevo en 0:30.",
        ),
    }[language]

    async def scenario() -> None:
        await counter.lock.set_pin(PIN)
        counter.lock.relock()
        await counter.to_manager()
        panel = counter.gate.panel
        for failures, text in enumerate(said, start=1):
            counter.tap_pin("1111")
            await until(lambda f=failures: counter.lock.failures == f)  # type: ignore[misc]
            await until(lambda t=text: panel.message.text() == t)  # type: ignore[misc]
            assert panel.message.isVisible()
            assert panel.message.height() >= panel.message.heightForWidth(panel.message.width())

    arun(scenario())
    counter.view.shutdown()


@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x768"])
def test_the_last_wrong_pin_says_only_it_unlocks_now(
    qtbot: QtBot,
    arun: Callable[..., Any],
    session: CounterSession,
    sim_app: ASGIApp,
    tmp_path: Path,
    language: str,
    size: tuple[int, int],
    expect_log: Callable[[str], None],
) -> None:
    """The cap of wrong PINs reached: the panel says the lockout ends with IT's reset,
    the whole sentence in sight (the room kept for typing does not cut it)."""
    expect_log(r"locked until IT resets the PIN")
    counter = Counterpart(qtbot, session, sim_app, tmp_path, size)
    counter.lock.policy = LockoutPolicy(free_failures=5, cap=3)

    async def scenario() -> None:
        await counter.lock.set_pin(PIN)
        counter.lock.relock()
        await counter.to_manager()
        panel = counter.gate.panel
        for failures in (1, 2, 3):
            await until(lambda: panel.pad.keys["1"].isEnabled())
            counter.tap_pin("1111")
            await until(lambda f=failures: counter.lock.failures == f)  # type: ignore[misc]
        await until(lambda: panel.message.text() == lock_text(BLOCKED))
        assert "IT" in panel.message.text() or "soporte" in panel.message.text()
        message = panel.message
        assert message.isVisible()
        assert message.height() >= message.heightForWidth(message.width())
        assert not panel.pad.keys["1"].isEnabled()
        assert counter.lock.wait_remaining() == 0  # no wait ends it: only IT does
        assert counter.lock.blocked

    arun(scenario())


@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x768"])
def test_the_first_section_speaks_in_manager_modes_one_banner(
    qtbot: QtBot,
    arun: Callable[..., Any],
    session: CounterSession,
    tmp_path: Path,
    language: str,
    size: tuple[int, int],
) -> None:
    """The section shown first (built with the view, before the view is in the window)
    keeps no banner room of its own: one room, under the header, for what it says."""
    lock = make_lock(tmp_path, Clocks())
    section = PurchasesSection(session)
    view = ManagerView([Section("Exchanges", "redeem", lambda: section)])
    gate = ManagerGate(lock, lambda: view, idle_seconds=900)
    screen = ManagerScreen(session, gate)
    window = CounterView(session, [screen])
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()

    async def scenario() -> None:
        await lock.set_pin(PIN)
        await until(lambda: gate.view is view and view.isVisible())
        await until(lambda: section.list.loads >= 1 and not section.tasks.running("list"))
        assert section.banner is screen.banner
        assert not section.banner_slot.isVisible()
        room = rect_in(section.list, window)
        assert (
            room.top() - rect_in(view.header, window).bottom() < 2 * screen.banner.one_line_height()
        )

    arun(scenario())


@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x768"])
def test_opening_sort_and_filter_moves_nothing_above_the_list(
    qtbot: QtBot,
    arun: Callable[..., Any],
    session: CounterSession,
    sim_app: ASGIApp,
    tmp_path: Path,
    language: str,
    size: tuple[int, int],
) -> None:
    """Seen in a real window: opening "Sort and filter" took 11 px of the banner room
    and the section (its search field, the sections' list) jumped up."""
    counter = Counterpart(qtbot, session, sim_app, tmp_path, size)

    async def scenario() -> None:
        await counter.lock.set_pin(PIN)
        counter.lock.relock()
        await counter.to_manager()
        view = await counter.unlock()
        row = next(i for i, s in enumerate(view.sections) if s.title in ("Clients", "Clientes"))
        item = view.list.item(row)
        qtbot.mouseClick(
            view.list.viewport(),
            Qt.MouseButton.LeftButton,
            pos=view.list.visualItemRect(item).center(),
        )
        section: Any = view.current_widget()
        await until(lambda: section.list.loads >= 1 and not section.tasks.running("list"))
        window = counter.view
        before = (
            rect_in(view.header, window),
            rect_in(section.list.options_button, window),
            rect_in(view.list, window),
        )
        tap(qtbot, section.list.options_button)
        await until(lambda: section.list.options_button.isChecked())
        QApplication.processEvents()
        after = (
            rect_in(view.header, window),
            rect_in(section.list.options_button, window),
            rect_in(view.list, window),
        )
        assert after == before

    arun(scenario())
    counter.view.shutdown()
