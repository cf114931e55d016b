"""Levels: create, list, replace, delete, and the asynchronous relocation of clients."""

from __future__ import annotations

from typing import Any

import pytest

from kiosk.sim.world import Record, World

LEVELS = "/external/levels"
DUPLICATE = "Ya existe un nivel con la misma cantidad mínima de puntos necesarios."
COLORS = {"primary": "#FFAA00", "secondary": "#fff", "border": "#0A0B0C"}


@pytest.fixture(autouse=True)
def _frozen_clock(sim_world: World) -> None:
    # Relocation runs only when a test advances the clock.
    sim_world.clock.freeze()


def level_body(**overrides: Any) -> Record:
    return {
        "name": "Diamante",
        "minPoints": 30000,
        "pointsMultiplier": 2,
        "colors": COLORS,
        "description": "El más alto",
        **overrides,
    }


def level_id(world: World, name: str, merchant_id: int = 1) -> int:
    for level in world.merchants[merchant_id].tables["levels"].values():
        if level["name"] == name:
            return int(level["id"])
    raise AssertionError(name)


def client(world: World, document: str) -> Record:
    for record in world.merchants[1].tables["clients"].values():
        if record["document_number"] == document:
            return record
    raise AssertionError(document)


def add_product(world: World, offers: list[Record]) -> Record:
    product_id = world.next_id("products")
    product = {
        "id": product_id,
        "name": "Termo",
        "offers": offers,
        "stock": {"controlled": False, "available": 0},
    }
    world.merchants[1].tables["products"][product_id] = product
    return product


def error(r: Any, status: int) -> str:
    assert r.status_code == status, r.text
    return str(r.json()["message"])


def fields(r: Any) -> set[str]:
    assert error(r, 400) == "Error de validación"
    return {item["field"] for item in r.json()["errors"]}


# ------------------------------------------------------------------ list


def test_list_default_ascending_min_points(api: Any) -> None:
    r = api.get(LEVELS)
    assert r.status_code == 200
    body = r.json()
    assert [lv["name"] for lv in body["data"]] == ["Bronce", "Plata", "Oro"]
    assert set(body["data"][0]) == {
        "id",
        "name",
        "description",
        "minPoints",
        "pointsMultiplier",
        "colors",
        "createdAt",
        "updatedAt",
    }
    assert body["meta"] == {
        "totalItems": 3,
        "itemCount": 3,
        "itemsPerPage": 10,
        "totalPages": 1,
        "currentPage": 1,
        "from": 1,
        "to": 3,
    }
    assert body["links"]["previous"] is None
    assert body["links"]["next"] is None
    assert body["links"]["first"] == "/external/levels?page=1&limit=10"


def test_list_pages_orders_and_direction(api: Any) -> None:
    page = api.get(LEVELS, params={"limit": 2, "page": 2}).json()
    assert [lv["name"] for lv in page["data"]] == ["Oro"]
    assert (page["meta"]["totalPages"], page["meta"]["from"], page["meta"]["to"]) == (2, 3, 3)
    assert page["links"]["previous"] == "/external/levels?page=1&limit=2"
    past = api.get(LEVELS, params={"page": 5}).json()
    assert past["data"] == []
    assert (past["meta"]["currentPage"], past["meta"]["from"], past["meta"]["to"]) == (5, 0, 0)
    by_name = api.get(LEVELS, params={"order": "name", "direction": "desc"}).json()["data"]
    assert [lv["name"] for lv in by_name] == ["Plata", "Oro", "Bronce"]
    points_desc = api.get(LEVELS, params={"order": "minPoints", "direction": "desc"}).json()["data"]
    assert [lv["minPoints"] for lv in points_desc] == [15000, 5000, 0]
    ignored = api.get(LEVELS, params={"direction": "desc"}).json()["data"]
    assert [lv["minPoints"] for lv in ignored] == [0, 5000, 15000]
    created = api.get(LEVELS, params={"order": "createdAt"}).json()["data"]
    assert [lv["name"] for lv in created] == ["Bronce", "Plata", "Oro"]
    assert [lv["name"] for lv in api.get(LEVELS, params={"query": "pla"}).json()["data"]] == [
        "Plata"
    ]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"page": 0}, "page"),
        ({"limit": 0}, "limit"),
        ({"limit": 201}, "limit"),
        ({"order": "points"}, "order"),
        ({"direction": "abajo"}, "direction"),
    ],
)
def test_list_parameter_validation(api: Any, params: Record, field: str) -> None:
    r = api.get(LEVELS, params=params)
    assert fields(r) == {field}
    assert r.json()["path"].startswith("/external/levels?")


def test_list_is_scoped_to_the_merchant(other_api: Any) -> None:
    names = [lv["name"] for lv in other_api.get(LEVELS).json()["data"]]
    assert names == ["Clásico", "Preferencial"]


# ------------------------------------------------------------------ create


def test_create_level_lowercases_colors(api: Any) -> None:
    r = api.post(LEVELS, json=level_body())
    assert r.status_code == 201, r.text
    body = r.json()
    assert (body["success"], body["status"]) == (True, 201)
    data = body["data"]
    assert data["colors"] == {"primary": "#ffaa00", "secondary": "#fff", "border": "#0a0b0c"}
    assert (data["name"], data["minPoints"], data["pointsMultiplier"]) == ("Diamante", 30000, 2)
    assert data["description"] == "El más alto"
    assert data["createdAt"] == data["updatedAt"]
    listed = api.get(LEVELS).json()["data"]
    assert listed[-1]["id"] == data["id"]


def test_create_without_description_gives_empty_text(api: Any) -> None:
    body = level_body()
    del body["description"]
    assert api.post(LEVELS, json=body).json()["data"]["description"] == ""


@pytest.mark.parametrize(
    ("overrides", "bad"),
    [
        ({"name": None}, {"name"}),
        ({"name": "  "}, {"name"}),
        ({"minPoints": None}, {"minPoints"}),
        ({"minPoints": -1}, {"minPoints"}),
        ({"minPoints": 10.5}, {"minPoints"}),
        ({"pointsMultiplier": None}, {"pointsMultiplier"}),
        ({"pointsMultiplier": 0.9}, {"pointsMultiplier"}),
        ({"pointsMultiplier": "2"}, {"pointsMultiplier"}),
        ({"colors": None}, {"colors"}),
        ({"colors": "#fff"}, {"colors"}),
        ({"colors": {**COLORS, "border": "red"}}, {"colors.border"}),
        ({"colors": {"primary": "#fff"}}, {"colors.secondary", "colors.border"}),
        ({"description": 5}, {"description"}),
        ({"name": None, "minPoints": None}, {"name", "minPoints"}),
    ],
)
def test_create_validation(api: Any, sim_world: World, overrides: Record, bad: set[str]) -> None:
    body = {k: v for k, v in level_body(**overrides).items() if v is not None}
    assert fields(api.post(LEVELS, json=body)) == bad
    assert len(sim_world.merchants[1].tables["levels"]) == 3


def test_create_duplicate_min_points_is_409(api: Any, other_api: Any) -> None:
    assert error(api.post(LEVELS, json=level_body(minPoints=5000)), 409) == DUPLICATE
    # Unique per merchant only.
    assert other_api.post(LEVELS, json=level_body(minPoints=5000)).status_code == 201


def test_create_relocates_clients_and_offer_names_later(api: Any, sim_world: World) -> None:
    gonzalez = client(sim_world, "27456789")  # 16840 accumulated: Oro
    assert gonzalez["level"]["name"] == "Oro"
    created = api.post(LEVELS, json=level_body(minPoints=16000)).json()["data"]
    assert (
        api.get("/external/clients/search", params={"query": "27456789"}).json()["data"]["level"][
            "name"
        ]
        == "Oro"
    )
    sim_world.clock.advance(2)
    found = api.get("/external/clients/search", params={"query": "27456789"}).json()["data"]
    assert found["level"] == {"id": created["id"], "name": "Diamante"}


# ------------------------------------------------------------------ update


def test_update_is_a_total_replacement(api: Any, sim_world: World) -> None:
    plata = level_id(sim_world, "Plata")
    product = add_product(
        sim_world, [{"productOfferId": 1, "points": 900, "levelId": plata, "levelName": "Plata"}]
    )
    body = level_body(name="Plata Plus", minPoints=5000, pointsMultiplier=1.3)
    del body["description"]
    r = api.put(f"{LEVELS}/{plata}", json=body)
    assert r.status_code == 200, r.text
    data = r.json()["data"]
    assert (data["name"], data["description"], data["pointsMultiplier"]) == ("Plata Plus", "", 1.3)
    assert data["colors"]["primary"] == "#ffaa00"
    perez = client(sim_world, "30123456")
    assert perez["level"]["name"] == "Plata"  # not yet
    sim_world.clock.advance(2)
    api.get(LEVELS)
    assert perez["level"] == {"id": plata, "name": "Plata Plus"}
    assert product["offers"][0]["levelName"] == "Plata Plus"


def test_update_conflicts_and_missing(api: Any, other_api: Any, sim_world: World) -> None:
    plata = level_id(sim_world, "Plata")
    assert error(api.put(f"{LEVELS}/{plata}", json=level_body(minPoints=15000)), 409) == DUPLICATE
    assert api.put(f"{LEVELS}/{plata}", json=level_body(minPoints=5000)).status_code == 200
    assert error(api.put(f"{LEVELS}/99999", json=level_body()), 404) == "Level not found"
    assert error(other_api.put(f"{LEVELS}/{plata}", json=level_body()), 404) == "Level not found"
    assert fields(api.put(f"{LEVELS}/{plata}", json={"name": "Solo nombre"})) == {
        "minPoints",
        "pointsMultiplier",
        "colors",
    }
    assert fields(api.put(f"{LEVELS}/x1", json=level_body())) == {"id"}


# ------------------------------------------------------------------ delete


def test_delete_removes_offers_and_relocates_clients(api: Any, sim_world: World) -> None:
    oro = level_id(sim_world, "Oro")
    bronce = level_id(sim_world, "Bronce")
    product = add_product(
        sim_world,
        [
            {"productOfferId": 1, "points": 500, "levelId": None, "levelName": None},
            {"productOfferId": 2, "points": 400, "levelId": oro, "levelName": "Oro"},
            {"productOfferId": 3, "points": 450, "levelId": bronce, "levelName": "Bronce"},
        ],
    )
    r = api.delete(f"{LEVELS}/{oro}")
    assert r.status_code == 200, r.text
    assert set(r.json()) == {"success", "status", "message"}
    assert [o["productOfferId"] for o in product["offers"]] == [1, 3]
    gonzalez = client(sim_world, "27456789")
    assert gonzalez["level"]["name"] == "Oro"  # relocation is asynchronous
    sim_world.clock.advance(2)
    assert (
        api.get("/external/clients/search", params={"query": "27456789"}).json()["data"]["level"][
            "name"
        ]
        == "Plata"
    )
    assert error(api.delete(f"{LEVELS}/{oro}"), 404) == "Level not found"


def test_deleting_every_level_leaves_clients_without_level(api: Any, sim_world: World) -> None:
    for name in ("Bronce", "Plata", "Oro"):
        assert api.delete(f"{LEVELS}/{level_id(sim_world, name)}").status_code == 200
    sim_world.clock.advance(2)
    body = api.get("/external/clients", params={"limit": 200}).json()
    assert {c["level"] is None for c in body["data"]} == {True}
    assert api.get(LEVELS).json()["meta"]["totalItems"] == 0


def test_delete_of_another_merchant_is_404(api: Any, other_api: Any, sim_world: World) -> None:
    oro = level_id(sim_world, "Oro")
    assert error(other_api.delete(f"{LEVELS}/{oro}"), 404) == "Level not found"
    assert oro in sim_world.merchants[1].tables["levels"]


def test_level_changes_asynchronously_after_credit_and_cancel(api: Any, sim_world: World) -> None:
    def level_name() -> str:
        found = api.get("/external/clients/search", params={"query": "35678123"}).json()["data"]
        return str(found["level"]["name"])

    body = {"client": {"dni": "35678123"}, "amount": 1000, "external_id": "L-1"}
    assert api.post("/external/tags/add", json=body).status_code == 201
    assert client(sim_world, "35678123")["total_score"] == 5000
    assert level_name() == "Bronce"  # not yet
    sim_world.clock.advance(2)
    assert level_name() == "Plata"
    assert api.put("/external/tags/cancel/L-1").status_code == 200
    sim_world.clock.advance(2)
    assert level_name() == "Bronce"


def test_level_multiplier_applies_to_credits(api: Any, sim_world: World) -> None:
    bronce = level_id(sim_world, "Bronce")
    api.put(
        f"{LEVELS}/{bronce}", json=level_body(name="Bronce", minPoints=0, pointsMultiplier=1.15)
    )
    lucia = client(sim_world, "35678123")
    r = api.post("/external/tags/add/preview", json={"clientId": lucia["id"], "amount": 10000})
    # 100 points x 1.15 = 115 exactly (decimal arithmetic, no 114.99...).
    assert r.json()["data"]["points"]["totalPointsToGive"] == 115


def test_levels_need_a_key(anon: Any) -> None:
    assert error(anon.get(LEVELS), 401) == "Api Key is required"
    assert (
        error(anon.post(LEVELS, json=level_body(), headers={"x-api-key": "mala"}), 401)
        == "Api key is invalid"
    )
