"""Rewards (the API's products): the form with one price per level, its checks, the body.

- Offers: one price for clients without level and one per level; a level left
  empty has no offer (its clients cannot exchange the reward at that price). At
  least one price is needed.
- An update is a total replacement: offers of levels not sent are deleted (the
  form lists them before saving: ``lost_offers``), categories not sent are unlinked,
  and options the API does not expose are kept by the API.
- Stock: not controlled, controlled with the units available, or (when editing)
  left as it is. A reward whose stock comes from custom coupons refuses any stock
  (400 ``COUPON_STOCK``): shown on the stock choice, to save again leaving it as is.
- Categories are ids (the API exposes no category names): typed as ``1, 5``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from kiosk.api.errors import ApiError, Reason
from kiosk.api.models.catalog import Level, OfferDraft, Product, ProductDraft, Stock
from kiosk.core.admin.forms import (
    Problem,
    Problems,
    Refusal,
    Resolver,
    clean_text,
    explain,
    parse_id_list,
    whole_problem,
)

NAME_MAX = 150  # the simulator's limits (G4); the contract shows none
SHORT_MAX = 255
IMAGE_MAX = 2048

NAME = "name"
SHORT = "short_description"
DESCRIPTION = "description"
IMAGE = "image"
OFFERS = "offers"  # the prices as a whole (at least one)
STOCK = "stock"  # the stock choice
AVAILABLE = "available"
MAX_PURCHASES = "max_purchases"
CATEGORIES = "categories"
BASE_PRICE = "price:none"
# The most characters of each field with a limit (said in the field's "Too long").
LIMITS = {NAME: NAME_MAX, SHORT: SHORT_MAX}


def price_key(level_id: int | None) -> str:
    return BASE_PRICE if level_id is None else f"price:{level_id}"


class StockMode(StrEnum):
    FREE = "free"  # no stock control: exchanged without unit limit
    CONTROLLED = "controlled"  # disabled automatically when ``available`` reaches 0
    KEEP = "keep"  # editing: stock not sent, the API keeps it (custom coupons need this)


@dataclass(frozen=True)
class LevelPrice:
    level_id: int
    level_name: str
    price: str = ""


@dataclass(frozen=True)
class RewardForm:
    name: str = ""
    short_description: str = ""
    description: str = ""
    image: str = ""
    base_price: str = ""  # clients without level
    level_prices: tuple[LevelPrice, ...] = ()
    stock_mode: StockMode = StockMode.FREE
    available: str = ""
    max_purchases: str = ""
    categories: str = ""

    def prices(self) -> tuple[tuple[int | None, str], ...]:
        """(level id or None, typed price) in the order offers are sent."""
        return ((None, self.base_price), *((p.level_id, p.price) for p in self.level_prices))


def new_reward_form(levels: Sequence[Level]) -> RewardForm:
    return RewardForm(
        level_prices=tuple(LevelPrice(level.id, level.name or "") for level in levels)
    )


def reward_form(product: Product, levels: Sequence[Level]) -> RewardForm:
    """The form of an existing reward; its stock is left as it is unless changed."""

    def price(level_id: int | None) -> str:
        offer = product.offer_for(level_id)
        return str(offer.points) if offer is not None else ""

    return RewardForm(
        name=product.name or "",
        short_description=product.short_description or "",
        description=product.description or "",
        image=product.image or "",
        base_price=price(None),
        level_prices=tuple(
            LevelPrice(level.id, level.name or "", price(level.id)) for level in levels
        ),
        stock_mode=StockMode.KEEP,
        available=str(product.stock.available)
        if product.stock is not None and product.stock.available is not None
        else "",
        max_purchases=str(product.max_purchases) if product.max_purchases else "",
        categories=", ".join(str(i) for i in product.category_ids),
    )


def validate_reward(form: RewardForm) -> Problems:
    problems: Problems = {}
    name = clean_text(form.name)
    if not name:
        problems[NAME] = Problem.REQUIRED
    elif len(name) > NAME_MAX:
        problems[NAME] = Problem.TOO_LONG
    if len(form.short_description.strip()) > SHORT_MAX:
        problems[SHORT] = Problem.TOO_LONG
    image = form.image.strip()
    if image and (not image.startswith(("https://", "http://")) or len(image) > IMAGE_MAX):
        problems[IMAGE] = Problem.NOT_A_URL
    given = 0
    for level_id, text in form.prices():
        value, problem = whole_problem(text, minimum=1, required=False)
        if problem is not None:
            problems[price_key(level_id)] = problem
        elif value is not None:
            given += 1
    if given == 0 and not any(k.startswith("price:") for k in problems):
        problems[OFFERS] = Problem.NO_OFFER
    if form.stock_mode is StockMode.CONTROLLED:
        _, problem = whole_problem(form.available, minimum=0, required=True)
        if problem is not None:
            problems[AVAILABLE] = problem
    _, problem = whole_problem(form.max_purchases, minimum=1, required=False)
    if problem is not None:
        problems[MAX_PURCHASES] = problem
    try:
        parse_id_list(form.categories)
    except ValueError:
        problems[CATEGORIES] = Problem.NOT_A_LIST
    return problems


def _offers(form: RewardForm) -> list[OfferDraft]:
    offers = []
    for level_id, text in form.prices():
        value, _ = whole_problem(text, minimum=1, required=False)
        if value is not None:
            offers.append(OfferDraft(points=value, level_id=level_id))
    return offers


def reward_draft(form: RewardForm) -> ProductDraft:
    """The whole reward of a validated form (``ValueError`` when it is not valid)."""
    if validate_reward(form):
        raise ValueError("the form has problems")
    stock: Stock | None = None
    if form.stock_mode is StockMode.FREE:
        stock = Stock(controlled=False)
    elif form.stock_mode is StockMode.CONTROLLED:
        available, _ = whole_problem(form.available, minimum=0, required=True)
        stock = Stock(controlled=True, available=available)
    max_purchases, _ = whole_problem(form.max_purchases, minimum=1, required=False)
    return ProductDraft(
        name=clean_text(form.name),
        offers=_offers(form),
        short_description=form.short_description.strip(),
        description=form.description.strip(),
        image=form.image.strip() or None,
        stock=stock,
        max_purchases=max_purchases,
        category_ids=list(parse_id_list(form.categories)),
    )


def lost_offers(product: Product | None, form: RewardForm) -> tuple[int | None, ...]:
    """Levels (None: without level) whose current offer disappears when ``form`` is saved."""
    if product is None:
        return ()
    kept = {level_id for level_id, text in form.prices() if text.strip()}
    return tuple(o.level_id for o in product.offers if o.level_id not in kept)


def resolver(form: RewardForm) -> Resolver:
    """API field names of the body built from ``form`` -> form fields
    (``offers.1.points`` is the second price sent)."""
    sent = [level_id for level_id, text in form.prices() if text.strip()]
    table = {
        "name": NAME,
        "shortDescription": SHORT,
        "description": DESCRIPTION,
        "image": IMAGE,
        "stock": STOCK,
        "stock.controlled": STOCK,
        "stock.available": AVAILABLE,
        "maxPurchases": MAX_PURCHASES,
        "categoryIds": CATEGORIES,
        "offers": OFFERS,
    }

    def resolve(name: str) -> str | None:
        if name in table:
            return table[name]
        parts = name.split(".")
        if parts[0] == "offers" and len(parts) > 1 and parts[1].isdigit():
            index = int(parts[1])
            return price_key(sent[index]) if index < len(sent) else OFFERS
        return table.get(parts[0])

    return resolve


REASONS = {Reason.COUPON_STOCK: (STOCK, Problem.COUPON_STOCK)}


def explain_reward(error: ApiError, form: RewardForm) -> Refusal | None:
    minimums = {price_key(level_id): Problem.NOT_POSITIVE for level_id, _ in form.prices()}
    minimums.update({AVAILABLE: Problem.NEGATIVE, MAX_PURCHASES: Problem.NOT_POSITIVE})
    return explain(error, resolver(form), reasons=REASONS, min_problems=minimums)


@dataclass(frozen=True)
class LevelsChange:
    """How the program's levels differ from the ones a reward form was built for."""

    added: tuple[Level, ...] = ()  # new levels: no price typed for them yet
    removed: tuple[LevelPrice, ...] = ()  # gone, with the price typed for each
    renamed: tuple[tuple[str, Level], ...] = ()  # (the name the form showed, the level now)

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.renamed)


def levels_change(form: RewardForm, levels: Sequence[Level]) -> LevelsChange:
    """What changed in the levels since ``form`` was built (empty when nothing did)."""
    shown = {price.level_id: price for price in form.level_prices}
    now = {level.id: level for level in levels}
    return LevelsChange(
        added=tuple(level for level in levels if level.id not in shown),
        removed=tuple(price for price in form.level_prices if price.level_id not in now),
        renamed=tuple(
            (shown[level.id].level_name, level)
            for level in levels
            if level.id in shown and shown[level.id].level_name != (level.name or "")
        ),
    )


def follow_levels(form: RewardForm, levels: Sequence[Level]) -> RewardForm:
    """``form`` for the program's ``levels`` now: what was typed stays, the prices of
    levels still there stay, a new level has none, a deleted level's price goes."""
    typed = {price.level_id: price.price for price in form.level_prices}
    return replace(
        form,
        level_prices=tuple(
            LevelPrice(level.id, level.name or "", typed.get(level.id, "")) for level in levels
        ),
    )
