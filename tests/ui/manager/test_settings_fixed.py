"""Issue #21 (minor): a settings field's error goes when the field is edited, and the
banner "Nothing was saved. Check the marked fields." once no field is marked."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from starlette.types import ASGIApp

from kiosk.core.admin.manager_settings import Field
from kiosk.core.session import CounterSession
from tests.qt_async import until
from tests.ui.manager.manager_support import in_counter_window, themed
from tests.ui.manager.settings_support import Rig
from tests.ui.translated import translated


@pytest.fixture(autouse=True)
def _themed(qapp: QApplication) -> Iterator[None]:
    with themed(qapp):
        yield


@pytest.fixture
def rig(qtbot: QtBot, sim_app: ASGIApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Rig:
    return Rig(qtbot, sim_app, tmp_path / "home", monkeypatch)


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("size", [(1280, 800), (1024, 768)], ids=lambda s: f"{s[0]}")
def test_fixed_fields_lose_their_errors_and_then_the_banner(
    rig: Rig,
    arun: Callable[..., Any],
    session: CounterSession,
    tmp_path: Path,
    qapp: QApplication,
    size: tuple[int, int],
    lang: str,
) -> None:
    with translated(qapp, lang):
        screen = rig.open()
        counter = screen.counter
        idle_row = counter.rows_by_field[Field.IDLE_TIMEOUT]
        manager_row = counter.rows_by_field[Field.MANAGER_IDLE_TIMEOUT]

        async def scenario() -> None:
            window = await in_counter_window(rig.qtbot, session, screen, tmp_path / "lock")
            window.resize(*size)
            await until(lambda: screen.branch.branch_combo.count() > 0)
            await until(lambda: not screen.tasks.running("choices"))
            screen.scroller.ensureWidgetVisible(counter.idle, 0, 200)
            for stepper, typed in ((counter.idle, "1"), (counter.manager_idle, "5")):
                rig.click(stepper.edit)
                stepper.edit.selectAll()
                rig.qtbot.keyClicks(stepper.edit, typed)
                # (the counter's scan watch hands a person's keys on within ~60 ms)
                await until(lambda e=stepper.edit, t=typed: e.text() == t)
            rig.click(screen.save_button)
            await until(lambda: screen.banner.kind == "error")
            assert idle_row.error.isVisible()
            assert manager_row.error.isVisible()
            # One field fixed: its error goes; the banner stays (the other is marked).
            rig.click(counter.idle.plus)
            assert idle_row.error.isHidden()
            assert manager_row.error.isVisible()
            assert screen.banner.kind == "error"
            # The other typed again: no field marked, no banner.
            counter.manager_idle.edit.selectAll()
            rig.qtbot.keyClicks(counter.manager_idle.edit, "600")
            await until(lambda: counter.manager_idle.edit.text() == "600")
            assert manager_row.error.isHidden()
            assert screen.banner.isHidden()
            rig.click(screen.save_button)
            await until(lambda: screen.banner.kind == "success")

        arun(scenario())
