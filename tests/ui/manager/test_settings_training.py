"""Training's "Simulate no connection" (issue #21, Training): a manager's switch in the
settings makes the training simulator unreachable for the counter and the outbox
until it is switched off, so staff practise the offline flow."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot

from kiosk.api.errors import ApiError, ErrorKind
from kiosk.core.admin.manager_settings import ManagerSettings, TrainingLink
from kiosk.core.session import CounterSession
from kiosk.core.settings.layers import Environment, load_settings
from kiosk.core.settings.paths import resolve_paths
from kiosk.sim.transport import SimTransport
from kiosk.ui.manager.settings_screen import SettingsScreen
from kiosk.ui.manager.settings_training import training_section
from tests.conftest import MAIN_KEY
from tests.qt_async import until
from tests.ui.screens.points.points_support import JUAN

LEFT = Qt.MouseButton.LeftButton
TRAINING = TrainingLink("http://training.sim", MAIN_KEY)


def settings_screen(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, transport: SimTransport | None
) -> SettingsScreen:
    monkeypatch.setenv("LOYALTY_KIOSK_HOME", str(tmp_path / "home"))
    for name in ("MACHINE_SETTINGS", "CONFIG_DIR", "DATA_DIR", "LOG_DIR"):
        monkeypatch.delenv(f"LOYALTY_KIOSK_{name}", raising=False)
    model = ManagerSettings(
        load_settings(resolve_paths()),
        transport_for=lambda env, _url: transport if env is Environment.TRAINING else None,
        training=TRAINING,
    )
    screen = SettingsScreen(model)
    qtbot.addWidget(screen)
    screen.resize(1024, 768)
    screen.show()
    return screen


def test_the_switch_makes_the_training_service_unreachable_until_it_is_off(
    qtbot: QtBot,
    session: CounterSession,
    sim_transport: SimTransport,
    arun: Callable[..., Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"-> cannot reach")
    expect_log(r"^manager settings: network")  # its branch list, read while switched on
    screen = settings_screen(qtbot, tmp_path, monkeypatch, sim_transport)
    card = screen.training_card
    assert card is not None
    switch = card.no_connection
    assert switch.text() == "Simulate no connection"
    assert not switch.isChecked()
    assert switch.height() >= 48
    screen.scroller.ensureWidgetVisible(switch)
    qtbot.mouseClick(switch, LEFT, pos=QPoint(12, switch.height() // 2))
    assert switch.isChecked()

    async def offline() -> ApiError:
        try:
            await session.call(lambda: session.api.search_client(JUAN))
        except ApiError as error:
            return error
        raise AssertionError("the training service answered")

    error = arun(offline())
    assert error.kind is ErrorKind.NETWORK
    assert not session.online  # the status bar says "No connection"
    qtbot.mouseClick(switch, LEFT, pos=QPoint(12, switch.height() // 2))
    assert not switch.isChecked()
    found = arun(session.call(lambda: session.api.search_client(JUAN)))
    assert found.document_number == JUAN
    assert session.online


def test_spanish_and_only_in_training(
    qtbot: QtBot,
    sim_transport: SimTransport,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    arun: Callable[..., Any],
    spanish: Any,
) -> None:
    async def scenario() -> None:
        screen = settings_screen(qtbot, tmp_path, monkeypatch, sim_transport)
        assert screen.training_card is not None
        assert screen.training_card.no_connection.text() == "Simular sin conexión"
        await until(lambda: not screen.tasks.running("branches"))
        # A kiosk on the network has no simulator to cut: no card.
        assert training_section(screen.model) is not None
        network = ManagerSettings(
            screen.model.settings, transport_for=lambda env, url: None, training=TRAINING
        )
        assert training_section(network) is None

    arun(scenario())
