"""The identify screen over the in-process simulator: typed and scanned input (both DNI
card formats, the US-layout mix-up, Tab and no suffix), exact and partial search,
latest wins, suspended clients, failures that end in the banner, and what reaches the
log of a session that showed a registration QR."""

from __future__ import annotations

import io
import logging
from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.api import logsafety
from kiosk.core.session import CounterSession
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from tests.qt_async import until
from tests.ui.screens.identify.identify_support import (
    NEW_LOPEZ,
    NEW_PEREZ,
    OLD_RODRIGUEZ,
    SEARCH,
    US_PEREZ,
    by_document,
    clients,
    enter,
    fast_session,  # noqa: F401  (fixture)
    make_screen,
    searches,
    unregistered,
)

# -- tests ------------------------------------------------------------------------------


def test_empty_state_says_what_to_do(qtbot: QtBot, session: CounterSession) -> None:
    screen = make_screen(qtbot, session)
    assert screen.title() == "Identify"
    assert screen.key == "identify"
    assert not screen.needs_client
    assert screen.pages.currentWidget() is screen.empty
    assert screen.empty.text.text() == "Scan or type the client's email or DNI"
    assert screen.field.placeholderText() == "Scan or type the client's email or DNI"
    assert screen.field.property("role") == "big"


def test_typed_email_is_found_and_offers_quick_jumps(
    qtbot: QtBot, session: CounterSession, sim_world: World, arun: Callable[..., Any]
) -> None:
    screen = make_screen(qtbot, session)
    perez = by_document(sim_world, "30123456")
    jumps: list[str] = []
    screen.navigate.connect(jumps.append)

    async def scenario() -> None:
        enter(qtbot, screen.field, perez["email"].upper())
        await until(lambda: session.client is not None)
        assert session.client is not None
        assert session.client.id == perez["id"]
        assert screen.pages.currentWidget() is screen.found
        await until(lambda: screen.search_button.isEnabled())
        qtbot.mouseClick(screen.found.points_button, Qt.MouseButton.LeftButton)
        qtbot.mouseClick(screen.found.rewards_button, Qt.MouseButton.LeftButton)

    arun(scenario())
    assert jumps == ["points", "rewards"]
    assert not screen.found.qr_button.isVisible()  # registered: no QR
    assert not screen.found.badge.isVisible()


@pytest.mark.parametrize(
    ("barcode", "key"),
    [
        (NEW_PEREZ, Qt.Key.Key_Return),
        (US_PEREZ, Qt.Key.Key_Return),
        (US_PEREZ, Qt.Key.Key_Tab),
        (NEW_PEREZ, Qt.Key.Key_Enter),
    ],
    ids=["new-card", "us-layout", "us-layout-tab", "keypad-enter"],
)
def test_scanned_dni_finds_the_member(
    qtbot: QtBot,
    session: CounterSession,
    sim_world: World,
    arun: Callable[..., Any],
    barcode: str,
    key: Qt.Key,
) -> None:
    screen = make_screen(qtbot, session)
    perez = by_document(sim_world, "30123456")

    async def scenario() -> None:
        enter(qtbot, screen.field, barcode, key)
        await until(lambda: session.client is not None)

    arun(scenario())
    assert session.client is not None
    assert session.client.id == perez["id"]
    # The field keeps the document only, not the barcode's names and dates.
    assert screen.field.text() == "30123456"
    assert screen.field.hasFocus()  # a scanner's Tab did not move the focus


@pytest.mark.parametrize(
    ("barcode", "document", "first", "last", "born"),
    [
        (NEW_LOPEZ, "44123987", "Ana", "Lopez", "30/01/2002"),
        (OLD_RODRIGUEZ, "20111222", "Pablo Martin", "Rodriguez", "09/07/1968"),
        (OLD_RODRIGUEZ.replace("@", '"'), "20111222", "Pablo Martin", "Rodriguez", "09/07/1968"),
    ],
    ids=["new-card", "old-card", "old-card-us-layout"],
)
def test_scanned_dni_of_a_non_member_prefills_enrollment(
    qtbot: QtBot,
    session: CounterSession,
    arun: Callable[..., Any],
    barcode: str,
    document: str,
    first: str,
    last: str,
    born: str,
) -> None:
    screen = make_screen(qtbot, session)

    async def scenario() -> None:
        enter(qtbot, screen.field, barcode)
        await until(lambda: screen.pages.currentWidget() is screen.matches)
        assert screen.matches.rows == []
        assert screen.matches.enroll_button.isVisible()
        qtbot.mouseClick(screen.matches.enroll_button, Qt.MouseButton.LeftButton)

    arun(scenario())
    assert session.client is None
    assert screen.pages.currentWidget() is screen.enroll
    panel = screen.enroll
    assert panel.document.text() == document
    assert panel.dni_button.isChecked()
    assert (panel.first_name.text(), panel.last_name.text()) == (first, last)
    assert panel.birthday.text() == born
    assert panel.email.text() == ""
    assert panel.email.hasFocus()  # the next thing to type


def test_scanner_without_suffix_searches_when_it_goes_quiet(
    qtbot: QtBot, session: CounterSession, sim_world: World, arun: Callable[..., Any]
) -> None:
    screen = make_screen(qtbot, session)

    async def scenario() -> None:
        qtbot.keyClicks(screen.field, NEW_PEREZ)  # no Enter, no Tab
        await until(lambda: session.client is not None)

    arun(scenario())
    assert session.client is not None
    assert session.client.id == by_document(sim_world, "30123456")["id"]


def test_a_person_typing_slowly_then_tab_does_not_search(
    qtbot: QtBot, session: CounterSession, sim_world: World
) -> None:
    screen = make_screen(qtbot, session)
    before = searches(sim_world)
    stamp = 1_000_000
    for char in "30123456":
        stamp += 250  # a key every quarter of a second
        event = QKeyEvent(QEvent.Type.KeyPress, 0, Qt.KeyboardModifier.NoModifier, char)
        event.setTimestamp(stamp)
        QApplication.sendEvent(screen.field, event)
    assert screen.field.text() == "30123456"
    assert not screen.field.scanning
    tab = QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Tab, Qt.KeyboardModifier.NoModifier, "\t")
    tab.setTimestamp(stamp + 40)
    QApplication.sendEvent(screen.field, tab)
    assert not screen.tasks.running("search")
    assert searches(sim_world) == before


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("ana@", "That email is not complete"),
        ("123", "A DNI has 7 or 8 digits"),
        ("Pérez", "names are not searched"),
        ("", "Scan or type"),
    ],
)
def test_invalid_input_shows_a_hint_and_sends_nothing(
    qtbot: QtBot, session: CounterSession, sim_world: World, text: str, hint: str
) -> None:
    screen = make_screen(qtbot, session)
    before = searches(sim_world)
    screen.field.setText(text)  # QTest types ASCII only
    qtbot.keyClick(screen.field, Qt.Key.Key_Return)
    assert screen.field_hint.isVisible()
    assert hint in screen.field_hint.text()
    assert not screen.tasks.running("search")
    assert searches(sim_world) == before
    qtbot.keyClicks(screen.field, "x")  # typing again clears the hint
    assert not screen.field_hint.isVisible()


def test_unreadable_barcode_is_cleared_for_a_new_scan(
    qtbot: QtBot, session: CounterSession, sim_world: World
) -> None:
    screen = make_screen(qtbot, session)
    before = searches(sim_world)
    enter(qtbot, screen.field, "00512345678@PEREZ@JUAN@M@XX@B@??@20/06/2015@239")
    assert "could not be read" in screen.field_hint.text()
    assert screen.field.text() == ""  # no names left in the field
    assert searches(sim_world) == before


def test_partial_list_shows_masked_rows_and_selects_one(
    qtbot: QtBot, session: CounterSession, sim_world: World, arun: Callable[..., Any]
) -> None:
    screen = make_screen(qtbot, session)
    perez = by_document(sim_world, "30123456")
    local = perez["email"].partition("@")[0]

    async def scenario() -> None:
        enter(qtbot, screen.field, f"{local}@gmial.com")  # a typo in the domain
        await until(lambda: screen.pages.currentWidget() is screen.matches)
        assert [row.client_id for row in screen.matches.rows] == [perez["id"]]
        row = screen.matches.rows[0]
        texts = " ".join(label.text() for label in row.findChildren(type(screen.field_hint)))
        assert "Juan Carlos Pérez" in texts
        assert "****3456" in texts
        assert perez["email"] not in texts
        assert "30123456" not in texts
        assert "30123456" not in row.accessibleName()
        qtbot.mouseClick(row, Qt.MouseButton.LeftButton)
        await until(lambda: session.client is not None)

    arun(scenario())
    assert session.client is not None
    assert session.client.id == perez["id"]
    assert session.client.registered is True  # read again by exact search
    assert screen.pages.currentWidget() is screen.found


def test_latest_search_wins(
    qtbot: QtBot, session: CounterSession, sim_world: World, arun: Callable[..., Any]
) -> None:
    screen = make_screen(qtbot, session)
    perez = by_document(sim_world, "30123456")
    lucia = by_document(sim_world, "35678123")
    # The first search is slow: if it were not cancelled it would land last.
    SimControl(sim_world).add_fault("latency", SEARCH, seconds=0.4, count=1)
    landed: list[int | None] = []
    session.client_changed.connect(lambda c: landed.append(c.id if c else None))

    async def scenario() -> None:
        enter(qtbot, screen.field, perez["email"])
        await until(lambda: screen.tasks.running("search"))
        first = screen.search_task
        assert first is not None
        # A second search, not a keystroke: the field is set, then Enter (Search is busy).
        assert not screen.search_button.isEnabled()
        screen.field.setText("35678123")
        qtbot.keyClick(screen.field, Qt.Key.Key_Return)
        await until(lambda: session.client is not None)
        await until(first.done)
        assert first.cancelled()  # so the slow answer can never land
        await until(lambda: screen.search_button.isEnabled())

    arun(scenario())
    assert landed == [lucia["id"]]
    assert session.client is not None
    assert session.client.id == lucia["id"]
    assert screen.search_button.isEnabled()


def test_typing_again_cancels_the_running_search(
    qtbot: QtBot, session: CounterSession, sim_world: World, arun: Callable[..., Any]
) -> None:
    screen = make_screen(qtbot, session)
    SimControl(sim_world).add_fault("latency", SEARCH, seconds=0.3, count=1)

    async def scenario() -> None:
        enter(qtbot, screen.field, "30123456")
        await until(lambda: screen.tasks.running("search"))
        assert not screen.search_button.isEnabled()
        task = screen.search_task
        assert task is not None
        qtbot.keyClicks(screen.field, "7")
        await until(task.done)
        assert task.cancelled()

    arun(scenario())
    assert session.client is None
    assert screen.search_button.isEnabled()


def test_suspended_client_is_shown_as_suspended(
    qtbot: QtBot, session: CounterSession, sim_world: World, arun: Callable[..., Any]
) -> None:
    screen = make_screen(qtbot, session)
    suspended = next(c for c in clients(sim_world) if c.get("status") == "SUSPENDED")

    async def scenario() -> None:
        enter(qtbot, screen.field, suspended["document_number"])
        await until(lambda: session.client is not None)

    arun(scenario())
    assert session.client is not None
    assert session.client.id == suspended["id"]
    assert session.client.is_suspended
    assert screen.found.badge.isVisible()
    assert screen.found.badge.text() == "Suspended"
    assert screen.found.suspended_note.isVisible()
    assert not screen.found.points_button.isEnabled()
    assert not screen.found.rewards_button.isEnabled()


def test_suspended_client_in_the_partial_list_is_marked(
    qtbot: QtBot, session: CounterSession, sim_world: World, arun: Callable[..., Any]
) -> None:
    screen = make_screen(qtbot, session)
    suspended = next(c for c in clients(sim_world) if c.get("status") == "SUSPENDED")

    async def scenario() -> None:
        enter(qtbot, screen.field, suspended["document_number"][:7])
        await until(lambda: screen.pages.currentWidget() is screen.matches)

    arun(scenario())
    rows = [r for r in screen.matches.rows if r.client_id == suspended["id"]]
    assert len(rows) == 1
    badges = [w for w in rows[0].findChildren(type(screen.field_hint)) if w.text() == "Suspended"]
    assert len(badges) == 1
    assert badges[0].isVisible()


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ({"kind": "drop"}, "No connection to the service"),
        ({"kind": "status", "status": 500}, "The service had a problem"),
    ],
    ids=["dropped-connection", "server-error"],
)
def test_failed_search_ends_in_the_banner_and_the_screen_stays_usable(
    qtbot: QtBot,
    fast_session: CounterSession,  # noqa: F811
    sim_world: World,
    arun: Callable[..., Any],
    expect_log: Callable[[str], None],
    fault: dict[str, Any],
    message: str,
) -> None:
    expect_log(r"retry|identify|search")
    screen = make_screen(qtbot, fast_session)
    control = SimControl(sim_world)
    control.add_fault(fault.pop("kind"), SEARCH, count=4, **fault)
    perez = by_document(sim_world, "30123456")

    async def scenario() -> None:
        enter(qtbot, screen.field, "30123456")
        await until(lambda: screen.banner.kind == "error")
        assert message in screen.banner.text()
        assert screen.search_button.isEnabled()
        assert fast_session.client is None
        # The fault is spent: the same search now works.
        qtbot.mouseClick(screen.search_button, Qt.MouseButton.LeftButton)
        await until(lambda: fast_session.client is not None)

    arun(scenario())
    assert fast_session.client is not None
    assert fast_session.client.id == perez["id"]
    assert fast_session.online


def test_logs_carry_no_registration_link_nor_contact_data(
    qtbot: QtBot,
    session: CounterSession,
    sim_world: World,
    arun: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    written = io.StringIO()
    handler = logsafety.install(logging.StreamHandler(written))
    handler.setLevel(logging.DEBUG)
    logging.getLogger().addHandler(handler)
    screen = make_screen(qtbot, session)
    client = unregistered(sim_world)[0]
    perez = by_document(sim_world, "30123456")
    url = ""

    async def scenario() -> None:
        nonlocal url
        enter(qtbot, screen.field, client["email"])
        await until(lambda: session.client is not None)
        assert session.client is not None
        assert session.client.register_url is not None
        url = session.client.register_url.reveal()
        qtbot.mouseClick(screen.found.qr_button, Qt.MouseButton.LeftButton)
        assert screen.found.qr_shown
        screen.field.clear_input()
        enter(qtbot, screen.field, NEW_PEREZ)
        await until(lambda: session.client is not None and session.client.id == perez["id"])
        screen.field.clear_input()
        enter(qtbot, screen.field, "nobody.here@gmial.com")
        await until(lambda: screen.pages.currentWidget() is screen.matches)

    try:
        arun(scenario())
    finally:
        logging.getLogger().removeHandler(handler)
    assert url
    secrets = [
        url,
        client["email"],
        client["email"].replace("@", "%40"),
        client["document_number"],
        perez["email"],
        perez["email"].replace("@", "%40"),
        "30123456",
        "nobody.here@gmial.com",
        "nobody.here%40gmial.com",
        "PEREZ@JUAN",
    ]
    ours = [r for r in caplog.records if r.name.startswith("kiosk")]
    assert ours, "the session logged nothing: the check below would prove nothing"
    for record in ours:  # our own lines are clean even before the handler's redaction
        text = record.getMessage()
        for secret in secrets:
            assert secret not in text, (record.name, text)
    output = written.getvalue()  # everything, as the kiosk's log file would get it
    assert "identify" in output
    for secret in secrets:
        assert secret not in output
