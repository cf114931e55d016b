"""What the manager view receives: ``admin_sections(session)`` gives every section with
a translated title, an icon of the kiosk's set and a factory; each section loads its
list when shown, and an idle reset takes it back to its list."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.admin import admin_sections
from kiosk.ui.admin.section import AdminSection
from kiosk.ui.resources import resource_path
from tests.qt_async import until
from tests.ui.admin.admin_support import Rig, themed_rig


@pytest.fixture
def rig(
    qapp: QApplication, qtbot: QtBot, session: CounterSession, sim_world: World
) -> Iterator[Rig]:
    yield from themed_rig(qapp, qtbot, session, sim_world)


def test_every_section_builds_and_loads(rig: Rig, arun: Callable[..., Any]) -> None:
    sections = admin_sections(rig.session)
    assert [title for title, _, _ in sections] == [
        "Point items",
        "Rewards",
        "Levels",
        "Operators",
        "Clients",
        "Exchanges",
    ]
    for _, icon_name, _ in sections:
        assert resource_path("icons", f"{icon_name}.svg").is_file()
    built: list[AdminSection] = []
    for _, _, factory in sections:
        section = factory()
        assert isinstance(section, AdminSection)
        rig.qtbot.addWidget(section)
        section.resize(1280, 800)
        built.append(section)

    async def scenario() -> None:
        for section in built:
            section.show()  # the first show loads the list
            await until(lambda s=section: s.list.loads == 1 and not s.tasks.running("list"))
            assert section.list.table.rowCount() > 0
            assert section.title()
            section.hide()
        # Entering again reloads; leaving cancels what runs.
        first = built[0]
        first.show()
        first.entered()
        first.leave()
        assert not first.tasks.running("list")

    arun(scenario())
    paths = {entry["path"] for entry in rig.control.requests(method="GET")}
    assert {
        "/external/point-items",
        "/external/products",
        "/external/levels",
        "/external/operators",
        "/external/clients",
        "/external/purchase",
    } <= paths


def test_on_screen_keyboard_for_the_section_fields(rig: Rig, arun: Callable[..., Any]) -> None:
    """On a touch screen without a keyboard (setting ``always`` here), tapping a field
    of the section shows the kiosk's keyboard; changing page hides it."""
    from kiosk.ui.admin.levels import LevelsSection

    rig.session.config.extra["on_screen_keyboard"] = "always"
    section = rig.open(LevelsSection)

    async def scenario() -> None:
        await rig.loaded()
        assert section.keyboard.isHidden()
        section.activateWindow()
        rig.tap(section.list.new_button)
        section.name_edit.setFocus()
        await until(section.keyboard.isVisible)
        rig.tap(section.form.back_button)
        assert section.keyboard.isHidden()

    arun(scenario())
