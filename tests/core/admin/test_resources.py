"""The administration forms of each resource without Qt: checks before sending, the
API bodies (total replacement or only what changed), and the simulator's real
refusals mapped onto the forms' fields."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, TypeVar

import pytest

from kiosk.api.client import LoyaltyClient
from kiosk.api.errors import ApiError, ErrorKind, FieldError, Reason
from kiosk.api.models.catalog import (
    Level,
    Offer,
    OfferDraft,
    PointItem,
    Product,
    ProductDraft,
    Stock,
)
from kiosk.api.models.clients import Client, RemovalReason
from kiosk.api.models.staff import Branch, Operator, OperatorBranch
from kiosk.core.admin import clients, items, levels, operators, rewards
from kiosk.core.admin.forms import Problem
from kiosk.core.amounts import AmountLocale
from kiosk.sim import build_world, create_app
from kiosk.sim.transport import SimTransport
from kiosk.sim.world import World
from tests.conftest import MAIN_KEY

T = TypeVar("T")
AR = AmountLocale.ES_AR


def run_api(world: World, scenario: Callable[[LoyaltyClient], Awaitable[T]]) -> T:
    async def main() -> T:
        api = LoyaltyClient(
            f"http://sim-{uuid.uuid4().hex[:8]}.test",
            MAIN_KEY,
            transport=SimTransport(create_app(world, controls=True)),
        )
        try:
            return await scenario(api)
        finally:
            await api.aclose()

    return asyncio.run(main())


def refusal_of(world: World, call: Callable[[LoyaltyClient], Awaitable[Any]]) -> ApiError:
    async def scenario(api: LoyaltyClient) -> ApiError:
        with pytest.raises(ApiError) as caught:
            await call(api)
        return caught.value

    return run_api(world, scenario)


# -- point items -----------------------------------------------------------------------------
def test_point_item_points_or_amount() -> None:
    form = items.PointItemForm(" Café  grande ", items.ItemKind.AMOUNT, "1.500,50")
    assert items.validate_item(form, AR) == {}
    assert items.item_draft(form, AR).to_json() == {"name": "Café grande", "amount": 1500.5}
    points = items.PointItemForm("Bono", items.ItemKind.POINTS, "1.000")
    assert items.item_draft(points, AR).to_json() == {"name": "Bono", "points": 1000}
    assert items.validate_item(items.PointItemForm("", items.ItemKind.POINTS, "0"), AR) == {
        "name": Problem.REQUIRED,
        "value": Problem.NOT_POSITIVE,
    }
    bad = items.PointItemForm("x", items.ItemKind.AMOUNT, "1,234")  # an es-AR slip
    assert items.validate_item(bad, AR) == {"value": Problem.NOT_A_NUMBER}
    with pytest.raises(ValueError, match="problems"):
        items.item_draft(bad, AR)


def test_point_item_form_of_a_record() -> None:
    assert items.item_form(PointItem(1, "A", amount=2000.0), AR).value == "2.000,00"
    assert items.item_form(PointItem(2, "B", points=30), AR) == items.PointItemForm(
        "B", items.ItemKind.POINTS, "30"
    )


# -- levels ------------------------------------------------------------------------------------
def test_level_checks_and_whole_body() -> None:
    form = levels.LevelForm("  Oro ", "15.000", "1,5", "D4AF37", "#fff", "#000000", "")
    assert levels.validate_level(form) == {}
    assert levels.level_draft(form).to_json() == {
        "name": "Oro",
        "minPoints": 15000,
        "pointsMultiplier": 1.5,
        "colors": {"primary": "#d4af37", "secondary": "#fff", "border": "#000000"},
        "description": "",  # total replacement: sent even when empty
    }
    bad = levels.LevelForm("", "-1", "0,5", "#12345", "", "azul")
    assert levels.validate_level(bad) == {
        "name": Problem.REQUIRED,
        "min_points": Problem.NOT_AN_INTEGER,
        "multiplier": Problem.BELOW_ONE,
        "primary": Problem.NOT_A_COLOR,
        "secondary": Problem.REQUIRED,
        "border": Problem.NOT_A_COLOR,
    }
    level = Level(3, 15000, "Oro", "", 1.5, None)
    assert levels.level_form(level).multiplier == "1.5"
    assert levels.level_form(level).primary == levels.DEFAULT_COLORS[0]


def test_level_refusals_from_the_simulator() -> None:
    world = build_world()
    form = levels.LevelForm("Plata bis", "5000", "1,1")
    error = refusal_of(world, lambda api: api.create_level(levels.level_draft(form)))
    assert error.reason is Reason.MIN_POINTS_TAKEN
    refusal = levels.explain_level(error)
    assert refusal is not None
    assert refusal.problems == {"min_points": Problem.TAKEN}
    # A multiplier under 1 never leaves the kiosk (the body refuses it too).
    with pytest.raises(ValueError, match="pointsMultiplier"):
        levels.LevelDraft("x", 1, 0.5)


def test_level_api_min_rule_on_the_multiplier() -> None:
    error = ApiError(
        ErrorKind.VALIDATION,
        status=400,
        field_errors=(FieldError("pointsMultiplier", {"min": "must not be less than 1"}),),
    )
    refusal = levels.explain_level(error)
    assert refusal is not None
    assert refusal.problems == {"multiplier": Problem.BELOW_ONE}


# -- rewards ------------------------------------------------------------------------------------
LEVELS = (Level(1, 0, "Bronce"), Level(2, 5000, "Plata"), Level(3, 15000, "Oro"))


def test_reward_body_offers_per_level_and_stock_modes() -> None:
    form = rewards.new_reward_form(LEVELS)
    prices = tuple(
        rewards.LevelPrice(p.level_id, p.level_name, {1: "900", 3: "700"}.get(p.level_id, ""))
        for p in form.level_prices
    )
    form = replace(
        form,
        name="Taza",
        base_price="1.000",
        level_prices=prices,
        stock_mode=rewards.StockMode.CONTROLLED,
        available="5",
        categories="4, 1",
    )
    assert rewards.validate_reward(form) == {}
    body = rewards.reward_draft(form).to_json()
    assert body["offers"] == [
        {"points": 1000},
        {"points": 900, "levelId": 1},
        {"points": 700, "levelId": 3},
    ]
    assert body["stock"] == {"controlled": True, "available": 5}
    assert body["categoryIds"] == [4, 1]
    assert "maxPurchases" not in body
    keep = rewards.reward_draft(replace(form, stock_mode=rewards.StockMode.KEEP)).to_json()
    assert "stock" not in keep  # left as it is (custom coupons need it)
    free = rewards.reward_draft(replace(form, stock_mode=rewards.StockMode.FREE)).to_json()
    assert free["stock"] == {"controlled": False}


def test_reward_checks() -> None:
    form = rewards.RewardForm(
        name="",
        image="ftp://x",
        level_prices=(rewards.LevelPrice(1, "Bronce", "0"),),
        stock_mode=rewards.StockMode.CONTROLLED,
        max_purchases="0",
        categories="uno",
    )
    assert rewards.validate_reward(form) == {
        "name": Problem.REQUIRED,
        "image": Problem.NOT_A_URL,
        "price:1": Problem.NOT_POSITIVE,
        "available": Problem.REQUIRED,
        "max_purchases": Problem.NOT_POSITIVE,
        "categories": Problem.NOT_A_LIST,
    }
    assert rewards.validate_reward(rewards.RewardForm(name="x"))["offers"] is Problem.NO_OFFER


def test_reward_edit_keeps_stock_and_lists_lost_offers() -> None:
    product = Product(
        7,
        "Kit",
        offers=(Offer(10, 500, None), Offer(11, 450, 1), Offer(12, 400, 2)),
        stock=Stock(True, 3),
        max_purchases=2,
        category_ids=(4,),
    )
    form = rewards.reward_form(product, LEVELS)
    assert form.stock_mode is rewards.StockMode.KEEP
    assert (form.base_price, form.max_purchases, form.categories) == ("500", "2", "4")
    assert [p.price for p in form.level_prices] == ["450", "400", ""]
    assert rewards.lost_offers(product, form) == ()
    dropped = replace(form, base_price="", level_prices=form.level_prices[:1])
    assert rewards.lost_offers(product, dropped) == (None, 2)


def test_reward_refusals_from_the_simulator() -> None:
    world = build_world()
    form = rewards.RewardForm(
        name="Dos precios",
        base_price="100",
        level_prices=(rewards.LevelPrice(1, "Bronce", "90"),),
    )
    # A body the form would never build (a price of 0 for the second offer): the
    # simulator's nested error lands on the price of that level.
    draft = ProductDraft("Dos precios", [OfferDraft(100), OfferDraft(0, 1)])
    error = refusal_of(world, lambda api: api.create_product(draft))
    refusal = rewards.explain_reward(error, form)
    assert refusal is not None
    assert refusal.problems == {"price:1": Problem.NOT_POSITIVE}
    coupon = next(p for p in world.merchants[1].tables["products"].values() if p["_custom_coupons"])
    stocked = ProductDraft("x", [OfferDraft(100)], stock=Stock(True, 9))
    error = refusal_of(world, lambda api: api.update_product(coupon["id"], stocked))
    refusal = rewards.explain_reward(error, form)
    assert refusal is not None
    assert refusal.problems == {"stock": Problem.COUPON_STOCK}


# -- operators ------------------------------------------------------------------------------------
BRANCHES = (Branch(1, "Centro"), Branch(2, "Palermo"))


def test_new_operator_body() -> None:
    form = operators.new_operator_form(BRANCHES)
    form = operators.with_branch(form, 2, chosen=True, group="3")
    form = replace(form, first_name=" Ana ", last_name="Paz", email="Ana@Example.com")
    assert operators.validate_operator(form, creating=True) == {}
    body = operators.new_operator(form).to_json()
    assert body == {
        "firstName": "Ana",
        "lastName": "Paz",
        "email": "ana@example.com",
        "branches": [{"branchId": 2, "permissionGroupId": 3}],
    }  # no password: the operator receives an email to set one
    short = replace(form, password="1234567", email="ana@", phone="12")
    assert operators.validate_operator(short, creating=True) == {
        "password": Problem.PASSWORD_SHORT,
        "email": Problem.EMAIL_FORMAT,
        "phone": Problem.PHONE_FORMAT,
    }


def test_operator_changes_only_what_changed() -> None:
    operator = Operator(
        5,
        first_name="Sofía",
        last_name="Ríos",
        email="sofia@example.com",
        phone="11 5000 1000",
        branches=(OperatorBranch(1, "Centro", 2, "Supervisor"),),
    )
    original = operators.operator_form(operator, BRANCHES)
    assert [(b.chosen, b.group) for b in original.branches] == [(True, "2"), (False, "")]
    assert operators.operator_changes(original, original) is None
    renamed = replace(original, last_name="Ríos Paz")
    assert operators.operator_changes(original, renamed).to_json() == {"lastName": "Ríos Paz"}  # type: ignore[union-attr]
    moved = operators.with_branch(original, 2, chosen=True, group="")
    assert operators.operator_changes(original, moved).to_json() == {  # type: ignore[union-attr]
        "branches": [{"branchId": 1, "permissionGroupId": 2}, {"branchId": 2}]
    }
    emptied = replace(original, phone="")
    assert operators.problems_of_clearing(original, emptied) == {"phone": Problem.CANNOT_CLEAR}
    with pytest.raises(ValueError, match="problems"):
        operators.operator_changes(original, emptied)


def test_operator_refusals_from_the_simulator() -> None:
    world = build_world()
    form = operators.with_branch(operators.new_operator_form(BRANCHES), 1, chosen=True, group="99")
    form = replace(form, first_name="A", last_name="B", email="nueva@example.com")
    error = refusal_of(world, lambda api: api.create_operator(operators.new_operator(form)))
    refusal = operators.explain_operator(error, form)
    assert refusal is not None
    assert refusal.problems == {"group:1": Problem.UNKNOWN_GROUP}
    taken = replace(form, email="martin.gomez@almacendelsol.test")
    taken = operators.with_branch(taken, 1, chosen=True, group="")
    error = refusal_of(world, lambda api: api.create_operator(operators.new_operator(taken)))
    refusal = operators.explain_operator(error, taken)
    assert refusal is not None
    assert refusal.problems == {"email": Problem.TAKEN}
    world.merchants[1].rules.operator_cap = len(world.merchants[1].tables["operators"])
    fresh = replace(taken, email="otra@example.com")
    error = refusal_of(world, lambda api: api.create_operator(operators.new_operator(fresh)))
    assert operators.is_cap_reached(error)
    assert operators.explain_operator(error, fresh) is None  # the banner's, not a field's


# -- clients ------------------------------------------------------------------------------------
def client(**fields: Any) -> Client:
    return Client(**{"id": 7, "balance": 10, "first_name": "Camila", "last_name": "Díaz", **fields})


def test_client_changes_are_incremental() -> None:
    original = clients.client_form(
        client(email="camila@example.com", document_number="41222333", phone="11 4494 2552")
    )
    assert clients.client_changes(original, original) is None
    edited = replace(original, email=" Camila.D@Example.com ", description="VIP")
    changes = clients.client_changes(original, edited)
    assert changes is not None
    assert changes.to_json() == {"email": "camila.d@example.com", "description": "VIP"}
    assert clients.changed_fields(changes) == ("description", "email")
    assert clients.validate_client(original, edited, email_locked=True) == {
        "email": Problem.EMAIL_LOCKED
    }
    wrong = replace(original, document="12", phone="", first_name="")
    assert clients.validate_client(original, wrong, email_locked=False) == {
        "document": Problem.DOCUMENT_FORMAT,
        "phone": Problem.CANNOT_CLEAR,
        "first_name": Problem.CANNOT_CLEAR,
    }
    passport = replace(original, document="fz-482913")
    assert clients.client_changes(original, passport).to_json() == {  # type: ignore[union-attr]
        "documentNumber": "FZ482913"
    }


def test_client_refusals_mapped() -> None:
    for reason, field, problem in (
        (Reason.EMAIL_LOCKED, "email", Problem.EMAIL_LOCKED),
        (Reason.DOCUMENT_TAKEN, "document", Problem.TAKEN),
        (Reason.CARD_TAKEN, "affiliate_card", Problem.TAKEN),
    ):
        error = ApiError(ErrorKind.BAD_REQUEST, status=400, reason=reason)
        refusal = clients.explain_client(error)
        assert refusal is not None
        assert refusal.problems == {field: problem}


def test_removal_needs_a_reason() -> None:
    assert clients.removal_problems([]) == {"reasons": Problem.NO_REASON}
    with pytest.raises(ValueError, match="reason"):
        clients.removal_reasons([])
    chosen = [RemovalReason.OTHER, RemovalReason.REQUESTED_BY_CLIENT]
    assert clients.removal_problems(chosen) == {}
    assert clients.removal_reasons(chosen) == (
        RemovalReason.REQUESTED_BY_CLIENT,
        RemovalReason.OTHER,
    )
