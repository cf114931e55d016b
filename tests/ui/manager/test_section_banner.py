"""Manager mode's sections speak in manager mode's banner: one room kept at the top of
the screen, not a second one above each section's list (which took two of its rows)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from kiosk.core.session import CounterSession
from kiosk.ui.manager.manager_view import ManagerView, Section
from kiosk.ui.screens.base import Screen


class Listing(Screen):
    key = "listing"

    def __init__(self, session: CounterSession) -> None:
        super().__init__(session)
        self.rows = QLabel("rows")
        self.body.addWidget(self.rows, 1)


def test_a_section_inside_manager_mode_uses_its_banner_and_keeps_no_room(
    qtbot: QtBot, session: CounterSession
) -> None:
    host = Screen(session)
    sections = [
        Section("Settings", "settings", QLabel),
        Section("Clients", "points", lambda: Listing(session)),
    ]
    view = ManagerView(sections)
    host.body.addWidget(view, 1)
    qtbot.addWidget(host)
    host.resize(1100, 700)
    host.show()
    qtbot.waitExposed(host)
    view.open_section(1)
    section = view.current_widget()
    assert isinstance(section, Listing)
    assert section.banner is host.banner
    assert not section.banner_slot.isVisible()  # no room of its own
    qtbot.waitUntil(lambda: section.rows.mapTo(section, section.rows.rect().topLeft()).y() < 40)
    section.banner.show_error("The list could not be loaded.")  # as its failures do
    assert host.banner.isVisible()
    assert host.banner.text() == "The list could not be loaded."
    top_of_view = view.mapTo(host, view.rect().topLeft()).y()
    assert host.banner.geometry().bottom() < top_of_view  # in manager mode's own room


def test_a_section_on_its_own_keeps_its_banner(qtbot: QtBot, session: CounterSession) -> None:
    section = Listing(session)
    view = ManagerView([Section("Clients", "points", lambda: section)])
    qtbot.addWidget(view)
    view.show()
    assert section.banner is not None
    assert section.banner.parentWidget() is section
    assert not section.banner_slot.isHidden()
