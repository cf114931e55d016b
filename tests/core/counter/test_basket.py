"""The point-item basket (units, the 100-unit limit, repeated ids) and the catalogue."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from starlette.types import ASGIApp

from kiosk.api.client import LoyaltyClient
from kiosk.api.models.catalog import PointItem
from kiosk.api.models.points import ItemQuantity
from kiosk.core.counter.basket import MAX_UNITS, Basket, BasketFull
from kiosk.core.counter.catalogue import PointItemCatalogue, choose_items
from kiosk.core.db import DatabaseWorker
from kiosk.core.journal import AsyncJournal
from kiosk.core.session import BranchInfo, CounterSession, SessionConfig
from kiosk.sim.control import SimControl
from kiosk.sim.transport import SimTransport
from kiosk.sim.world import World
from tests.conftest import MAIN_KEY


def test_units_count_per_item_in_the_order_first_added() -> None:
    basket = Basket()
    assert basket.is_empty
    assert basket.total_units == 0
    assert basket.add(37) == 1
    assert basket.add(12) == 1
    assert basket.add(12) == 2
    assert basket.add(37, 3) == 4
    assert basket.lines() == [(37, 4), (12, 2)]
    assert basket.count(12) == 2
    assert basket.count(99) == 0
    assert basket.total_units == 6
    assert len(basket) == 2


def test_preview_quantities_and_credit_repeated_ids() -> None:
    basket = Basket()
    basket.add(12)
    basket.add(12)
    basket.add(37)
    assert basket.quantities() == [ItemQuantity(12, 2), ItemQuantity(37, 1)]
    assert basket.unit_ids() == [12, 12, 37]


def test_remove_takes_one_unit_and_drops_the_line_at_zero() -> None:
    basket = Basket()
    basket.add(5, 2)
    assert basket.remove(5) == 1
    assert basket.lines() == [(5, 1)]
    assert basket.remove(5) == 0
    assert basket.is_empty
    assert basket.remove(5) == 0  # nothing to remove: no error
    basket.add(6, 3)
    basket.discard(6)
    assert basket.is_empty


def test_one_hundred_units_in_all_and_the_101st_is_refused() -> None:
    basket = Basket()
    for index in range(MAX_UNITS):
        basket.add(1 + index % 3)
    assert basket.total_units == 100
    assert basket.is_full
    before = basket.lines()
    with pytest.raises(BasketFull) as refused:
        basket.add(1)
    assert refused.value.limit == 100
    with pytest.raises(BasketFull):
        basket.add(42)
    assert basket.lines() == before  # nothing changed
    assert len(basket.unit_ids()) == 100
    basket.remove(2)
    assert basket.add(42) == 1  # room again after a removal


def test_several_units_at_once_are_refused_whole_when_they_do_not_fit() -> None:
    basket = Basket(limit=5)
    basket.add(1, 4)
    with pytest.raises(BasketFull):
        basket.add(2, 2)
    assert basket.lines() == [(1, 4)]


@pytest.mark.parametrize(("item_id", "units"), [(0, 1), (-3, 1), (1, 0), (1, -1)])
def test_bad_ids_and_units_are_programming_errors(item_id: int, units: int) -> None:
    with pytest.raises(ValueError, match=r"positive|at least"):
        Basket().add(item_id, units)


@pytest.mark.parametrize("limit", [0, 101])
def test_the_limit_stays_within_the_contract(limit: int) -> None:
    with pytest.raises(ValueError, match="limit"):
        Basket(limit)


def test_copy_is_independent_and_equality_is_by_units() -> None:
    basket = Basket()
    basket.add(3)
    other = basket.copy()
    other.add(3)
    assert basket.count(3) == 1
    assert other.count(3) == 2
    assert basket != other
    basket.add(3)
    assert basket == other


# -- the catalogue ----------------------------------------------------------------------


def _item(item_id: int) -> PointItem:
    return PointItem(item_id, name=f"item {item_id}", points=10)


def test_choose_items_all_or_the_configured_ones_in_their_order(
    expect_log: Callable[[str], None],
) -> None:
    items = [_item(1), _item(2), _item(3)]
    assert [i.id for i in choose_items(items, ())] == [1, 2, 3]
    expect_log(r"point item 99 is in the settings")
    assert [i.id for i in choose_items(items, (3, 1, 99, 3))] == [3, 1]


def _branch(world: World) -> dict[str, Any]:
    branches = world.merchants[1].tables["branches"]
    branch: dict[str, Any] = branches[min(branches)]
    return branch


def _session(app: ASGIApp, world: World, wanted: tuple[int, ...] = ()) -> CounterSession:
    """A session for the catalogue (it needs the API and the branch; no journal)."""
    branch = _branch(world)
    api = LoyaltyClient(
        f"http://sim-{uuid.uuid4().hex[:8]}.test",
        MAIN_KEY,
        branch_id=branch["id"],
        transport=SimTransport(app),
    )
    config = SessionConfig(
        "training", BranchInfo(branch["id"], branch["name"]), "0a1b2c3d", point_item_ids=wanted
    )
    return CounterSession(api, AsyncJournal(DatabaseWorker(":memory:")), config)


def _expected_ids(world: World) -> list[int]:
    branch_id = _branch(world)["id"]
    items = world.merchants[1].tables["point_items"].values()
    return sorted(i["id"] for i in items if i["branchId"] in (None, branch_id))


def test_preload_fetches_the_branch_items_once(sim_app: ASGIApp, sim_world: World) -> None:
    session = _session(sim_app, sim_world)
    control = SimControl(sim_world)
    catalogue = PointItemCatalogue(session)

    async def scenario() -> None:
        assert not catalogue.loaded
        assert catalogue.items == []
        items = await catalogue.preload()
        assert sorted(i.id for i in items) == _expected_ids(sim_world)
        # Another branch's own item is not offered here.
        others = [
            i
            for i in sim_world.merchants[1].tables["point_items"].values()
            if i["branchId"] not in (None, session.config.branch.id)
        ]
        assert others
        assert not {i["id"] for i in others} & {i.id for i in items}
        assert catalogue.get(items[0].id) == items[0]
        assert catalogue.get(10_000) is None
        asked = len(control.requests(path="point-items"))
        await catalogue.preload()  # cached: no new request
        await asyncio.gather(catalogue.refresh(), catalogue.refresh())  # shared: one more
        assert len(control.requests(path="point-items")) == asked + 1
        await session.api.aclose()

    asyncio.run(scenario())


def test_configured_ids_are_shown_in_their_order(sim_app: ASGIApp, sim_world: World) -> None:
    ids = _expected_ids(sim_world)
    wanted = (ids[2], ids[0])
    session = _session(sim_app, sim_world, wanted)
    catalogue = PointItemCatalogue(session)

    async def scenario() -> None:
        assert [i.id for i in await catalogue.preload()] == list(wanted)
        await session.api.aclose()

    asyncio.run(scenario())


def test_a_failed_fetch_keeps_the_list_and_raises(
    sim_app: ASGIApp, sim_world: World, expect_log: Callable[[str], None]
) -> None:
    session = _session(sim_app, sim_world)
    catalogue = PointItemCatalogue(session)
    control = SimControl(sim_world)
    expect_log(r"point-items")

    async def scenario() -> None:
        before = await catalogue.preload()
        control.add_fault("status", r"^/external/point-items$", status=404, count=1)
        with pytest.raises(Exception, match="not_found"):
            await catalogue.refresh()
        assert catalogue.items == before
        await session.api.aclose()

    asyncio.run(scenario())
