"""A scan is a scan on every screen, never typing (issue #21, items 1 and 2).

The whole counter at 1280x800 and 1024x768, in English and Spanish, with Juan
(30123456) at the counter; the next client's DNI is scanned (the PDF417 text typed
5 ms a key, then Enter, ``tests/ui/keys.py``): it never reaches an amount, its Enter
never previews, credits, exchanges nor delivers, and the counter offers that client.
A person's keys (150 ms apart), a fast typist, a held key and keypad taps still type.
"""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from kiosk.core.counter.sale import SaleState
from kiosk.core.session import CounterSession
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from kiosk.ui.counter import Counter
from kiosk.ui.main_window import CounterView
from tests.qt_async import until
from tests.ui.keys import MARIA, MARIA_BARCODE, Keys, settle
from tests.ui.scanning.counter_support import tap
from tests.ui.screens.identify.identify_support import NEW_PEREZ, US_PEREZ
from tests.ui.screens.points.points_support import JUAN, Run, credits_sent

PREVIEW = r"^/external/tags/add/preview$"


def previews(world: World) -> int:
    return len(SimControl(world).requests(path=PREVIEW, method="POST"))


def offered(view: CounterView, document: str) -> bool:
    """The card offers the client of ``document`` (shown masked, as on the client card)."""
    offer = view.scan_offer
    return offer.isVisible() and offer.heading.text().endswith(f"****{document[-4:]}")


def exchanges(world: World) -> list[dict[str, Any]]:
    return SimControl(world).requests(path=r"^/external/exchange/", method="POST")


async def switch_to_maria(qtbot: QtBot, view: CounterView, session: CounterSession) -> None:
    offer = view.scan_offer
    # Over the screen, whole: nothing under it moved.
    assert view.rect().contains(offer.geometry())
    tap(qtbot, offer.switch_button)
    await until(lambda: session.client is not None and session.client.document_number == MARIA)
    assert view.current is not None
    assert view.current.key == "identify"


# -- Points --------------------------------------------------------------------------


def test_a_scanned_dni_on_points_is_never_typed_and_offers_that_client(
    qtbot: QtBot, view: Counter, session: CounterSession, sim_world: World, arun: Run
) -> None:
    keys = Keys()

    async def scenario() -> None:
        view.show_screen("points")
        screen: Any = view.current
        keys.person("15")
        assert screen.flow.sale.amount_text == "15"
        keys.scan(MARIA_BARCODE)  # typed into whatever has the focus
        assert screen.flow.sale.amount_text == "15"
        assert screen.flow.sale.state is SaleState.EDITING
        assert offered(view, MARIA)
        keys.scan(MARIA_BARCODE)  # "nothing happened": scanned again
        assert screen.flow.sale.amount_text == "15"
        assert screen.flow.sale.state is SaleState.EDITING
        assert previews(sim_world) == 0
        await switch_to_maria(qtbot, view, session)
        assert credits_sent(sim_world) == []

    arun(scenario())


def test_a_scan_after_the_preview_never_credits_it(
    qtbot: QtBot, view: Counter, session: CounterSession, sim_world: World, arun: Run
) -> None:
    keys = Keys()

    async def scenario() -> None:
        view.show_screen("points")
        screen: Any = view.current
        keys.person("2500")
        keys.enter()  # a person's Enter: the preview
        await until(lambda: screen.flow.sale.state is SaleState.PREVIEWED)
        await until(lambda: screen.credit_button.armed)
        keys.scan(NEW_PEREZ)
        keys.scan(US_PEREZ, suffix=Qt.Key.Key_Tab)
        keys.scan(NEW_PEREZ, suffix=None)  # a scanner set without a suffix
        assert screen.flow.sale.state is SaleState.PREVIEWED
        assert screen.flow.sale.amount_text == "2500"
        assert credits_sent(sim_world) == []
        assert offered(view, JUAN)
        keys.enter(after_ms=2000)  # the cashier's own Enter, later: the credit, once
        await until(lambda: screen.flow.sale.state is SaleState.DONE)
        assert len(credits_sent(sim_world)) == 1

    arun(scenario())


def test_people_still_type_the_amount_fast_slow_held_and_tapped(
    qtbot: QtBot, view: Counter, sim_world: World, arun: Run
) -> None:
    keys = Keys()

    async def scenario() -> None:
        view.show_screen("points")
        screen: Any = view.current
        keys.type("1234", gap_ms=30)  # a fast typist: 4 keys 30 ms apart, then Enter
        keys.enter(after_ms=40)
        assert screen.flow.sale.amount_text == "1234"
        await until(lambda: screen.flow.sale.state is SaleState.PREVIEWED)
        assert previews(sim_world) == 1
        keys.key(Qt.Key.Key_Backspace, after_ms=500)
        for _ in range(3):  # a held 9: auto-repeat, 30 ms apart
            keys.key(Qt.Key.Key_9, "9", after_ms=30, repeat=True)
        settle(view)
        assert screen.flow.sale.amount_text == "123999"
        keys.scan(MARIA_BARCODE)  # ... and a scan in between types nothing
        assert screen.flow.sale.amount_text == "123999"
        tap(qtbot, screen.pad.keypad.buttons["0"])  # a tap on the keypad: no key at all
        assert screen.flow.sale.amount_text == "1239990"

    arun(scenario())


def test_a_scan_that_names_no_client_is_said_and_typed_nowhere(
    qtbot: QtBot, view: Counter, sim_world: World, arun: Run
) -> None:
    keys = Keys()

    async def scenario() -> None:
        view.show_screen("points")
        screen: Any = view.current
        keys.scan("7791234567893")  # a product's EAN-13
        assert screen.flow.sale.amount_text == ""
        assert not view.scan_offer.isVisible()
        assert screen.banner.isVisible()
        assert "nothing was typed" in screen.banner.text() or "no se escribió" in (
            screen.banner.text()
        )

    arun(scenario())


# -- Rewards ---------------------------------------------------------------------------


def test_a_scan_on_rewards_money_is_never_an_amount_nor_a_confirmation(
    qtbot: QtBot, view: Counter, session: CounterSession, sim_world: World, arun: Run
) -> None:
    keys = Keys()

    async def scenario() -> None:
        view.show_screen("rewards")
        screen: Any = view.current
        keys.scan(MARIA_BARCODE)  # on the grid
        assert offered(view, MARIA)
        view.scan_offer.decline()
        tap(qtbot, screen.money_tab)
        assert screen.money.amount.hasFocus()
        keys.scan(MARIA_BARCODE)
        keys.scan(MARIA_BARCODE)  # the double scan of the issue
        assert screen.money.amount.text() == ""
        assert screen.pages.currentWidget() is screen.money
        keys.person("1000")
        keys.enter()  # a person's Enter: the confirmation sheet
        assert screen.pages.currentWidget() is screen.sheet
        await until(lambda: screen.sheet.confirm.armed)
        keys.scan(NEW_PEREZ)
        keys.scan(MARIA_BARCODE)  # the last scan is the one offered
        assert screen.pages.currentWidget() is screen.sheet
        assert exchanges(sim_world) == []
        await switch_to_maria(qtbot, view, session)
        assert exchanges(sim_world) == []

    arun(scenario())


# -- Redeem, Code, Today -------------------------------------------------------------


def test_a_dni_on_redeem_offers_the_client_and_a_purchase_code_is_looked_up(
    qtbot: QtBot, view: Counter, session: CounterSession, sim_world: World, arun: Run
) -> None:
    keys = Keys()

    async def scenario() -> None:
        view.show_screen("redeem")
        screen: Any = view.current
        keys.scan(MARIA_BARCODE)
        assert screen.code.text() == ""
        assert offered(view, MARIA)
        view.scan_offer.decline()
        tap(qtbot, screen.find_button)  # the focus away from the code field
        keys.scan("PEND2345", widget=view)
        await until(lambda: screen.pages.currentWidget() is screen.card)
        assert screen.code.text() == "PEND2345"
        assert not view.scan_offer.isVisible()

    arun(scenario())


def test_a_scan_on_the_delivery_sheet_never_delivers(
    qtbot: QtBot, view: Counter, session: CounterSession, sim_world: World, arun: Run
) -> None:
    keys = Keys()

    async def scenario() -> None:
        view.show_screen("redeem")
        screen: Any = view.current
        keys.scan("PEND2345")
        await until(lambda: screen.deliver_button.isEnabled())
        tap(qtbot, screen.deliver_button)
        assert screen.pages.currentWidget() is screen.sheet
        await until(lambda: screen.sheet.confirm.armed)
        keys.scan(MARIA_BARCODE)  # the next client's DNI, Enter and all
        assert screen.pages.currentWidget() is screen.sheet
        deliveries = SimControl(sim_world).requests(path=r"^/external/purchase", method="POST")
        assert deliveries == []
        assert offered(view, MARIA)

    arun(scenario())


@pytest.mark.parametrize("key", ["code", "today"])
def test_a_dni_on_code_and_today_offers_the_client(
    qtbot: QtBot, view: Counter, session: CounterSession, arun: Run, key: str
) -> None:
    keys = Keys()

    async def scenario() -> None:
        view.show_screen(key)
        keys.scan(MARIA_BARCODE, widget=view.current)
        assert offered(view, MARIA)
        keys.scan(MARIA_BARCODE, widget=view.current)  # scanned again: still the offer
        assert offered(view, MARIA)
        await switch_to_maria(qtbot, view, session)

    arun(scenario())


def test_without_a_client_the_scan_offers_to_identify(
    qtbot: QtBot, view: Counter, session: CounterSession, arun: Run
) -> None:
    keys = Keys()

    async def scenario() -> None:
        session.clear_client()
        view.show_screen("today")
        today: Any = view.current
        await until(lambda: not today.tasks.running("load"))  # (no task left pending)
        keys.scan(MARIA_BARCODE, widget=view.current)
        assert offered(view, MARIA)
        assert view.scan_offer.switch_button.isVisible()
        keys.key(Qt.Key.Key_Escape, widget=view.current)  # Escape keeps the screen
        assert not view.scan_offer.isVisible()
        assert view.current is not None
        assert view.current.key == "today"

    arun(scenario())


# -- Identify (item 2) -----------------------------------------------------------------


def test_identify_has_the_focus_at_start_and_takes_a_scan_from_anywhere(
    qtbot: QtBot, view: Counter, session: CounterSession, arun: Run
) -> None:
    keys = Keys()

    async def scenario() -> None:
        session.clear_client()
        screen: Any = view.current
        assert screen.key == "identify"
        await until(screen.field.hasFocus)  # at start, nobody clicked it
        screen.search_button.setFocus()  # the focus elsewhere on Identify
        keys.scan(MARIA_BARCODE)
        await until(lambda: session.client is not None)
        assert session.client is not None
        assert session.client.document_number == MARIA
        assert not view.scan_offer.isVisible()  # on Identify a scan simply identifies
        assert screen.field.text() == MARIA
        assert screen.field.hasFocus()  # the next scan or typing lands in it

    arun(scenario())


def test_a_clock_that_went_back_never_swallows_a_persons_enter(
    qtbot: QtBot, view: Counter, session: CounterSession, sim_world: World, arun: Run
) -> None:
    """Key timestamps wrap (X11's and Windows' millisecond counts every 49.7 days) or
    come from another clock: keys stamped before a scan are no part of it, and a
    person's Enter right after is a person's (it previews)."""
    scanner = Keys(start_ms=9_000_000)
    hands = Keys(start_ms=1_000)  # the clock went back after the scan

    async def scenario() -> None:
        view.show_screen("points")
        screen: Any = view.current
        scanner.scan(MARIA_BARCODE)
        assert offered(view, MARIA)
        view.scan_offer.decline()
        hands.person("2500", widget=screen)
        hands.enter()
        await until(lambda: screen.flow.sale.state is SaleState.PREVIEWED)
        assert screen.flow.sale.amount_text == "2500"
        assert previews(sim_world) == 1

    arun(scenario())


def test_a_scan_typed_with_shift_is_one_scan_searched_once(
    qtbot: QtBot, view: Counter, session: CounterSession, sim_world: World, arun: Run
) -> None:
    """A wedge types capitals and ``@`` with Shift (seen in a real window: xdotool, as a
    scanner, sends Shift around each): the Shift keys never cut the burst, so the scan
    is one scan, searched once on Identify and offered once on Points."""
    keys = Keys()
    searches = r"^/external/clients/search"
    scans: list[str] = []
    view.scan_watch.scanned.connect(scans.append)

    async def scenario() -> None:
        view.show_screen("points")
        screen: Any = view.current
        keys.scan(MARIA_BARCODE, shift=True)
        assert scans == [MARIA_BARCODE]
        assert offered(view, MARIA)
        assert screen.flow.sale.amount_text == ""
        view.scan_offer.decline()
        view.show_screen("identify")
        before = len(SimControl(sim_world).requests(path=searches))
        keys.scan(MARIA_BARCODE, shift=True)
        assert scans == [MARIA_BARCODE] * 2
        await until(lambda: session.client is not None and session.client.document_number == MARIA)
        await until(lambda: not view.current.tasks.running("search"))  # type: ignore[union-attr]
        assert len(SimControl(sim_world).requests(path=searches)) == before + 1

    arun(scenario())


def test_a_scan_whose_at_signs_come_with_altgr_is_one_scan(
    qtbot: QtBot, view: Counter, sim_world: World, arun: Run
) -> None:
    """On a Spanish layout a wedge types "@" with AltGr, which Windows reports as
    Ctrl+Alt: still a character of the scan, never a command that cuts it."""
    keys = Keys()
    scans: list[str] = []
    view.scan_watch.scanned.connect(scans.append)

    async def scenario() -> None:
        view.show_screen("points")
        screen: Any = view.current
        keys.scan(MARIA_BARCODE, shift=True, alt_gr_at=True)
        assert scans == [MARIA_BARCODE]
        assert offered(view, MARIA)
        assert screen.flow.sale.amount_text == ""

    arun(scenario())
