"""Purchases: read by code (no envelope), redeem (once, before expiry), list (C14), demo seed."""

from __future__ import annotations

from typing import Any

from kiosk.sim import seed_catalog
from kiosk.sim.catalog_purchases import find_purchase
from kiosk.sim.world import Merchant, World
from tests.sim.catalog_support import (
    OTHER,
    assert_envelope,
    assert_error,
    assert_validation,
    branches,
    client,
    clients,
    levels,
    merchant,
    product_body,
)

LIST = "/external/purchase"
ALREADY = "El canje ya fue realizado"


def _exchange(
    api: Any, world: World, points: int = 10, index: int = 0, **headers: str
) -> dict[str, Any]:
    product = assert_envelope(
        api.post("/external/products", json=product_body([{"points": points}])), 201
    )
    buyer = client(world, score=10_000, index=index)
    body = {"productOfferId": product["offers"][0]["productOfferId"], "clientId": buyer["id"]}
    data: dict[str, Any] = assert_envelope(
        api.post("/external/exchange/product", json=body, headers=headers), 201
    )
    return data


def test_read_by_code_is_the_bare_record(api: Any, sim_world: World) -> None:
    purchase = _exchange(api, sim_world)
    r = api.get(f"/external/purchase/code/{purchase['code']}")
    assert r.status_code == 200
    assert r.json() == purchase
    assert api.get(f"/external/purchase/code/{purchase['code'].lower()}").json() == purchase


def test_read_unknown_or_foreign_code_is_404(api: Any, other_api: Any, sim_world: World) -> None:
    purchase = _exchange(api, sim_world)
    assert_error(
        other_api.get(f"/external/purchase/code/{purchase['code']}"), 404, "Canje no encontrado"
    )
    assert_error(api.get("/external/purchase/code/ZZZZ9999"), 404, "Canje no encontrado")
    assert_error(
        other_api.post(f"/external/purchase/redeem/{purchase['code']}"), 404, "Canje no encontrado"
    )


def test_redeem_delivers_once(api: Any, sim_world: World) -> None:
    purchase = _exchange(api, sim_world)
    sim_world.clock.advance(5)
    delivered = assert_envelope(api.post(f"/external/purchase/redeem/{purchase['code']}"), 201)
    assert delivered["status"] == "delivered"
    assert delivered["updatedAt"] > purchase["updatedAt"]
    assert {k: v for k, v in delivered.items() if k not in ("status", "updatedAt")} == {
        k: v for k, v in purchase.items() if k not in ("status", "updatedAt")
    }
    assert api.get(f"/external/purchase/code/{purchase['code']}").json()["status"] == "delivered"
    assert_error(api.post(f"/external/purchase/redeem/{purchase['code']}"), 400, ALREADY)


def test_redeem_records_branch_and_checks_it(api: Any, sim_world: World) -> None:
    purchase = _exchange(api, sim_world)
    foreign = branches(sim_world, OTHER)[0]
    r = api.post(
        f"/external/purchase/redeem/{purchase['code']}", headers={"x-branch-id": str(foreign["id"])}
    )
    assert r.status_code == 403
    own = branches(sim_world)[0]
    r = api.post(
        f"/external/purchase/redeem/{purchase['code']}", headers={"x-branch-id": str(own["id"])}
    )
    assert_envelope(r, 201)
    stored = find_purchase(merchant(sim_world), purchase["code"])
    assert stored is not None
    assert stored["_redeemed_branch_id"] == own["id"]


def test_redeem_after_expiry_is_400(api: Any, sim_world: World) -> None:
    ttl = merchant(sim_world).rules.purchase_ttl_seconds
    fresh = _exchange(api, sim_world, index=0)
    old = _exchange(api, sim_world, index=1)
    sim_world.clock.advance(ttl - 60)
    assert_envelope(api.post(f"/external/purchase/redeem/{fresh['code']}"), 201)
    sim_world.clock.advance(61)
    assert_error(api.post(f"/external/purchase/redeem/{old['code']}"), 400, ALREADY)
    assert api.get(f"/external/purchase/code/{old['code']}").json()["status"] == "pending"


def test_redeem_canceled_is_400(api: Any, sim_world: World) -> None:
    purchase = _exchange(api, sim_world)
    stored = find_purchase(merchant(sim_world), purchase["code"])
    assert stored is not None
    stored["status"] = "canceled"
    assert_error(
        api.post(f"/external/purchase/redeem/{purchase['code']}"), 400, "El canje fue cancelado."
    )


def test_list_newest_first_and_filters(api: Any, sim_world: World) -> None:
    first = _exchange(api, sim_world, points=30, index=0)
    sim_world.clock.advance(2)
    second = _exchange(api, sim_world, points=20, index=1)
    sim_world.clock.advance(2)
    buyer = client(sim_world, score=10_000, index=0)
    money = assert_envelope(
        api.post("/external/exchange/money", json={"moneyAmount": 600, "clientId": buyer["id"]}),
        201,
    )
    api.post(f"/external/purchase/redeem/{second['code']}")
    body = api.get(LIST, params={"limit": 200}).json()
    assert set(body) == {"data", "meta", "links"}
    ids = [p["id"] for p in body["data"]]
    assert ids.index(money["id"]) < ids.index(second["id"]) < ids.index(first["id"])
    stamps = [p["createdAt"] for p in body["data"]]
    assert stamps == sorted(stamps, reverse=True)
    delivered = api.get(LIST, params={"status": "delivered", "limit": 200}).json()["data"]
    assert second["id"] in {p["id"] for p in delivered}
    assert all(p["status"] == "delivered" for p in delivered)
    money_rows = api.get(LIST, params={"type": "money", "limit": 200}).json()["data"]
    assert money["id"] in {p["id"] for p in money_rows}
    assert all(p["type"] == "money" for p in money_rows)
    mine = api.get(LIST, params={"clientId": buyer["id"], "limit": 200}).json()["data"]
    assert {first["id"], money["id"]} <= {p["id"] for p in mine}
    assert all(p["client"]["id"] == buyer["id"] for p in mine)
    assert [
        p["id"] for p in api.get(LIST, params={"query": second["code"].lower()}).json()["data"]
    ] == [second["id"]]
    by_email = api.get(LIST, params={"query": buyer["email"], "limit": 200}).json()["data"]
    assert all(p["client"]["id"] == buyer["id"] for p in by_email)
    points = [
        p["points"] for p in api.get(LIST, params={"order": "points", "limit": 200}).json()["data"]
    ]
    assert points == sorted(points)


def test_list_validation_and_isolation(api: Any, other_api: Any, sim_world: World) -> None:
    assert_validation(
        api.get(LIST, params={"status": "lost", "type": "gift", "clientId": "x"}),
        "status",
        "type",
        "clientId",
    )
    assert_validation(api.get(LIST, params={"order": "code"}), "order")
    purchase = _exchange(api, sim_world)
    theirs = other_api.get(LIST, params={"limit": 200}).json()["data"]
    assert purchase["id"] not in {p["id"] for p in theirs}


def test_client_rename_shows_in_purchase(api: Any, sim_world: World) -> None:
    purchase = _exchange(api, sim_world)
    buyer = merchant(sim_world).tables["clients"][purchase["client"]["id"]]
    buyer["first_name"] = "Renombrada"
    assert (
        api.get(f"/external/purchase/code/{purchase['code']}").json()["client"]["firstName"]
        == "Renombrada"
    )


def _seeded_world() -> tuple[World, Merchant]:
    """A world with people inserted by hand, then only the catalog seed."""
    world = World()
    for mid in (1, 2):
        m = world.add_merchant(Merchant(id=mid, name=f"Comercio {mid}", api_key=f"k{mid}"))
        branches(world, mid, count=3)
        levels(world, mid, count=3)
        clients(world, mid, count=4)
        seed_catalog.seed(world, m)
    return world, world.merchants[1]


def test_seed_demo_codes() -> None:
    world, main = _seeded_world()
    states = {
        code: find_purchase(main, code)
        for code in ("PEND2345", "CASH2345", "ENTR6789", "VENC3456", "CANC4567")
    }
    assert all(p is not None for p in states.values())
    assert states["PEND2345"]["status"] == "pending"  # type: ignore[index]
    assert states["CASH2345"]["type"] == "money"  # type: ignore[index]
    assert states["ENTR6789"]["status"] == "delivered"  # type: ignore[index]
    assert states["CANC4567"]["status"] == "canceled"  # type: ignore[index]
    expired = states["VENC3456"]
    assert expired is not None
    assert expired["status"] == "pending"
    assert expired["_expires_at"] < world.clock.time()
    assert find_purchase(world.merchants[2], "FARM2345") is not None
    assert find_purchase(world.merchants[2], "PEND2345") is None


def test_seed_catalog_is_deterministic() -> None:
    first, _ = _seeded_world()
    second, _ = _seeded_world()
    for table in ("products", "point_items", "operators", "qrs", "purchases"):
        a = [
            {
                k: v
                for k, v in r.items()
                if k not in ("createdAt", "updatedAt", "_created_ts", "_expires_at")
            }
            for r in first.merchants[1].tables[table].values()
        ]
        b = [
            {
                k: v
                for k, v in r.items()
                if k not in ("createdAt", "updatedAt", "_created_ts", "_expires_at")
            }
            for r in second.merchants[1].tables[table].values()
        ]
        assert a == b, table
