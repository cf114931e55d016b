"""The Code screen against the simulator, in virtual time.

The screen's poller, the API client's limiter and retries run on one
``VirtualClock`` that also moves the simulator's (frozen) clock, so a code
rotation is a clock advance, not a minute of waiting. Set ``KIOSK_SHOTS`` to a
folder to also save 1280x800 PNGs of the states seen.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QWidget
from pytestqt.qtbot import QtBot
from starlette.types import ASGIApp

from kiosk.api.client import LoyaltyClient
from kiosk.api.retry import RetryPolicy
from kiosk.core.counter.validation_code import CodePhase, session_poller
from kiosk.core.db import DatabaseWorker
from kiosk.core.journal import AsyncJournal
from kiosk.core.session import BranchInfo, CounterSession, SessionConfig
from kiosk.sim.control import SimControl
from kiosk.sim.transport import SimTransport
from kiosk.sim.validation import current_code
from kiosk.sim.world import World
from kiosk.ui.main_window import CounterView
from kiosk.ui.screens.code.screen import CodeScreen
from tests.conftest import MAIN_KEY
from tests.core.counter.validation_code_fakes import VirtualClock
from tests.qt_async import until
from tests.ui.conftest import first_branch
from tests.ui.theme_support import app_theme

WINDOW_START = 1_800_000_000.0  # a multiple of 60: the start of a code's window
CODE_PATH = r"^/external/validation-code/\d+/current$"


@pytest.fixture
def themed(qapp: QApplication) -> Iterator[None]:
    """The counter's theme (role sizes such as the 168 px code), undone afterwards."""
    with app_theme(qapp):
        yield


class Rig:
    """The simulator frozen at a window start, a session whose client runs on the
    virtual clock, and the Code screen inside the counter view at 1280x800."""

    def __init__(
        self,
        qtbot: QtBot,
        world: World,
        app: ASGIApp,
        tmp: Path,
        start: float = WINDOW_START,
        wrap: Callable[[httpx.AsyncBaseTransport], httpx.AsyncBaseTransport] | None = None,
    ) -> None:
        self.world = world
        self.control = SimControl(world)
        self.control.freeze(at=start)
        self.clock = VirtualClock(start=5000.0, also=world.clock.advance)
        branch = first_branch(world)
        self.api = LoyaltyClient(
            f"http://sim-{uuid.uuid4().hex[:8]}.test",
            MAIN_KEY,
            branch_id=branch["id"],
            transport=(wrap or (lambda inner: inner))(SimTransport(app)),
            clock=self.clock,
            sleep=self.clock.sleep,
            retry=RetryPolicy(random=lambda: 0.0),
        )
        config = SessionConfig("training", BranchInfo(branch["id"], branch["name"]), "k-test")
        self.session = CounterSession(
            self.api, AsyncJournal(DatabaseWorker(tmp / "k.sqlite3")), config
        )
        self.qtbot = qtbot

    def open(self) -> CodeScreen:
        """The Code screen in the counter view (which enters it); call inside the loop."""
        poller = session_poller(
            self.session, clock=self.clock, sleep=self.clock.sleep, rand=lambda: 0.0
        )
        self.screen = CodeScreen(self.session, poller=poller)
        self.view = CounterView(self.session, [self.screen])
        self.qtbot.addWidget(self.view)
        self.view.resize(1280, 800)
        self.view.show()
        return self.screen

    def qr(self, qr_id: int = 1) -> dict[str, Any]:
        return self.world.merchants[1].tables["qrs"][qr_id]

    def sim_code(self, qr_id: int = 1) -> str:
        return current_code(self.qr(qr_id), self.world.clock.time())[0]

    def code_reads(self) -> list[dict[str, Any]]:
        return self.control.requests(path=CODE_PATH)

    def shown(self) -> str:
        return self.screen.panel.shown_code()

    async def idle(self) -> None:
        await until(lambda: self.clock.sleeping > 0)

    def shot(self, name: str, widget: QWidget | None = None) -> None:
        folder = os.environ.get("KIOSK_SHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            (widget or self.view).grab().save(str(Path(folder) / f"{name}.png"))

    async def close(self) -> None:
        self.screen.leave()
        await until(lambda: not self.screen.poller.running)
        await self.api.aclose()


@pytest.fixture
def rig(qtbot: QtBot, sim_world: World, sim_app: ASGIApp, tmp_path: Path, themed: None) -> Rig:
    return Rig(qtbot, sim_world, sim_app, tmp_path)


def test_shows_the_simulators_code_big_with_a_countdown_and_rotates(
    rig: Rig, arun: Callable[..., Any]
) -> None:
    async def scenario() -> None:
        screen = rig.open()
        await until(lambda: screen.phase() is CodePhase.LIVE)  # the view entered it
        first = rig.sim_code()
        assert rig.shown() == first
        assert len(first) == 4
        assert first.isdigit()
        label = screen.panel.code
        assert label.property("role") == "code"
        assert label.font().pixelSize() >= 160
        assert screen.qr_name.text() == rig.qr()["qrName"]
        assert screen.branch_name.text() == "Sucursal Centro"
        assert not screen.choices_row.isVisible()  # one QR: nothing to choose
        assert screen.panel.status.text() == "Changes in 1:00"
        full = screen.panel.countdown.value()
        assert full == 1000
        rig.shot("code")
        rig.clock.advance(45)
        await until(lambda: screen.panel.countdown.value() == 250)
        await until(lambda: screen.panel.status.text() == "Changes in 0:15")  # 4 ticks a second
        assert len(rig.code_reads()) == 1
        rig.clock.advance(15)  # the window ends: the next code is read at once
        await until(lambda: len(rig.code_reads()) == 2)
        await until(lambda: rig.shown() == rig.sim_code() != first)
        assert screen.panel.countdown.value() == 1000

        screen.leave()  # hidden: no more reads, however long
        await until(lambda: not screen.poller.running)
        rig.clock.advance(600)
        for _ in range(20):
            await asyncio.sleep(0)
        assert len(rig.code_reads()) == 2
        assert len(rig.control.requests(path=r"^/external/validation-code/")) == 3  # + the list
        await rig.close()

    arun(scenario())


def test_429_on_the_code_waits_and_retries_then_shows_it(
    rig: Rig, arun: Callable[..., Any], expect_log: Callable[[str], None]
) -> None:
    expect_log(r"^reading the validation code failed \(rate_limited")

    async def scenario() -> None:
        screen = rig.open()
        await until(lambda: screen.phase() is CodePhase.LIVE)
        # The branch's budget is spent elsewhere: the server asks for 90 s.
        rig.control.add_fault("status", CODE_PATH, status=429, headers={"Retry-After": "90"})
        rig.clock.advance(60)
        await until(lambda: screen.phase() is CodePhase.UNAVAILABLE)
        assert rig.shown() == ""
        assert screen.panel.status.text() == "Code unavailable"
        assert "asked to wait" in screen.panel.detail.text()
        assert "tries again by itself in 1:30." in screen.panel.detail.text()
        rig.shot("code-unavailable")
        rig.clock.advance(89)
        await rig.idle()
        assert [r["status"] for r in rig.code_reads()] == [200, 429]
        rig.clock.advance(1)
        await until(lambda: screen.phase() is CodePhase.LIVE)
        assert [r["status"] for r in rig.code_reads()] == [200, 429, 200]
        assert rig.shown() == rig.sim_code()
        assert screen.panel.status.text().startswith("Changes in ")
        await rig.close()

    arun(scenario())


def test_a_branch_budget_spent_by_another_kiosk_waits_for_retry_after(
    qtbot: QtBot,
    sim_world: World,
    sim_app: ASGIApp,
    tmp_path: Path,
    themed: None,
    arun: Callable[..., Any],
    expect_log: Callable[[str], None],
) -> None:
    """The simulator's own limit, not a fault: 5 reads of the branch this minute."""
    expect_log(r"^GET /external/validation-code/.* rate_limited, retry 1 of 3")
    rig = Rig(qtbot, sim_world, sim_app, tmp_path, start=WINDOW_START + 20)
    other = LoyaltyClient(  # another kiosk of the branch, its own limiter
        "http://other-kiosk.test", MAIN_KEY, branch_id=1, transport=SimTransport(sim_app)
    )

    async def scenario() -> None:
        for _ in range(5):
            await other.list_validation_qrs(branch_id=1)
        await other.aclose()
        rig.clock.advance(15)
        since = len(sim_world.request_log)
        screen = rig.open()
        await rig.idle()  # the client waits out the 429's Retry-After
        assert screen.phase() is CodePhase.LOADING
        assert screen.panel.status.text() == "Reading the code…"
        assert rig.session.busy
        assert rig.clock.next_deadline == rig.clock.now + 45  # a place frees in 45 s
        rig.clock.advance(45)
        await until(lambda: screen.phase() is CodePhase.LIVE)
        mine = [(e["path"], e["status"]) for e in list(sim_world.request_log)[since:]]
        assert mine == [
            ("/external/validation-code/qrs", 429),
            ("/external/validation-code/qrs", 200),
            ("/external/validation-code/1/current", 200),
        ]
        assert rig.shown() == rig.sim_code()
        assert not rig.session.busy
        # Read 20 s into its window: the next read waits for the window, not the expiry.
        rig.clock.advance(40)
        await until(lambda: screen.phase() is CodePhase.WAITING)
        await until(lambda: screen.panel.status.text() == "New code in 0:20")
        assert rig.shown() == ""
        assert len(rig.code_reads()) == 1
        rig.shot("code-waiting")
        rig.clock.advance(20)
        await until(lambda: len(rig.code_reads()) == 2)
        await until(lambda: screen.phase() is CodePhase.LIVE and rig.shown() == rig.sim_code())
        await rig.close()

    arun(scenario())


def test_a_failing_read_greys_the_last_code_then_says_unavailable(
    rig: Rig, arun: Callable[..., Any], expect_log: Callable[[str], None]
) -> None:
    expect_log(r"^GET /external/validation-code/")  # the client's attempts and retries
    expect_log(r"^reading the validation code failed \(network")

    async def scenario() -> None:
        screen = rig.open()
        await until(lambda: screen.phase() is CodePhase.LIVE)
        last = rig.shown()
        rig.control.add_fault("drop", CODE_PATH, count=4)  # every attempt of the next read
        rig.clock.advance(60)
        await until(lambda: len(rig.code_reads()) == 2)
        await rig.idle()  # the client waits about a second before its next attempt
        assert screen.phase() is CodePhase.REFRESHING
        assert rig.shown() == last
        assert screen.panel.status.text() == "Refreshing…"
        rig.shot("code-refreshing")
        for wait in (1, 2, 4):
            reads = len(rig.code_reads())
            rig.clock.advance(wait)
            await until(lambda reads=reads: len(rig.code_reads()) == reads + 1)
            await rig.idle()
        assert screen.phase() is CodePhase.UNAVAILABLE
        assert rig.shown() == ""
        assert "No connection" in screen.panel.detail.text()
        assert "tries again by itself in 0:05." in screen.panel.detail.text()
        rig.clock.advance(5)
        await until(lambda: screen.phase() is CodePhase.LIVE)
        assert rig.shown() == rig.sim_code()
        await rig.close()

    arun(scenario())


def test_choosing_among_the_branchs_qrs(
    qtbot: QtBot,
    sim_world: World,
    sim_app: ASGIApp,
    tmp_path: Path,
    themed: None,
    arun: Callable[..., Any],
) -> None:
    sim_world.merchants[1].tables["qrs"][4]["_active"] = True  # a second QR at the branch
    rig = Rig(qtbot, sim_world, sim_app, tmp_path)

    async def scenario() -> None:
        screen = rig.open()
        await until(lambda: screen.phase() is CodePhase.LIVE)
        assert screen.choices_row.isVisible()
        assert sorted(screen.qr_buttons) == [1, 4]
        assert screen.qr_buttons[1].isChecked()
        assert rig.shown() == rig.sim_code(1)
        rig.shot("code-choice")
        qtbot.mouseClick(screen.qr_buttons[4], Qt.MouseButton.LeftButton)
        await until(lambda: screen.phase() is CodePhase.LIVE and rig.shown() == rig.sim_code(4))
        assert screen.qr_buttons[4].isChecked()
        assert not screen.qr_buttons[1].isChecked()
        assert screen.qr_name.text() == rig.qr(4)["qrName"]
        assert [r["path"] for r in rig.code_reads()] == [
            "/external/validation-code/1/current",
            "/external/validation-code/4/current",
        ]
        await rig.close()

    arun(scenario())


def test_a_configured_qr_is_shown_first(
    qtbot: QtBot, sim_world: World, sim_app: ASGIApp, tmp_path: Path, arun: Callable[..., Any]
) -> None:
    sim_world.merchants[1].tables["qrs"][4]["_active"] = True
    rig = Rig(qtbot, sim_world, sim_app, tmp_path)

    async def scenario() -> None:
        rig.open().leave()
        rig.session.config.validation_qr_id = 4
        screen = CodeScreen(
            rig.session,
            poller=session_poller(rig.session, clock=rig.clock, sleep=rig.clock.sleep),
        )
        qtbot.addWidget(screen)
        await until(lambda: not rig.screen.poller.running)
        reads = len(rig.code_reads())
        for _ in range(20):  # built, not shown: it reads nothing
            await asyncio.sleep(0)
        assert len(rig.code_reads()) == reads
        assert not screen.poller.running
        screen.entered()
        await until(lambda: screen.phase() is CodePhase.LIVE)
        assert rig.shown() == ""
        assert screen.panel.shown_code() == rig.sim_code(4)
        screen.reset()  # idle while shown: back to the configured QR, still reading
        assert screen.poller.running
        assert screen.poller.snapshot.qr is not None
        assert screen.poller.snapshot.qr.id == 4
        screen.leave()
        await until(lambda: not screen.poller.running)
        await rig.api.aclose()

    arun(scenario())


def test_a_branch_without_a_rotating_qr_says_who_can_fix_it(
    qtbot: QtBot,
    sim_world: World,
    sim_app: ASGIApp,
    tmp_path: Path,
    themed: None,
    arun: Callable[..., Any],
) -> None:
    sim_world.merchants[1].tables["qrs"][1]["_rotating"] = False
    rig = Rig(qtbot, sim_world, sim_app, tmp_path)

    async def scenario() -> None:
        screen = rig.open()
        await until(lambda: screen.phase() is CodePhase.NO_QR)
        assert screen.panel.status.text() == "This branch has no validation QR"
        assert "Ask a manager" in screen.panel.detail.text()
        assert rig.shown() == ""
        assert rig.code_reads() == []
        rig.shot("code-no-qr")
        await rig.close()

    arun(scenario())


def test_the_code_screen_shows_no_client_and_says_the_branch_once(
    rig: Rig, arun: Callable[..., Any]
) -> None:
    """Turned towards the client (issue #14, item 10): no name, email or balance of the
    client identified, and "Caja principal - Sucursal Centro" without the branch again."""
    record = next(iter(rig.world.merchants[1].tables["clients"].values()))

    async def scenario() -> None:
        client = await rig.api.search_client(record["email"])
        rig.session.set_client(client)
        screen = rig.open()
        await until(lambda: screen.phase() is CodePhase.LIVE)
        view = rig.view
        assert not view.card.isVisible()
        shown = " ".join(label.text() for label in view.findChildren(QLabel) if label.isVisible())
        name = " ".join(p for p in (record.get("first_name"), record.get("last_name")) if p)
        for private in (name, record["email"].split("@")[0][:1] + "***", "pts"):
            assert private not in shown
        title = screen.qr_name.text()
        assert title == rig.qr()["qrName"]
        assert "Sucursal Centro" in title
        assert not screen.branch_name.isVisible()  # said once, in the QR's name
        assert shown.count("Sucursal Centro") == 2  # the title and the status bar
        rig.shot("code-with-client")
        await rig.close()

    arun(scenario())


class HostileCodes(httpx.AsyncBaseTransport):
    """The simulator, except that every current code comes back as ``code``."""

    def __init__(self, inner: httpx.AsyncBaseTransport, code: str) -> None:
        self.inner = inner
        self.code = code

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if not re.match(CODE_PATH, request.url.path):
            return response
        body = json.loads(await response.aread())
        body["data"]["code"] = self.code
        return httpx.Response(response.status_code, json=body)

    async def aclose(self) -> None:
        await self.inner.aclose()


@pytest.mark.parametrize(
    "code",
    ["12345", "12AB", "１２３４", "\u202e1234", "<b>12</b>34"],
    ids=["five-digits", "letters", "full-width", "rtl-override", "markup"],
)
def test_a_code_that_is_not_4_digits_shows_code_unavailable_as_plain_text(
    qtbot: QtBot,
    sim_world: World,
    sim_app: ASGIApp,
    tmp_path: Path,
    themed: None,
    arun: Callable[..., Any],
    expect_log: Callable[[str], None],
    code: str,
) -> None:
    """Issue #22, item 13: the contract's code is 4 digits; anything else is "Code
    unavailable", and nothing the server sends renders as rich text."""
    expect_log(r"^reading the validation code failed \(malformed")
    rig = Rig(qtbot, sim_world, sim_app, tmp_path, wrap=lambda inner: HostileCodes(inner, code))

    async def scenario() -> None:
        screen = rig.open()
        await until(lambda: screen.phase() is CodePhase.UNAVAILABLE)
        panel = screen.panel
        assert rig.shown() == ""
        assert panel.status.text() == "Code unavailable"
        assert "The service did not give the code." in panel.detail.text()
        for label in (panel.code, panel.status, panel.detail):
            assert label.textFormat() is Qt.TextFormat.PlainText
        assert code not in " ".join(label.text() for label in rig.view.findChildren(QLabel))
        await rig.close()

    arun(scenario())
