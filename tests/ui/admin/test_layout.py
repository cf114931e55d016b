"""The manager's lists fit the counter window (issue #14, defect 11): at 1280x800 and
1024x768, in English and Spanish, with names of 60+ characters, every visible button's
text fits (or elides with the full text in its tooltip), the column that tells the
rows apart (the name) is shown and stretched, and the exchanges list never scrolls
sideways; a client's detail shows its fields at 1024x768 (issue #21, item 9)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from kiosk.core.admin.clients import CARD, DOCUMENT, EMAIL, FIRST_NAME, LAST_NAME, PHONE
from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.admin.clients import ClientsSection
from kiosk.ui.admin.levels import LevelsSection
from kiosk.ui.admin.operators import OperatorsSection
from kiosk.ui.admin.point_items import PointItemsSection
from kiosk.ui.admin.purchases import PurchasesSection
from kiosk.ui.admin.rewards import RewardsSection
from kiosk.ui.admin.section import AdminSection
from tests.qt_async import until
from tests.ui.admin.admin_layout_support import (
    LANGUAGES,
    SIZES,
    audit,
    column_widths,
    in_manager_window,
    is_scrolled_sideways,
    language,
    lengthen_names,
    shot,
)
from tests.ui.theme_support import app_theme

SECTIONS: list[type[AdminSection]] = [
    PointItemsSection,
    RewardsSection,
    LevelsSection,
    OperatorsSection,
    ClientsSection,
    PurchasesSection,
]


@pytest.fixture
def themed(qapp: QApplication) -> Iterator[None]:
    with app_theme(qapp):
        yield


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("cls", SECTIONS, ids=lambda c: c.__name__)
def test_every_list_fits_with_long_names(
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
            qapp.processEvents()
            shot(window, f"{cls.__name__}-{lang}-{size[0]}")
            assert audit(section) == []
            table = section.list.table
            widths = column_widths(table)
            name = next(i for i, c in enumerate(section.list.columns) if c.stretch)
            assert widths[name] >= 160, widths
            assert not is_scrolled_sideways(table)
            if cls is PurchasesSection and size[0] == 1280:  # who exchanged, whole or elided
                client = len(section.list.columns) - 2
                assert not table.isColumnHidden(client)
                assert widths[client] >= 120, widths
            # The sort and the filters, unfolded: every chip whole, none overlapping.
            options = section.list.options_button
            qtbot.mouseClick(options, Qt.MouseButton.LeftButton)
            await until(lambda: section.list.options.isVisible())
            qapp.processEvents()
            shot(window, f"{cls.__name__}-options-{lang}-{size[0]}")
            assert audit(section) == []

        arun(scenario())


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_clients_form_and_its_confirmations_fit(
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
    """A long-named client's form: Suspend, Schedule removal and Save changes whole;
    the removal's question and reasons whole, the reason buttons apart; the name column
    still wide after a suspend."""
    lengthen_names(sim_world)
    with language(qapp, lang):
        section = ClientsSection(session)
        left = Qt.MouseButton.LeftButton

        async def scenario() -> None:
            window = await in_manager_window(qtbot, session, section, tmp_path, size)
            await until(lambda: section.list.loads >= 1 and not section.tasks.running("list"))
            await until(lambda: not section.tasks.running("levels"))
            names = section.list.texts(0)
            row = next(i for i, n in enumerate(names) if n.startswith("María"))
            section.list.activated.emit(row)
            await until(lambda: not section.tasks.running("registered"))
            qapp.processEvents()
            shot(window, f"client-form-{lang}-{size[0]}")
            assert audit(section) == []
            # The removal: question, consequence, four reasons.
            qtbot.mouseClick(section.panel.danger_button, left)
            await until(lambda: section.sheet.isVisible())
            qapp.processEvents()
            shot(window, f"client-removal-{lang}-{size[0]}")
            assert audit(section) == []
            assert section.reasons.isVisible()
            qtbot.mouseClick(section.sheet.back, left)
            # Suspend, confirmed: back on the list, the name column still wide.
            qtbot.mouseClick(section.panel.suspend_button, left)
            await until(lambda: section.sheet.isVisible())
            qapp.processEvents()
            shot(window, f"client-suspend-{lang}-{size[0]}")
            assert audit(section) == []
            loads = section.list.loads
            await until(lambda: section.sheet.confirm.armed)
            qtbot.mouseClick(section.sheet.confirm, left)
            await until(lambda: section.list.loads > loads and not section.tasks.running("list"))
            qapp.processEvents()
            shot(window, f"client-suspended-{lang}-{size[0]}")
            assert column_widths(section.list.table)[0] >= 180
            assert audit(section) == []

        arun(scenario())


FORMS: list[type[AdminSection]] = [
    PointItemsSection,
    RewardsSection,
    LevelsSection,
    OperatorsSection,
]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("cls", FORMS, ids=lambda c: c.__name__)
def test_every_new_form_fits(
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
            await until(lambda: not section.tasks.running("branches"))
            qtbot.mouseClick(section.list.new_button, Qt.MouseButton.LeftButton)
            await until(lambda: section.pages.currentWidget() is not section.list)
            await until(lambda: not any(section.tasks.running(n) for n in ("form", "branches")))
            qapp.processEvents()
            shot(window, f"{cls.__name__}-new-{lang}-{size[0]}")
            assert audit(section) == []

        arun(scenario())


def test_the_reward_form_says_where_category_numbers_come_from(
    qapp: QApplication,
    qtbot: QtBot,
    themed: None,
    session: CounterSession,
    sim_world: World,
    arun: Callable[..., Any],
    tmp_path: Path,
) -> None:
    section = RewardsSection(session)

    async def scenario() -> None:
        await in_manager_window(qtbot, session, section, tmp_path, (1280, 800))
        await until(lambda: section.list.loads >= 1 and not section.tasks.running("list"))
        qtbot.mouseClick(section.list.new_button, Qt.MouseButton.LeftButton)
        await until(lambda: section.form is not None and not section.tasks.running("form"))
        form = section.form
        assert form is not None
        await until(lambda: section.pages.currentWidget() is form)
        box = form.boxes["categories"]
        assert "merchant panel" in box.hint.text()
        assert form.categories_edit.placeholderText() == "None"  # no made-up example ids
        in_use = form.categories_in_use.text()
        used = sorted({c for p in section.list.items for c in p.category_ids})
        assert in_use.startswith("Used by the rewards listed: ")
        first = next(p for p in section.list.items if used[0] in p.category_ids)
        assert f"{used[0]} ({first.name}" in in_use

    arun(scenario())


def _inside(widget: QWidget, area: QWidget) -> bool:
    """``widget`` whole inside ``area`` (its viewport, for a scroll area)."""
    top = widget.mapTo(area, QPoint(0, 0))
    return QRect(top, widget.size()) == QRect(top, widget.size()).intersected(area.rect())


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_clients_detail_shows_its_fields_and_one_row_of_actions(
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
    """Issue #21, item 9: a registered client's detail (its email locked, the longest
    case) opened by a tap on the list: Back and Save on one row, Suspend and Schedule
    removal beside the name, and every field from the names to the affiliate card
    whole on screen without scrolling."""
    with language(qapp, lang):
        section = ClientsSection(session)

        async def scenario() -> None:
            window = await in_manager_window(qtbot, session, section, tmp_path, size)
            await until(lambda: section.list.loads >= 1 and not section.tasks.running("list"))
            await until(lambda: not section.tasks.running("levels"))
            qtbot.keyClicks(section.list.search, "juan.perez")
            qtbot.keyClick(section.list.search, Qt.Key.Key_Return)
            name = "Juan Carlos Pérez"
            await until(lambda: name in section.list.texts(0))
            await until(lambda: not section.tasks.running("list"))
            table = section.list.table
            row = section.list.texts(0).index(name)
            rect = table.visualRect(table.model().index(row, 0))
            qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
            panel = section.panel
            await until(lambda: section.pages.currentWidget() is panel)
            await until(lambda: not section.tasks.running("registered") and panel.email_locked)
            qapp.processEvents()
            shot(window, f"client-detail-{lang}-{size[0]}")
            assert audit(section) == []
            footer = {panel.back_button.y(), panel.save_button.y()}
            assert len(footer) == 1, "Back and Save are not on one row"
            assert panel.suspend_button.y() < panel.scroller.y()
            assert panel.danger_button.y() < panel.scroller.y()
            for button in (panel.suspend_button, panel.danger_button):
                assert button.height() >= 48
                assert button.height() == panel.suspend_button.height()
            viewport = panel.scroller.viewport()
            assert panel.scroller.verticalScrollBar().value() == 0
            assert panel.lock_note.isVisible()
            for key in (FIRST_NAME, LAST_NAME, EMAIL, DOCUMENT, PHONE, CARD):
                assert _inside(panel.boxes[key].editor, viewport), f"{key} needs scrolling"

        arun(scenario())
