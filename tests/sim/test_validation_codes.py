"""Validation codes: QR list, current rotating code, validate (C13), and their rate limits."""

from __future__ import annotations

import re
from typing import Any

import pytest

from kiosk.sim.world import Record, World
from tests.sim.catalog_support import (
    OTHER,
    assert_envelope,
    assert_error,
    assert_validation,
    merchant,
)

QRS = "/external/validation-code/qrs"
WRONG = "Código de validación incorrecto."
RATE_BODY = {"success": False, "status": 429, "message": "Rate limit excedido. Intente más tarde."}
# A window boundary for 60-second windows: the clock is frozen there.
T0 = 1_800_000_000.0


@pytest.fixture
def frozen(sim_world: World) -> World:
    sim_world.clock.freeze(T0)
    return sim_world


def _qrs(world: World, merchant_id: int = 1) -> list[Record]:
    return sorted(merchant(world, merchant_id).tables["qrs"].values(), key=lambda q: q["qrId"])


def _active_qr(world: World, merchant_id: int = 1, index: int = 0) -> Record:
    return [q for q in _qrs(world, merchant_id) if q["_active"]][index]


def _current(api: Any, qr_id: int) -> dict[str, Any]:
    data: dict[str, Any] = assert_envelope(
        api.get(f"/external/validation-code/{qr_id}/current"), 200
    )
    return data


def test_list_active_qrs(api: Any, sim_world: World) -> None:
    data = assert_envelope(api.get(QRS), 200)
    active = [q for q in _qrs(sim_world) if q["_active"]]
    assert [d["qrId"] for d in data] == [q["qrId"] for q in active]
    assert len(active) < len(_qrs(sim_world))
    branch_names = {b["id"]: b["name"] for b in merchant(sim_world).tables["branches"].values()}
    for row in data:
        assert set(row) == {"qrId", "qrName", "branchId", "branchName", "validationWindowSeconds"}
        assert row["branchName"] == branch_names[row["branchId"]]
        assert row["validationWindowSeconds"] == 60


def test_list_filters_by_branch(api: Any, sim_world: World) -> None:
    qr = _active_qr(sim_world, index=1)
    by_query = assert_envelope(api.get(QRS, params={"branchId": qr["branchId"]}), 200)
    assert {d["branchId"] for d in by_query} == {qr["branchId"]}
    by_header = assert_envelope(api.get(QRS, headers={"x-branch-id": str(qr["branchId"])}), 200)
    assert by_header == by_query
    foreign = _active_qr(sim_world, OTHER)
    assert_error(
        api.get(QRS, params={"branchId": foreign["branchId"]}), 404, "Sucursal no encontrada"
    )
    assert_validation(api.get(QRS, params={"branchId": "uno"}), "branchId")


def test_current_code_shape_and_stability(api: Any, frozen: World) -> None:
    qr = _active_qr(frozen)
    first = _current(api, qr["qrId"])
    assert set(first) == {"qrId", "code", "expiresInSeconds", "validUntil"}
    assert first["qrId"] == qr["qrId"]
    assert re.fullmatch(r"\d{4}", first["code"])
    assert first["expiresInSeconds"] == 60
    assert first["validUntil"] == "2027-01-15T08:01:00.000Z"
    frozen.clock.advance(59)
    later = _current(api, qr["qrId"])
    assert later["code"] == first["code"]
    assert later["expiresInSeconds"] == 1
    assert later["validUntil"] == first["validUntil"]


def test_qrs_have_distinct_codes(api: Any, frozen: World) -> None:
    codes = {_current(api, q["qrId"])["code"] for q in _qrs(frozen) if q["_active"]}
    assert len(codes) > 1


def test_current_of_unknown_foreign_or_inactive_qr_is_404(api: Any, sim_world: World) -> None:
    foreign = _active_qr(sim_world, OTHER)
    inactive = next(q for q in _qrs(sim_world) if not q["_active"])
    for qr_id in (foreign["qrId"], inactive["qrId"], 999999):
        assert_error(api.get(f"/external/validation-code/{qr_id}/current"), 404, "QR not found")
    assert_validation(api.get("/external/validation-code/abc/current"), "qrId")


def test_reads_are_limited_to_five_per_minute_per_branch(api: Any, frozen: World) -> None:
    qr, other_branch_qr = _active_qr(frozen, index=0), _active_qr(frozen, index=1)
    url = f"/external/validation-code/{qr['qrId']}/current"
    first_code = None
    for remaining in (4, 3, 2, 1, 0):
        r = api.get(url)
        assert r.status_code == 200
        assert r.headers["X-RateLimit-Limit"] == "5"
        assert r.headers["X-RateLimit-Remaining"] == str(remaining)
        first_code = r.json()["data"]["code"]
    refused = api.get(url)
    assert refused.status_code == 429
    assert refused.json() == RATE_BODY
    assert refused.headers["X-RateLimit-Limit"] == "5"
    assert refused.headers["X-RateLimit-Remaining"] == "0"
    assert refused.headers["Retry-After"] == "60"
    assert api.get(QRS, headers={"x-branch-id": str(qr["branchId"])}).status_code == 429
    assert _current(api, other_branch_qr["qrId"])["qrId"] == other_branch_qr["qrId"]
    frozen.clock.advance(61)
    again = _current(api, qr["qrId"])
    assert again["code"] != first_code


def test_validate_current_code(api: Any, frozen: World) -> None:
    qr = _active_qr(frozen)
    code = _current(api, qr["qrId"])["code"]
    url = f"/external/validation-code/{qr['qrId']}/validate"
    r = api.post(url, json={"code": code})
    assert assert_envelope(r, 200) == {"qrId": qr["qrId"], "code": code, "valid": True}
    assert r.headers["X-RateLimit-Limit"] == "10"
    wrong = f"{(int(code) + 1) % 10000:04d}"
    assert_error(api.post(url, json={"code": wrong}), 400, WRONG)
    assert_error(api.post(url, json={"code": "１２３４"}), 400, WRONG)


def test_previous_window_code_is_expired(api: Any, frozen: World) -> None:
    qr = _active_qr(frozen)
    code = _current(api, qr["qrId"])["code"]
    frozen.clock.advance(60)
    assert _current(api, qr["qrId"])["code"] != code
    assert_error(
        api.post(f"/external/validation-code/{qr['qrId']}/validate", json={"code": code}),
        400,
        WRONG,
    )


def test_validate_body_and_404(api: Any, other_api: Any, sim_world: World) -> None:
    qr = _active_qr(sim_world)
    url = f"/external/validation-code/{qr['qrId']}/validate"
    assert_validation(api.post(url, json={}), "code")
    assert_validation(api.post(url, json={"code": 1234}), "code")
    assert_error(other_api.post(url, json={"code": "1234"}), 404, "QR not found")


def test_validate_is_limited_to_ten_per_minute(api: Any, frozen: World) -> None:
    qr = _active_qr(frozen)
    url = f"/external/validation-code/{qr['qrId']}/validate"
    for remaining in range(9, -1, -1):
        r = api.post(url, json={"code": "abcd"})
        assert r.status_code == 400
        assert r.headers["X-RateLimit-Remaining"] == str(remaining)
    refused = api.post(url, json={"code": "abcd"})
    assert refused.status_code == 429
    assert refused.json() == RATE_BODY
    frozen.clock.advance(61)
    code = _current(api, qr["qrId"])["code"]
    assert assert_envelope(api.post(url, json={"code": code}), 200)["valid"] is True


def test_seed_has_one_active_qr_per_branch(sim_world: World) -> None:
    for merchant_id in (1, OTHER):
        m = merchant(sim_world, merchant_id)
        active = [q for q in m.tables["qrs"].values() if q["_active"]]
        assert sorted(q["branchId"] for q in active) == sorted(m.tables["branches"])
        assert len({q["_secret"] for q in active}) == len(active)
