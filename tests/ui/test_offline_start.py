"""The counter opens when the service cannot be reached at start-up (issue #4: network
errors never crash the window; issue #5: credits wait in the outbox meanwhile).

A production kiosk is bound to a branch id; the branch's name comes from the service.
The last name confirmed is kept in the data folder (``kiosk.core.settings.branch_memory``):
the next start shows it at once and checks it in the background. A first start
without connection shows the branch number until the service answers. A service that
refuses the key or the branch makes the kiosk "not configured" (the manager's
settings), never a crash."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from kiosk.api.models.points import CreditClient, CreditRequest
from kiosk.core.counter.tickets import kiosk_external_id
from kiosk.core.outbox.types import JournalNote
from kiosk.core.settings.layers import load_settings
from kiosk.core.settings.paths import KioskPaths, resolve_paths
from kiosk.core.setup_errors import NotConfigured
from kiosk.sim import DEFAULT_API_KEY, create_app
from kiosk.sim.control import SimControl
from kiosk.sim.seed import build_world
from kiosk.sim.transport import SimTransport
from kiosk.ui.widgets.status_bar import CounterStatusBar
from kiosk.wiring import BRANCH_MEMORY, build_counter
from tests.qt_async import until

BRANCH = "/external/branch"
URL = "https://api.example.test"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("LOYALTY_KIOSK_HOME", str(tmp_path))
    monkeypatch.setenv("LOYALTY_KIOSK_MACHINE_SETTINGS", str(tmp_path / "machine.ini"))
    return tmp_path


class Service:
    """The simulator as the production service of one kiosk bound to branch 1."""

    def __init__(self, home: Path, branch_id: int = 1) -> None:
        (home / "machine.ini").write_text(
            "[connection]\nenvironment = production\n"
            f"production_url = {URL}\nbranch_id = {branch_id}\n",
            encoding="utf-8",
        )
        self.world = build_world()
        self.control = SimControl(self.world)
        self.transport = SimTransport(create_app(self.world))
        self.paths: KioskPaths = resolve_paths()
        self.paths.ensure_dirs()

    async def start(self) -> Any:
        return await build_counter(
            load_settings(self.paths),
            self.paths,
            demo=False,
            transport=self.transport,
            api_key=DEFAULT_API_KEY,
        )

    def branch_name(self) -> str:
        return str(self.world.merchants[1].table("branches")[1]["name"])

    def branch_reads(self) -> int:
        return len([r for r in self.control.requests() if r["path"].startswith(BRANCH)])

    @property
    def memory(self) -> Path:
        return self.paths.data_dir / BRANCH_MEMORY


def test_the_name_confirmed_once_is_shown_at_the_next_start_without_connection(
    home: Path, arun: Callable[..., Any], expect_log: Callable[[str], None]
) -> None:
    expect_log(r"RemoteProtocolError|connection lost")
    service = Service(home)
    name = service.branch_name()

    async def scenario() -> None:
        counter = await service.start()  # online: confirmed and remembered
        assert counter.session.config.branch.name == name
        assert counter.unconfirmed is None
        counter.start_checks()
        assert counter.confirming is None
        await counter.close()
        assert json.loads(service.memory.read_text(encoding="utf-8"))["name"] == name
        # The next morning the service is down: the counter opens with the name at once.
        service.control.add_fault("drop", path=BRANCH, count=None)
        counter = await service.start()
        try:
            session = counter.session
            assert session.config.branch.name == name
            assert session.config.branch.id == 1
            assert service.branch_reads() == 1  # none yet: the name came from the memory
            counter.start_checks()
            await until(lambda: not session.online, timeout=15)  # the background check failed
            assert counter.confirming is not None
            assert not counter.confirming.done()
        finally:
            await counter.close()
        assert counter.confirming.cancelled()

    arun(scenario())


def test_a_first_start_without_connection_shows_the_branch_number_until_it_answers(
    home: Path,
    arun: Callable[..., Any],
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"RemoteProtocolError|cannot be reached|connection lost")
    monkeypatch.setattr("kiosk.wiring.CONFIRM_RETRY_SECONDS", 0.05)
    service = Service(home)
    name = service.branch_name()
    service.control.add_fault("drop", path=BRANCH, count=None)

    async def scenario() -> None:
        counter = await service.start()
        try:
            session = counter.session
            assert session.config.branch.id == 1
            assert session.config.branch.name == ""
            assert service.branch_reads() == 1  # one attempt, no retries at start
            counter.start_checks()
            bar = CounterStatusBar()
            qtbot.addWidget(bar)
            bar.set_branch(session.config.branch.name, session.config.branch.id)
            session.branch_changed.connect(lambda b: bar.set_branch(b.name, b.id))
            assert bar.branch.text() == "Branch 1"
            await until(lambda: not session.online)
            # The service comes back: the name arrives and is kept for next time.
            service.control.clear_faults()
            await until(lambda: bar.branch.text() == name)
            assert session.online
            assert counter.confirming is not None
            await asyncio.wait_for(counter.confirming, 5)
        finally:
            await counter.close()
        assert json.loads(service.memory.read_text(encoding="utf-8"))["name"] == name

    arun(scenario())


def test_a_remembered_name_of_another_service_or_branch_is_not_used(
    home: Path, arun: Callable[..., Any]
) -> None:
    service = Service(home)
    service.memory.write_text(
        json.dumps(
            {
                "version": 1,
                "environment": "production",
                "base_url": "https://other.example.test",
                "configured": 1,
                "branch_id": 1,
                "name": "Somewhere else",
            }
        ),
        encoding="utf-8",
    )

    async def scenario() -> str:
        counter = await service.start()
        try:
            return counter.session.config.branch.name
        finally:
            await counter.close()

    assert arun(scenario()) == service.branch_name()
    assert service.branch_reads() == 1


def test_a_refused_branch_is_not_configured_not_a_crash(
    home: Path, arun: Callable[..., Any]
) -> None:
    service = Service(home, branch_id=9999)

    async def scenario() -> None:
        with pytest.raises(NotConfigured, match="refused"):
            await service.start()

    arun(scenario())


def test_background_sends_drive_the_connection_state(
    home: Path, arun: Callable[..., Any], expect_log: Callable[[str], None]
) -> None:
    """A credit waiting in the outbox that the sender cannot deliver shows "Offline" on
    the status bar even when the cashier makes no call; its delivery shows "Online"."""
    expect_log(r"RemoteProtocolError|connection lost|-> \w+Error")
    service = Service(home)
    member = next(c for c in service.world.merchants[1].table("clients").values() if c.get("email"))

    async def scenario() -> None:
        counter = await service.start()
        counter.start_checks()  # the sender, as the counter starts it once ready
        try:
            session = counter.session
            assert session.online
            service.control.add_fault("drop", path="/external/tags/add", count=1)
            request = CreditRequest(
                external_id=kiosk_external_id(1, date.today(), "0a1b2c3d"),
                client=CreditClient(email=str(member["email"])),
                amount=1000.0,
                branch_id=1,
            )
            submitted = await counter.outbox.submit_credit(request, journal=JournalNote())
            await until(lambda: not session.online, timeout=15)  # the drop, in the background
            await counter.outbox.retry_now()  # (no real 1 s backoff in the suite)
            await until(lambda: session.online, timeout=15)  # delivered
            settled = await counter.outbox.wait_settled(submitted.row.id, within=15)
            assert settled is not None
        finally:
            await counter.close()

    arun(scenario())
