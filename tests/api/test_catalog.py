"""Levels, products and point items: the manager's configuration calls."""

from __future__ import annotations

from collections.abc import Callable

from kiosk.api import ErrorKind, LoyaltyClient, Reason, Resource
from kiosk.api.models import (
    Direction,
    LevelColors,
    LevelDraft,
    LevelOrder,
    OfferDraft,
    PointItemDraft,
    PointItemOrder,
    ProductDraft,
    Stock,
)
from kiosk.sim.world import World
from tests.api.conftest import run
from tests.api.support import fails

Connect = Callable[..., LoyaltyClient]


def test_levels_create_list_update_delete(connect: Connect) -> None:
    async def scenario() -> None:
        async with connect() as api:
            created = await api.create_level(
                LevelDraft(
                    "Platino", 30000, 2.0, LevelColors("#E5E4E2", "#FFFFFF", "#777777"), "El mejor"
                )
            )
            taken = await fails(
                api.create_level(
                    LevelDraft("Copia", 30000, 1.0, LevelColors("#000000", "#000000", "#000000"))
                )
            )
            no_colors = await fails(api.create_level(LevelDraft("Sin colores", 40000)))
            page = await api.list_levels(order=LevelOrder.MIN_POINTS, direction=Direction.DESC)
            walked = [level.name async for level in api.iter_levels()]
            colors = LevelColors("#111111", "#222222", "#333333")
            updated = await api.update_level(created.id, LevelDraft("Platino", 32000, 1.75, colors))
            moved_onto = await fails(
                api.update_level(created.id, LevelDraft("Platino", 5000, 1.5, colors))
            )
            await api.delete_level(created.id)
            missing = await fails(api.delete_level(created.id))
            after = [level.id async for level in api.iter_levels()]
        assert created.min_points == 30000
        assert created.points_multiplier == 2.0
        assert created.colors is not None
        assert created.colors.primary == "#e5e4e2"
        assert (taken.kind, taken.reason) == (ErrorKind.CONFLICT, Reason.MIN_POINTS_TAKEN)
        assert no_colors.kind is ErrorKind.VALIDATION  # the simulator requires colors
        assert any(f.field.startswith("colors") for f in no_colors.field_errors)
        assert [lv.min_points for lv in page.items] == [30000, 15000, 5000, 0]
        assert walked == ["Bronce", "Plata", "Oro", "Platino"]  # ascending by default
        assert (updated.min_points, updated.points_multiplier) == (32000, 1.75)
        assert updated.description in (None, "")  # total replacement
        assert moved_onto.reason is Reason.MIN_POINTS_TAKEN
        assert (missing.kind, missing.resource) == (ErrorKind.NOT_FOUND, Resource.LEVEL)
        assert created.id not in after

    run(scenario())


def test_products_list_create_update(connect: Connect, main_branches: list[int]) -> None:
    async def scenario() -> None:
        async with connect() as api:
            page = await api.list_products(limit=5)
            every = [p async for p in api.iter_products()]
            enabled = [p async for p in api.iter_products(is_enabled=True)]
            created = await api.create_product(
                ProductDraft(
                    "Termo 1 litro",
                    [OfferDraft(7000), OfferDraft(6000, level_id=2)],
                    short_description="Acero inoxidable",
                    stock=Stock(True, 3),
                    max_purchases=2,
                    category_ids=[1],
                )
            )
            updated = await api.update_product(
                created.id,
                ProductDraft(
                    "Termo 1 litro", [OfferDraft(6500, level_id=2)], stock=Stock(True, 10)
                ),
            )
            coupons = await fails(
                api.update_product(
                    9, ProductDraft("Gift card", [OfferDraft(3000)], stock=Stock(True, 100))
                )
            )
            missing = await fails(api.update_product(999_999, ProductDraft("x", [OfferDraft(1)])))
        assert page.meta.total_items == 12
        assert len(page.items) == 5
        assert len(every) == 12
        assert all(p.offers for p in every)
        assert {p.id for p in enabled} <= {p.id for p in every}
        assert created.stock == Stock(True, 3)
        assert created.max_purchases == 2
        kept = {o.level_id: o.id for o in created.offers}
        assert {o.level_id: o.id for o in updated.offers} == {2: kept[2]}  # reconciled by level
        assert updated.offers[0].points == 6500
        assert (coupons.kind, coupons.reason) == (ErrorKind.BAD_REQUEST, Reason.COUPON_STOCK)
        assert (missing.kind, missing.resource) == (ErrorKind.NOT_FOUND, Resource.PRODUCT)

    run(scenario())


def test_point_items_crud_and_branch_filter(
    connect: Connect, main_branches: list[int], other_branches: list[int]
) -> None:
    async def scenario() -> None:
        async with connect() as api:
            merchant_wide = await api.list_point_items(limit=50)
            centro = [i async for i in api.iter_point_items(branch_id=main_branches[0])]
            foreign = await fails(api.list_point_items(branch_id=other_branches[0]))
            created = await api.create_point_item(PointItemDraft("Docena de facturas", points=80))
            updated = await api.update_point_item(
                created.id, PointItemDraft("Docena de facturas", amount=3000)
            )
            ordered = await api.list_point_items(order=PointItemOrder.NAME, limit=50)
            await api.delete_point_item(created.id)
            missing = await fails(api.delete_point_item(created.id))
        assert {i.branch_id for i in centro} == {None, main_branches[0]}
        assert len(centro) == len(merchant_wide.items) + 1  # plus the branch's own item
        assert {i.branch_id for i in merchant_wide.items} == {None}
        assert (foreign.kind, foreign.resource) == (ErrorKind.NOT_FOUND, Resource.BRANCH)
        assert (created.points, created.amount, created.branch_id) == (80, None, None)
        assert (updated.points, updated.amount) == (None, 3000.0)
        names = [(i.name or "").casefold() for i in ordered.items]
        assert names == sorted(names)
        assert (missing.kind, missing.resource) == (ErrorKind.NOT_FOUND, Resource.POINT_ITEM)

    run(scenario())


def test_branch_header_is_sent_with_product_lists(
    connect: Connect, sim_world: World, main_branches: list[int]
) -> None:
    from kiosk.sim.control import SimControl

    async def scenario() -> None:
        async with connect(branch_id=main_branches[2]) as api:
            await api.list_products()

    run(scenario())
    entry = SimControl(sim_world).requests(path="^/external/products$")[-1]
    assert entry["branch"] == main_branches[2]
