"""Issue #14, defect 13 (language): a language or theme saved in manager settings applies
at once. The screen says so before the save; the save reports the key; the app rebuilds
the counter for it (``REBUILD_KEYS``) after ``Look.refresh`` installed the new catalogue
and theme, so the screens built next speak the new language."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot
from starlette.types import ASGIApp

from kiosk.app import REBUILD_KEYS, Look
from kiosk.core.session import CounterSession
from kiosk.ui.manager.settings_screen import SettingsScreen
from kiosk.ui.shell import KioskWindow
from kiosk.ui.theme import current_palette
from tests.qt_async import until
from tests.ui.manager.manager_support import in_counter_window, themed
from tests.ui.manager.settings_support import Rig
from tests.ui.manager.test_settings_wheel_undo import pick, tap

SIZES = [(1280, 800), (1024, 768)]


@pytest.fixture(autouse=True)
def _themed(qapp: QApplication) -> Iterator[None]:
    with themed(qapp):
        yield


@pytest.fixture
def rig(qtbot: QtBot, sim_app: ASGIApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Rig:
    return Rig(qtbot, sim_app, tmp_path / "home", monkeypatch)


@pytest.fixture
def look(qapp: QApplication) -> Iterator[Look]:
    made = Look("en", [])
    yield made
    for translator in made.translators:
        qapp.removeTranslator(translator)


def note_of(screen: SettingsScreen) -> str:
    return "\n".join(label.text() for label in screen.counter.findChildren(QLabel))


@pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing the keyboard)")
@pytest.mark.parametrize("size", SIZES)
def test_a_saved_language_applies_at_once(
    rig: Rig,
    arun: Callable[..., Any],
    session: CounterSession,
    tmp_path: Path,
    qapp: QApplication,
    look: Look,
    size: tuple[int, int],
) -> None:
    rig.machine("[display]\nlanguage = en\n")
    screen = rig.open()
    window_shell = KioskWindow()
    rig.qtbot.addWidget(window_shell)

    async def scenario() -> None:
        window = await in_counter_window(rig.qtbot, session, screen, tmp_path / "lock")
        window.resize(*size)
        await until(lambda: not screen.tasks.running("branches"))
        await until(lambda: not screen.tasks.running("choices"))
        # Said before the save: it applies at once, and how.
        assert "applies as soon as it is saved" in note_of(screen)
        assert "next start" not in note_of(screen)
        screen.scroller.ensureWidgetVisible(screen.counter.language, 0, 200)
        await pick(screen.counter.language, "Español", rig.qtbot)
        tap(screen.save_button, rig.qtbot)
        await until(lambda: screen.banner.kind == "success")
        assert rig.applied == [("language",)]
        assert REBUILD_KEYS.intersection(rig.applied[0])  # the app rebuilds the counter
        # What the app does before it builds the counter again:
        look.refresh(qapp, window_shell, rig.model.settings)
        assert look.language == "es"
        assert look.translators  # the Spanish catalogue is installed
        again = SettingsScreen(rig.model)
        rig.qtbot.addWidget(again)
        assert again.save_button.text() == "Guardar cambios"
        assert again.undo_button.text() == "Deshacer cambios"
        assert "apenas se guarda" in note_of(again)
        # Back to English the same way.
        rig.model.settings.set_overrides({"language": "en"})
        look.refresh(qapp, window_shell, rig.model.settings)
        assert look.language == "en"
        assert look.translators == []
        english = SettingsScreen(rig.model)
        rig.qtbot.addWidget(english)
        assert english.save_button.text() == "Save changes"

    arun(scenario())


def test_a_saved_theme_applies_at_once(
    rig: Rig, qapp: QApplication, look: Look, qtbot: QtBot
) -> None:
    rig.build_model()
    window_shell = KioskWindow()
    qtbot.addWidget(window_shell)
    assert current_palette().name == "light"
    rig.model.settings.set_overrides({"theme": "dark"})
    assert "theme" in REBUILD_KEYS
    look.refresh(qapp, window_shell, rig.model.settings)
    assert current_palette().name == "dark"
    assert look.language == "en"  # the language was left alone
