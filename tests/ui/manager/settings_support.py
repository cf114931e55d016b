"""Shared by the settings screen's tests: a kiosk home in a temporary folder, its settings,
and the screen over the in-process simulator (``Rig``), and a combo box chosen by data."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox
from pytestqt.qtbot import QtBot
from starlette.types import ASGIApp

from kiosk.core.admin.manager_settings import ManagerSettings, TrainingLink
from kiosk.core.settings.layers import load_settings
from kiosk.core.settings.paths import resolve_paths
from kiosk.sim.transport import SimTransport
from kiosk.ui.i18n import install_translators
from kiosk.ui.manager.settings_screen import SettingsScreen
from tests.conftest import MAIN_KEY


class Rig:
    """A kiosk home in a temporary folder, its settings, and the screen over the simulator."""

    def __init__(self, qtbot: QtBot, sim_app: ASGIApp, home: Path, monkeypatch: Any) -> None:
        self.qtbot = qtbot
        self.sim_app = sim_app
        self.home = home
        monkeypatch.setenv("LOYALTY_KIOSK_HOME", str(home))
        for name in ("MACHINE_SETTINGS", "CONFIG_DIR", "DATA_DIR", "LOG_DIR"):
            monkeypatch.delenv(f"LOYALTY_KIOSK_{name}", raising=False)
        # Own base URLs per test: the client's rate limiter is shared per server and key.
        tag = uuid.uuid4().hex[:8]
        self.prod_url = f"https://api-{tag}.example.test"
        self.training = TrainingLink(f"http://training-{tag}.sim", MAIN_KEY)
        self.applied: list[tuple[str, ...]] = []
        self.pending: Any = None
        self.restart: Callable[[], None] | None = None

    def machine(self, text: str) -> None:
        path = self.home / "machine" / "kiosk.ini"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.replace("PROD_URL", self.prod_url), encoding="utf-8")

    def build_model(self) -> ManagerSettings:
        self.paths = resolve_paths()
        settings = load_settings(self.paths)
        self.model = ManagerSettings(
            settings,
            transport_for=lambda env, url: SimTransport(self.sim_app),
            training=self.training,
            pending=self.pending,
        )
        return self.model

    def open(self) -> SettingsScreen:
        self.build_model()
        self.screen = SettingsScreen(self.model, on_applied=self.applied.append)
        self.screen.resize(1100, 800)
        self.qtbot.addWidget(self.screen)
        self.screen.show()
        return self.screen

    def overrides(self) -> dict[str, Any]:
        path = self.paths.overrides
        return json.loads(path.read_text())["settings"] if path.exists() else {}

    def click(self, widget: Any) -> None:
        self.qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def choose(combo: QComboBox, data: object) -> None:
    index = combo.findData(data)
    assert index >= 0
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


@contextmanager
def language(app: QApplication, name: str) -> Iterator[None]:
    """The kiosk's catalogue for ``name`` ("en" or "es") installed while the block runs."""
    installed = install_translators(app, name)
    if name != "en":
        assert installed, f"the {name} catalogue did not load"
    try:
        yield
    finally:
        for translator in installed:
            app.removeTranslator(translator)
