"""Clients: list, search, create, update, removal and suspension, over both transports."""

from __future__ import annotations

import re
from typing import Any

import pytest

from kiosk.sim.world import Record, World

CLIENTS = "/external/clients"
SEARCH = "/external/clients/search"
PEREZ = "30123456"
GONZALEZ = "27456789"
UNREGISTERED = "41222333"  # Camila Díaz
_FIELD_NAMES = (
    "id name first_name last_name email dni document_number document_type phone gender"
    " affiliate_card score total_score description birthday status created_at last_transaction"
    " purchases_counter reads_counter level"
)
CLIENT_FIELDS = set(_FIELD_NAMES.split())
NOT_FOUND = "Client not found"
TAKEN = "El cliente ya se encuentra registrado."


@pytest.fixture(autouse=True)
def _frozen_clock(sim_world: World) -> None:
    # Level assignment and removal run only when a test advances the clock.
    sim_world.clock.freeze()


def client(world: World, document: str, merchant_id: int = 1) -> Record:
    for record in world.merchants[merchant_id].tables["clients"].values():
        if record["document_number"] == document:
            return record
    raise AssertionError(document)


def error(r: Any, status: int) -> str:
    assert r.status_code == status, r.text
    return str(r.json()["message"])


def fields(r: Any) -> set[str]:
    assert error(r, 400) == "Error de validación"
    return {item["field"] for item in r.json()["errors"]}


def all_ids(api: Any, **params: Any) -> list[int]:
    r = api.get(CLIENTS, params={"limit": 200, **params})
    assert r.status_code == 200, r.text
    return [c["id"] for c in r.json()["data"]]


# ------------------------------------------------------------------ list


def test_list_is_a_root_level_page_ordered_by_points(api: Any, sim_world: World) -> None:
    r = api.get(CLIENTS, params={"limit": 5, "page": 2})
    assert r.status_code == 200
    body = r.json()
    assert set(body) == {"data", "meta", "links"}
    meta = body["meta"]
    assert [meta[k] for k in ("totalItems", "itemCount", "itemsPerPage", "totalPages")] == [
        36,
        5,
        5,
        8,
    ]
    assert (meta["currentPage"], meta["from"], meta["to"]) == (2, 6, 10)
    assert body["links"]["previous"] == "/external/clients?page=1&limit=5"
    assert body["links"]["next"] == "/external/clients?page=3&limit=5"
    assert body["links"]["last"] == "/external/clients?page=8&limit=5"
    assert set(body["data"][0]) == CLIENT_FIELDS
    scores = [c["score"] for c in api.get(CLIENTS, params={"limit": 200}).json()["data"]]
    assert scores == sorted(scores, reverse=True)
    assert len(api.get(CLIENTS).json()["data"]) == 10  # default page size


def test_list_orders_and_direction(api: Any) -> None:
    names = [
        c["name"]
        for c in api.get(CLIENTS, params={"limit": 200, "order": "fullName"}).json()["data"]
    ]
    assert names == sorted(names, key=str.casefold)
    desc = api.get(
        CLIENTS, params={"limit": 200, "order": "currentPoints", "direction": "asc"}
    ).json()
    assert [c["score"] for c in desc["data"]] == sorted(c["score"] for c in desc["data"])
    # direction alone is ignored: the default order stays.
    assert all_ids(api, direction="asc") == all_ids(api)
    for order in ("lastOperation", "createdAt"):
        assert api.get(CLIENTS, params={"order": order, "direction": "desc"}).status_code == 200


BAD_PARAMS = (
    "page=0 limit=0 limit=201 page=x order=score direction=up levelId=oro minPoints=-1"
    " maxPoints=x lastCreditFrom=ayer lastCreditTo=2026-13-01 tagId=1.5"
)


@pytest.mark.parametrize("pair", BAD_PARAMS.split())
def test_list_parameter_validation(api: Any, pair: str) -> None:
    name, value = pair.split("=")
    assert name in fields(api.get(CLIENTS, params={name: value}))


def test_list_query_is_partial_and_accent_insensitive(api: Any, sim_world: World) -> None:
    perez = client(sim_world, PEREZ)
    assert perez["id"] in all_ids(api, query="perez")
    assert all_ids(api, query="JUAN.PEREZ@") == [perez["id"]]
    assert all_ids(api, query="0123456") == [perez["id"]]
    assert all_ids(api, query=perez["affiliate_card"]) == [perez["id"]]
    digits = "".join(ch for ch in perez["phone"] if ch.isdigit())[-8:]
    assert perez["id"] in all_ids(api, query=digits)
    assert all_ids(api, query="zzz-nadie") == []


def test_list_filters(api: Any, sim_world: World) -> None:
    records = list(sim_world.merchants[1].tables["clients"].values())
    plata = next(c["level"]["id"] for c in records if c["level"]["name"] == "Plata")
    assert set(all_ids(api, levelId=plata)) == {
        c["id"] for c in records if c["level"]["id"] == plata
    }
    assert set(all_ids(api, tagId=1)) == {c["id"] for c in records if 1 in c["_tag_ids"]}
    ranged = {c["id"] for c in records if 1000 <= c["score"] <= 3000}
    assert set(all_ids(api, minPoints=1000, maxPoints=3000)) == ranged
    perez = client(sim_world, PEREZ)
    day = perez["_last_credit"][:10]
    same_day = {c["id"] for c in records if (c["_last_credit"] or "")[:10] == day}
    assert perez["id"] in same_day
    assert set(all_ids(api, lastCreditFrom=day, lastCreditTo=day)) == same_day


def test_list_is_scoped_to_the_merchant(other_api: Any) -> None:
    body = other_api.get(CLIENTS, params={"limit": 200}).json()
    assert body["meta"]["totalItems"] == 6
    assert {c["email"] for c in body["data"]}.isdisjoint({"juan.perez@example.com"})


# ------------------------------------------------------------------ search


def test_search_by_document_or_email(api: Any, sim_world: World) -> None:
    perez = client(sim_world, PEREZ)
    by_doc = api.get(SEARCH, params={"query": PEREZ})
    assert by_doc.status_code == 200
    body = by_doc.json()
    assert body["success"] is True
    assert body["data"]["id"] == perez["id"]
    assert set(body["data"]) == CLIENT_FIELDS | {"registered", "register_url"}
    assert body["data"]["registered"] is True
    assert body["data"]["register_url"] is None
    by_mail = api.get(SEARCH, params={"query": "JUAN.Perez@example.com"}).json()["data"]
    assert by_mail["id"] == perez["id"]
    assert error(api.get(SEARCH, params={"query": "3012345"}), 404) == NOT_FOUND
    assert error(api.get(SEARCH, params={"query": "juan.perez"}), 404) == NOT_FOUND
    assert "query" in fields(api.get(SEARCH))


def test_search_gives_a_register_url_to_unregistered_clients(api: Any) -> None:
    data = api.get(SEARCH, params={"query": UNREGISTERED}).json()["data"]
    assert data["registered"] is False
    assert re.fullmatch(r"https://registro\.example\.test/r/[A-Za-z0-9]{16,}", data["register_url"])
    listed = api.get(CLIENTS, params={"query": UNREGISTERED}).json()["data"][0]
    assert "register_url" not in listed
    assert "registered" not in listed


def test_search_is_scoped_to_the_merchant(api: Any, other_api: Any) -> None:
    mine = api.get(SEARCH, params={"query": PEREZ}).json()["data"]
    theirs = other_api.get(SEARCH, params={"query": PEREZ}).json()["data"]
    assert mine["id"] != theirs["id"]
    assert error(other_api.get(SEARCH, params={"query": GONZALEZ}), 404) == NOT_FOUND


def test_the_barcode_people_left_out_are_not_members(api: Any) -> None:
    for document in ("44123987", "20111222"):
        assert api.get(SEARCH, params={"query": document}).status_code == 404


# ------------------------------------------------------------------ create


def test_create_client(api: Any, sim_world: World) -> None:
    person = {"firstName": "Ana", "lastName": "López", "email": "Ana.Lopez@Example.com"}
    more = {"documentNumber": "44123987", "phone": "+54 9 11 5555-1234", "gender": 1}
    extra = {"birthday": "2002-01-30", "affiliateCard": "ADS-999999", "tagIds": [3, 3, 2]}
    body = {**person, **more, **extra, "description": "Alta en caja"}
    r = api.post(CLIENTS, json=body)
    assert r.status_code == 201, r.text
    envelope = r.json()
    assert (envelope["success"], envelope["status"]) == (True, 201)
    data = envelope["data"]
    assert set(data) == CLIENT_FIELDS
    assert data["name"] == "Ana López"
    assert (data["first_name"], data["last_name"]) == ("Ana", "López")
    assert data["email"] == "ana.lopez@example.com"
    assert data["dni"] == data["document_number"] == "44123987"
    assert data["document_type"] == "DNI"
    assert data["birthday"] == "2002-01-30T00:00:00.000Z"
    assert data["affiliate_card"] == "ADS-999999"
    assert data["status"] == "ACTIVE"
    assert (data["score"], data["total_score"]) == (50, 50)  # welcome points
    assert data["level"] is None  # assigned asynchronously
    assert sim_world.merchants[1].tables["clients"][data["id"]]["_tag_ids"] == [2, 3]
    sim_world.clock.advance(2)
    found = api.get(SEARCH, params={"query": "44123987"}).json()["data"]
    assert found["level"]["name"] == "Bronce"
    assert found["registered"] is False


def test_create_with_passport_and_branch(api: Any, sim_world: World) -> None:
    rosario = next(
        b["id"]
        for b in sim_world.merchants[1].tables["branches"].values()
        if b["name"] == "Sucursal Rosario"
    )
    r = api.post(
        CLIENTS,
        json={"documentNumber": "ab123456", "firstName": "John"},
        headers={"x-branch-id": str(rosario)},
    )
    assert r.status_code == 201, r.text
    data = r.json()["data"]
    assert (data["document_type"], data["document_number"]) == ("PASSPORT", "AB123456")
    assert sim_world.merchants[1].tables["clients"][data["id"]]["_branch_id"] == rosario
    r = api.post(CLIENTS, json={"documentNumber": "12345678", "documentType": "PASSPORT"})
    assert r.json()["data"]["document_type"] == "PASSPORT"


@pytest.mark.parametrize(
    ("body", "bad"),
    [
        ({"firstName": "Sin datos"}, {"email", "documentNumber"}),
        ({"email": "no-email"}, {"email"}),
        ({"documentNumber": "12.345.678"}, {"documentNumber"}),
        ({"documentNumber": "123"}, {"documentNumber"}),
        ({"documentNumber": "A1", "documentType": "PASSPORT"}, {"documentNumber"}),
        (
            {"email": "a@b.com", "documentType": "CEDULA", "documentNumber": "1234567"},
            {"documentType"},
        ),
        ({"email": "a@b.com", "gender": 4}, {"gender"}),
        ({"email": "a@b.com", "gender": "F"}, {"gender"}),
        ({"email": "a@b.com", "birthday": "30/01/2002"}, {"birthday"}),
        ({"email": "a@b.com", "birthday": "2999-01-01"}, {"birthday"}),
        ({"email": "a@b.com", "phone": "llamar"}, {"phone"}),
        ({"email": "a@b.com", "branchId": "1"}, {"branchId"}),
        ({"email": "a@b.com", "tagIds": "1"}, {"tagIds"}),
        ({"email": "a@b.com", "affiliateCard": ""}, {"affiliateCard"}),
    ],
)
def test_create_validation(api: Any, body: Record, bad: set[str]) -> None:
    assert fields(api.post(CLIENTS, json=body)) == bad


def test_create_minimum_age_when_configured(api: Any, sim_world: World) -> None:
    sim_world.merchants[1].rules.minimum_age_years = 18
    young = f"{sim_world.clock.now().year - 10}-05-05"
    assert fields(api.post(CLIENTS, json={"email": "joven@example.com", "birthday": young})) == {
        "birthday"
    }
    r = api.post(CLIENTS, json={"email": "adulto@example.com", "birthday": "1990-05-05T00:00:00Z"})
    assert r.status_code == 201


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"email": "JUAN.PEREZ@example.com"}, TAKEN),
        ({"documentNumber": PEREZ}, TAKEN),
        (
            {"email": "otro.mail@example.com", "documentNumber": PEREZ},
            TAKEN,
        ),
        (
            {"email": "nuevo@example.com", "affiliateCard": "ADS-001001"},
            "La tarjeta de afiliado ya está en uso.",
        ),
    ],
)
def test_create_conflicts(api: Any, sim_world: World, body: Record, message: str) -> None:
    count = len(sim_world.merchants[1].tables["clients"])
    assert error(api.post(CLIENTS, json=body), 409) == message
    assert len(sim_world.merchants[1].tables["clients"]) == count


def test_create_with_a_branch_of_another_merchant_or_none(api: Any, sim_world: World) -> None:
    foreign = next(iter(sim_world.merchants[2].tables["branches"]))
    r = api.post(CLIENTS, json={"email": "x1@example.com"}, headers={"x-branch-id": str(foreign)})
    assert error(r, 403) == f"Branch with id {foreign} does not belong to business with id 1"
    r = api.post(CLIENTS, json={"email": "x1@example.com", "branchId": 999})
    assert error(r, 404) == "Sucursal no encontrada"
    r = api.post(CLIENTS, json={"email": "x1@example.com"}, headers={"x-branch-id": "centro"})
    assert fields(r) == {"x-branch-id"}


def test_the_same_person_can_join_another_merchant(other_api: Any) -> None:
    r = other_api.post(
        CLIENTS, json={"documentNumber": GONZALEZ, "email": "maria.gonzalez@example.net"}
    )
    assert r.status_code == 201


# ------------------------------------------------------------------ update


def test_update_is_incremental(api: Any, sim_world: World) -> None:
    gonzalez = client(sim_world, GONZALEZ)
    before = dict(gonzalez)
    r = api.put(
        f"{CLIENTS}/{gonzalez['id']}",
        json={"lastName": "González", "phone": "+54 9 11 6000-1111", "description": None},
    )
    assert r.status_code == 200, r.text
    data = r.json()["data"]
    assert data["name"] == "María José González"
    assert data["phone"] == "+54 9 11 6000-1111"
    assert data["description"] is None
    for key in ("email", "document_number", "score", "birthday", "gender", "affiliate_card"):
        assert data[key] == before[key]


def test_update_email_is_locked_once_registered(api: Any, sim_world: World) -> None:
    perez = client(sim_world, PEREZ)
    r = api.put(f"{CLIENTS}/{perez['id']}", json={"email": "nuevo.perez@example.com"})
    assert error(r, 400) == "El email no puede modificarse: el cliente ya ingresó a la plataforma."
    same = api.put(f"{CLIENTS}/{perez['id']}", json={"email": perez["email"].upper()})
    assert same.status_code == 200
    camila = client(sim_world, UNREGISTERED)
    r = api.put(f"{CLIENTS}/{camila['id']}", json={"email": "camila.nueva@example.com"})
    assert r.status_code == 200
    assert r.json()["data"]["email"] == "camila.nueva@example.com"


def test_update_conflicts(api: Any, sim_world: World) -> None:
    camila = client(sim_world, UNREGISTERED)
    perez = client(sim_world, PEREZ)
    url = f"{CLIENTS}/{camila['id']}"
    assert (
        error(api.put(url, json={"email": perez["email"]}), 409)
        == "El email ya está en uso por otro cliente."
    )
    assert (
        error(api.put(url, json={"documentNumber": PEREZ}), 409)
        == "El documento ya está en uso por otro cliente."
    )
    r = api.put(url, json={"affiliateCard": perez["affiliate_card"]})
    assert error(r, 409) == "La tarjeta de afiliado ya está en uso."
    assert camila["document_number"] == UNREGISTERED


def test_update_missing_or_foreign_client_is_404(
    api: Any, other_api: Any, sim_world: World
) -> None:
    perez = client(sim_world, PEREZ)
    assert error(api.put(f"{CLIENTS}/99999", json={"firstName": "X"}), 404) == NOT_FOUND
    assert (
        error(other_api.put(f"{CLIENTS}/{perez['id']}", json={"firstName": "X"}), 404) == NOT_FOUND
    )
    assert fields(api.put(f"{CLIENTS}/abc", json={})) == {"id"}
    assert fields(api.put(f"{CLIENTS}/{perez['id']}", json={"gender": 9})) == {"gender"}


# ------------------------------------------------------------------ removal


@pytest.mark.parametrize(
    "body", [{}, {"reasons": []}, {"reasons": "OTHER"}, {"reasons": ["BORED"]}]
)
def test_delete_needs_valid_reasons(api: Any, sim_world: World, body: Record) -> None:
    perez = client(sim_world, PEREZ)
    assert fields(api.request("DELETE", f"{CLIENTS}/{perez['id']}", json=body)) == {"reasons"}
    assert perez["_removed_at"] is None


def test_delete_schedules_removal_and_hides_the_client(api: Any, sim_world: World) -> None:
    perez = client(sim_world, PEREZ)
    url = f"{CLIENTS}/{perez['id']}"
    r = api.request("DELETE", url, json={"reasons": ["REQUESTED_BY_CLIENT", "OTHER"]})
    assert r.status_code == 200, r.text
    assert set(r.json()) == {"success", "status", "message"}
    assert api.get(SEARCH, params={"query": PEREZ}).status_code == 404
    assert perez["id"] not in all_ids(api)
    assert api.put(url, json={"firstName": "X"}).status_code == 404
    assert api.put(f"{url}/status", json={"status": "SUSPEND"}).status_code == 404
    assert error(api.request("DELETE", url, json={"reasons": ["OTHER"]}), 404) == NOT_FOUND
    # Identifiers stay taken during the grace period...
    assert api.post(CLIENTS, json={"documentNumber": PEREZ}).status_code == 409
    # ...and are freed once the data is anonymized, 30 days later.
    sim_world.clock.advance(31 * 86400)
    assert api.post(CLIENTS, json={"documentNumber": PEREZ}).status_code == 201
    assert perez["email"] is None
    assert perez["name"] == "Cliente eliminado"


# ------------------------------------------------------------------ status


def test_suspend_client(api: Any, sim_world: World) -> None:
    gonzalez = client(sim_world, GONZALEZ)
    url = f"{CLIENTS}/{gonzalez['id']}/status"
    r = api.put(url, json={"status": "SUSPEND"})
    assert r.status_code == 200, r.text
    assert r.json()["data"]["status"] == "SUSPENDED"
    assert api.get(SEARCH, params={"query": GONZALEZ}).json()["data"]["status"] == "SUSPENDED"
    credit = api.post("/external/tags/add", json={"client": {"dni": GONZALEZ}, "amount": 1000})
    assert error(credit, 403) == "El cliente se encuentra suspendido."


@pytest.mark.parametrize("body", [{}, {"status": "ACTIVE"}, {"status": "suspend"}, {"status": 1}])
def test_status_values(api: Any, sim_world: World, body: Record) -> None:
    gonzalez = client(sim_world, GONZALEZ)
    assert fields(api.put(f"{CLIENTS}/{gonzalez['id']}/status", json=body)) == {"status"}
    assert gonzalez["status"] == "ACTIVE"


def test_status_of_missing_client_is_404(api: Any) -> None:
    assert error(api.put(f"{CLIENTS}/99999/status", json={"status": "SUSPEND"}), 404) == NOT_FOUND


def test_clients_need_a_key(anon: Any) -> None:
    assert error(anon.get(CLIENTS), 401) == "Api Key is required"
    assert (
        error(anon.get(SEARCH, params={"query": PEREZ}, headers={"x-api-key": "otra"}), 401)
        == "Api key is invalid"
    )
    assert error(anon.post(CLIENTS, json={"email": "a@b.com"}), 401) == "Api Key is required"
