"""The sort and the filters in force stay in sight once "Sort and filter" folds (issue
#21): at 1280x800 and 1024x768, in English and Spanish, a chip beside it says them
("Sorted by Points ↑ · Pending · Money") and one tap on it clears them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.core.session import CounterSession
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from kiosk.ui.admin.purchases import PurchasesSection
from tests.qt_async import until
from tests.ui.admin.admin_layout_support import (
    LANGUAGES,
    SIZES,
    audit,
    in_manager_window,
    language,
    shot,
)
from tests.ui.admin.admin_support import params
from tests.ui.theme_support import app_theme

PURCHASES = r"^/external/purchase$"


@pytest.fixture
def themed(qapp: QApplication) -> Iterator[None]:
    with app_theme(qapp):
        yield


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_folded_sort_and_filters_are_said_and_cleared_in_one_tap(
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
    control = SimControl(sim_world)
    with language(qapp, lang):
        section = PurchasesSection(session)
        lst = section.list

        def tap(widget: Any) -> None:
            assert widget.isVisible(), widget
            qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)

        async def loaded(count: int) -> None:
            await until(lambda: lst.loads >= count and not section.tasks.running("list"))

        async def scenario() -> None:
            window = await in_manager_window(qtbot, session, section, tmp_path, size)
            await loaded(1)
            chip = lst.state_chip
            assert not chip.isVisible()  # the default order, nothing filtered
            tap(lst.options_button)
            tap(section.status_chips.button_for("pending"))
            await loaded(2)
            tap(section.type_chips.button_for("money"))
            await loaded(3)
            tap(lst.sort_chips.button_for("points"))
            await loaded(4)
            assert not chip.isVisible()  # the panel says it while open
            tap(lst.options_button)  # folded
            await until(lambda: chip.isVisible())
            said = chip.full_text
            for words in (
                section.status_chips.text_of("pending"),
                section.type_chips.text_of("money"),
                lst.sort_chips.text_of("points"),
            ):
                assert words in said, said
            assert "↑" in said
            shot(window, f"state-chip-{lang}-{size[0]}")
            assert audit(section) == []
            tap(chip)  # one tap: the default order, every exchange
            await loaded(5)
            assert not chip.isVisible()
            last = params(control.requests(method="GET", path=PURCHASES)[-1])
            assert "status" not in last
            assert "type" not in last
            assert "order" not in last
            assert lst.state.filters == ()
            tap(lst.options_button)
            assert section.status_chips.value() is None
            assert section.type_chips.value() is None
            assert lst.sort_chips.value() is None

        arun(scenario())
