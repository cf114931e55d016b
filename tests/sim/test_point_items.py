"""Point items: create (points xor amount), list (orders, branch header), replace, delete."""

from __future__ import annotations

from typing import Any

from kiosk.sim.world import World
from tests.sim.catalog_support import (
    OTHER,
    assert_envelope,
    assert_error,
    assert_validation,
    branches,
    merchant,
)

URL = "/external/point-items"


def _all(api: Any, **headers: str) -> list[dict[str, Any]]:
    r = api.get(URL, params={"limit": 200}, headers=headers)
    assert r.status_code == 200, r.text
    data: list[dict[str, Any]] = r.json()["data"]
    return data


def test_create_with_points_is_merchant_wide(api: Any) -> None:
    item = assert_envelope(api.post(URL, json={"name": "Yerba 1 kg", "points": 40}), 201)
    assert item["name"] == "Yerba 1 kg"
    assert item["points"] == 40
    assert item["amount"] is None
    assert item["branchId"] is None
    assert {"id", "createdAt", "updatedAt"} <= set(item)
    assert item["id"] in {i["id"] for i in _all(api)}


def test_create_with_amount(api: Any) -> None:
    item = assert_envelope(api.post(URL, json={"name": "Almuerzo", "amount": 4500.5}), 201)
    assert item["amount"] == 4500.5
    assert item["points"] is None


def test_both_sent_ignores_amount(api: Any) -> None:
    item = assert_envelope(api.post(URL, json={"name": "Doble", "points": 10, "amount": 99}), 201)
    assert item["points"] == 10
    assert item["amount"] is None


def test_neither_points_nor_amount_is_400(api: Any) -> None:
    assert_validation(api.post(URL, json={"name": "Nada"}), "points")


def test_values_must_be_positive(api: Any) -> None:
    assert_validation(api.post(URL, json={"name": "Cero", "points": 0}), "points")
    assert_validation(api.post(URL, json={"name": "Negativo", "amount": -5}), "amount")
    assert_validation(api.post(URL, json={"name": "Fracción", "points": 1.5}), "points")


def test_name_is_required(api: Any) -> None:
    assert_validation(api.post(URL, json={"points": 5}), "name")


def test_list_default_order_is_by_name_and_orders_apply(api: Any) -> None:
    names = [i["name"] for i in _all(api)]
    assert names == sorted(names, key=str.casefold)
    r = api.get(URL, params={"order": "points", "direction": "desc", "limit": 200})
    points = [i["points"] for i in r.json()["data"] if i["points"] is not None]
    assert points == sorted(points, reverse=True)
    assert_validation(api.get(URL, params={"order": "price"}), "order")


def test_list_pagination_meta(api: Any) -> None:
    for n in range(3):
        api.post(URL, json={"name": f"Extra {n}", "points": 5})
    total = len(_all(api))
    r = api.get(URL, params={"limit": 2, "page": 2})
    body = r.json()
    assert body["meta"]["totalItems"] == total
    assert body["meta"]["currentPage"] == 2
    assert body["meta"]["itemCount"] == 2
    assert body["links"]["previous"] is not None


def test_query_is_partial_and_accent_insensitive(api: Any) -> None:
    api.post(URL, json={"name": "Café de especialidad", "amount": 3000})
    r = api.get(URL, params={"query": "cafe de esp"})
    assert [i["name"] for i in r.json()["data"]] == ["Café de especialidad"]


def test_branch_header_shows_branch_items_plus_merchant_wide(api: Any, sim_world: World) -> None:
    first, second = branches(sim_world, count=2)
    table = merchant(sim_world).tables["point_items"]
    for branch in (first, second):
        item_id = sim_world.next_id("point_items")
        table[item_id] = {
            "id": item_id,
            "name": f"Solo en {branch['name']}",
            "points": 15,
            "amount": None,
            "branchId": branch["id"],
            "createdAt": sim_world.now_iso(),
            "updatedAt": sim_world.now_iso(),
        }
    without = _all(api)
    assert all(i["branchId"] is None for i in without)
    scoped = _all(api, **{"x-branch-id": str(first["id"])})
    assert {i["branchId"] for i in scoped} == {None, first["id"]}
    assert len(scoped) == len(without) + len(
        [i for i in table.values() if i["branchId"] == first["id"]]
    )


def test_branch_of_other_merchant_or_unknown_is_404(api: Any, sim_world: World) -> None:
    foreign = branches(sim_world, OTHER)[0]
    r = api.get(URL, headers={"x-branch-id": str(foreign["id"])})
    assert_error(r, 404, "Sucursal no encontrada")
    assert_error(api.get(URL, headers={"x-branch-id": "999999"}), 404, "Sucursal no encontrada")
    assert_validation(api.get(URL, headers={"x-branch-id": "abc"}), "x-branch-id")


def test_put_is_total_replacement(api: Any) -> None:
    item = assert_envelope(api.post(URL, json={"name": "Viejo", "points": 7}), 201)
    r = api.put(f"{URL}/{item['id']}", json={"name": "Nuevo", "amount": 1200})
    updated = assert_envelope(r, 200)
    assert updated == {**updated, "name": "Nuevo", "amount": 1200, "points": None, "branchId": None}
    assert updated["createdAt"] == item["createdAt"]
    assert_validation(api.put(f"{URL}/{item['id']}", json={"name": "Sin valor"}), "points")


def test_put_keeps_branch_of_branch_limited_item(api: Any, sim_world: World) -> None:
    branch = branches(sim_world)[0]
    item_id = sim_world.next_id("point_items")
    merchant(sim_world).tables["point_items"][item_id] = {
        "id": item_id,
        "name": "Panel",
        "points": 3,
        "amount": None,
        "branchId": branch["id"],
        "createdAt": sim_world.now_iso(),
        "updatedAt": sim_world.now_iso(),
    }
    updated = assert_envelope(
        api.put(f"{URL}/{item_id}", json={"name": "Panel 2", "points": 4}), 200
    )
    assert updated["branchId"] == branch["id"]
    assert updated["points"] == 4


def test_put_missing_or_foreign_item_is_404(api: Any, other_api: Any) -> None:
    item = assert_envelope(other_api.post(URL, json={"name": "Ajeno", "points": 1}), 201)
    r = api.put(f"{URL}/{item['id']}", json={"name": "Mío", "points": 2})
    assert_error(r, 404, f"PointsItem with id {item['id']} not found")
    assert_error(
        api.put(f"{URL}/999999", json={"name": "x", "points": 2}),
        404,
        "PointsItem with id 999999 not found",
    )


def test_delete_answers_null_data_then_404(api: Any) -> None:
    item = assert_envelope(api.post(URL, json={"name": "Borrar", "points": 1}), 201)
    r = api.delete(f"{URL}/{item['id']}")
    assert r.status_code == 200
    body = r.json()
    assert "data" in body
    assert body["data"] is None
    assert body["success"] is True
    assert item["id"] not in {i["id"] for i in _all(api)}
    assert_error(
        api.delete(f"{URL}/{item['id']}"), 404, f"PointsItem with id {item['id']} not found"
    )
    assert_validation(api.delete(f"{URL}/abc"), "id")


def test_other_merchant_sees_only_its_items(api: Any, other_api: Any) -> None:
    mine = {i["id"] for i in _all(api)}
    theirs = {i["id"] for i in _all(other_api)}
    assert mine
    assert theirs
    assert not mine & theirs


def test_requires_key(anon: Any) -> None:
    assert_error(anon.get(URL), 401, "Api Key is required")
