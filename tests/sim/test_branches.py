"""Branches (read-only) and the authentication every ``/external`` route shares."""

from __future__ import annotations

from typing import Any

import pytest

from kiosk.sim.world import World

BRANCH_FIELDS = {
    "id",
    "name",
    "isEnabled",
    "branchType",
    "emailOfBranch",
    "phoneOfBranch",
    "ubication",
    "websiteUrl",
    "ubicationUrl",
    "registerQrUrl",
    "createdAt",
    "updatedAt",
}


def test_list_branches_of_the_key_merchant(api: Any, other_api: Any, sim_world: World) -> None:
    r = api.get("/external/branch")
    assert r.status_code == 200
    body = r.json()
    assert set(body) == {"success", "status", "message", "data"}
    assert (body["success"], body["status"]) == (True, 200)
    names = [b["name"] for b in body["data"]]
    assert names == ["Sucursal Centro", "Sucursal Palermo", "Sucursal Rosario"]
    for branch in body["data"]:
        assert set(branch) == BRANCH_FIELDS  # private rule keys never leave the simulator
        assert branch["isEnabled"] is True
        assert branch["branchType"] == "physical"
        assert ".example.test" in branch["emailOfBranch"]
    theirs = other_api.get("/external/branch").json()["data"]
    assert {b["id"] for b in theirs} == set(sim_world.merchants[2].tables["branches"])
    assert {b["id"] for b in theirs}.isdisjoint(b["id"] for b in body["data"])


def test_get_one_branch(api: Any, sim_world: World) -> None:
    branch_id = next(iter(sim_world.merchants[1].tables["branches"]))
    r = api.get(f"/external/branch/{branch_id}")
    assert r.status_code == 200
    data = r.json()["data"]
    assert data["id"] == branch_id
    assert data["name"] == "Sucursal Centro"
    assert set(data) == BRANCH_FIELDS


def test_missing_or_foreign_branch_is_404(api: Any, sim_world: World) -> None:
    foreign = next(iter(sim_world.merchants[2].tables["branches"]))
    for branch_id in (foreign, 9999):
        r = api.get(f"/external/branch/{branch_id}")
        assert r.status_code == 404
        body = r.json()
        assert body["message"] == "Sucursal no encontrada"
        assert body["statusCode"] == 404
        assert body["path"] == f"/external/branch/{branch_id}"
        assert body["method"] == "GET"


@pytest.mark.parametrize("raw", ["abc", "0", "-2", "1.5"])
def test_non_integer_branch_id_is_400(api: Any, raw: str) -> None:
    r = api.get(f"/external/branch/{raw}")
    assert r.status_code == 400
    body = r.json()
    assert body["message"] == "Error de validación"
    assert [e["field"] for e in body["errors"]] == ["id"]


@pytest.mark.parametrize("path", ["/external/branch", "/external/branch/1"])
def test_key_required_and_invalid(anon: Any, path: str) -> None:
    missing = anon.get(path)
    assert missing.status_code == 401
    assert missing.json()["message"] == "Api Key is required"
    blank = anon.get(path, headers={"x-api-key": ""})
    assert blank.status_code == 401
    assert blank.json()["message"] == "Api Key is required"
    wrong = anon.get(path, headers={"x-api-key": "no-es-una-clave"})
    assert wrong.status_code == 401
    assert wrong.json()["message"] == "Api key is invalid"
    assert wrong.json()["statusCode"] == 401


def test_branches_are_read_only(api: Any) -> None:
    r = api.post("/external/branch", json={"name": "Nueva"})
    assert r.status_code == 404
    assert r.json()["message"] == "Cannot POST /external/branch"
