"""The async Qt recipe in action: a button whose ``asyncSlot`` awaits an HTTP call.

Runs against the simulator in process (``httpx.ASGITransport``) and over real
loopback HTTP, with the button disabled while its request runs so a double tap
cannot send twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot
from qasync import asyncSlot
from starlette.types import ASGIApp

from kiosk.sim.control import SimControl
from tests.conftest import MAIN_KEY
from tests.qt_async import until, wait_signal


class BranchButton(QWidget):
    """Fetches the merchant's branches when clicked; shows how many there are."""

    finished = Signal(int, str)  # HTTP status, label text

    def __init__(self, client: httpx.AsyncClient) -> None:
        super().__init__()
        self.client = client
        self.button = QPushButton("Load branches")
        self.label = QLabel("")
        layout = QVBoxLayout(self)
        layout.addWidget(self.button)
        layout.addWidget(self.label)
        self.button.clicked.connect(self.on_click)
        self.requests = 0
        self.busy = False

    @asyncSlot()
    async def on_click(self) -> None:
        # asyncSlot starts this coroutine as a task on the next loop turn, so two
        # taps delivered back to back schedule two tasks: the busy flag, checked in
        # the task's first step (tasks start in order), drops the second one.
        if self.busy:
            return
        self.busy = True
        self.button.setEnabled(False)
        try:
            self.requests += 1
            response = await self.client.get("/external/branch")
            if response.status_code == 200:
                count = len(response.json()["data"])
                self.label.setText(f"{count} branches")
            else:
                self.label.setText(f"error {response.status_code}")
            self.finished.emit(response.status_code, self.label.text())
        finally:
            self.busy = False
            self.button.setEnabled(True)


@pytest.fixture(params=["asgi", "http"])
def http_client(request: pytest.FixtureRequest, sim_app: ASGIApp) -> httpx.AsyncClient:
    headers = {"x-api-key": MAIN_KEY}
    if request.param == "asgi":
        return httpx.AsyncClient(
            transport=httpx.ASGITransport(app=sim_app), base_url="http://sim.test", headers=headers
        )
    url: str = request.getfixturevalue("sim_url")
    return httpx.AsyncClient(base_url=url, headers=headers)


def test_async_slot_button_awaits_http(
    qtbot: QtBot, arun: Callable[..., Any], http_client: httpx.AsyncClient, sim_world: Any
) -> None:
    widget = BranchButton(http_client)
    qtbot.addWidget(widget)
    expected = len(sim_world.merchants[1].tables["branches"])
    # Hold the answer 0.2 s so the first request is surely in flight at the second
    # tap (in process, an answer can otherwise complete within one loop step).
    SimControl(sim_world).add_fault("latency", path="/external/branch", seconds=0.2)

    async def scenario() -> None:
        # A double tap: both clicks are delivered before the handler's task runs.
        qtbot.mouseClick(widget.button, Qt.MouseButton.LeftButton)
        qtbot.mouseClick(widget.button, Qt.MouseButton.LeftButton)
        # Awaiting wait_signal connects before any slot task has run (its body runs
        # synchronously up to its first await), so the emission cannot be missed.
        status, text = await wait_signal(widget.finished)
        assert (status, text) == (200, f"{expected} branches")
        await until(widget.button.isEnabled)
        assert widget.requests == 1
        assert widget.label.text() == f"{expected} branches"
        await http_client.aclose()

    arun(scenario())
