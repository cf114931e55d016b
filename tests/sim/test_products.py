"""Products (rewards): list filters and orders, create with offers, total replacement."""

from __future__ import annotations

from typing import Any

from kiosk.sim.world import Record, World
from tests.sim.catalog_support import (
    OTHER,
    assert_envelope,
    assert_error,
    assert_validation,
    branches,
    levels,
    merchant,
    product_body,
)

URL = "/external/products"
COUPON_STOCK = (
    "El stock de este producto se calcula a partir de sus cupones y no puede modificarse."
)


def _all(api: Any, **params: Any) -> list[dict[str, Any]]:
    r = api.get(URL, params={"limit": 200, **params})
    assert r.status_code == 200, r.text
    data: list[dict[str, Any]] = r.json()["data"]
    return data


def _seeded(world: World, name: str) -> Record:
    return next(p for p in merchant(world).tables["products"].values() if p["name"] == name)


def test_list_is_root_level_with_public_records(api: Any) -> None:
    r = api.get(URL)
    assert r.status_code == 200
    body = r.json()
    assert set(body) == {"data", "meta", "links"}
    assert body["meta"]["totalItems"] >= 12
    for product in body["data"]:
        assert not [k for k in product if k.startswith("_")]
        assert {"id", "name", "offers", "stock", "categoryIds", "isEnabled"} <= set(product)
        assert set(product["stock"]) == {"controlled", "available"}
        for offer in product["offers"]:
            assert set(offer) == {"productOfferId", "points", "levelId", "levelName"}


def test_is_enabled_filter(api: Any, sim_world: World) -> None:
    disabled = _all(api, isEnabled="false")
    names = {p["name"] for p in disabled}
    assert {"Botella térmica 750 ml", "Pan dulce artesanal"} <= names
    assert all(p["isEnabled"] is False for p in disabled)
    enabled = _all(api, isEnabled="true")
    assert enabled
    assert all(p["isEnabled"] is True for p in enabled)
    assert len(enabled) + len(disabled) == len(_all(api))
    assert_validation(api.get(URL, params={"isEnabled": "quizás"}), "isEnabled")


def test_level_filter_lists_products_with_an_offer_for_that_level(
    api: Any, sim_world: World
) -> None:
    level = levels(sim_world)[-1]
    created = assert_envelope(
        api.post(URL, json=product_body([{"points": 50, "levelId": level["id"]}])), 201
    )
    listed = _all(api, levelId=level["id"])
    assert created["id"] in {p["id"] for p in listed}
    assert all(any(o["levelId"] == level["id"] for o in p["offers"]) for p in listed)
    assert _all(api, levelId=999999) == []
    assert_validation(api.get(URL, params={"levelId": "uno"}), "levelId")


def test_query_and_orders(api: Any) -> None:
    assert [p["name"] for p in _all(api, query="termic")] == [
        "Bolso térmico",
        "Botella térmica 750 ml",
    ]
    names = [p["name"] for p in _all(api, order="name", direction="desc")]
    assert names == sorted(names, key=str.casefold, reverse=True)
    prices = [min(o["points"] for o in p["offers"]) for p in _all(api, order="points")]
    assert prices == sorted(prices)
    ids = [p["id"] for p in _all(api)]
    assert ids == sorted(ids)
    assert_validation(api.get(URL, params={"order": "price"}), "order")


def test_branch_header_is_checked_not_filtering(api: Any, sim_world: World) -> None:
    own = branches(sim_world)[0]
    foreign = branches(sim_world, OTHER)[0]
    r = api.get(URL, params={"limit": 200}, headers={"x-branch-id": str(own["id"])})
    assert len(r.json()["data"]) == len(_all(api))
    r = api.get(URL, headers={"x-branch-id": str(foreign["id"])})
    assert_error(r, 404, "Sucursal no encontrada")


def test_create_returns_offers_with_ids_and_level_names(api: Any, sim_world: World) -> None:
    low, mid, _ = levels(sim_world)[:3]
    body = product_body(
        [
            {"points": 900},
            {"points": 800, "levelId": low["id"]},
            {"points": 700, "levelId": mid["id"]},
        ],
        stock={"controlled": True, "available": 3},
        maxPurchases=2,
        categoryIds=[4, 4, 9],
        image="https://img.example.test/termo.png",
    )
    product = assert_envelope(api.post(URL, json=body), 201)
    assert product["name"] == "Producto de prueba"
    assert product["stock"] == {"controlled": True, "available": 3}
    assert product["maxPurchases"] == 2
    assert product["categoryIds"] == [4, 9]
    assert product["image"] == "https://img.example.test/termo.png"
    assert product["isEnabled"] is True
    by_level = {o["levelId"]: o for o in product["offers"]}
    assert by_level[None]["levelName"] is None
    assert by_level[low["id"]]["levelName"] == low["name"]
    assert by_level[mid["id"]]["points"] == 700
    ids = [o["productOfferId"] for o in product["offers"]]
    assert len(set(ids)) == 3
    assert all(isinstance(i, int) for i in ids)


def test_create_defaults_no_stock_control_no_cap(api: Any) -> None:
    product = assert_envelope(api.post(URL, json=product_body([{"points": 10}])), 201)
    assert product["stock"] == {"controlled": False, "available": 0}
    assert "maxPurchases" not in product
    assert "image" not in product
    assert product["categoryIds"] == []
    assert product["isEnabled"] is True


def test_create_validation(api: Any) -> None:
    assert_validation(api.post(URL, json={"name": "Sin ofertas"}), "offers")
    assert_validation(api.post(URL, json=product_body([])), "offers")
    assert_validation(api.post(URL, json=product_body([{"points": 0}])), "offers.0.points")
    assert_validation(api.post(URL, json=product_body([{"points": 5}, {"points": 6}])), "offers")
    assert_validation(api.post(URL, json={"offers": [{"points": 5}]}), "name")
    r = api.post(URL, json=product_body([{"points": 5}], stock={"available": 2}, categoryIds=["a"]))
    assert_validation(r, "stock.controlled", "categoryIds")
    r = api.post(URL, json=product_body([{"points": 5}], image="ftp://x", maxPurchases=0))
    assert_validation(r, "image", "maxPurchases")
    r = api.post(URL, content=b"{not json", headers={"content-type": "application/json"})
    assert_validation(r, "body")


def test_create_with_unknown_or_foreign_level_is_404(api: Any, sim_world: World) -> None:
    foreign = levels(sim_world, OTHER, count=1)[0]
    r = api.post(URL, json=product_body([{"points": 5, "levelId": foreign["id"]}]))
    assert_error(r, 404, "Level not found")
    r = api.post(URL, json=product_body([{"points": 5, "levelId": 999999}]))
    assert_error(r, 404, "Level not found")


def test_put_reconciles_offers_by_level(api: Any, sim_world: World) -> None:
    low, mid, high = levels(sim_world)[:3]
    body = product_body(
        [
            {"points": 900},
            {"points": 800, "levelId": low["id"]},
            {"points": 700, "levelId": mid["id"]},
        ],
        maxPurchases=3,
        categoryIds=[1, 2],
    )
    product = assert_envelope(api.post(URL, json=body), 201)
    before = {o["levelId"]: o["productOfferId"] for o in product["offers"]}
    replacement = product_body(
        [
            {"points": 850},
            {"points": 650, "levelId": mid["id"]},
            {"points": 600, "levelId": high["id"]},
        ],
        name="Renombrado",
    )
    updated = assert_envelope(api.put(f"{URL}/{product['id']}", json=replacement), 200)
    after = {o["levelId"]: o for o in updated["offers"]}
    assert set(after) == {None, mid["id"], high["id"]}
    assert after[None]["productOfferId"] == before[None]
    assert after[None]["points"] == 850
    assert after[mid["id"]]["productOfferId"] == before[mid["id"]]
    assert after[high["id"]]["productOfferId"] not in before.values()
    assert after[high["id"]]["levelName"] == high["name"]
    assert updated["name"] == "Renombrado"
    assert updated["categoryIds"] == []
    assert "maxPurchases" not in updated
    listed = next(p for p in _all(api) if p["id"] == product["id"])
    assert listed["offers"] == updated["offers"]


def test_put_preserves_private_options(api: Any, sim_world: World) -> None:
    record = _seeded(sim_world, "Cena para dos en parrilla")
    preserved = dict(record["_preserved"])
    r = api.put(f"{URL}/{record['id']}", json=product_body([{"points": 11000}], name="Cena"))
    assert_envelope(r, 200)
    assert record["_preserved"] == preserved
    assert record["name"] == "Cena"


def test_put_stock_on_custom_coupon_product_is_400(api: Any, sim_world: World) -> None:
    record = _seeded(sim_world, "Gift card Spotify Premium 1 mes")
    stock = dict(record["stock"])
    body = product_body([{"points": 2500}], stock={"controlled": True, "available": 99})
    assert_error(api.put(f"{URL}/{record['id']}", json=body), 400, COUPON_STOCK)
    assert record["stock"] == stock
    updated = assert_envelope(
        api.put(f"{URL}/{record['id']}", json=product_body([{"points": 2500}])), 200
    )
    assert updated["stock"] == stock


def test_put_missing_or_foreign_product_is_404(api: Any, other_api: Any) -> None:
    foreign = assert_envelope(other_api.post(URL, json=product_body([{"points": 5}])), 201)
    assert_error(
        api.put(f"{URL}/{foreign['id']}", json=product_body([{"points": 5}])),
        404,
        "Product not found",
    )
    assert_error(
        api.put(f"{URL}/999999", json=product_body([{"points": 5}])), 404, "Product not found"
    )
    assert_validation(api.put(f"{URL}/999999", json={"name": "x"}), "offers")


def test_stock_zero_disables_and_restock_enables(api: Any, sim_world: World) -> None:
    product = assert_envelope(
        api.post(
            URL, json=product_body([{"points": 5}], stock={"controlled": True, "available": 0})
        ),
        201,
    )
    assert product["isEnabled"] is False
    body = product_body([{"points": 5}], stock={"controlled": True, "available": 4})
    assert assert_envelope(api.put(f"{URL}/{product['id']}", json=body), 200)["isEnabled"] is True
    panel_disabled = _seeded(sim_world, "Pan dulce artesanal")
    body = product_body([{"points": 5}], stock={"controlled": True, "available": 4})
    assert (
        assert_envelope(api.put(f"{URL}/{panel_disabled['id']}", json=body), 200)["isEnabled"]
        is False
    )


def test_put_without_stock_keeps_stock(api: Any) -> None:
    body = product_body([{"points": 5}], stock={"controlled": True, "available": 7})
    product = assert_envelope(api.post(URL, json=body), 201)
    updated = assert_envelope(
        api.put(f"{URL}/{product['id']}", json=product_body([{"points": 6}])), 200
    )
    assert updated["stock"] == {"controlled": True, "available": 7}


def test_each_merchant_sees_its_catalog(api: Any, other_api: Any) -> None:
    mine = {p["id"] for p in _all(api)}
    theirs = {p["id"] for p in _all(other_api)}
    assert len(theirs) >= 3
    assert not mine & theirs
