"""Operators: list (admins first, no branches), read, create (cap, email, groups), update, delete."""

from __future__ import annotations

from typing import Any

from kiosk.sim.catalog_operators import groups
from kiosk.sim.world import World
from tests.sim.catalog_support import (
    OTHER,
    assert_envelope,
    assert_error,
    assert_validation,
    branches,
    merchant,
)

URL = "/external/operators"
BRANCH_KEYS = {"branchId", "branchName", "permissionGroupId", "permissionGroupName"}


def _group(world: World, name: str = "Cajero", merchant_id: int = 1) -> dict[str, Any]:
    return next(g for g in groups(merchant(world, merchant_id)).values() if g["name"] == name)


def _body(**extra: Any) -> dict[str, Any]:
    return {"firstName": "Ana", "lastName": "Paz", "email": "ana.paz@example.test", **extra}


def _all(api: Any, **params: Any) -> list[dict[str, Any]]:
    r = api.get(URL, params={"limit": 200, **params})
    assert r.status_code == 200, r.text
    data: list[dict[str, Any]] = r.json()["data"]
    return data


def test_list_admins_first_without_branches(api: Any) -> None:
    rows = _all(api)
    assert len(rows) >= 5
    roles = [r["role"] for r in rows]
    assert roles[0] == "admin"
    assert roles == sorted(roles, key=lambda role: role != "admin")
    operators = [r["fullName"] for r in rows if r["role"] != "admin"]
    assert operators == sorted(operators, key=str.casefold)
    for row in rows:
        assert "branches" not in row
        assert not [k for k in row if k.startswith("_")]
        assert "password" not in row


def test_list_orders_and_query(api: Any) -> None:
    emails = [r["email"] for r in _all(api, order="email", direction="desc")]
    assert emails == sorted(emails, reverse=True)
    assert [r["fullName"] for r in _all(api, query="rodriguez")] == ["Sofía Rodríguez"]
    assert [r["fullName"] for r in _all(api, query="33444555")] == ["Diego Pereyra"]
    assert [r["fullName"] for r in _all(api, query="lucia.fern")] == ["Lucía Fernández"]
    assert_validation(api.get(URL, params={"order": "phone"}), "order")


def test_read_has_branches_and_other_merchant_is_404(api: Any, other_api: Any) -> None:
    sofia = _all(api, query="Sofía")[0]
    data = assert_envelope(api.get(f"{URL}/{sofia['id']}"), 200)
    assert data["id"] == sofia["id"]
    assert data["branches"]
    for entry in data["branches"]:
        assert set(entry) == BRANCH_KEYS
        assert entry["permissionGroupName"] == "Supervisor"
    foreign = _all(other_api)[0]
    assert_error(api.get(f"{URL}/{foreign['id']}"), 404, "Operator not found")
    assert_error(api.get(f"{URL}/999999"), 404, "Operator not found")


def test_create_with_password_and_branches(api: Any, sim_world: World) -> None:
    branch = branches(sim_world)[0]
    group = _group(sim_world)
    body = _body(
        password="segura123",
        branches=[{"branchId": branch["id"], "permissionGroupId": group["id"]}],
    )
    data = assert_envelope(api.post(URL, json=body), 201)
    assert data["role"] == "operator"
    assert data["fullName"] == "Ana Paz"
    assert data["email"] == "ana.paz@example.test"
    assert data["hasCompletedOnboarding"] is True
    assert "password" not in data
    assert "segura123" not in str(data)
    assert data["branches"] == [
        {
            "branchId": branch["id"],
            "branchName": branch["name"],
            "permissionGroupId": group["id"],
            "permissionGroupName": "Cajero",
        }
    ]
    assert data["id"] in {r["id"] for r in _all(api)}


def test_create_without_password_or_group(api: Any, sim_world: World) -> None:
    branch = branches(sim_world)[0]
    data = assert_envelope(api.post(URL, json=_body(branches=[{"branchId": branch["id"]}])), 201)
    assert data["hasCompletedOnboarding"] is False
    assert data["branches"][0]["permissionGroupId"] is None
    assert data["branches"][0]["permissionGroupName"] is None


def test_create_validation(api: Any) -> None:
    assert_validation(api.post(URL, json={}), "firstName", "lastName", "email")
    assert_validation(
        api.post(URL, json=_body(email="no-es-email", password="corta")), "email", "password"
    )
    assert_validation(
        api.post(URL, json=_body(branches=[{"permissionGroupId": 1}])), "branches.0.branchId"
    )
    assert_validation(
        api.post(URL, json=_body(branches=[{"branchId": 5}, {"branchId": 5}])), "branches"
    )


def test_create_with_taken_email_is_409(api: Any) -> None:
    taken = _all(api)[0]["email"]
    assert_error(
        api.post(URL, json=_body(email=taken.upper())),
        409,
        "El email ya está en uso por otro operador.",
    )


def test_create_with_foreign_or_unknown_branch_or_group(api: Any, sim_world: World) -> None:
    foreign = branches(sim_world, OTHER)[0]
    r = api.post(URL, json=_body(branches=[{"branchId": foreign["id"]}]))
    assert_error(r, 403, f"Branch with id {foreign['id']} does not belong to business with id 1")
    assert_error(
        api.post(URL, json=_body(branches=[{"branchId": 999999}])), 404, "Sucursal no encontrada"
    )
    own = branches(sim_world)[0]
    foreign_group = _group(sim_world, merchant_id=OTHER)
    r = api.post(
        URL,
        json=_body(branches=[{"branchId": own["id"], "permissionGroupId": foreign_group["id"]}]),
    )
    assert_error(r, 404, "Permission group not found")
    assert not [r for r in _all(api) if r["email"] == "ana.paz@example.test"]


def test_plan_cap_is_400(api: Any, sim_world: World) -> None:
    count = len(merchant(sim_world).tables["operators"])
    merchant(sim_world).rules.operator_cap = count + 1
    assert_envelope(api.post(URL, json=_body()), 201)
    r = api.post(URL, json=_body(email="otra@example.test"))
    assert_error(r, 400, "Se alcanzó el límite de operadores de su plan.")
    assert len(merchant(sim_world).tables["operators"]) == count + 1


def test_update_is_incremental_and_branches_replace(api: Any, sim_world: World) -> None:
    first, second = branches(sim_world, count=2)
    group = _group(sim_world, "Supervisor")
    created = assert_envelope(
        api.post(URL, json=_body(phone="111", branches=[{"branchId": first["id"]}])), 201
    )
    r = api.put(f"{URL}/{created['id']}", json={"lastName": "Pérez"})
    data = assert_envelope(r, 200)
    assert data["lastName"] == "Pérez"
    assert data["firstName"] == "Ana"
    assert data["fullName"] == "Ana Pérez"
    assert data["phone"] == "111"
    assert [b["branchId"] for b in data["branches"]] == [first["id"]]
    body = {"branches": [{"branchId": second["id"], "permissionGroupId": group["id"]}]}
    data = assert_envelope(api.put(f"{URL}/{created['id']}", json=body), 200)
    assert data["branches"] == [
        {
            "branchId": second["id"],
            "branchName": second["name"],
            "permissionGroupId": group["id"],
            "permissionGroupName": "Supervisor",
        }
    ]
    assert assert_envelope(api.get(f"{URL}/{created['id']}"), 200)["branches"] == data["branches"]
    data = assert_envelope(api.put(f"{URL}/{created['id']}", json={"branches": []}), 200)
    assert data["branches"] == []


def test_update_refuses_email_document_password(api: Any) -> None:
    created = assert_envelope(api.post(URL, json=_body(documentNumber="30111222")), 201)
    url = f"{URL}/{created['id']}"
    assert_validation(api.put(url, json={"email": "nuevo@example.test"}), "email")
    assert_validation(api.put(url, json={"documentNumber": "99"}), "documentNumber")
    assert_validation(api.put(url, json={"password": "otraclave1"}), "password")
    same = {"email": created["email"], "documentNumber": "30111222", "firstName": "Anita"}
    assert assert_envelope(api.put(url, json=same), 200)["firstName"] == "Anita"


def test_update_missing_or_foreign_is_404(api: Any, other_api: Any) -> None:
    foreign = _all(other_api)[0]
    assert_error(
        api.put(f"{URL}/{foreign['id']}", json={"firstName": "X"}), 404, "Operator not found"
    )
    assert_error(api.delete(f"{URL}/{foreign['id']}"), 404, "Operator not found")


def test_delete_answers_without_data(api: Any) -> None:
    created = assert_envelope(api.post(URL, json=_body()), 201)
    r = api.delete(f"{URL}/{created['id']}")
    assert r.status_code == 200
    body = r.json()
    assert body["success"] is True
    assert "data" not in body
    assert_error(api.get(f"{URL}/{created['id']}"), 404, "Operator not found")
    assert_error(api.delete(f"{URL}/{created['id']}"), 404, "Operator not found")


def test_permission_groups_survive_snapshot(sim_world: World) -> None:
    before = dict(groups(merchant(sim_world)))
    assert before
    copy = World()
    copy.restore(sim_world.snapshot())
    assert groups(copy.merchants[1]) == before
