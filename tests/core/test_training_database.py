"""Training keeps its own database (issue #17, item 9) and the counter applies the
retention (item 10): ``build_counter`` opens ``kiosk-training.sqlite3`` in training and
``kiosk.sqlite3`` otherwise, a training credit never shows in the real Today, the rows
a training run left in ``kiosk.sqlite3`` before the split stay where they are, and the
journal's retention runs once the counter is up."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kiosk.core.db import open_database
from kiosk.core.journal import Journal, OperationKind, Outcome
from kiosk.core.settings.layers import load_settings
from kiosk.core.settings.paths import KioskPaths, resolve_paths
from kiosk.sim import DEFAULT_API_KEY, create_app
from kiosk.sim.seed import build_world
from kiosk.sim.transport import SimTransport
from kiosk.wiring import build_counter

URL = "https://api.example.test"


@pytest.fixture
def paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> KioskPaths:
    monkeypatch.setenv("LOYALTY_KIOSK_HOME", str(tmp_path))
    monkeypatch.setenv("LOYALTY_KIOSK_MACHINE_SETTINGS", str(tmp_path / "machine.ini"))
    found = resolve_paths()
    found.ensure_dirs()
    return found


def counts(database: Path) -> tuple[int, int]:
    with sqlite3.connect(database) as conn:
        journal = conn.execute("SELECT COUNT(*) FROM journal").fetchone()[0]
        outbox = conn.execute("SELECT COUNT(*) FROM outbox_rows").fetchone()[0]
    return int(journal), int(outbox)


def test_the_files_sit_side_by_side(paths: KioskPaths) -> None:
    assert paths.training_database == paths.data_dir / "kiosk-training.sqlite3"
    assert paths.database_for("training") == paths.training_database
    assert paths.database_for("production") == paths.database == paths.data_dir / "kiosk.sqlite3"
    assert paths.database_for("qa") == paths.database


def test_training_writes_its_own_file_and_leaves_the_old_rows_in_place(paths: KioskPaths) -> None:
    before = open_database(paths.database)  # a training run of before the split
    Journal(before).record(OperationKind.CREDIT, Outcome.OK, client="Trainee", points=150)
    before.execute(
        "INSERT INTO outbox_rows (kind, external_id, body, state, created_at, next_attempt_at,"
        " environment, base_url, key_fingerprint, branch_id) VALUES"
        " ('credit', 'old', '{}', 'done', 0, 0, 'training', 'http://training.sim', 'k', 1)"
    )
    before.close()
    original = paths.database.read_bytes()

    async def scenario() -> None:
        counter = await build_counter(load_settings(paths), paths, demo=True)
        try:
            assert counter.worker.path == paths.training_database
            assert await counter.session.journal.today() == []  # the old rows: not here
            await counter.session.journal.record(
                OperationKind.CREDIT, Outcome.OK, client="Practice", points=10
            )
            assert len(await counter.session.journal.today()) == 1
        finally:
            await counter.close()

    asyncio.run(scenario())
    assert paths.database.read_bytes() == original  # untouched: nothing moved or deleted
    assert counts(paths.database) == (1, 1)
    assert counts(paths.training_database) == (1, 0)


def test_a_training_credit_never_shows_in_the_real_today(paths: KioskPaths) -> None:
    (paths.machine_settings).write_text(
        f"[connection]\nenvironment = production\nproduction_url = {URL}\nbranch_id = 1\n",
        encoding="utf-8",
    )
    settings = load_settings(paths)

    async def scenario() -> None:
        training = await build_counter(settings, paths, demo=True)  # --demo on this kiosk
        try:
            await training.session.journal.record(
                OperationKind.CREDIT, Outcome.OK, client="Practice", points=10
            )
        finally:
            await training.close()
        transport = SimTransport(create_app(build_world()))
        production = await build_counter(
            settings, paths, demo=False, transport=transport, api_key=DEFAULT_API_KEY
        )
        try:
            assert production.worker.path == paths.database
            assert await production.session.journal.today() == []
        finally:
            await production.close()

    asyncio.run(scenario())


def test_the_counter_applies_the_journals_retention_once_up(paths: KioskPaths) -> None:
    paths.machine_settings.write_text("[journal]\njournal_retention_days = 7\n", encoding="utf-8")
    old = open_database(paths.training_database)
    ten_days_ago = datetime.now(UTC) - timedelta(days=10)
    Journal(old, now=lambda: ten_days_ago).record(OperationKind.CREDIT, Outcome.OK, points=1)
    Journal(old).record(OperationKind.CREDIT, Outcome.OK, points=2)
    old.close()

    async def scenario() -> None:
        counter = await build_counter(load_settings(paths), paths, demo=True)
        try:
            upkeep = counter.upkeep
            assert upkeep is not None
            assert upkeep.retention.journal_days == 7
            assert upkeep.passes == 0  # the start does not wait for it
            counter.start_checks()
            for _ in range(500):
                if upkeep.passes:
                    break
                await asyncio.sleep(0.01)
            assert upkeep.passes == 1
            task = counter.tidying
            assert task is not None
            assert not task.done()  # it stays, for the next day
        finally:
            await counter.close()
        assert task.cancelled()

    asyncio.run(scenario())
    assert counts(paths.training_database) == (1, 0)
