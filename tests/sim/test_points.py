"""Point operations: credit, preview and cancel (``/external/tags``), over both transports."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kiosk.sim.world import Record, World

CREDIT = "/external/tags/add"
PREVIEW = "/external/tags/add/preview"
NO_POINTS = "La operación no genera puntos."
SUSPENDED = "El cliente se encuentra suspendido."
MODES = "Debe enviar exactamente uno de: amount, pointItems, initialPointsToGive."
PEREZ = "30123456"  # Plata (x1.25), 4730 available, 5230 accumulated
LUCIA = "35678123"  # Bronce, 4990 accumulated: 10 points below Plata
SUSPENDED_DNI = "34111000"


@pytest.fixture(autouse=True)
def _steady_world(sim_world: World) -> None:
    # The tags limit (10/s) has its own test below; the others make more calls.
    sim_world.settings.rate_limits = False
    # Level reassignment runs only when a test advances the clock.
    sim_world.clock.freeze()


def client(world: World, document: str, merchant_id: int = 1) -> Record:
    for record in world.merchants[merchant_id].tables["clients"].values():
        if record["document_number"] == document:
            return record
    raise AssertionError(document)


def branch_id(world: World, name: str, merchant_id: int = 1) -> int:
    for record in world.merchants[merchant_id].tables["branches"].values():
        if record["name"] == name:
            return int(record["id"])
    raise AssertionError(name)


def add_item(
    world: World,
    *,
    points: int | None = None,
    amount: float | None = None,
    branch: int | None = None,
    merchant_id: int = 1,
) -> int:
    item_id = world.next_id("point_items")
    now = world.now_iso()
    world.merchants[merchant_id].tables["point_items"][item_id] = {
        "id": item_id,
        "name": f"Item {item_id}",
        "points": points,
        "amount": amount,
        "branchId": branch,
        "createdAt": now,
        "updatedAt": now,
    }
    return item_id


def error(r: Any, status: int) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["statusCode"] == status
    return str(body["message"])


def fields(r: Any) -> set[str]:
    assert error(r, 400) == "Error de validación"
    return {item["field"] for item in r.json()["errors"]}


def ledger(world: World, merchant_id: int = 1) -> dict[int, Record]:
    return world.merchants[merchant_id].tables["operations"]


def credit(api: Any, document: str, amount: float | None = None, **extra: Any) -> Any:
    body: Record = {"client": {"dni": document}, **extra}
    if amount is not None:
        body["amount"] = amount
    return api.post(CREDIT, json=body)


def preview(api: Any, client_id: int, **mode: Any) -> Any:
    return api.post(PREVIEW, json={"clientId": client_id, **mode})


def total(r: Any) -> int:
    assert r.status_code in (200, 201), r.text
    return int(r.json()["data"]["points"]["totalPointsToGive"])


# ------------------------------------------------------------------ credit


def test_credit_by_amount_applies_level_multiplier_and_updates_client(
    api: Any, sim_world: World
) -> None:
    perez = client(sim_world, PEREZ)
    before = (perez["score"], perez["total_score"])
    extra = {"origin": "external-integration", "reason": "Compra", "external_id": "FAC-1"}
    r = credit(api, PEREZ, 1500, extra_data=json.dumps([{"caja": 3}]), **extra)
    assert r.status_code == 201, r.text
    body = r.json()
    assert (body["success"], body["status"]) == (True, 201)
    data = body["data"]
    assert (data["clientId"], data["externalId"]) == (perez["id"], "FAC-1")
    # 1500 / 100 = 15 points; Plata x1.25 -> floor(18.75) = 18.
    assert data["points"] == {
        "amount": 1500,
        "totalPointsToGive": 18,
        "initialPointsToGive": 15,
        "selectedRewardType": "amount",
    }
    assert (perez["score"], perez["total_score"]) == (before[0] + 18, before[1] + 18)
    assert perez["last_transaction"] == sim_world.now_iso()
    operation = ledger(sim_world)[data["pointOperationId"]]
    assert operation["state"] == "active"
    assert (operation["origin"], operation["reason"]) == ("external-integration", "Compra")
    assert json.loads(operation["extra_data"]) == [{"caja": 3}]


def test_rounding_and_the_point_rule_of_a_branch(api: Any, sim_world: World) -> None:
    assert total(credit(api, LUCIA, 1999.99)) == 19  # Bronce x1, rounded down
    palermo = branch_id(sim_world, "Sucursal Palermo")
    at_palermo = credit(api, LUCIA, 5000, branch_id=palermo)
    assert total(at_palermo) == 55  # 50 + 10%
    assert total(credit(api, LUCIA, 5000, branch_id=branch_id(sim_world, "Sucursal Centro"))) == 50
    assert ledger(sim_world)[at_palermo.json()["data"]["pointOperationId"]]["branchId"] == palermo


def test_implicit_creation_of_an_unknown_client(api: Any) -> None:
    person = {"email": "Nueva.Clienta@Example.com", "dni": "40999888", "first_name": "Nora"}
    r = api.post(CREDIT, json={"client": {**person, "last_name": "Paz"}, "amount": 700})
    assert r.status_code == 201, r.text
    found = api.get("/external/clients/search", params={"query": "nueva.clienta@example.com"})
    record = found.json()["data"]
    assert record["id"] == r.json()["data"]["clientId"]
    assert (record["name"], record["document_type"]) == ("Nora Paz", "DNI")
    assert record["dni"] == record["document_number"] == "40999888"
    assert record["score"] == 50 + 7  # welcome points, then the credit
    assert record["registered"] is False


def test_ignore_create_client_refuses_only_unknown_clients(api: Any, sim_world: World) -> None:
    count = len(sim_world.merchants[1].tables["clients"])
    body = {"client": {"email": "nadie@example.com"}, "amount": 700, "ignoreCreateClient": True}
    assert error(api.post(CREDIT, json=body), 404) == "Client not found"
    assert len(sim_world.merchants[1].tables["clients"]) == count
    perez = client(sim_world, PEREZ)
    body = {"client": {"email": perez["email"].upper()}, "amount": 100, "ignoreCreateClient": True}
    r = api.post(CREDIT, json=body)
    assert r.status_code == 201
    assert r.json()["data"]["clientId"] == perez["id"]


def test_point_items_repeated_ids_are_units(api: Any, sim_world: World) -> None:
    fixed = add_item(sim_world, points=30)
    priced = add_item(sim_world, amount=1250)
    lucia = client(sim_world, LUCIA)
    before = lucia["score"]
    r = credit(api, LUCIA, 999999, pointItems=[fixed, fixed, priced])
    assert r.status_code == 201, r.text
    # Two units of 30 points (amount 0) + one unit worth 1250 (12 points); amount ignored.
    assert r.json()["data"]["points"] == {
        "amount": 1250,
        "initialPointsToGive": 72,
        "totalPointsToGive": 72,
        "selectedRewardType": "items",
    }
    assert lucia["score"] == before + 72
    assert total(credit(api, LUCIA, pointItems=[fixed] * 100)) == 3000  # the maximum


@pytest.mark.parametrize("items", [[], [1] * 101, [0], [-3], ["7"], "7"])
def test_point_items_validation(api: Any, items: Any) -> None:
    assert "pointItems" in fields(credit(api, LUCIA, pointItems=items))


def test_unknown_deleted_or_foreign_point_item_is_404(api: Any, sim_world: World) -> None:
    ok = add_item(sim_world, points=5)
    foreign = add_item(sim_world, points=5, merchant_id=2)
    rosario = branch_id(sim_world, "Sucursal Rosario")
    limited = add_item(sim_world, points=5, branch=rosario)
    r = credit(api, LUCIA, pointItems=[ok, 987654])
    assert error(r, 404) == "PointsItem with id 987654 not found"
    for item in (foreign, limited):
        r = credit(api, LUCIA, pointItems=[item])
        assert error(r, 404) == f"PointsItem with id {item} not found"
    assert credit(api, LUCIA, pointItems=[limited], branch_id=rosario).status_code == 201


def test_credit_giving_no_points_is_400(api: Any, sim_world: World) -> None:
    small = add_item(sim_world, amount=40)
    before = len(ledger(sim_world))
    assert error(credit(api, LUCIA, 99), 400) == NO_POINTS
    assert error(credit(api, LUCIA, 0), 400) == NO_POINTS
    assert error(credit(api, LUCIA, pointItems=[small, small]), 400) == NO_POINTS
    assert len(ledger(sim_world)) == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"amount": 100}, "client"),
        ({"client": "30123456", "amount": 100}, "client"),
        ({"client": {"first_name": "Ana"}, "amount": 100}, "client.email"),
        ({"client": {"email": "no-es-un-email"}, "amount": 100}, "client.email"),
        ({"client": {"dni": "12"}, "amount": 100}, "client.dni"),
        ({"client": {"dni": PEREZ, "gender": 7}, "amount": 100}, "client.gender"),
        ({"client": {"dni": PEREZ}}, "amount"),
        ({"client": {"dni": PEREZ}, "amount": -5}, "amount"),
        ({"client": {"dni": PEREZ}, "amount": "100"}, "amount"),
        ({"branch_id": "2"}, "branch_id"),
        ({"external_id": ""}, "external_id"),
        ({"extra_data": [{"a": 1}]}, "extra_data"),
        ({"extra_data": "{no json"}, "extra_data"),
        ({"ignoreCreateClient": "yes"}, "ignoreCreateClient"),
    ],
)
def test_credit_validation(api: Any, sim_world: World, body: Record, field: str) -> None:
    before = len(ledger(sim_world))
    if "client" not in body and "amount" not in body:
        body = {"client": {"dni": PEREZ}, "amount": 100, **body}
    assert field in fields(api.post(CREDIT, json=body))
    assert len(ledger(sim_world)) == before


def test_malformed_json_body_is_400(api: Any) -> None:
    r = api.post(CREDIT, content=b"{not json", headers={"content-type": "application/json"})
    assert fields(r) == {"body"}


def test_branch_of_another_merchant_is_403_and_missing_branch_404(
    api: Any, sim_world: World
) -> None:
    foreign = branch_id(sim_world, "Farmacia Norte Centro", 2)
    r = credit(api, PEREZ, 100, branch_id=foreign)
    assert error(r, 403) == f"Branch with id {foreign} does not belong to business with id 1"
    assert error(credit(api, PEREZ, 100, branch_id=9999), 404) == "Sucursal no encontrada"


def test_suspended_client_is_403_and_not_credited(api: Any, sim_world: World) -> None:
    suspended = client(sim_world, SUSPENDED_DNI)
    before = suspended["score"]
    assert error(credit(api, SUSPENDED_DNI, 1000), 403) == SUSPENDED
    assert suspended["score"] == before


def test_removed_client_is_out_of_operation(api: Any, sim_world: World) -> None:
    perez = client(sim_world, PEREZ)
    r = api.request("DELETE", f"/external/clients/{perez['id']}", json={"reasons": ["OTHER"]})
    assert r.status_code == 200
    count = len(sim_world.merchants[1].tables["clients"])
    assert error(credit(api, PEREZ, 1000), 404) == "Client not found"
    assert len(sim_world.merchants[1].tables["clients"]) == count
    assert error(preview(api, perez["id"], amount=1000), 404) == "Client not found"


# ------------------------------------------------------------------ idempotency and cancel


def test_duplicate_external_id_is_409_then_cancel_frees_it(api: Any, sim_world: World) -> None:
    perez = client(sim_world, PEREZ)
    start = perez["score"]
    first = credit(api, PEREZ, 1000, external_id="T-77")
    credited = total(first)
    message = "Ya existe una operación de puntos con el externalId T-77 para este negocio"
    assert error(credit(api, PEREZ, 1000, external_id="T-77"), 409) == message
    assert perez["score"] == start + credited
    canceled = api.put("/external/tags/cancel/T-77")
    assert canceled.status_code == 200, canceled.text
    assert canceled.json()["data"] == {
        "pointOperationId": first.json()["data"]["pointOperationId"],
        "externalId": "T-77",
        "clientId": perez["id"],
        "status": "canceled",
        "points": first.json()["data"]["points"],
    }
    assert perez["score"] == start
    reused = credit(api, PEREZ, 1000, external_id="T-77")
    assert reused.status_code == 201
    assert reused.json()["data"]["pointOperationId"] != first.json()["data"]["pointOperationId"]


def test_duplicate_is_checked_before_the_client_state(api: Any, sim_world: World) -> None:
    assert credit(api, LUCIA, 500, external_id="R-1").status_code == 201
    client(sim_world, LUCIA)["status"] = "SUSPENDED"
    # The retry learns the credit happened.
    assert credit(api, LUCIA, 500, external_id="R-1").status_code == 409


def test_external_id_is_scoped_to_the_merchant(api: Any, other_api: Any) -> None:
    assert credit(api, PEREZ, 500, external_id="X").status_code == 201
    assert error(other_api.put("/external/tags/cancel/X"), 404).endswith("externalId X")
    assert credit(other_api, PEREZ, 500, external_id="X").status_code == 201  # not a duplicate
    assert other_api.put("/external/tags/cancel/X").status_code == 200
    # Still active: the other merchant canceled only its own.
    assert api.put("/external/tags/cancel/X").status_code == 200


def test_without_external_id_there_is_no_protection(api: Any, sim_world: World) -> None:
    lucia = client(sim_world, LUCIA)
    before = lucia["score"]
    assert total(credit(api, LUCIA, 500)) + total(credit(api, LUCIA, 500)) == 10
    assert lucia["score"] == before + 10


def test_cancel_unknown_or_already_canceled_is_404(api: Any) -> None:
    r = api.put("/external/tags/cancel/NO-EXISTE")
    assert error(r, 404) == "No existe una operación de puntos activa con el externalId NO-EXISTE"
    credit(api, PEREZ, 500, external_id="C-2")
    assert api.put("/external/tags/cancel/C-2").status_code == 200
    assert error(api.put("/external/tags/cancel/C-2"), 404).startswith("No existe")


def test_cancel_never_leaves_negative_points(api: Any, sim_world: World) -> None:
    perez = client(sim_world, PEREZ)
    credit(api, PEREZ, 1000, external_id="N-1")
    perez["score"] = 3  # spent meanwhile
    assert api.put("/external/tags/cancel/N-1").status_code == 200
    assert (perez["score"], perez["total_score"]) == (0, 5230)


# ------------------------------------------------------------------ preview


def test_preview_modes_create_nothing(api: Any, sim_world: World) -> None:
    perez = client(sim_world, PEREZ)
    item = add_item(sim_world, points=20)
    priced = add_item(sim_world, amount=800)
    clients = sim_world.merchants[1].tables["clients"]
    before = (perez["score"], len(ledger(sim_world)), len(clients))
    r = preview(api, perez["id"], amount=2000)
    assert r.status_code == 200, r.text
    data = r.json()["data"]
    assert (data["clientId"], data["branchId"]) == (perez["id"], None)
    assert data["level"] == {"id": perez["level"]["id"], "name": "Plata", "pointsMultiplier": 1.25}
    assert data["points"] == {
        "amount": 2000,
        "initialPointsToGive": 20,
        "levelBonusPoints": 5,
        "rulesBonusPoints": 0,
        "totalPointsToGive": 25,
        "selectedRewardType": "amount",
    }
    units = [{"id": item, "quantity": 2}, {"id": priced, "quantity": 1}]
    points = preview(api, perez["id"], pointItems=units).json()["data"]["points"]
    assert points["selectedRewardType"] == "items"
    assert (points["amount"], points["initialPointsToGive"], total(r)) == (800, 48, 25)
    assert points["totalPointsToGive"] == 60
    points = preview(api, perez["id"], initialPointsToGive=40).json()["data"]["points"]
    assert (points["selectedRewardType"], points["totalPointsToGive"]) == ("points", 50)
    assert before == (perez["score"], len(ledger(sim_world)), len(clients))


def test_preview_with_and_without_branch_differ(api: Any, sim_world: World) -> None:
    lucia = client(sim_world, LUCIA)
    palermo = branch_id(sim_world, "Sucursal Palermo")
    assert total(preview(api, lucia["id"], amount=3000)) == 30
    at_branch = preview(api, lucia["id"], amount=3000, branch_id=palermo).json()["data"]
    assert at_branch["branchId"] == palermo
    assert at_branch["points"]["rulesBonusPoints"] == 3
    assert at_branch["points"]["totalPointsToGive"] == 33


@pytest.mark.parametrize(
    "extra",
    [
        {},
        {"amount": 100, "initialPointsToGive": 5},
        {"amount": 100, "pointItems": [{"id": 1, "quantity": 1}]},
        {"amount": None},
    ],
)
def test_preview_needs_exactly_one_mode(api: Any, extra: Record) -> None:
    assert error(preview(api, 1, **extra), 400) == MODES


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"amount": 100}, "clientId"),
        ({"clientId": "1", "amount": 100}, "clientId"),
        ({"clientId": 1, "amount": -1}, "amount"),
        ({"clientId": 1, "pointItems": [3]}, "pointItems.0"),
        ({"clientId": 1, "pointItems": [{"id": 3}]}, "pointItems.0.quantity"),
        ({"clientId": 1, "pointItems": [{"id": 3, "quantity": 101}]}, "pointItems.0.quantity"),
        ({"clientId": 1, "pointItems": []}, "pointItems"),
        ({"clientId": 1, "initialPointsToGive": 2.5}, "initialPointsToGive"),
    ],
)
def test_preview_validation(api: Any, body: Record, field: str) -> None:
    assert field in fields(api.post(PREVIEW, json=body))


def test_preview_refusals(api: Any, other_api: Any, sim_world: World) -> None:
    assert error(preview(api, 99999, amount=100), 404) == "Client not found"
    assert (
        error(preview(api, client(sim_world, SUSPENDED_DNI)["id"], amount=1000), 403) == SUSPENDED
    )
    lucia = client(sim_world, LUCIA)["id"]
    assert error(preview(api, lucia, amount=50), 400) == NO_POINTS
    assert error(preview(api, lucia, initialPointsToGive=0), 400) == NO_POINTS
    r = preview(api, lucia, pointItems=[{"id": 55555, "quantity": 1}])
    assert error(r, 404) == "PointsItem with id 55555 not found"
    assert error(preview(other_api, lucia, amount=1000), 404) == "Client not found"
    foreign = branch_id(sim_world, "Farmacia Norte Cerro", 2)
    r = preview(api, lucia, amount=1000, branch_id=foreign)
    assert error(r, 403) == f"Branch with id {foreign} does not belong to business with id 1"


# ------------------------------------------------------------------ rate limit and auth


def test_tags_endpoints_share_the_rate_limit(api: Any, sim_world: World) -> None:
    sim_world.settings.rate_limits = True
    lucia = client(sim_world, LUCIA)
    for _ in range(5):
        assert preview(api, lucia["id"], amount=1000).status_code == 200
        assert api.put("/external/tags/cancel/none").status_code == 404
    r = credit(api, LUCIA, 1000)
    assert r.status_code == 429
    message = "Rate limit excedido. Intente más tarde."
    assert r.json() == {"success": False, "status": 429, "message": message}
    sim_world.clock.advance(1.5)
    assert credit(api, LUCIA, 1000).status_code == 201


def test_tags_endpoints_need_a_key(anon: Any) -> None:
    assert error(anon.post(CREDIT, json={}), 401) == "Api Key is required"
    r = anon.post(PREVIEW, json={}, headers={"x-api-key": "clave-falsa"})
    assert error(r, 401) == "Api key is invalid"
    assert error(anon.put("/external/tags/cancel/X"), 401) == "Api Key is required"
