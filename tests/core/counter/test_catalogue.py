"""The point-item catalogue kept in the kiosk's SQLite file: saved at each fetch, read
back when the simulator cannot be reached (503, dropped connections), fetched again
when the connection returns; a refusal of the API is not an outage."""

from __future__ import annotations

import asyncio
import sqlite3
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from starlette.types import ASGIApp

from kiosk.api.client import LoyaltyClient
from kiosk.api.errors import ApiError, ErrorKind
from kiosk.api.models.catalog import PointItem
from kiosk.api.retry import RetryPolicy
from kiosk.api.transport import Timeouts
from kiosk.core.counter.catalogue import (
    PointItemCache,
    PointItemCatalogue,
    item_json,
    saved_at_text,
)
from kiosk.core.db import DatabaseWorker
from kiosk.core.journal import AsyncJournal
from kiosk.core.session import BranchInfo, CounterSession, SessionConfig
from kiosk.sim.control import SimControl
from kiosk.sim.transport import SimTransport
from kiosk.sim.world import World
from tests.conftest import MAIN_KEY

ITEMS = r"^/external/point-items$"
SAVED_AT = 1_750_000_000.0


def _branch(world: World) -> dict[str, Any]:
    branches = world.merchants[1].tables["branches"]
    branch: dict[str, Any] = branches[min(branches)]
    return branch


def _session(
    app: ASGIApp,
    world: World,
    worker: DatabaseWorker,
    environment: str = "training",
    *,
    timeout: float = 10.0,
) -> CounterSession:
    branch = _branch(world)
    api = LoyaltyClient(
        f"http://sim-{uuid.uuid4().hex[:8]}.test",
        MAIN_KEY,
        branch_id=branch["id"],
        transport=SimTransport(app),
        retry=RetryPolicy(delays=(0.0, 0.0)),
        timeouts=Timeouts(default=timeout),
    )
    config = SessionConfig(environment, BranchInfo(branch["id"], branch["name"]), "0a1b2c3d")
    return CounterSession(api, AsyncJournal(worker), config)


def _expected_ids(world: World) -> list[int]:
    branch_id = _branch(world)["id"]
    items = world.merchants[1].tables["point_items"].values()
    return sorted(i["id"] for i in items if i["branchId"] in (None, branch_id))


def _catalogue(session: CounterSession, at: float = SAVED_AT) -> PointItemCatalogue:
    return PointItemCatalogue(session, clock=lambda: at)


BUENOS_AIRES = timezone(timedelta(hours=-3))


@pytest.mark.parametrize(
    ("saved", "locale", "text"),
    [
        (datetime(2026, 11, 21, 17, 32, tzinfo=UTC), "es-AR", "14:32"),
        (datetime(2026, 11, 21, 17, 32, tzinfo=UTC), "en-US", "2:32 PM"),
        (datetime(2026, 11, 21, 3, 5, tzinfo=UTC), "en-US", "12:05 AM"),
        # 01:30 UTC on the 22nd is still the 21st at the store: today, no date.
        (datetime(2026, 11, 22, 1, 30, tzinfo=UTC), "es-AR", "22:30"),
        # Another day at the store: with the date.
        (datetime(2026, 11, 20, 17, 32, tzinfo=UTC), "es-AR", "20/11/2026 14:32"),
        (datetime(2026, 11, 21, 2, 59, tzinfo=UTC), "es-AR", "20/11/2026 23:59"),
        (datetime(2026, 11, 20, 17, 32, tzinfo=UTC), "en-US", "11/20/2026 2:32 PM"),
    ],
)
def test_saved_at_text_is_the_store_time_with_the_date_when_not_today(
    saved: datetime, locale: str, text: str
) -> None:
    now = datetime(2026, 11, 21, 23, 0, tzinfo=BUENOS_AIRES)
    assert saved_at_text(saved, locale, now=now, tz=BUENOS_AIRES) == text


def test_item_json_reads_back_the_same_item() -> None:
    item = PointItem(
        7,
        name="Café",
        points=12,
        amount=None,
        branch_id=3,
        created_at=datetime(2025, 1, 2, tzinfo=UTC),
    )
    assert PointItem.from_json(item_json(item)) == item


@pytest.mark.parametrize(
    "fault",
    [{"kind": "status", "status": 503}, {"kind": "drop"}, {"kind": "timeout", "seconds": 30}],
    ids=["503", "dropped", "timeout"],
)
def test_the_saved_list_is_used_when_the_service_cannot_be_reached(
    sim_app: ASGIApp,
    sim_world: World,
    tmp_path: Path,
    expect_log: Callable[[str], None],
    fault: dict[str, Any],
) -> None:
    expect_log(r"point-items|point items")
    control = SimControl(sim_world)

    async def scenario() -> None:
        worker = DatabaseWorker(tmp_path / "kiosk.sqlite3")
        await worker.start()
        # Yesterday's kiosk: fetched and saved.
        first = _session(sim_app, sim_world, worker)
        online = await _catalogue(first).preload()
        assert sorted(i.id for i in online) == _expected_ids(sim_world)
        await first.api.aclose()
        # Today it starts during an outage: the buttons come from the file.
        today = _session(sim_app, sim_world, worker, timeout=0.2)
        control.add_fault(**{"path": ITEMS, "count": None, **fault})
        catalogue = _catalogue(today, at=SAVED_AT + 3600)
        items = await catalogue.preload()
        assert items == online
        assert catalogue.loaded
        assert catalogue.from_cache
        assert catalogue.saved_at == datetime.fromtimestamp(SAVED_AT, UTC)
        assert catalogue.get(online[0].id) == online[0]
        # The list in memory is kept; asking again while down says so.
        with pytest.raises(ApiError):
            await catalogue.refresh()
        assert catalogue.items == online
        assert catalogue.from_cache
        await today.api.aclose()
        await worker.close()

    asyncio.run(scenario())


def test_back_online_the_list_is_fetched_again_and_saved(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"point-items|point items")
    control = SimControl(sim_world)

    async def scenario() -> None:
        worker = DatabaseWorker(tmp_path / "kiosk.sqlite3")
        await worker.start()
        first = _session(sim_app, sim_world, worker)
        await _catalogue(first).preload()
        await first.api.aclose()
        # While the kiosk was off, the merchant renamed an item.
        item_id = _expected_ids(sim_world)[0]
        sim_world.merchants[1].tables["point_items"][item_id]["name"] = "Renamed"
        session = _session(sim_app, sim_world, worker)
        control.add_fault("drop", ITEMS, count=None)
        catalogue = _catalogue(session, at=SAVED_AT + 60)
        changed: list[None] = []
        catalogue.changed.connect(changed.append)
        await catalogue.preload()
        assert catalogue.from_cache
        assert not session.online
        assert catalogue.get(item_id) is not None
        assert catalogue.get(item_id).name != "Renamed"  # type: ignore[union-attr]
        # The connection returns (any call going through says so): fetched again.
        control.clear_faults()
        with pytest.raises(ApiError, match="not_found"):  # an answer all the same
            await session.call(lambda: session.api.search_client("nobody-here@example.com"))
        assert session.online
        for _ in range(200):
            if changed:
                break
            await asyncio.sleep(0.01)
        assert changed == [None]
        assert not catalogue.from_cache
        assert catalogue.saved_at == datetime.fromtimestamp(SAVED_AT + 60, UTC)
        assert catalogue.get(item_id).name == "Renamed"  # type: ignore[union-attr]
        # ... and saved: the next start during an outage has the new name.
        cached = await PointItemCache(worker, "training").load(session.config.branch.id)
        assert cached is not None
        assert {i.id: i.name for i in cached.items}[item_id] == "Renamed"
        assert cached.saved_at == datetime.fromtimestamp(SAVED_AT + 60, UTC)
        await session.api.aclose()
        await worker.close()

    asyncio.run(scenario())


def test_nothing_saved_or_a_refusal_raises_as_before(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"point-items|point items")
    control = SimControl(sim_world)

    async def scenario() -> None:
        worker = DatabaseWorker(tmp_path / "kiosk.sqlite3")
        await worker.start()
        session = _session(sim_app, sim_world, worker)
        # First start ever, offline: nothing to fall back on.
        control.add_fault("status", ITEMS, status=503, count=3)
        with pytest.raises(ApiError) as raised:
            await _catalogue(session).preload()
        assert raised.value.kind is ErrorKind.UNAVAILABLE
        await _catalogue(session).preload()  # saved now
        # A refusal (404 of the route, the key...) is not an outage: no saved list.
        control.add_fault("status", ITEMS, status=404, count=3)
        catalogue = _catalogue(session)
        with pytest.raises(ApiError, match="not_found"):
            await catalogue.preload()
        assert not catalogue.loaded
        await session.api.aclose()
        await worker.close()

    asyncio.run(scenario())


def test_the_saved_list_belongs_to_its_environment_and_branch(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"point-items|point items")
    control = SimControl(sim_world)

    async def scenario() -> None:
        worker = DatabaseWorker(tmp_path / "kiosk.sqlite3")
        await worker.start()
        training = _session(sim_app, sim_world, worker, "training")
        await _catalogue(training).preload()
        production = _session(sim_app, sim_world, worker, "production")
        control.add_fault("drop", ITEMS, count=None)
        with pytest.raises(ApiError):
            await _catalogue(production).preload()  # training's items never show here
        assert await PointItemCache(worker, "training").load(10_000) is None
        await training.api.aclose()
        await production.api.aclose()
        await worker.close()

    asyncio.run(scenario())


def test_the_table_is_created_by_migration_3(tmp_path: Path) -> None:
    async def scenario() -> None:
        worker = DatabaseWorker(tmp_path / "kiosk.sqlite3")
        await worker.start()
        await worker.close()

    asyncio.run(scenario())
    conn = sqlite3.connect(tmp_path / "kiosk.sqlite3")
    columns = [row[1] for row in conn.execute("PRAGMA table_info(point_item_cache)")]
    conn.close()
    assert columns == ["environment", "branch_id", "items", "saved_at"]
