"""No PIN means nobody is the manager (issue #17, items 7 and 8), on screen.

Outside training, without IT's PIN: Manager shows "Ask IT to set the manager PIN"
with its keys off, and a cancel or a discard from Today is refused with the same
words. In training the first person chooses the PIN and the screen says so; a PIN
anyone tries first is refused. After 100 wrong PINs, or when the lock's files were
changed outside the kiosk, only IT unlocks. In English and Spanish, at the counter's
sizes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from kiosk.core.security import lock as L
from kiosk.core.security.lock import ManagerLock, PinStore, Provisioned
from kiosk.core.security.seal import Seal
from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.counter import build_view
from kiosk.ui.i18n import install_translators
from kiosk.ui.manager import lock_panel as LP
from kiosk.ui.manager.authorize import PinSheet
from kiosk.ui.manager.gate import ManagerGate, ManagerScreen
from kiosk.ui.manager.lock_panel import Mode
from kiosk.ui.manager.manager_view import ManagerView, Section
from tests.qt_async import until
from tests.ui.manager.manager_support import FAST, Clocks, make_lock, themed
from tests.ui.manager.test_manager_wiring import context
from tests.ui.screens.today.test_today_cancel import CounterRig

LEFT = Qt.MouseButton.LeftButton
SIZES = [(1280, 800), (1024, 768)]
PRODUCTION = Provisioned(None, False, training=False)


def tr(context_name: str, text: str) -> str:
    return QCoreApplication.translate(context_name, text)


@pytest.fixture(params=["en", "es"])
def language(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    installed = install_translators(qapp, request.param)
    try:
        with themed(qapp):
            yield request.param
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)


class MemoryVault:
    """The keyring entry of the lock's seal, in a string."""

    def __init__(self) -> None:
        self.value: str | None = None

    def read(self) -> str | None:
        return self.value

    def write(self, value: str) -> None:
        self.value = value


def sealed_lock(folder: Path, clocks: Clocks, vault: MemoryVault) -> ManagerLock:
    seal = Seal(vault)
    given = Provisioned(None, False, training=True)
    return ManagerLock(
        PinStore(folder / L.PIN_FILE, lambda: given, seal),
        folder / L.LOCKOUT_FILE,
        params=FAST,
        wall=lambda: clocks.wall,
        monotonic=lambda: clocks.mono,
        seal=seal,
    )


def section_view() -> ManagerView:
    secret = QLabel("manager-only content")
    secret.setObjectName("secretContent")
    return ManagerView([Section("Settings", "settings", lambda: secret)])


def gate_for(qtbot: QtBot, lock: ManagerLock, size: tuple[int, int] = (1280, 800)) -> ManagerGate:
    gate = ManagerGate(lock, section_view, idle_seconds=60)
    gate.resize(*size)
    qtbot.addWidget(gate)
    gate.show()
    return gate


def type_pin(qtbot: QtBot, gate: ManagerGate, pin: str) -> None:
    for digit in pin:
        qtbot.mouseClick(gate.panel.pad.keys[digit], LEFT)


def keys_off(gate: ManagerGate) -> bool:
    panel = gate.panel
    return not any(key.isEnabled() for key in panel.pad.keys.values()) and not (
        panel.button.isEnabled()
    )


# -- outside training, no PIN ---------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_outside_training_manager_without_a_pin_says_ask_it(
    qtbot: QtBot,
    session: CounterSession,
    tmp_path: Path,
    arun: Callable[..., Any],
    language: str,
    size: tuple[int, int],
) -> None:
    lock = make_lock(tmp_path, Clocks(), PRODUCTION)
    view = build_view(session, context(lock))
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    view.show_screen("manager")
    screen = view.current
    assert isinstance(screen, ManagerScreen)
    panel = screen.gate.panel

    async def scenario() -> None:
        assert panel.mode is Mode.NO_PIN
        assert panel.hint.text() == tr("LockPanel", LP.NO_PIN)
        if language == "en":
            assert "Ask IT to set the manager PIN" in panel.hint.text()
        else:
            assert panel.hint.text() != LP.NO_PIN  # translated
        assert panel.hint.isVisible()
        whole = QRect(panel.hint.mapTo(view, QPoint(0, 0)), panel.hint.size())
        assert view.rect().contains(whole)
        assert keys_off(screen.gate)
        for digit in "2468":  # a tap on a key types nothing
            qtbot.mouseClick(panel.pad.keys[digit], LEFT)
        qtbot.keyClicks(panel.pad, "2468")
        assert panel.pad.count == 0
        qtbot.mouseClick(panel.button, LEFT)
        assert not lock.unlocked
        assert screen.gate.view is None
        assert not screen.gate.findChildren(QLabel, "secretContent")
        with pytest.raises(L.PinChangeRefused):  # nor through the lock itself
            await lock.set_pin("2468")
        screen.leave()
        view.show_screen("manager")  # entering again: still nothing to type
        assert panel.mode is Mode.NO_PIN

    arun(scenario())
    view.shutdown()


@pytest.fixture
def production_counter(
    qtbot: QtBot,
    session: CounterSession,
    sim_world: World,
    tmp_path: Path,
    language: str,
) -> Iterator[CounterRig]:
    lock = make_lock(tmp_path, Clocks(), PRODUCTION)
    rig = CounterRig(qtbot, session, sim_world, lock)
    yield rig
    rig.view.shutdown()


@pytest.mark.parametrize("size", SIZES)
def test_outside_training_a_cancel_without_a_pin_is_refused(
    production_counter: CounterRig, arun: Callable[..., Any], size: tuple[int, int]
) -> None:
    counter = production_counter

    async def scenario() -> None:
        credit = await counter.credit()
        today = await counter.open(size)
        await counter.ask_cancel(credit)
        counter.tap(today.sheet.confirm)
        await until(lambda: today.banner.kind == "error")
        assert today.banner.text() == tr("LockPanel", LP.NO_PIN)
        assert counter.pin_sheet() is None  # nothing to type a PIN into
        assert counter.cancels() == 0
        assert counter.rig.operation(credit.external_id or "")["state"] != "canceled"
        [row] = [e for e in await counter.rig.session.journal.today() if e.id == credit.id]
        assert not row.canceled
        assert today.sheet.isVisible()  # the question stays; nothing changed
        assert not counter.lock.unlocked

    arun(scenario())


def test_outside_training_a_discard_without_a_pin_is_refused(
    production_counter: CounterRig, arun: Callable[..., Any]
) -> None:
    counter = production_counter

    async def scenario() -> None:
        today = await counter.open((1024, 768))
        today.show_pending()
        await until(lambda: not today.tasks.running("load"))
        assert await asyncio.wait_for(today.authorize_discard(1), 5) is None
        assert today.banner.kind == "error"
        assert today.banner.text() == tr("LockPanel", LP.NO_PIN)
        assert counter.pin_sheet() is None
        await until(lambda: not today.tasks.running("load"))

    arun(scenario())


# -- training: the first person chooses, never a common PIN -----------------------------
@pytest.mark.parametrize("size", SIZES)
def test_training_says_the_first_person_chooses_and_refuses_common_pins(
    qtbot: QtBot,
    arun: Callable[..., Any],
    tmp_path: Path,
    language: str,
    size: tuple[int, int],
) -> None:
    lock = make_lock(tmp_path, Clocks())
    gate = gate_for(qtbot, lock, size)
    panel = gate.panel

    async def scenario() -> None:
        assert panel.mode is Mode.CHOOSE
        if language == "en":
            assert panel.hint.text().startswith(
                "Training mode: the first person here chooses the manager PIN."
            )
        else:
            assert panel.hint.text().startswith("Modo práctica")
        for common in ("1234", "1111", "4321", "123456"):
            type_pin(qtbot, gate, common)
            qtbot.mouseClick(panel.button, LEFT)
            assert panel.mode is Mode.CHOOSE
            assert panel.message.text() == tr("LockPanel", LP.COMMON)
            assert panel.pad.count == 0
        assert not lock.has_pin()
        for _ in range(2):
            type_pin(qtbot, gate, "2468")
            qtbot.mouseClick(panel.button, LEFT)
        await until(lambda: gate.view is not None and gate.view.isVisible())
        assert lock.unlocked

    arun(scenario())


# -- only IT unlocks ----------------------------------------------------------------------
def test_after_a_hundred_wrong_pins_only_it_unlocks(
    qtbot: QtBot,
    arun: Callable[..., Any],
    tmp_path: Path,
    language: str,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"wrong manager PIN \(\d+ in a row\)")
    clocks = Clocks()
    lock = make_lock(tmp_path, clocks)

    async def scenario() -> None:
        await lock.set_pin("2468")
        lock.relock()
        for _ in range(99):
            clocks.advance(lock.wait_remaining())
            await lock.attempt("0000")
        clocks.advance(lock.wait_remaining())
        gate = gate_for(qtbot, lock, (1024, 768))
        panel = gate.panel
        assert panel.mode is Mode.ENTER
        type_pin(qtbot, gate, "1357")
        qtbot.mouseClick(panel.button, LEFT)
        await until(lambda: panel.message.text() == tr("LockPanel", LP.BLOCKED))
        assert lock.failures == 100
        assert keys_off(gate)
        clocks.advance(86_400)  # a day later: still IT's to unlock
        panel.reset()
        assert panel.message.text() == tr("LockPanel", LP.BLOCKED)
        assert keys_off(gate)
        assert (await lock.attempt("2468")).outcome is L.Outcome.BLOCKED
        assert not lock.unlocked

    arun(scenario())


def test_a_deleted_lockout_file_reads_as_locked(
    qtbot: QtBot,
    arun: Callable[..., Any],
    tmp_path: Path,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"manager mode is locked until IT resets the PIN: manager-lockout\.json")
    clocks, vault = Clocks(), MemoryVault()
    lock = sealed_lock(tmp_path, clocks, vault)

    async def scenario() -> None:
        await lock.set_pin("2468")
        lock.relock()
        await lock.attempt("0000")
        await lock.attempt("0001")
        lock.state_file.unlink()  # the cashier's account resets the count...
        restarted = sealed_lock(tmp_path, clocks, vault)  # ... and restarts the kiosk
        gate = gate_for(qtbot, restarted)
        assert gate.panel.message.text() == tr("LockPanel", LP.BLOCKED)
        assert keys_off(gate)
        assert restarted.blocked

    arun(scenario())


def test_the_pin_sheet_says_when_only_it_unlocks(
    qtbot: QtBot,
    session: CounterSession,
    tmp_path: Path,
    arun: Callable[..., Any],
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"manager mode is locked until IT resets the PIN")
    clocks, vault = Clocks(), MemoryVault()
    lock = sealed_lock(tmp_path, clocks, vault)
    arun(lock.set_pin("2468"))
    lock.relock()
    lock.state_file.write_text('{"version": 1, "failures": 0, "locked_until": 0}')
    edited = sealed_lock(tmp_path, clocks, vault)
    view = build_view(session, context(edited))
    qtbot.addWidget(view)
    view.resize(1024, 768)
    view.show()
    view.show_screen("today")
    today = view.current
    assert today is not None

    async def scenario() -> None:
        asking = asyncio.ensure_future(today.authorize_cancel(None))  # type: ignore[attr-defined]
        await until(lambda: any(s.isVisible() for s in today.findChildren(PinSheet)))
        sheet = next(s for s in today.findChildren(PinSheet) if s.isVisible())
        assert sheet.panel.message.text() == tr("LockPanel", LP.BLOCKED)
        assert not any(key.isEnabled() for key in sheet.panel.pad.keys.values())
        qtbot.mouseClick(sheet.back, LEFT)
        assert await asking is None

    arun(scenario())
    view.shutdown()
