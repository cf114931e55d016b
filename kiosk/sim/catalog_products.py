"""Products (rewards): body validation, offer reconciliation, stock and enabled state.

Stored product = contract record ``{id, name, shortDescription, description,
image?, offers, stock, maxPurchases?, categoryIds, isEnabled, createdAt,
updatedAt}`` + private keys:

- ``_custom_coupons`` (bool): stock derived from coupons loaded in the panel;
  ``stock`` in a write gives 400.
- ``_preserved`` (dict): options the API does not expose (post-exchange message,
  time restriction, monthly cap, store coupons); never touched by a write.
- ``_disabled_in_panel`` (bool): disabled by hand in the panel; stays disabled
  whatever its stock.

``isEnabled`` is public and derived: false when disabled in the panel or when
the stock is controlled and ``available`` is 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kiosk.sim.catalog_common import level_of_merchant
from kiosk.sim.http import ApiError, Validator, not_found
from kiosk.sim.world import Merchant, Record, World

PRODUCT_NOT_FOUND = "Product not found"
OFFER_NOT_FOUND = "Product offer not found"
CUSTOM_COUPON_STOCK = (
    "El stock de este producto se calcula a partir de sus cupones y no puede modificarse."
)
NAME_MAX = 150
SHORT_MAX = 255


@dataclass
class ProductBody:
    name: str
    short_description: str
    description: str
    image: str | None
    offers: list[tuple[int | None, int]]  # (levelId, points)
    stock: Record | None
    max_purchases: int | None
    category_ids: list[int]


def _merge(v: Validator, prefix: str, sub: Validator) -> None:
    """Nested failures as class-validator names them (``offers.0.points``)."""
    for failure in sub.items:
        for rule, text in failure["constraints"].items():
            v.fail(f"{prefix}.{failure['field']}", rule, f"{prefix}.{text}", failure["value"])


def _offers(v: Validator, raw: Any) -> list[tuple[int | None, int]]:
    if raw is None or not isinstance(raw, list):
        v.fail("offers", "isArray", "offers must be an array", raw)
        return []
    if not raw:
        v.fail("offers", "arrayMinSize", "offers must contain at least 1 elements", raw)
        return []
    offers: list[tuple[int | None, int]] = []
    for index, item in enumerate(raw):
        field = f"offers.{index}"
        if not isinstance(item, dict):
            v.fail(field, "isObject", f"{field} must be an object", item)
            continue
        sub = Validator(item)
        points = sub.int_field("points", required=True, minimum=1)
        level_id = sub.int_field("levelId", minimum=1)
        _merge(v, field, sub)
        if points is not None and not sub.items:
            offers.append((level_id, points))
    levels = [level for level, _ in offers]
    if len(set(levels)) != len(levels):
        v.fail("offers", "uniqueLevel", "offers must not repeat a levelId", raw)
    return offers


def _stock(v: Validator, raw: Any) -> Record | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        v.fail("stock", "isObject", "stock must be an object", raw)
        return None
    sub = Validator(raw)
    controlled = sub.bool_field("controlled", required=True)
    available = sub.int_field("available", required=bool(controlled), minimum=0)
    _merge(v, "stock", sub)
    if sub.items or controlled is None:
        return None
    return {"controlled": controlled, "available": available or 0}


def parse_product(body: Record) -> ProductBody:
    """The write body of a product (create and total replacement); 400 with every bad field."""
    v = Validator(body)
    name = v.str_field("name", required=True, max_length=NAME_MAX)
    short = v.str_field("shortDescription", max_length=SHORT_MAX)
    description = v.str_field("description")
    image = v.str_field("image", max_length=2048)
    if image is not None and not image.startswith(("https://", "http://")):
        v.fail("image", "isUrl", "image must be a URL address", image)
    offers = _offers(v, body.get("offers"))
    stock = _stock(v, body.get("stock"))
    max_purchases = v.int_field("maxPurchases", minimum=1)
    categories = v.int_list_field("categoryIds") or []
    v.check()
    assert name is not None
    return ProductBody(
        name=name.strip(),
        short_description=short or "",
        description=description or "",
        image=image,
        offers=offers,
        stock=stock,
        max_purchases=max_purchases,
        category_ids=list(dict.fromkeys(categories)),
    )


def refresh_enabled(product: Record) -> None:
    stock = product["stock"]
    out_of_stock = bool(stock["controlled"]) and int(stock["available"]) <= 0
    product["isEnabled"] = not product.get("_disabled_in_panel") and not out_of_stock


def reconcile_offers(
    world: World, merchant: Merchant, product: Record | None, sent: list[tuple[int | None, int]]
) -> list[Record]:
    """Offers for ``sent`` (levelId, points): a level already covered keeps its
    ``productOfferId``; everything else gets a new one; levels not sent are dropped.
    Unknown levels: 404 ``Level not found``."""
    current = {o["levelId"]: o for o in (product or {}).get("offers", [])}
    offers: list[Record] = []
    for level_id, points in sent:
        level_name = None if level_id is None else level_of_merchant(merchant, level_id)["name"]
        old = current.get(level_id)
        offer_id = old["productOfferId"] if old else world.next_id("product_offers")
        offers.append(
            {
                "productOfferId": offer_id,
                "points": points,
                "levelId": level_id,
                "levelName": level_name,
            }
        )
    return offers


def apply_body(
    world: World, merchant: Merchant, product: Record, body: ProductBody, offers: list[Record]
) -> None:
    """Total replacement of the API-visible fields (private options untouched)."""
    product.update(
        name=body.name,
        shortDescription=body.short_description,
        description=body.description,
        offers=offers,
        categoryIds=body.category_ids,
        updatedAt=world.now_iso(),
    )
    if body.image is None:
        product.pop("image", None)
    else:
        product["image"] = body.image
    if body.max_purchases is None:
        product.pop("maxPurchases", None)
    else:
        product["maxPurchases"] = body.max_purchases
    if body.stock is not None:
        product["stock"] = dict(body.stock)
    refresh_enabled(product)


def new_product(world: World, merchant: Merchant, body: ProductBody) -> Record:
    offers = reconcile_offers(world, merchant, None, body.offers)
    now = world.now_iso()
    product: Record = {
        "id": world.next_id("products"),
        "stock": dict(body.stock or {"controlled": False, "available": 0}),
        "createdAt": now,
        "_custom_coupons": False,
        "_preserved": {},
    }
    apply_body(world, merchant, product, body, offers)
    merchant.tables["products"][product["id"]] = product
    return product


def update_product(world: World, merchant: Merchant, product_id: int, body: ProductBody) -> Record:
    product = merchant.tables["products"].get(product_id)
    if product is None:
        raise not_found(PRODUCT_NOT_FOUND)
    if body.stock is not None and product.get("_custom_coupons"):
        raise ApiError(400, CUSTOM_COUPON_STOCK)
    offers = reconcile_offers(world, merchant, product, body.offers)
    apply_body(world, merchant, product, body, offers)
    return product


def find_offer(merchant: Merchant, offer_id: int) -> tuple[Record, Record]:
    """(product, offer) holding ``productOfferId``; 404 ``Product offer not found``."""
    for product in merchant.tables["products"].values():
        for offer in product.get("offers", []):
            if offer["productOfferId"] == offer_id:
                return product, offer
    raise not_found(OFFER_NOT_FOUND)


def take_unit(product: Record) -> None:
    """One unit leaves a controlled stock; at 0 the product disables itself."""
    stock = product["stock"]
    if stock["controlled"]:
        stock["available"] = max(0, int(stock["available"]) - 1)
        refresh_enabled(product)


def lowest_price(product: Record) -> int | None:
    prices = [o["points"] for o in product.get("offers", [])]
    return min(prices) if prices else None
