"""Clients in manager mode over the in-process simulator: the list (masked, filtered by
level, sorted, paged), edit sending only what changed, the email locked once the
client registered, a taken document on its field, suspend and scheduled removal
(confirmed; no reason refused before sending), and the panel forgotten on reset."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.api.models.clients import RemovalReason
from kiosk.core.admin.clients import DOCUMENT, EMAIL
from kiosk.core.admin.forms import Problem
from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.admin.clients import ClientsSection
from kiosk.ui.admin.form import problem_text
from tests.qt_async import until
from tests.ui.admin.admin_support import Rig, params, table, themed_rig

CLIENTS = r"^/external/clients"
JUAN, CAMILA, FACUNDO = 1, 7, 14  # registered, unregistered, suspended


@pytest.fixture
def rig(
    qapp: QApplication, qtbot: QtBot, session: CounterSession, sim_world: World
) -> Iterator[Rig]:
    yield from themed_rig(qapp, qtbot, session, sim_world)


async def open_client(rig: Rig, section: ClientsSection, query: str, name: str) -> None:
    section.list.search.setText(query)
    section.list.apply_search()
    await until(lambda: name in section.list.texts(0) and not section.tasks.running("list"))
    section.list.activated.emit(section.list.texts(0).index(name))
    assert section.pages.currentWidget() is section.panel
    await rig.idle("registered")


def test_list_masked_filtered_by_level_sorted_and_paged(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(ClientsSection)
    clients = table(rig.world, "clients")

    async def scenario() -> None:
        await rig.loaded()
        assert section.list.page_window is not None
        assert section.list.page_window.total == len(clients)
        assert section.list.range_label.text() == f"1–10 of {len(clients)}"
        top = max(clients.values(), key=lambda c: c["score"])
        assert section.list.texts(0)[0] == top["name"]  # most points first
        emails = section.list.texts(1)
        assert all("***@" in e for e in emails)
        assert not any(c["email"] in emails for c in clients.values())
        assert all(d.startswith("****") for d in section.list.texts(2))
        rig.shot("clients_list")
        rig.tap(section.list.next_button)
        await rig.loaded(2)
        assert section.list.range_label.text() == f"11–20 of {len(clients)}"
        # Oro only: back to page 1, three clients.
        assert section.level_chips is not None
        rig.unfold_options()
        rig.tap(section.level_chips.button_for(3))
        await rig.loaded(3)
        oro = sorted(
            (c for c in clients.values() if (c.get("level") or {}).get("id") == 3),
            key=lambda c: -c["score"],
        )
        assert section.list.texts(0) == [c["name"] for c in oro]
        assert set(section.list.texts(3)) == {"Oro"}
        # By name, descending.
        rig.tap(section.list.sort_chips.button_for("fullName"))
        await rig.loaded(4)
        rig.tap(section.list.direction_button)
        await rig.loaded(5)
        assert section.list.texts(0) == sorted((c["name"] for c in oro), reverse=True)
        rig.shot("clients_list_filtered")

    arun(scenario())
    last = params(rig.requests("GET", CLIENTS + "$")[-1])
    assert (last["levelId"], last["order"], last["direction"]) == ("3", "fullName", "desc")


def test_edit_sends_only_what_changed(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(ClientsSection)
    camila = table(rig.world, "clients")[CAMILA]
    sent: list[dict[str, Any]] = []
    original = rig.session.api.update_client

    async def spy(client_id: int, changes: Any) -> Any:
        sent.append(changes.to_json())
        return await original(client_id, changes)

    rig.session.api.update_client = spy  # type: ignore[method-assign]

    async def scenario() -> None:
        await rig.loaded()
        await open_client(rig, section, "camila.diaz", "Camila Díaz")
        assert not section.panel.email_locked  # never entered the platform
        rig.type_into(section.panel.email, "camila.d@example.com")
        rig.type_into(section.panel.description, "Prefiere contacto por email")
        rig.shot("clients_edit")
        rig.tap(section.panel.save_button)
        await until(lambda: section.banner.kind == "success")
        assert section.pages.currentWidget() is section.list

    arun(scenario())
    assert sent == [{"email": "camila.d@example.com", "description": "Prefiere contacto por email"}]
    assert camila["email"] == "camila.d@example.com"
    assert camila["first_name"] == "Camila"


def test_email_locked_once_registered(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(ClientsSection)

    async def scenario() -> None:
        await rig.loaded()
        await open_client(rig, section, "juan.perez", "Juan Carlos Pérez")
        assert section.panel.email_locked
        assert section.panel.email.isReadOnly()
        assert section.panel.lock_note.isVisible()
        rig.shot("clients_email_locked")
        # Even if the email changed (typed elsewhere): refused before sending.
        section.panel.email.setText("otro@example.com")
        rig.tap(section.panel.save_button)
        assert section.panel.error_of(EMAIL) == problem_text(Problem.EMAIL_LOCKED)

    arun(scenario())
    assert rig.requests("PUT", CLIENTS) == []


def test_email_locked_by_the_api_shown_on_the_field(rig: Rig, arun: Callable[..., Any]) -> None:
    """The registration check could not run (search failed): the API's 400 says it."""
    section = rig.open(ClientsSection)
    rig.control.add_fault("status", path=CLIENTS + "/search", status=403)

    async def scenario() -> None:
        await rig.loaded()
        await open_client(rig, section, "juan.perez", "Juan Carlos Pérez")
        assert not section.panel.email_locked  # unknown: left editable
        rig.type_into(section.panel.email, "juan.nuevo@example.com")
        rig.tap(section.panel.save_button)
        await until(lambda: section.banner.kind == "error")
        assert section.panel.error_of(EMAIL) == problem_text(Problem.EMAIL_LOCKED)
        assert "already entered the platform" in section.banner.text()

    arun(scenario())
    assert table(rig.world, "clients")[JUAN]["email"] == "juan.perez@example.com"


def test_taken_document_on_its_field(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(ClientsSection)

    async def scenario() -> None:
        await rig.loaded()
        await open_client(rig, section, "camila.diaz", "Camila Díaz")
        rig.type_into(section.panel.document, "30123456")  # Juan's
        rig.tap(section.panel.save_button)
        await until(lambda: section.banner.kind == "error")
        assert section.panel.error_of(DOCUMENT) == problem_text(Problem.TAKEN)
        assert section.banner.text() == "That document belongs to another client."
        rig.shot("clients_form_error")

    arun(scenario())
    assert table(rig.world, "clients")[CAMILA]["document_number"] == "41222333"


def test_suspend_confirmed(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(ClientsSection)

    async def scenario() -> None:
        await rig.loaded()
        await open_client(rig, section, "camila.diaz", "Camila Díaz")
        rig.tap(section.panel.suspend_button)
        assert section.sheet.asking == "suspend"
        assert "stops earning points" in section.sheet.message.text()
        rig.shot("clients_suspend_confirm")
        await rig.confirm()
        await until(lambda: section.banner.kind == "success")
        await open_client(rig, section, "camila.diaz", "Camila Díaz")
        assert not section.panel.suspend_button.isEnabled()
        assert section.panel.suspend_button.text() == "Suspended"

    arun(scenario())
    assert table(rig.world, "clients")[CAMILA]["status"] == "SUSPENDED"


def test_removal_needs_a_reason_and_explains_the_grace_period(
    rig: Rig, arun: Callable[..., Any]
) -> None:
    section = rig.open(ClientsSection)
    camila = table(rig.world, "clients")[CAMILA]

    async def scenario() -> None:
        await rig.loaded()
        await open_client(rig, section, "camila.diaz", "Camila Díaz")
        rig.tap(section.panel.danger_button)
        assert section.sheet.asking == "remove"
        assert "30 days" in section.sheet.message.text()
        assert "only the merchant panel can restore" in section.sheet.message.text()
        await rig.confirm()  # no reason chosen
        assert section.sheet.problem.text() == problem_text(Problem.NO_REASON)
        assert rig.requests("DELETE", CLIENTS) == []
        rig.tap(section.reasons.buttons[RemovalReason.INCORRECT_EMAIL])
        rig.tap(section.reasons.buttons[RemovalReason.DUPLICATE_CLIENT])
        rig.shot("clients_removal_confirm")
        await rig.confirm()
        await until(lambda: section.banner.kind == "success")
        await rig.idle("list")
        assert "Camila Díaz" not in section.list.texts(0)
        assert section.panel.client is None  # forgotten

    arun(scenario())
    assert camila["_removal_reasons"] == ["DUPLICATE_CLIENT", "INCORRECT_EMAIL"]
    assert len(rig.requests("DELETE", CLIENTS)) == 1


def test_reset_forgets_personal_data(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(ClientsSection)

    async def scenario() -> None:
        await rig.loaded()
        await open_client(rig, section, "juan.perez", "Juan Carlos Pérez")
        section.reset()
        assert section.pages.currentWidget() is section.list
        assert section.panel.email.text() == ""
        assert section.list.table.rowCount() == 0

    arun(scenario())
