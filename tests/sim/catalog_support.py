"""Test helpers of the catalog side: seeded branches, levels and clients, adjusted in place.

Tests prefer the seeded people (``seed_people``); when a merchant has fewer than
asked, records are inserted directly with the contract's shapes.
"""

from __future__ import annotations

from typing import Any

from kiosk.sim.world import Merchant, Record, World

MAIN = 1
OTHER = 2


def merchant(world: World, merchant_id: int = MAIN) -> Merchant:
    return world.merchants[merchant_id]


def branches(world: World, merchant_id: int = MAIN, count: int = 1) -> list[Record]:
    m = merchant(world, merchant_id)
    rows = sorted(m.tables["branches"].values(), key=lambda b: b["id"])
    while len(rows) < count:
        now = world.now_iso()
        branch: Record = {
            "id": world.next_id("branches"),
            "name": f"Sucursal de prueba {len(rows) + 1}",
            "isEnabled": True,
            "branchType": "physical",
            "emailOfBranch": "sucursal@example.test",
            "phoneOfBranch": "+54 11 4000-0000",
            "ubication": "Av. Corrientes 1234, CABA",
            "websiteUrl": None,
            "ubicationUrl": None,
            "registerQrUrl": None,
            "createdAt": now,
            "updatedAt": now,
        }
        m.tables["branches"][branch["id"]] = branch
        rows.append(branch)
    return rows[:count]


def levels(world: World, merchant_id: int = MAIN, count: int = 3) -> list[Record]:
    """The merchant's levels by ``minPoints`` (at least ``count``)."""
    m = merchant(world, merchant_id)
    rows = sorted(m.tables["levels"].values(), key=lambda lv: lv["minPoints"])
    while len(rows) < count:
        now = world.now_iso()
        top = rows[-1]["minPoints"] if rows else 0
        level: Record = {
            "id": world.next_id("levels"),
            "name": f"Nivel {len(rows) + 1}",
            "description": "",
            "minPoints": top + 1000,
            "pointsMultiplier": 1 + 0.25 * len(rows),
            "colors": {"primary": "#aa0000", "secondary": "#00aa00", "border": "#0000aa"},
            "createdAt": now,
            "updatedAt": now,
        }
        m.tables["levels"][level["id"]] = level
        rows.append(level)
    return rows


def clients(world: World, merchant_id: int = MAIN, count: int = 1) -> list[Record]:
    """``count`` distinct active clients of the merchant (seeded first)."""
    m = merchant(world, merchant_id)
    rows = [
        c
        for c in sorted(m.tables["clients"].values(), key=lambda c: c["id"])
        if c.get("_removed_at") is None and c.get("status") == "ACTIVE"
    ]
    while len(rows) < count:
        rows.append(_insert_client(world, m, len(rows)))
    return rows[:count]


def client(
    world: World,
    merchant_id: int = MAIN,
    *,
    score: int = 10_000,
    level: Record | None = None,
    index: int = 0,
) -> Record:
    """An active client with ``score`` available points and ``level`` (None: no level)."""
    record = clients(world, merchant_id, index + 1)[index]
    record["score"] = score
    record["total_score"] = max(int(record.get("total_score") or 0), score)
    record["level"] = None if level is None else {"id": level["id"], "name": level["name"]}
    return record


def _insert_client(world: World, m: Merchant, n: int) -> Record:
    now = world.now_iso()
    record: dict[str, Any] = {
        "id": world.next_id("clients"),
        "name": f"Cliente Prueba{n}",
        "first_name": "Cliente",
        "last_name": f"Prueba{n}",
        "email": f"cliente{n}.m{m.id}@example.test",
        "dni": f"40{m.id}{n:05d}",
        "document_number": f"40{m.id}{n:05d}",
        "document_type": "DNI",
        "phone": "+54 9 11 5555-0000",
        "gender": 3,
        "affiliate_card": f"AC-{m.id}-{n}",
        "score": 0,
        "total_score": 0,
        "description": None,
        "birthday": "1990-01-01T00:00:00.000Z",
        "status": "ACTIVE",
        "created_at": now,
        "last_transaction": now,
        "purchases_counter": 0,
        "reads_counter": 0,
        "level": None,
        "_removed_at": None,
    }
    m.tables["clients"][record["id"]] = record
    return record


def product_body(offers: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": "Producto de prueba",
        "shortDescription": "Corto",
        "description": "Largo",
        "offers": offers,
    }
    body.update(extra)
    return body


def assert_error(response: Any, status: int, message: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["statusCode"] == status
    assert body["message"] == message
    return body


def assert_validation(response: Any, *fields: str) -> dict[str, Any]:
    body = assert_error(response, 400, "Error de validación")
    got = {item["field"] for item in body["errors"]}
    assert set(fields) <= got, got
    return body


def assert_envelope(response: Any, status: int) -> Any:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["success"] is True
    assert body["status"] == status
    assert isinstance(body["message"], str)
    return body.get("data")
