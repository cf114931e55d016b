"""A column the list has no room for is never a silent loss (issue #21): at 1280x800 and
1024x768, in English and Spanish, with long names, the list says which columns it hid,
and each row's name shows their values in its tooltip (the row's detail has them too)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.admin.clients import ClientsSection
from kiosk.ui.admin.purchases import PurchasesSection
from kiosk.ui.admin.rewards import RewardsSection
from kiosk.ui.admin.section import AdminSection
from tests.qt_async import until
from tests.ui.admin.admin_layout_support import (
    LANGUAGES,
    SIZES,
    audit,
    in_manager_window,
    language,
    lengthen_names,
    shot,
)
from tests.ui.theme_support import app_theme

SECTIONS: list[type[AdminSection]] = [RewardsSection, ClientsSection, PurchasesSection]


@pytest.fixture
def themed(qapp: QApplication) -> Iterator[None]:
    with app_theme(qapp):
        yield


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("cls", SECTIONS, ids=lambda c: c.__name__)
def test_hidden_columns_are_said_and_their_values_reachable(
    cls: type[AdminSection],
    size: tuple[int, int],
    lang: str,
    qapp: QApplication,
    qtbot: QtBot,
    themed: None,
    session: CounterSession,
    sim_world: World,
    arun: Callable[..., Any],
    tmp_path: Path,
) -> None:
    lengthen_names(sim_world)
    with language(qapp, lang):
        section = cls(session)

        async def scenario() -> None:
            window = await in_manager_window(qtbot, session, section, tmp_path, size)
            await until(lambda: section.list.loads >= 1 and not section.tasks.running("list"))
            await until(lambda: not section.tasks.running("levels"))
            lst = section.list
            table = lst.table
            columns = lst.columns
            hidden = [i for i in range(len(columns)) if table.isColumnHidden(i)]
            shot(window, f"hidden-{cls.__name__}-{lang}-{size[0]}")
            note = lst.hidden_note
            if not hidden:
                assert not note.isVisible()
                return
            assert note.isVisible()
            for index in hidden:
                assert columns[index].title in note.text()
            assert audit(section) == []
            name = next((i for i, c in enumerate(columns) if c.stretch), 0)
            model = lst.model
            for row in range(model.rowCount()):
                tip = str(model.data(model.index(row, name), Qt.ItemDataRole.ToolTipRole))
                for index in hidden:
                    value = model.texts(index)[row]
                    assert f"{columns[index].title}: {value}" in tip
            # The window wider: the note follows what is still hidden (none: no note).
            window.resize(size[0] + 600, size[1])
            await until(lambda: lst.fitter.hidden != tuple(hidden) or table.width() > size[0])
            now = lst.fitter.hidden
            assert all(columns[i].title in note.text() for i in now)
            assert note.isVisible() == bool(now)
            if cls is ClientsSection and size[0] == 1024:
                email = next(i for i, c in enumerate(columns) if c.title == "Email")
                assert email not in now
                assert not table.isColumnHidden(email)

        arun(scenario())
