"""Exchanges of points for products and for money: debits, stock, and every refusal."""

from __future__ import annotations

import math
from typing import Any

from kiosk.sim.catalog_purchases import CODE_ALPHABET
from kiosk.sim.world import World
from tests.sim.catalog_support import (
    OTHER,
    assert_envelope,
    assert_error,
    assert_validation,
    branches,
    client,
    levels,
    merchant,
    product_body,
)

PRODUCT = "/external/exchange/product"
MONEY = "/external/exchange/money"
PURCHASE_KEYS = {
    "id", "code", "status", "type", "points", "moneyAmount", "product", "client", "branch",
    "createdAt", "updatedAt",
}  # fmt: skip


def _product(api: Any, offers: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = assert_envelope(
        api.post("/external/products", json=product_body(offers, **extra)), 201
    )
    return data


def _offer(product: dict[str, Any], level_id: int | None = None) -> int:
    return int(next(o["productOfferId"] for o in product["offers"] if o["levelId"] == level_id))


def test_product_exchange_creates_pending_purchase_and_debits(api: Any, sim_world: World) -> None:
    product = _product(api, [{"points": 300}])
    buyer = client(sim_world, score=1000)
    total, counter = buyer["total_score"], buyer.get("purchases_counter") or 0
    r = api.post(PRODUCT, json={"productOfferId": _offer(product), "clientId": buyer["id"]})
    purchase = assert_envelope(r, 201)
    assert set(purchase) == PURCHASE_KEYS
    assert purchase["status"] == "pending"
    assert purchase["type"] == "product"
    assert purchase["points"] == 300
    assert purchase["moneyAmount"] is None
    assert purchase["product"] == {"id": product["id"], "name": product["name"]}
    assert purchase["client"] == {
        "id": buyer["id"],
        "firstName": buyer["first_name"],
        "lastName": buyer["last_name"],
        "email": buyer["email"],
    }
    assert purchase["branch"] is None
    assert len(purchase["code"]) == 8
    assert set(purchase["code"]) <= set(CODE_ALPHABET)
    assert buyer["score"] == 700
    assert buyer["total_score"] == total
    assert buyer["purchases_counter"] == counter + 1


def test_codes_are_unique(api: Any, sim_world: World) -> None:
    product = _product(api, [{"points": 1}])
    buyer = client(sim_world, score=100)
    codes = {
        assert_envelope(
            api.post(PRODUCT, json={"productOfferId": _offer(product), "clientId": buyer["id"]}),
            201,
        )["code"]
        for _ in range(20)
    }
    assert len(codes) == 20


def test_branch_header_records_branch(api: Any, sim_world: World) -> None:
    branch = branches(sim_world)[0]
    product = _product(api, [{"points": 10}])
    buyer = client(sim_world, score=100)
    body = {"productOfferId": _offer(product), "clientId": buyer["id"]}
    purchase = assert_envelope(
        api.post(PRODUCT, json=body, headers={"x-branch-id": str(branch["id"])}), 201
    )
    assert purchase["branch"] == {"id": branch["id"], "name": branch["name"]}
    foreign = branches(sim_world, OTHER)[0]
    r = api.post(PRODUCT, json=body, headers={"x-branch-id": str(foreign["id"])})
    assert_error(r, 403, f"Branch with id {foreign['id']} does not belong to business with id 1")
    assert_error(
        api.post(PRODUCT, json=body, headers={"x-branch-id": "999999"}),
        404,
        "Sucursal no encontrada",
    )
    assert buyer["score"] == 90


def test_controlled_stock_decrements_and_disables_at_zero(api: Any, sim_world: World) -> None:
    product = _product(api, [{"points": 10}], stock={"controlled": True, "available": 2})
    first, second = client(sim_world, score=100, index=0), client(sim_world, score=100, index=1)
    record = merchant(sim_world).tables["products"][product["id"]]
    assert_envelope(
        api.post(PRODUCT, json={"productOfferId": _offer(product), "clientId": first["id"]}), 201
    )
    assert record["stock"]["available"] == 1
    assert record["isEnabled"] is True
    assert_envelope(
        api.post(PRODUCT, json={"productOfferId": _offer(product), "clientId": first["id"]}), 201
    )
    assert record["stock"] == {"controlled": True, "available": 0}
    assert record["isEnabled"] is False
    r = api.post(PRODUCT, json={"productOfferId": _offer(product), "clientId": second["id"]})
    assert_error(r, 409, "El producto no tiene stock disponible.")
    assert second["score"] == 100
    listed = api.get("/external/products", params={"isEnabled": "false", "limit": 200}).json()[
        "data"
    ]
    assert product["id"] in {p["id"] for p in listed}


def test_seeded_last_unit_product(api: Any, sim_world: World) -> None:
    record = next(
        p for p in merchant(sim_world).tables["products"].values() if p["name"] == "Bolso térmico"
    )
    assert record["stock"] == {"controlled": True, "available": 1}
    offer = next(o for o in record["offers"] if o["levelId"] is None)
    buyer = client(sim_world, score=100_000)
    assert_envelope(
        api.post(
            PRODUCT, json={"productOfferId": offer["productOfferId"], "clientId": buyer["id"]}
        ),
        201,
    )
    assert record["isEnabled"] is False


def test_disabled_product_is_409(api: Any, sim_world: World) -> None:
    record = next(
        p
        for p in merchant(sim_world).tables["products"].values()
        if p["name"] == "Pan dulce artesanal"
    )
    offer = next(o for o in record["offers"] if o["levelId"] is None)
    buyer = client(sim_world, score=100_000)
    r = api.post(PRODUCT, json={"productOfferId": offer["productOfferId"], "clientId": buyer["id"]})
    assert_error(r, 409, "El producto no se encuentra disponible.")


def test_insufficient_points_is_409_and_changes_nothing(api: Any, sim_world: World) -> None:
    product = _product(api, [{"points": 500}], stock={"controlled": True, "available": 5})
    buyer = client(sim_world, score=499)
    counter = buyer.get("purchases_counter") or 0
    r = api.post(PRODUCT, json={"productOfferId": _offer(product), "clientId": buyer["id"]})
    assert_error(r, 409, "El cliente no tiene puntos suficientes.")
    assert buyer["score"] == 499
    assert (buyer.get("purchases_counter") or 0) == counter
    assert merchant(sim_world).tables["products"][product["id"]]["stock"]["available"] == 5


def test_level_rule(api: Any, sim_world: World) -> None:
    low, mid, high = levels(sim_world)[:3]
    product = _product(api, [{"points": 100}, {"points": 50, "levelId": mid["id"]}])
    mid_offer = _offer(product, mid["id"])
    refused = "El nivel del cliente no permite canjear este producto."
    no_level = client(sim_world, score=1000, index=0)
    assert_error(
        api.post(PRODUCT, json={"productOfferId": mid_offer, "clientId": no_level["id"]}),
        409,
        refused,
    )
    lower = client(sim_world, score=1000, level=low, index=1)
    assert_error(
        api.post(PRODUCT, json={"productOfferId": mid_offer, "clientId": lower["id"]}), 409, refused
    )
    same = client(sim_world, score=1000, level=mid, index=2)
    assert_envelope(
        api.post(PRODUCT, json={"productOfferId": mid_offer, "clientId": same["id"]}), 201
    )
    higher = client(sim_world, score=1000, level=high, index=3)
    assert_envelope(
        api.post(PRODUCT, json={"productOfferId": mid_offer, "clientId": higher["id"]}), 201
    )
    base = _offer(product)
    assert_envelope(api.post(PRODUCT, json={"productOfferId": base, "clientId": lower["id"]}), 201)
    assert_envelope(
        api.post(PRODUCT, json={"productOfferId": base, "clientId": no_level["id"]}), 201
    )


def test_per_client_cap_counts_non_canceled(api: Any, sim_world: World) -> None:
    product = _product(api, [{"points": 10}], maxPurchases=1)
    buyer, other = client(sim_world, score=100, index=0), client(sim_world, score=100, index=1)
    body = {"productOfferId": _offer(product), "clientId": buyer["id"]}
    first = assert_envelope(api.post(PRODUCT, json=body), 201)
    assert_error(
        api.post(PRODUCT, json=body),
        409,
        "El cliente alcanzó el máximo de canjes permitidos para este producto.",
    )
    assert buyer["score"] == 90
    assert_envelope(api.post(PRODUCT, json={**body, "clientId": other["id"]}), 201)
    merchant(sim_world).tables["purchases"][first["id"]]["status"] = "canceled"
    assert_envelope(api.post(PRODUCT, json=body), 201)


def test_missing_records_are_404(api: Any, other_api: Any, sim_world: World) -> None:
    product = _product(api, [{"points": 10}])
    buyer = client(sim_world, score=100)
    foreign_product = _product(other_api, [{"points": 10}])
    foreign_client = client(sim_world, OTHER, score=100)
    offer = _offer(product)
    assert_error(
        api.post(PRODUCT, json={"productOfferId": 999999, "clientId": buyer["id"]}),
        404,
        "Product offer not found",
    )
    r = api.post(PRODUCT, json={"productOfferId": _offer(foreign_product), "clientId": buyer["id"]})
    assert_error(r, 404, "Product offer not found")
    assert_error(
        api.post(PRODUCT, json={"productOfferId": offer, "clientId": 999999}),
        404,
        "Client not found",
    )
    r = api.post(PRODUCT, json={"productOfferId": offer, "clientId": foreign_client["id"]})
    assert_error(r, 404, "Client not found")
    buyer["_removed_at"] = sim_world.clock.time()
    assert_error(
        api.post(PRODUCT, json={"productOfferId": offer, "clientId": buyer["id"]}),
        404,
        "Client not found",
    )
    assert buyer["score"] == 100


def test_replaced_offer_keeps_working_and_dropped_offer_is_404(api: Any, sim_world: World) -> None:
    low, mid, _ = levels(sim_world)[:3]
    product = _product(api, [{"points": 10}, {"points": 8, "levelId": low["id"]}])
    kept, dropped = _offer(product), _offer(product, low["id"])
    body = product_body([{"points": 12}, {"points": 7, "levelId": mid["id"]}])
    assert_envelope(api.put(f"/external/products/{product['id']}", json=body), 200)
    buyer = client(sim_world, score=100, level=low)
    purchase = assert_envelope(
        api.post(PRODUCT, json={"productOfferId": kept, "clientId": buyer["id"]}), 201
    )
    assert purchase["points"] == 12
    r = api.post(PRODUCT, json={"productOfferId": dropped, "clientId": buyer["id"]})
    assert_error(r, 404, "Product offer not found")


def test_suspended_client_is_403(api: Any, sim_world: World) -> None:
    product = _product(api, [{"points": 10}])
    buyer = client(sim_world, score=100)
    buyer["status"] = "SUSPENDED"
    r = api.post(PRODUCT, json={"productOfferId": _offer(product), "clientId": buyer["id"]})
    assert_error(r, 403, "El cliente se encuentra suspendido.")
    assert_error(
        api.post(MONEY, json={"moneyAmount": 600, "clientId": buyer["id"]}),
        403,
        "El cliente se encuentra suspendido.",
    )


def test_exchange_validation(api: Any) -> None:
    assert_validation(api.post(PRODUCT, json={}), "productOfferId", "clientId")
    assert_validation(
        api.post(PRODUCT, json={"productOfferId": "1", "clientId": 1.5}),
        "productOfferId",
        "clientId",
    )
    assert_validation(api.post(MONEY, json={"moneyAmount": -1, "clientId": 1}), "moneyAmount")
    assert_validation(api.post(MONEY, json={"clientId": 1}), "moneyAmount")


def test_money_exchange(api: Any, sim_world: World) -> None:
    merchant(sim_world).rules.points_per_currency = 1.5
    buyer = client(sim_world, score=5000)
    counter = buyer.get("purchases_counter") or 0
    purchase = assert_envelope(
        api.post(MONEY, json={"moneyAmount": 701, "clientId": buyer["id"]}), 201
    )
    expected = math.ceil(701 * 1.5)
    assert set(purchase) == PURCHASE_KEYS
    assert purchase["type"] == "money"
    assert purchase["product"] is None
    assert purchase["moneyAmount"] == 701
    assert purchase["points"] == expected
    assert purchase["status"] == "pending"
    assert buyer["score"] == 5000 - expected
    assert buyer["purchases_counter"] == counter + 1


def test_money_below_minimum_is_409(api: Any, sim_world: World) -> None:
    buyer = client(sim_world, score=5000)
    r = api.post(MONEY, json={"moneyAmount": 499.99, "clientId": buyer["id"]})
    assert_error(r, 409, "El monto mínimo para canjear dinero es de 500.")
    merchant(sim_world).rules.money_exchange_minimum = 0
    assert_envelope(api.post(MONEY, json={"moneyAmount": 10, "clientId": buyer["id"]}), 201)


def test_money_insufficient_points_is_409(api: Any, sim_world: World) -> None:
    buyer = client(sim_world, score=999)
    r = api.post(MONEY, json={"moneyAmount": 1000, "clientId": buyer["id"]})
    assert_error(r, 409, "El cliente no tiene puntos suficientes.")
    assert buyer["score"] == 999
    assert_error(
        api.post(MONEY, json={"moneyAmount": 1000, "clientId": 999999}), 404, "Client not found"
    )
