"""Scans into fields, on the manager's PIN pad, and split by a busy loop (issue #21,
item 1): a DNI barcode is never a field's text, other fast keys sent to a text field
are its text without their Enter; a scan is never a PIN; a scan whose keys a busy loop
split is still one scan."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from kiosk.core.counter.sale import SaleState
from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.counter import Counter
from kiosk.ui.main_window import CounterView
from kiosk.ui.manager.gate import ManagerGate, ManagerScreen
from kiosk.ui.manager.manager_view import ManagerView, Section
from kiosk.ui.screens.identify.screen import IdentifyScreen
from tests.qt_async import until
from tests.ui.keys import MARIA, MARIA_BARCODE, Keys, settle
from tests.ui.manager.manager_support import Clocks, make_lock
from tests.ui.scanning.counter_support import stopped, tap
from tests.ui.scanning.test_scans import offered, previews, switch_to_maria
from tests.ui.screens.points.points_support import JUAN, Run


def test_a_ticket_scanned_into_the_ticket_field_is_its_text_and_its_enter_is_not_sent(
    qtbot: QtBot, view: Counter, sim_world: World, arun: Run
) -> None:
    keys = Keys()

    async def scenario() -> None:
        view.show_screen("points")
        screen: Any = view.current
        keys.person("1500")
        tap(qtbot, screen.ticket)
        keys.scan("0001-00012345")  # a receipt's barcode: no client's
        assert screen.ticket.text() == "0001-00012345"
        assert screen.flow.sale.amount_text == "1500"
        assert screen.flow.sale.state is SaleState.EDITING  # its Enter previewed nothing
        assert previews(sim_world) == 0
        assert not view.scan_offer.isVisible()

    arun(scenario())


# -- Manager ---------------------------------------------------------------------------


def test_a_scan_on_the_manager_pin_is_never_a_pin_and_offers_the_client(
    qtbot: QtBot,
    session: CounterSession,
    arun: Run,
    size: tuple[int, int],
    lang: str,
    tmp_path: Path,
) -> None:
    keys = Keys()
    lock = make_lock(tmp_path, Clocks())
    arun(lock.set_pin("1357"))
    lock.relock()
    gate = ManagerGate(
        lock, lambda: ManagerView([Section("Items", "points", QWidget)]), idle_seconds=900
    )
    counter = CounterView(session, [IdentifyScreen(session), ManagerScreen(session, gate)])
    qtbot.addWidget(counter)
    counter.resize(*size)
    counter.show()
    session.set_client(arun(session.api.search_client(JUAN)))

    async def scenario() -> None:
        counter.show_screen("manager")
        pad = gate.panel.pad
        keys.scan(MARIA_BARCODE, widget=pad)
        keys.scan("13571357", widget=pad)  # digits at a scanner's speed: no PIN either
        assert pad.count == 0
        assert not lock.unlocked
        assert counter.scan_offer.isVisible()
        keys.person("1357", widget=pad)  # a manager's own keys
        assert pad.count == 4
        counter.scan_offer.decline()
        keys.scan(MARIA_BARCODE, widget=pad)
        await switch_to_maria(qtbot, counter, session)

    arun(scenario())
    arun(stopped(counter))


def test_a_dni_scanned_into_the_ticket_field_is_not_its_text(
    qtbot: QtBot, view: Counter, sim_world: World, arun: Run
) -> None:
    keys = Keys()

    async def scenario() -> None:
        view.show_screen("points")
        screen: Any = view.current
        tap(qtbot, screen.ticket)
        keys.scan(MARIA_BARCODE)
        assert screen.ticket.text() == ""
        assert offered(view, MARIA)
        assert previews(sim_world) == 0

    arun(scenario())


def test_fast_keys_into_the_enrollment_form_are_its_text(
    qtbot: QtBot, view: Counter, session: CounterSession, arun: Run
) -> None:
    keys = Keys()

    async def scenario() -> None:
        session.clear_client()
        screen: Any = view.current
        keys.scan("44123987")  # nobody has it: enroll
        await until(lambda: screen.pages.currentWidget() is screen.built("matches"))
        tap(qtbot, screen.matches.enroll_button)
        tap(qtbot, screen.enroll.email)
        keys.scan("ana.lopez@example.org", suffix=None)  # typed by a machine: still text
        assert screen.enroll.email.text() == "ana.lopez@example.org"
        assert screen.pages.currentWidget() is screen.enroll
        assert not view.scan_offer.isVisible()

    arun(scenario())


def test_a_scan_split_by_a_busy_loop_is_still_one_scan_and_types_nothing(
    qtbot: QtBot, view: Counter, arun: Run
) -> None:
    keys = Keys()

    async def scenario() -> None:
        view.show_screen("points")
        screen: Any = view.current
        keys.ms += 1000
        keys.type(MARIA_BARCODE[:20], gap_ms=5)
        settle(view)  # the pause timer ran in the middle of the burst (a busy loop)
        keys.type(MARIA_BARCODE[20:], gap_ms=5)  # the rest, on the scanner's own clock
        keys.enter(after_ms=5)
        assert screen.flow.sale.amount_text == ""
        assert offered(view, MARIA)  # the whole barcode, read as one
        assert screen.flow.sale.state is SaleState.EDITING

    arun(scenario())
