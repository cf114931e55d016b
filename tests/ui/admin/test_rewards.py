"""Rewards in manager mode over the in-process simulator: the list with a price column
per level and the stock, create with offers per level and controlled stock, edit as
a total replacement (a level left empty loses its offer, the others keep their ids),
the custom-coupon stock 400 explained on the stock, and the form's own checks."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.api.models.catalog import LevelColors, LevelDraft
from kiosk.core.admin.forms import Problem
from kiosk.core.admin.rewards import (
    AVAILABLE,
    BASE_PRICE,
    CATEGORIES,
    OFFERS,
    STOCK,
    StockMode,
    price_key,
)
from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.admin.form import problem_text
from kiosk.ui.admin.rewards import RewardsSection
from kiosk.ui.admin.rewards_form import RewardFormPanel
from tests.qt_async import until
from tests.ui.admin.admin_support import Rig, table, themed_rig
from tests.ui.translated import translated

PRODUCTS = r"^/external/products"
BRONCE, PLATA, ORO = 1, 2, 3


@pytest.fixture
def rig(
    qapp: QApplication, qtbot: QtBot, session: CounterSession, sim_world: World
) -> Iterator[Rig]:
    yield from themed_rig(qapp, qtbot, session, sim_world)


def product_named(rig: Rig, name: str) -> dict[str, Any]:
    return next(p for p in table(rig.world, "products").values() if p["name"] == name)


async def form_of(section: RewardsSection, old: RewardFormPanel | None = None) -> RewardFormPanel:
    """The form once open (it reads the levels first); a new one when ``old`` is given."""
    await until(
        lambda: (
            isinstance(section.pages.currentWidget(), RewardFormPanel)
            and section.form is not old
            and not section.tasks.running("form")
        )
    )
    assert section.form is not None
    assert section.pages.currentWidget() is section.form
    return section.form


async def open_reward(rig: Rig, section: RewardsSection, name: str) -> RewardFormPanel:
    section.list.search.setText(name)
    section.list.apply_search()
    await rig.loaded(2)
    section.list.activated.emit(section.list.texts(0).index(name))
    return await form_of(section)


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
        form = await form_of(section)
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
        form = await form_of(section)
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


def test_the_form_shows_the_levels_as_they_are_when_it_opens(
    rig: Rig, arun: Callable[..., Any]
) -> None:
    """Issue #21, item 8: a level created (in Levels, or the merchant panel) after the
    list was read has its price field in the form, without Refresh; a deleted one is
    gone."""
    section = rig.open(RewardsSection)
    api = rig.session.api

    async def scenario() -> None:
        await rig.loaded()
        assert [level.name for level in section.levels] == ["Bronce", "Plata", "Oro"]
        diamante = await api.create_level(
            LevelDraft("Diamante", 50_000, colors=LevelColors("#1d4ed8", "#dbeafe", "#1e3a8a"))
        )
        await api.delete_level(PLATA)
        rig.tap(section.list.new_button)
        form = await form_of(section)
        labels = [form.boxes[k].label.text() for k in form.price_edits]
        assert labels[0] == "Clients without level"
        assert [label.split(" (")[0] for label in labels[1:]] == ["Bronce", "Oro", "Diamante"]
        assert form.price_edit(diamante.id).isVisible()
        assert price_key(PLATA) not in form.price_edits
        # The list's price columns follow too.
        model = section.list.model
        headers = [model.headerData(i, Qt.Orientation.Horizontal) for i in range(5)]
        assert headers == ["Reward", "No level", "Bronce", "Oro", "Diamante"]
        # And an existing reward's form.
        rig.tap(form.back_button)
        form = await open_reward(rig, section, "Kit matero")
        assert set(form.price_edits) == {BASE_PRICE, *(price_key(i) for i in (BRONCE, ORO))} | {
            price_key(diamante.id)
        }
        assert form.price_edit(diamante.id).text() == ""

    arun(scenario())


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_save_that_meets_changed_levels_reloads_and_says_what_changed(
    rig: Rig, arun: Callable[..., Any], lang: str, qapp: QApplication
) -> None:
    """Issue #21, item 8: Plata deleted and Diamante created while the form is open:
    Save sends nothing, the form is built again for the levels now (what was typed
    stays), and the banner names both changes; the next Save goes through."""
    section = rig.open(RewardsSection)
    api = rig.session.api

    async def scenario() -> None:
        await rig.loaded()
        rig.tap(section.list.new_button)
        form = await form_of(section)
        rig.type_into(form.name_edit, "Taza de cerámica")
        rig.type_into(form.price_edit(None), "2000")
        rig.type_into(form.price_edit(PLATA), "1700")
        rig.type_into(form.price_edit(ORO), "1400")
        diamante = await api.create_level(
            LevelDraft("Diamante", 50_000, colors=LevelColors("#1d4ed8", "#dbeafe", "#1e3a8a"))
        )
        await api.delete_level(PLATA)
        rig.tap(form.save_button)
        form = await form_of(section, form)
        await until(lambda: section.banner.kind == "error")
        text = section.banner.text()
        if lang == "en":
            assert "the levels changed" in text
            assert "“Plata” was deleted: its price 1.700 is not sent" in text
            assert "“Diamante” was added, with no price yet" in text
        else:
            assert "cambiaron los niveles" in text
            assert "“Plata” se eliminó: su precio 1.700 no se envía" in text
            assert "“Diamante” se agregó, todavía sin precio" in text
        assert "no longer exists" not in text
        assert form.name_edit.text() == "Taza de cerámica"
        assert form.price_edit(None).text() == "2000"
        assert form.price_edit(ORO).text() == "1400"
        assert form.price_edit(diamante.id).text() == ""
        assert price_key(PLATA) not in form.price_edits
        assert rig.requests("POST", PRODUCTS) == []
        rig.shot(f"rewards_levels_changed_{lang}")
        rig.type_into(form.price_edit(diamante.id), "1200")
        rig.tap(form.save_button)
        await until(lambda: section.banner.kind == "success")

    with translated(qapp, lang):
        arun(scenario())
    saved = product_named(rig, "Taza de cerámica")
    assert [(o["levelId"], o["points"]) for o in saved["offers"]] == [
        (None, 2000),
        (ORO, 1400),
        (max(table(rig.world, "levels")), 1200),
    ]


def test_without_the_levels_a_reward_is_still_created(
    rig: Rig, arun: Callable[..., Any], expect_log: Callable[[str], None]
) -> None:
    """The levels refused (403): the form still opens (with the price without level) and
    saves; the banner said why the level prices are missing."""
    expect_log(r"admin-rewards: forbidden")
    rig.control.add_fault("status", path=r"^/external/levels", method="GET", status=403, count=None)
    section = rig.open(RewardsSection)

    async def scenario() -> None:
        await rig.loaded()
        rig.tap(section.list.new_button)
        form = await form_of(section)
        assert section.banner.kind == "error"
        assert set(form.price_edits) == {BASE_PRICE}
        rig.type_into(form.name_edit, "Taza de cerámica")
        rig.type_into(form.price_edit(None), "2000")
        rig.tap(form.save_button)
        await until(lambda: section.banner.kind == "success")

    arun(scenario())
    assert product_named(rig, "Taza de cerámica")["offers"][0]["points"] == 2000


def test_the_stock_left_says_one_in_the_singular_in_spanish(
    rig: Rig, arun: Callable[..., Any], spanish: None
) -> None:
    """#21: "quedan 1" in the manager's list too (a plural by count, the store's digits)."""
    section = rig.open(RewardsSection)

    async def scenario() -> None:
        await rig.loaded()
        for count, said in ((1, "queda 1"), (1500, "quedan 1.500"), (25, "quedan 25")):
            product = next(p for p in section.list.model.records if p.stock and p.stock.controlled)
            stock = dataclasses.replace(product.stock, available=count)
            assert section._stock_text(dataclasses.replace(product, stock=stock)) == said

    arun(scenario())
