"""The test controls under ``/_sim/`` (both transports) and ``SimControl`` in process."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from kiosk.sim import create_app
from kiosk.sim.control import SimControl
from kiosk.sim.seed import build_world
from kiosk.sim.server import SimServer
from kiosk.sim.world import Merchant, World
from tests.conftest import MAIN_KEY

AT = 1_800_000_000.0  # 2027-01-15T08:00:00Z


def credit(api: Any, external_id: str) -> httpx.Response:
    body = {
        "client": {"email": "controles@example.com"},
        "amount": 1000,
        "external_id": external_id,
    }
    r: httpx.Response = api.post("/external/tags/add", json=body)
    assert r.status_code == 201, r.text
    return r


def probe_job(world: World) -> list[int]:
    """Register a deferred job kind that records the merchants it ran for."""
    ran: list[int] = []

    def job(w: World, merchant: Merchant) -> None:
        ran.append(merchant.id)

    world.register_job("probe", job)
    return ran


# -- availability ------------------------------------------------------------------


def test_health_needs_no_key(anon: Any) -> None:
    r = anon.get("/_sim/health")
    assert r.status_code == 200
    body = r.json()
    assert body["ok"] is True
    assert body["frozen"] is False


@pytest.mark.parametrize("kind", ["asgi", "http"])
def test_controls_are_off_by_default(kind: str) -> None:
    app = create_app(build_world())

    def check(client: httpx.Client) -> None:
        r = client.get("/_sim/health")
        assert r.status_code == 404
        assert r.json()["message"] == "Cannot GET /_sim/health"
        assert client.post("/_sim/reset").status_code == 404

    if kind == "http":
        with SimServer(app) as server, httpx.Client(base_url=server.base_url) as client:
            check(client)
    else:
        import asyncio

        async def run() -> None:
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
                r = await client.get("/_sim/health")
                assert r.status_code == 404
                assert r.json()["message"] == "Cannot GET /_sim/health"

        asyncio.run(run())


# -- clock -------------------------------------------------------------------------


def test_clock_freeze_advance_unfreeze_reset(anon: Any) -> None:
    r = anon.post("/_sim/clock", json={"freeze": True, "at": AT})
    assert r.json() == {"time": AT, "iso": "2027-01-15T08:00:00.000Z", "frozen": True}
    r = anon.post("/_sim/clock", json={"advance": 3600})
    assert r.json()["time"] == AT + 3600
    assert anon.get("/_sim/clock").json()["iso"] == "2027-01-15T09:00:00.000Z"
    r = anon.post("/_sim/clock", json={"freeze": True, "at": "2030-01-01T00:00:00Z"})
    assert r.json()["iso"] == "2030-01-01T00:00:00.000Z"
    r = anon.post("/_sim/clock", json={"unfreeze": True})
    assert r.json()["frozen"] is False
    assert r.json()["time"] >= 1_893_456_000  # carries on from 2030, not from now
    r = anon.post("/_sim/clock", json={"reset": True})
    assert r.json()["frozen"] is False
    assert abs(r.json()["time"] - time.time()) < 60  # the real now again, not 2030


def test_clock_time_shows_in_api_dates(api: Any, anon: Any) -> None:
    anon.post("/_sim/clock", json={"freeze": True, "at": AT})
    credit(api, "CLK-1")
    r = anon.get("/_sim/ledger")
    op = next(o for o in r.json() if o["externalId"] == "CLK-1")
    assert op["createdAt"] == "2027-01-15T08:00:00.000Z"


@pytest.mark.parametrize(
    "body",
    [{"advance": "soon"}, {"advance": -5}, {"at": AT}, {"warp": 1}, {"freeze": "yes"}, [1]],
)
def test_clock_refuses_bad_requests(anon: Any, body: Any) -> None:
    r = anon.post("/_sim/clock", json=body)
    assert r.status_code == 400
    assert r.json()["error"]
    assert anon.get("/_sim/clock").json()["frozen"] is False


def test_advancing_runs_due_deferred_jobs(anon: Any, sim_world: World) -> None:
    ran = probe_job(sim_world)
    sim_world.schedule("probe", sim_world.merchants[1], delay=600)
    anon.post("/_sim/clock", json={"advance": 599})
    assert ran == []
    anon.post("/_sim/clock", json={"advance": 2})
    assert ran == [1]


def test_jobs_run_forces_pending_jobs(anon: Any, sim_world: World) -> None:
    ran = probe_job(sim_world)
    sim_world.schedule("probe", sim_world.merchants[2], delay=10_000)
    assert anon.post("/_sim/jobs/run", json={"force": False}).json() == {"ran": 0}
    assert anon.post("/_sim/jobs/run").json() == {"ran": 1}
    assert ran == [2]


# -- ledger and request log ------------------------------------------------------------


def test_ledger_follows_credit_and_cancel(api: Any, anon: Any) -> None:
    data = credit(api, "LED-1").json()["data"]
    rows = [o for o in anon.get("/_sim/ledger?merchant=1").json() if o["externalId"] == "LED-1"]
    assert len(rows) == 1
    row = rows[0]
    assert row["pointOperationId"] == row["id"] == data["pointOperationId"]
    assert row["clientId"] == data["clientId"]
    assert row["totalPoints"] == data["points"]["totalPointsToGive"]
    assert (row["state"], row["canceledAt"]) == ("active", None)
    assert api.put("/external/tags/cancel/LED-1").status_code == 200
    row = next(o for o in anon.get("/_sim/ledger").json() if o["externalId"] == "LED-1")
    assert row["state"] == "canceled"
    assert row["canceledAt"] is not None
    assert all(o["externalId"] != "LED-1" for o in anon.get("/_sim/ledger?merchant=2").json())
    assert anon.get("/_sim/ledger?merchant=9").status_code == 404


def test_request_log_filters_and_clear(api: Any, anon: Any) -> None:
    api.get("/external/branch")
    credit(api, "REQ-1")
    api.get("/external/branch/1")
    everything = anon.get("/_sim/requests").json()
    paths = ["/external/branch", "/external/tags/add", "/external/branch/1"]
    assert [e["path"] for e in everything] == paths
    since = everything[0]["seq"]
    later = anon.get("/_sim/requests", params={"since": since}).json()
    assert [e["seq"] for e in later] == [since + 1, since + 2]
    only_branch = anon.get("/_sim/requests", params={"path": "^/external/branch"}).json()
    assert len(only_branch) == 2
    posts = anon.get("/_sim/requests", params={"method": "post"}).json()
    assert [e["external_id"] for e in posts] == ["REQ-1"]
    assert anon.get("/_sim/requests", params={"since": "x"}).status_code == 400
    assert anon.get("/_sim/requests", params={"path": "("}).status_code == 400
    assert anon.delete("/_sim/requests").json() == {"cleared": 3}
    assert anon.get("/_sim/requests").json() == []
    api.get("/external/branch")
    assert anon.get("/_sim/requests").json()[0]["seq"] == since + 3  # seq never restarts


# -- faults over HTTP ------------------------------------------------------------------


def test_fault_rules_add_list_clear(api: Any, anon: Any) -> None:
    rule = {
        "match": {"method": "GET", "path": "^/external/branch$"},
        "kind": "status",
        "status": 503,
    }
    r = anon.post("/_sim/faults", json=rule)
    assert r.status_code == 201
    (first,) = r.json()["ids"]
    more = anon.post(
        "/_sim/faults", json={"faults": [{"path": "x", "kind": "drop", "count": None}]}
    )
    listed = anon.get("/_sim/faults").json()
    assert [f["id"] for f in listed] == [first, *more.json()["ids"]]
    assert listed[0]["count"] == 1
    assert listed[0]["match"] == {"method": "GET", "path": "^/external/branch$"}
    assert listed[1]["count"] is None
    assert api.get("/external/branch").status_code == 503
    assert [f["id"] for f in anon.get("/_sim/faults").json()] == more.json()["ids"]
    assert anon.delete("/_sim/faults").json() == {"cleared": 1}
    assert api.get("/external/branch").status_code == 200


def test_fault_rules_refused_with_reason(anon: Any) -> None:
    r = anon.post(
        "/_sim/faults", json=[{"path": "x", "kind": "drop"}, {"path": "x", "kind": "boom"}]
    )
    assert r.status_code == 400
    assert "kind" in r.json()["error"]
    assert anon.get("/_sim/faults").json() == []
    assert anon.post("/_sim/faults", content=b"{nope").status_code == 400


# -- settings and reset ----------------------------------------------------------------


def test_settings_switch_rate_limits(api: Any, anon: Any, sim_world: World) -> None:
    anon.post("/_sim/clock", json={"freeze": True})  # every request in one window

    def burst() -> list[int]:
        return [api.put(f"/external/tags/cancel/none-{i}").status_code for i in range(11)]

    assert burst()[-1] == 429
    r = anon.post("/_sim/settings", json={"rate_limits": False, "level_delay_seconds": 0.5})
    assert r.json() == {"rate_limits": False, "level_delay_seconds": 0.5}
    assert sim_world.settings.level_delay_seconds == 0.5
    assert 429 not in burst()
    assert anon.get("/_sim/settings").json()["rate_limits"] is False
    assert anon.post("/_sim/settings", json={"rate_limits": "no"}).status_code == 400
    assert anon.post("/_sim/settings", json={"speed": 2}).status_code == 400


def test_reset_restores_seed_clock_settings_and_clears(api: Any, anon: Any) -> None:
    seeded = len(anon.get("/_sim/ledger").json())
    credit(api, "RST-1")
    anon.post("/_sim/clock", json={"freeze": True, "at": AT})
    anon.post("/_sim/settings", json={"rate_limits": False})
    anon.post("/_sim/faults", json={"path": "^/nothing$", "kind": "drop"})
    r = anon.post("/_sim/reset")
    assert r.status_code == 200
    assert (r.json()["frozen"], r.json()["faults"], r.json()["requests"]) == (False, 0, 0)
    ledger = anon.get("/_sim/ledger").json()
    assert len(ledger) == seeded
    assert all(o["externalId"] != "RST-1" for o in ledger)
    assert anon.get("/_sim/settings").json()["rate_limits"] is True
    assert anon.get("/_sim/requests").json() == []
    # Seeded again with the app's keys: the same key still works, the credit is new.
    assert api.get("/external/branch").status_code == 200
    assert credit(api, "RST-1").status_code == 201


# -- SimControl in process -------------------------------------------------------------


def test_sim_control_in_process(sim_world: World) -> None:
    control = SimControl(sim_world)
    control.freeze(AT)
    assert control.advance(60)["time"] == AT + 60
    fault_id = control.add_fault("latency", "^/external/", seconds=0.01, count=None)
    assert [f["id"] for f in control.faults()] == [fault_id]
    assert control.faults()[0]["seconds"] == 0.01
    seeded = control.ledger(1)
    assert seeded == sorted(seeded, key=lambda o: o["id"])
    assert {o["pointOperationId"] for o in control.ledger(2)}.isdisjoint(o["id"] for o in seeded)
    sim_world.merchants[1].api_key = "rotated"
    health = control.reset()
    assert (health["faults"], health["frozen"]) == (0, False)
    assert sim_world.merchants[1].api_key == "rotated"  # reset keeps the merchants' keys
    assert SimControl(sim_world, {"api_key": MAIN_KEY, "other_api_key": "k2"}).reset()["ok"]
    assert sim_world.merchants[1].api_key == MAIN_KEY
    assert sim_world.merchants[2].api_key == "k2"


def test_app_exposes_world_inner_app_and_control(sim_app: Any, sim_world: World) -> None:
    assert sim_app.world is sim_world
    assert sim_app.app.state.world is sim_world
    control = sim_app.control
    assert control.world is sim_world
    assert control.seed_keys == sim_app.app.state.seed_keys
    assert control.freeze(AT)["time"] == AT
    assert sim_world.clock.time() == AT
