"""Enrollment inside the identify screen over the in-process simulator: prefilled from
a scan, created with the branch and journaled, the form's and the API's field errors
next to the fields, 409 with a jump to the existing client, a lost answer, the
on-screen keyboard; and the registration QR."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from kiosk.api.models.clients import Gender
from kiosk.core.counter.enroll import FieldProblem, FormField
from kiosk.core.journal import OperationKind, Outcome
from kiosk.core.session import CounterSession
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from tests.qt_async import until
from tests.ui.screens.identify.identify_support import (
    CREATE,
    NEW_LOPEZ,
    by_document,
    clients,
    creations,
    enter,
    fast_session,  # noqa: F401  (fixture)
    make_screen,
    open_enrollment,
    tap_enroll,
    unregistered,
)


def test_enroll_from_a_scanned_dni(
    qtbot: QtBot, session: CounterSession, sim_world: World, arun: Callable[..., Any]
) -> None:
    screen = make_screen(qtbot, session)
    journal_events: list[None] = []
    session.journal_changed.connect(journal_events.append)
    panel = screen.enroll

    async def scenario() -> None:
        await open_enrollment(qtbot, screen, NEW_LOPEZ)()
        assert not screen.search_row.isVisible()  # the form takes the room
        assert panel.gender.value() is Gender.OTHER  # X on the card
        qtbot.keyClicks(panel.email, "ana.lopez@example.org")
        qtbot.keyClicks(panel.phone, "11 4321 5678")
        await tap_enroll(qtbot, screen)
        assert not panel.enroll_button.isEnabled()  # busy: a double tap sends nothing
        await until(lambda: screen.banner.kind == "success")
        await until(lambda: bool(journal_events))

    arun(scenario())
    record = next(c for c in clients(sim_world) if c.get("document_number") == "44123987")
    assert record["email"] == "ana.lopez@example.org"
    assert record["first_name"] == "Ana"
    assert record["last_name"] == "Lopez"
    assert record["gender"] == 2
    assert record["birthday"].startswith("2002-01-30")
    assert record["_branch_id"] == session.config.branch.id
    assert creations(sim_world) == 1
    client = session.client
    assert client is not None
    assert client.id == record["id"]
    assert screen.banner.text().startswith("Client enrolled: Ana Lopez")
    assert screen.pages.currentWidget() is screen.found
    assert screen.search_row.isVisible()
    # A new client has no level yet and has not registered: the QR can be shown.
    if client.level is None:
        assert screen.found.level.isVisible()
        assert "No level yet" in screen.found.level.text()
    assert screen.found.qr_button.isVisible()
    rows = arun(session.journal.today())
    assert len(rows) == 1
    row = rows[0]
    assert (row.kind, row.outcome) == (OperationKind.ENROLLMENT, Outcome.OK)
    assert row.client == "Ana Lopez · a***@example.org"
    assert "44123987" not in row.client
    assert journal_events == [None]


def test_old_card_prefills_names_document_and_birthday(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any]
) -> None:
    screen = make_screen(qtbot, session)
    old = (
        '"20111222    "A"1"RODRIGUEZ"PABLO MARTIN"ARGENTINA"09/07/1968"M"12/05/2011"00087654321'
        '"7045 "12/05/2026"421"0"ILR:2.01 C:110613.02 (No Cap.)"UNIDAD #10 || S/N: 0040>2008>>0008'
    )
    arun(open_enrollment(qtbot, screen, old)())
    form = screen.enroll.form()
    assert form.document_number == "20111222"
    assert (form.first_name, form.last_name) == ("Pablo Martin", "Rodriguez")
    assert form.birthday == "09/07/1968"
    assert form.gender is Gender.MALE


def test_typed_email_prefills_the_email(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any]
) -> None:
    screen = make_screen(qtbot, session)
    arun(open_enrollment(qtbot, screen, "Nueva.Clienta@Example.org")())
    assert screen.enroll.email.text() == "nueva.clienta@example.org"
    assert screen.enroll.document.text() == ""
    assert screen.enroll.document.hasFocus()
    female = screen.enroll.gender.buttons[Gender.FEMALE]
    assert screen.enroll.gender.value() is None
    qtbot.mouseClick(female, Qt.MouseButton.LeftButton)
    assert screen.enroll.form().gender is Gender.FEMALE
    qtbot.mouseClick(screen.enroll.gender.buttons[Gender.NO_DATA], Qt.MouseButton.LeftButton)
    assert screen.enroll.form().gender is Gender.NO_DATA
    assert not female.isChecked()
    qtbot.mouseClick(screen.enroll.gender.buttons[Gender.NO_DATA], Qt.MouseButton.LeftButton)
    assert screen.enroll.form().gender is None  # tapped again: not given
    qtbot.mouseClick(screen.enroll.passport_button, Qt.MouseButton.LeftButton)
    assert screen.enroll.form().document_type.value == "PASSPORT"
    qtbot.mouseClick(screen.enroll.back_button, Qt.MouseButton.LeftButton)
    assert screen.pages.currentWidget() is screen.matches
    assert screen.search_row.isVisible()


def test_the_forms_own_checks_send_nothing(
    qtbot: QtBot, session: CounterSession, sim_world: World, arun: Callable[..., Any]
) -> None:
    screen = make_screen(qtbot, session)
    panel = screen.enroll

    async def scenario() -> None:
        await open_enrollment(qtbot, screen, "nobody@nowhere.test")()
        panel.email.clear()
        await tap_enroll(qtbot, screen)
        await until(lambda: panel.error_of(FormField.EMAIL) != "")
        assert panel.error_of(FormField.EMAIL) == "Type an email or a document number."
        assert panel.error_of(FormField.DOCUMENT_NUMBER) == "Type an email or a document number."
        qtbot.keyClicks(panel.document, "123456")
        qtbot.keyClicks(panel.birthday, "31/02/1990")
        qtbot.keyClicks(panel.phone, "12")
        await tap_enroll(qtbot, screen)
        await until(lambda: panel.error_of(FormField.PHONE) != "")

    arun(scenario())
    assert panel.error_of(FormField.EMAIL) == ""
    assert panel.error_of(FormField.DOCUMENT_NUMBER) == "A DNI has 7 or 8 digits, without dots."
    assert panel.error_of(FormField.BIRTHDAY) == "Not a date. Type it like DD/MM/YYYY."
    assert panel.error_of(FormField.PHONE) == "A phone number has 6 to 15 digits."
    assert panel.document.property("invalid") is True
    assert panel.document.hasFocus()  # the first field to fix
    assert creations(sim_world) == 0
    assert screen.banner.kind == "error"


def test_api_validation_error_is_shown_next_to_the_field(
    qtbot: QtBot, session: CounterSession, sim_world: World, arun: Callable[..., Any]
) -> None:
    sim_world.merchants[1].rules.minimum_age_years = 18
    screen = make_screen(qtbot, session)
    panel = screen.enroll
    born = date.today().replace(year=date.today().year - 12, day=1)

    async def scenario() -> None:
        await open_enrollment(qtbot, screen, "menor@example.org")()
        qtbot.keyClicks(panel.birthday, born.strftime("%d/%m/%Y"))
        await tap_enroll(qtbot, screen)
        await until(lambda: panel.error_of(FormField.BIRTHDAY) != "")
        await until(lambda: panel.enroll_button.armed)  # again, after its guard time

    arun(scenario())
    assert panel.error_of(FormField.BIRTHDAY) == (
        "The client is younger than the program's minimum age."
    )
    assert panel.error_of(FormField.EMAIL) == ""
    assert screen.banner.text() == "Some data is not valid. Check the marked fields."
    assert creations(sim_world) == 1
    assert session.client is None
    assert panel.enroll_button.isEnabled()


def test_unknown_api_field_goes_to_the_banner(
    qtbot: QtBot, session: CounterSession, sim_world: World, arun: Callable[..., Any]
) -> None:
    body = {
        "statusCode": 400,
        "timestamp": "2026-05-20T12:00:00.000Z",
        "path": "/external/clients",
        "method": "POST",
        "message": "Error de validación",
        "errors": [
            {"field": "affiliateCard", "constraints": {"isNotEmpty": "no"}, "value": ""},
            {"field": "phone", "constraints": {"isPhoneNumber": "no"}, "value": "x"},
        ],
        "data": None,
    }
    SimControl(sim_world).add_fault("status", CREATE, method="POST", status=400, body=body)
    screen = make_screen(qtbot, session)

    async def scenario() -> None:
        await open_enrollment(qtbot, screen, "someone@example.org")()
        await tap_enroll(qtbot, screen)
        await until(lambda: screen.banner.kind == "error")

    arun(scenario())
    assert "affiliateCard" in screen.banner.text()
    assert screen.enroll.error_of(FormField.PHONE) == "A phone number has 6 to 15 digits."


def test_already_registered_jumps_to_the_existing_client(
    qtbot: QtBot, session: CounterSession, sim_world: World, arun: Callable[..., Any]
) -> None:
    screen = make_screen(qtbot, session)
    panel = screen.enroll
    perez = by_document(sim_world, "30123456")

    async def scenario() -> None:
        await open_enrollment(qtbot, screen, "juan.carlos@gmial.com")()
        qtbot.keyClicks(panel.document, "30123456")
        await tap_enroll(qtbot, screen)
        await until(lambda: panel.existing_button.isVisible())
        assert screen.banner.text().startswith("This client is already registered.")
        qtbot.mouseClick(panel.existing_button, Qt.MouseButton.LeftButton)
        await until(lambda: session.client is not None)

    arun(scenario())
    assert session.client is not None
    assert session.client.id == perez["id"]
    assert screen.pages.currentWidget() is screen.found
    assert creations(sim_world) == 1
    assert not any(c.get("email") == "juan.carlos@gmial.com" for c in clients(sim_world))
    assert arun(session.journal.today()) == []


def test_lost_answer_of_a_creation_is_reconciled(
    qtbot: QtBot,
    fast_session: CounterSession,  # noqa: F811
    sim_world: World,
    arun: Callable[..., Any],
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"create_client|clients|reconcil|network")
    # Applied, then the connection drops before the answer: reading back finds it.
    SimControl(sim_world).add_fault("drop", CREATE, method="POST")
    screen = make_screen(qtbot, fast_session)

    async def scenario() -> None:
        await open_enrollment(qtbot, screen, "perdida@example.org")()
        await tap_enroll(qtbot, screen)
        await until(lambda: screen.banner.kind in ("success", "error"))

    arun(scenario())
    assert screen.banner.kind == "success", screen.banner.text()
    matches = [c for c in clients(sim_world) if c.get("email") == "perdida@example.org"]
    assert len(matches) == 1  # created once, not twice
    assert fast_session.client is not None
    assert fast_session.client.id == matches[0]["id"]


def test_enrollment_problem_texts_cover_every_problem(
    qtbot: QtBot, session: CounterSession
) -> None:
    screen = make_screen(qtbot, session)
    for problem in FieldProblem:
        text = screen.enroll.problem_text(problem)
        assert text
        assert "%1" not in text


def test_on_screen_keyboard_follows_the_setting(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any]
) -> None:
    session.config.extra["on_screen_keyboard"] = "always"
    screen = make_screen(qtbot, session)
    outside = QLineEdit()
    qtbot.addWidget(outside)

    async def scenario() -> None:
        await open_enrollment(qtbot, screen, "teclado@example.org")()
        await until(screen.keyboard.isVisible)
        # The keyboard types into the focused field (real key events).
        screen.enroll.first_name.setFocus()
        await until(screen.enroll.first_name.hasFocus)
        keys = {b.text(): b for b in screen.keyboard.findChildren(QPushButton)}
        for char in "ana":
            qtbot.mouseClick(keys[char], Qt.MouseButton.LeftButton)
        assert screen.enroll.first_name.text() == "ana"
        qtbot.mouseClick(keys["Done"], Qt.MouseButton.LeftButton)
        assert not screen.keyboard.isVisible()
        outside.show()
        outside.activateWindow()
        outside.setFocus()
        await until(outside.hasFocus)

    arun(scenario())
    assert not screen.keyboard.isVisible()  # another window's field is not ours
    screen.enroll.email.setFocus()
    screen.activateWindow()
    arun(until(screen.keyboard.isVisible))
    screen.reset()
    assert not screen.keyboard.isVisible()


def test_on_screen_keyboard_never(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any]
) -> None:
    session.config.extra["on_screen_keyboard"] = "never"
    screen = make_screen(qtbot, session)
    arun(open_enrollment(qtbot, screen, "teclado@example.org")())
    assert screen.enroll.document.hasFocus()
    assert not screen.keyboard.isVisible()


# -- the registration QR (issue item 2) ---------------------------------------------------


def test_registration_qr_for_an_unregistered_client(
    qtbot: QtBot, session: CounterSession, sim_world: World, arun: Callable[..., Any]
) -> None:
    screen = make_screen(qtbot, session)
    first, second = unregistered(sim_world)[:2]
    perez = by_document(sim_world, "30123456")

    async def find(document: str) -> None:
        screen.field.clear_input()
        enter(qtbot, screen.field, document)
        await until(
            lambda: session.client is not None and session.client.document_number == document
        )

    async def scenario() -> None:
        await find(first["document_number"])
        assert screen.found.qr_button.isVisible()
        assert not screen.found.qr_shown
        qtbot.mouseClick(screen.found.qr_button, Qt.MouseButton.LeftButton)
        assert screen.found.qr_shown
        assert screen.found.qr.isVisible()
        url = (
            session.client.register_url.reveal()
            if session.client and session.client.register_url
            else ""
        )
        assert url
        for widget in screen.findChildren(QWidget):
            assert url not in widget.toolTip()
            assert url not in widget.accessibleName()
            assert url not in widget.accessibleDescription()
        # Change of client: the QR goes with the old one.
        await find(second["document_number"])
        assert not screen.found.qr_shown
        assert screen.found.qr.pixmap().isNull()
        qtbot.mouseClick(screen.found.qr_button, Qt.MouseButton.LeftButton)
        assert screen.found.qr_shown
        # A registered client has no QR to show.
        await find(perez["document_number"])
        assert not screen.found.qr_shown
        assert not screen.found.qr_button.isVisible()
        await find(first["document_number"])
        qtbot.mouseClick(screen.found.qr_button, Qt.MouseButton.LeftButton)
        assert screen.found.qr_shown

    arun(scenario())
    # Idle: the window clears the client and resets every screen.
    session.clear_client()
    screen.reset()
    assert not screen.found.qr_shown
    assert screen.found.qr.pixmap().isNull()
    assert screen.field.text() == ""
    assert screen.pages.currentWidget() is screen.empty


def test_registration_qr_is_cleared_when_the_screen_is_left(
    qtbot: QtBot, session: CounterSession, sim_world: World, arun: Callable[..., Any]
) -> None:
    screen = make_screen(qtbot, session)
    document = unregistered(sim_world)[0]["document_number"]

    async def scenario() -> None:
        enter(qtbot, screen.field, document)
        await until(lambda: session.client is not None)
        qtbot.mouseClick(screen.found.qr_button, Qt.MouseButton.LeftButton)
        assert screen.found.qr_shown

    arun(scenario())
    screen.leave()
    assert not screen.found.qr_shown
    screen.entered()
    assert screen.pages.currentWidget() is screen.found  # the client is still there
    assert screen.found.qr_button.isVisible()
