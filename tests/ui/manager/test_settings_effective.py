"""Issue #21 (minor): settings left to their default show what the kiosk runs with:
the branch the counter is bound to (not "Choose the branch"), the validation QR the
Code screen shows (the branch's first), and every point item checked as a counter
button; and they stay unset (nothing to save) until the manager changes them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from starlette.types import ASGIApp

from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.manager.settings_screen import SettingsScreen
from tests.qt_async import until
from tests.ui.manager.manager_support import in_counter_window, shot, themed
from tests.ui.manager.settings_support import Rig
from tests.ui.translated import translated

SIZES = [(1280, 800), (1024, 768)]


@pytest.fixture(autouse=True)
def _themed(qapp: QApplication) -> Iterator[None]:
    with themed(qapp):
        yield


@pytest.fixture
def rig(qtbot: QtBot, sim_app: ASGIApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Rig:
    return Rig(qtbot, sim_app, tmp_path / "home", monkeypatch)


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}")
def test_defaults_show_what_the_kiosk_runs_with(
    rig: Rig,
    arun: Callable[..., Any],
    sim_world: World,
    session: CounterSession,
    tmp_path: Path,
    qapp: QApplication,
    size: tuple[int, int],
    lang: str,
) -> None:
    running = session.config.branch.id
    assert running == 1  # the counter runs Sucursal Centro; no branch, QR or item is set
    with translated(qapp, lang):
        model = rig.build_model()
        saved = model.draft()
        assert (saved.branch_id, saved.validation_qr_id, saved.point_items) == (None, None, ())
        screen = SettingsScreen(model, running_branch=lambda: running)
        branch = screen.branch

        async def scenario() -> None:
            window = await in_counter_window(rig.qtbot, session, screen, tmp_path / "lock")
            window.resize(*size)
            await until(lambda: branch.branch_combo.count() == 3)
            await until(lambda: branch.items.count() > 0)
            await until(lambda: not screen.tasks.running("choices"))
            assert branch.branch_combo.currentText() == "Sucursal Centro"
            assert "Av. Corrientes 1234" in branch.details.text()
            qr_text = branch.qr_combo.currentText()
            assert branch.qr_combo.count() > 1
            assert branch.qr_combo.itemText(1) in qr_text  # the branch's first QR
            assert ("Automatic" if lang == "en" else "Automático") in qr_text
            assert branch.qr_id() is None  # still the default: the first, whatever it is
            offered = [
                i["id"]
                for i in sim_world.merchants[1].tables["point_items"].values()
                if i["branchId"] in (None, 1)
            ]
            assert len(branch.item_ids()) == len(offered) > 0  # every item checked
            assert set(branch.item_ids()) == set(offered)
            screen.scroller.ensureWidgetVisible(branch.qr_combo, 0, 200)
            shot(window, f"settings-effective-{lang}-{size[0]}")
            assert screen.draft() == saved  # nothing changed by showing the defaults
            rig.click(screen.save_button)
            await until(lambda: screen.banner.kind == "info")

        arun(scenario())
