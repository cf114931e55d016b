"""Rewards in manager mode over the in-process simulator: the list with a price column
per level and the stock, create with offers per level and controlled stock, edit as
a total replacement (a level left empty loses its offer, the others keep their ids),
the custom-coupon stock 400 explained on the stock, and the form's own checks."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.core.admin.forms import Problem
from kiosk.core.admin.rewards import AVAILABLE, BASE_PRICE, CATEGORIES, OFFERS, STOCK, StockMode
from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.admin.form import problem_text
from kiosk.ui.admin.rewards import RewardsSection
from kiosk.ui.admin.rewards_form import RewardFormPanel
from tests.qt_async import until
from tests.ui.admin.admin_support import Rig, table, themed_rig

PRODUCTS = r"^/external/products"
BRONCE, PLATA, ORO = 1, 2, 3


@pytest.fixture
def rig(
    qapp: QApplication, qtbot: QtBot, session: CounterSession, sim_world: World
) -> Iterator[Rig]:
    yield from themed_rig(qapp, qtbot, session, sim_world)


def product_named(rig: Rig, name: str) -> dict[str, Any]:
    return next(p for p in table(rig.world, "products").values() if p["name"] == name)


def form_of(section: RewardsSection) -> RewardFormPanel:
    assert section.form is not None
    assert section.pages.currentWidget() is section.form
    return section.form


async def open_reward(rig: Rig, section: RewardsSection, name: str) -> RewardFormPanel:
    section.list.search.setText(name)
    section.list.apply_search()
    await rig.loaded(2)
    section.list.activated.emit(section.list.texts(0).index(name))
    return form_of(section)


def test_list_shows_prices_per_level_and_stock(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(RewardsSection)

    async def scenario() -> None:
        await rig.loaded()
        model = section.list.model
        headers = [
            model.headerData(i, Qt.Orientation.Horizontal) for i in range(model.columnCount())
        ]
        assert headers[:5] == ["Reward", "No level", "Bronce", "Plata", "Oro"]
        rows = section.list.texts(0)
        cine = rows.index("Entrada de cine 2D")
        assert [section.list.texts(c)[cine] for c in range(1, 6)] == [
            "3.500",
            "3.150",
            "2.800",
            "2.450",
            "25 left",
        ]
        rig.shot("rewards_list")
        # Only the disabled ones.
        rig.unfold_options()
        rig.tap(section.enabled_chips.button_for(False))
        await rig.loaded(2)
        assert set(section.list.texts(0)) == {"Botella térmica 750 ml", "Pan dulce artesanal"}
        assert "Out of stock" in section.list.texts(5)

    arun(scenario())


def test_create_with_offers_per_level_and_stock(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(RewardsSection)

    async def scenario() -> None:
        await rig.loaded()
        rig.tap(section.list.new_button)
        form = form_of(section)
        rig.type_into(form.name_edit, "Taza de cerámica")
        rig.type_into(form.short_edit, "Con el logo del almacén")
        rig.type_into(form.price_edit(None), "2.000")
        rig.type_into(form.price_edit(BRONCE), "1800")
        rig.type_into(form.price_edit(ORO), "1400")  # Plata left without its own offer
        rig.tap(form.stock_chips.button_for(StockMode.CONTROLLED))
        rig.type_into(form.available_edit, "12")
        rig.type_into(form.max_edit, "2")
        rig.type_into(form.categories_edit, "1, 4")
        rig.shot("rewards_new")
        rig.tap(form.save_button)
        await until(lambda: section.banner.kind == "success")
        assert section.pages.currentWidget() is section.list

    arun(scenario())
    saved = product_named(rig, "Taza de cerámica")
    assert [(o["levelId"], o["points"]) for o in saved["offers"]] == [
        (None, 2000),
        (BRONCE, 1800),
        (ORO, 1400),
    ]
    assert saved["stock"] == {"controlled": True, "available": 12}
    assert saved["maxPurchases"] == 2
    assert saved["categoryIds"] == [1, 4]
    assert saved["shortDescription"] == "Con el logo del almacén"


def test_checks_before_sending(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(RewardsSection)

    async def scenario() -> None:
        await rig.loaded()
        rig.tap(section.list.new_button)
        form = form_of(section)
        rig.type_into(form.name_edit, "Sin precio")
        rig.tap(form.stock_chips.button_for(StockMode.CONTROLLED))
        rig.type_into(form.categories_edit, "bebidas")
        rig.tap(form.save_button)
        assert form.error_of(OFFERS) == problem_text(Problem.NO_OFFER)
        assert form.error_of(BASE_PRICE) == problem_text(Problem.NO_OFFER)
        assert form.error_of(AVAILABLE) == problem_text(Problem.REQUIRED)
        assert form.error_of(CATEGORIES) == problem_text(Problem.NOT_A_LIST)
        rig.shot("rewards_form_error")

    arun(scenario())
    assert rig.requests("POST", PRODUCTS) == []


def test_edit_replaces_offers_by_level(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(RewardsSection)
    before = product_named(rig, "Kit matero")
    ids = {o["levelId"]: o["productOfferId"] for o in before["offers"]}

    async def scenario() -> None:
        await rig.loaded()
        form = await open_reward(rig, section, "Kit matero")
        assert form.price_edit(PLATA).text() == "4000"
        assert form.stock_chips.value() is StockMode.KEEP
        assert form.lost_note.isHidden()
        form.price_edit(PLATA).clear()
        rig.type_into(form.price_edit(ORO), "3300")
        assert form.lost_note.isVisible()
        assert "Plata" in form.lost_note.text()
        rig.shot("rewards_edit_lost_offer")
        rig.tap(form.save_button)
        await until(lambda: section.banner.kind == "success")

    arun(scenario())
    after = product_named(rig, "Kit matero")
    offers = {o["levelId"]: (o["productOfferId"], o["points"]) for o in after["offers"]}
    assert set(offers) == {None, BRONCE, ORO}
    assert offers[ORO] == (ids[ORO], 3300)  # same offer id, new price
    assert offers[BRONCE][0] == ids[BRONCE]
    assert after["stock"] == before["stock"]  # left as it was: not sent
    put = rig.requests("PUT", PRODUCTS)
    assert len(put) == 1


def test_coupon_stock_refusal_explained(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(RewardsSection)
    spotify = product_named(rig, "Gift card Spotify Premium 1 mes")
    preserved = dict(spotify["_preserved"])

    async def scenario() -> None:
        await rig.loaded()
        form = await open_reward(rig, section, spotify["name"])
        rig.tap(form.stock_chips.button_for(StockMode.CONTROLLED))
        rig.type_into(form.available_edit, "50")
        rig.tap(form.save_button)
        await until(lambda: section.banner.kind == "error")
        assert "comes from its coupons" in section.banner.text()
        assert form.error_of(STOCK) == problem_text(Problem.COUPON_STOCK)
        assert section.pages.currentWidget() is form
        rig.shot("rewards_coupon_stock")
        # As the field says: leave the stock as it is, and save again.
        rig.tap(form.stock_chips.button_for(StockMode.KEEP))
        rig.type_into(form.price_edit(None), "3200")
        rig.tap(form.save_button)
        await until(lambda: section.banner.kind == "success")

    arun(scenario())
    saved = product_named(rig, spotify["name"])
    assert saved["stock"] == {"controlled": True, "available": 5}
    assert saved["offers"][0]["points"] == 3200
    assert saved["_preserved"] == preserved  # options the API does not expose
    assert [e["status"] for e in rig.requests("PUT", PRODUCTS)] == [400, 200]


def test_levels_unavailable_then_refreshed(
    rig: Rig, arun: Callable[..., Any], expect_log: Callable[[str], None]
) -> None:
    """Without the levels the list still shows (the price without level); Refresh
    reads the levels again and adds their columns."""
    expect_log(r"admin-rewards: forbidden")
    rig.control.add_fault("status", path=r"^/external/levels", method="GET", status=403)
    section = rig.open(RewardsSection)

    async def scenario() -> None:
        await rig.loaded()
        await until(lambda: section.banner.kind == "error")
        assert section.list.table.columnCount() == 5  # name, no level, stock, cap, state
        rig.tap(section.list.refresh_button)
        await rig.loaded(2)
        await rig.idle("levels")
        assert section.list.table.columnCount() == 8
        assert section.list.model.headerData(4, Qt.Orientation.Horizontal) == "Oro"

    arun(scenario())
