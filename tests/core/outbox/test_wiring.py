"""The counter's composition root with the outbox (issue #5): ``build_counter``
attaches the outbox to the session and ``start_checks`` (after "ready") starts its
sender, which sends what was stored before it ran; a credit goes through it exactly
once, the connection coming back makes waiting rows due, and the manager settings
model gets the outbox so a branch switch with rows waiting is refused."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest

from kiosk.api.models.points import CreditClient, CreditRequest
from kiosk.app import _manager_model
from kiosk.core.journal import Outcome
from kiosk.core.outbox.queue import JournalNote, SwitchRefused
from kiosk.core.settings.layers import load_settings
from kiosk.core.settings.paths import resolve_paths
from kiosk.sim.control import SimControl
from kiosk.sim.persist import open_world
from kiosk.wiring import TRAINING_DB, build_counter


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("LOYALTY_KIOSK_HOME", str(tmp_path))
    monkeypatch.setenv("LOYALTY_KIOSK_MACHINE_SETTINGS", str(tmp_path / "machine.ini"))
    return tmp_path


def test_the_counter_credits_through_its_running_outbox_and_guards_switches(home: Path) -> None:
    paths = resolve_paths()
    paths.ensure_dirs()
    settings = load_settings(paths)

    async def scenario() -> tuple[str, int]:
        counter = await build_counter(settings, paths, demo=True)
        try:
            session, outbox = counter.session, counter.outbox
            assert outbox is not None
            assert counter.sender is None  # nothing is sent before the counter is up
            assert session.outbox is outbox
            assert outbox.binding.environment == "training"
            assert outbox.binding.branch_id == session.config.branch.id
            client = await session.api.search_client("30123456")
            request = CreditRequest(
                "b1-20261122-k0a1b2c3d-0000000000aa",
                CreditClient(email=client.email),
                amount=1500.0,
                branch_id=session.config.branch.id,
            )
            # A credit taken before the sender runs waits in the outbox, and is sent
            # once the counter starts its background work.
            submitted = await outbox.submit_credit(
                request, journal=JournalNote(client="Juan"), live=True
            )
            assert (await outbox.status()).pending == 1
            counter.start_checks()
            sender = counter.sender
            assert sender is not None
            settlement = await outbox.wait_settled(submitted.row.id, within=10)
            assert settlement is not None
            assert settlement.points
            [row] = await session.journal.today()
            assert row.outcome is Outcome.OK
            # A row waiting (no sender): a switch of branch is refused by the manager model.
            await sender.stop()
            waiting = dataclasses.replace(request, external_id="b1-20261122-k0a1b2c3d-0000000000ab")
            await outbox.submit_credit(waiting)
            model = _manager_model(settings, counter.transport, outbox)
            assert model.pending is outbox
            other = dataclasses.replace(
                model.draft(), branch_id=(session.config.branch.id or 0) + 1
            )
            with pytest.raises(SwitchRefused):
                await model.apply(other)
            # The connection coming back makes the waiting row due now.
            seen: list[int] = []
            outbox.work_added.connect(lambda _now: seen.append(1))
            session.report_online(False)
            session.report_online(True)
            await asyncio.sleep(0.05)
            assert seen
            return settlement.external_id, (await outbox.status()).pending
        finally:
            await counter.close()

    external_id, pending = asyncio.run(scenario())
    assert pending == 1
    world, store = open_world(paths.data_dir / TRAINING_DB)
    try:
        ledger = [op for op in SimControl(world).ledger() if op.get("externalId") == external_id]
        assert len(ledger) == 1
    finally:
        store.close()
