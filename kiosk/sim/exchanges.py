"""Simulator routes: exchanges of points for a reward or for money.

Both create a ``pending`` purchase with its code, debit the client's available
points (``score``; ``total_score`` is accumulated and stays) and count one more
``purchases_counter``. Checks, in order: body (400), ``x-branch-id`` (404 when
unknown, 403 when of another merchant), client (404, also when scheduled for
removal), offer (404), suspended client (403), then the 409 refusals.

Level rule (our choice): an offer without ``levelId`` is open to every client;
an offer for a level is open to clients of that level or of a higher one (by
``minPoints``); a client without level can use only offers without level.
"""

from __future__ import annotations

import math

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from kiosk.sim.catalog_common import (
    active_client,
    ensure_not_suspended,
    format_amount,
    header_branch,
)
from kiosk.sim.catalog_products import find_offer, take_unit
from kiosk.sim.catalog_purchases import create_purchase, purchase_view, purchases_of
from kiosk.sim.http import ApiError, Validator, endpoint, envelope, json_body, world_of
from kiosk.sim.world import Merchant, Record

INSUFFICIENT_POINTS = "El cliente no tiene puntos suficientes."
PRODUCT_DISABLED = "El producto no se encuentra disponible."
NO_STOCK = "El producto no tiene stock disponible."
LEVEL_NOT_ALLOWED = "El nivel del cliente no permite canjear este producto."
CAP_REACHED = "El cliente alcanzó el máximo de canjes permitidos para este producto."


def level_allows(merchant: Merchant, client: Record, offer: Record) -> bool:
    if offer.get("levelId") is None:
        return True
    client_level = client.get("level")
    if not client_level:
        return False
    if client_level["id"] == offer["levelId"]:
        return True
    levels = merchant.tables["levels"]
    own = levels.get(client_level["id"])
    wanted = levels.get(offer["levelId"])
    if own is None or wanted is None:
        return False
    return int(own.get("minPoints", 0)) >= int(wanted.get("minPoints", 0))


def debit(client: Record, points: int) -> None:
    client["score"] = int(client.get("score", 0)) - points
    client["purchases_counter"] = int(client.get("purchases_counter") or 0) + 1


async def exchange_product(request: Request, merchant: Merchant) -> Response:
    v = Validator(await json_body(request))
    offer_id = v.int_field("productOfferId", required=True, minimum=1)
    client_id = v.int_field("clientId", required=True, minimum=1)
    v.check()
    assert offer_id is not None
    assert client_id is not None
    branch = header_branch(request, merchant, strict=True)
    client = active_client(merchant, client_id)
    product, offer = find_offer(merchant, offer_id)
    ensure_not_suspended(client)
    stock = product["stock"]
    if stock["controlled"] and int(stock["available"]) <= 0:
        raise ApiError(409, NO_STOCK)
    if not product["isEnabled"]:
        raise ApiError(409, PRODUCT_DISABLED)
    if not level_allows(merchant, client, offer):
        raise ApiError(409, LEVEL_NOT_ALLOWED)
    cap = product.get("maxPurchases")
    if cap is not None and purchases_of(merchant, client["id"], product["id"]) >= int(cap):
        raise ApiError(409, CAP_REACHED)
    points = int(offer["points"])
    if int(client.get("score", 0)) < points:
        raise ApiError(409, INSUFFICIENT_POINTS)
    debit(client, points)
    take_unit(product)
    purchase = create_purchase(
        world_of(request),
        merchant,
        client=client,
        branch=branch,
        points=points,
        product=product,
        offer_id=offer["productOfferId"],
    )
    return envelope(
        purchase_view(merchant, purchase), status=201, message="Canje realizado correctamente"
    )


def money_points(merchant: Merchant, amount: float) -> int:
    """Points for ``amount`` of money: the merchant's rate, rounded up."""
    return max(1, math.ceil(round(amount * merchant.rules.points_per_currency, 6)))


async def exchange_money(request: Request, merchant: Merchant) -> Response:
    v = Validator(await json_body(request))
    amount = v.number_field("moneyAmount", required=True, positive=True)
    client_id = v.int_field("clientId", required=True, minimum=1)
    v.check()
    assert amount is not None
    assert client_id is not None
    branch = header_branch(request, merchant, strict=True)
    client = active_client(merchant, client_id)
    ensure_not_suspended(client)
    minimum = merchant.rules.money_exchange_minimum
    if minimum > 0 and amount < minimum:
        raise ApiError(409, f"El monto mínimo para canjear dinero es de {format_amount(minimum)}.")
    points = money_points(merchant, amount)
    if int(client.get("score", 0)) < points:
        raise ApiError(409, INSUFFICIENT_POINTS)
    debit(client, points)
    purchase = create_purchase(
        world_of(request),
        merchant,
        client=client,
        branch=branch,
        points=points,
        money_amount=amount,
    )
    return envelope(
        purchase_view(merchant, purchase), status=201, message="Canje realizado correctamente"
    )


routes: list[BaseRoute] = [
    Route("/external/exchange/product", endpoint(exchange_product), methods=["POST"]),
    Route("/external/exchange/money", endpoint(exchange_money), methods=["POST"]),
]
