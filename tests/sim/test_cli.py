"""``python -m kiosk.sim`` as a real process, and the ``--db`` persistence behind it."""

from __future__ import annotations

import asyncio
import os
import queue
import re
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from kiosk.sim import create_app
from kiosk.sim.persist import PersistError, open_world
from kiosk.sim.world import Merchant, World
from tests.conftest import MAIN_KEY

ROOT = Path(__file__).resolve().parents[2]
URL = re.compile(r"serving (http://\S+)")
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="stops the simulator with SIGINT")


class SimProcess:
    """The simulator started as ``python -m kiosk.sim``; ``url`` read from its first line."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kiosk.sim", "--port", "0", *args],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.lines: queue.Queue[str] = queue.Queue()
        assert self.proc.stdout is not None
        self._reader = threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True)
        self._reader.start()
        self.banner = self.lines.get(timeout=30)
        match = URL.search(self.banner)
        assert match, self.banner
        self.url = match.group(1)

    def _read(self, stream: object) -> None:
        for line in stream:  # type: ignore[attr-defined]
            self.lines.put(line)

    def stop(self) -> int:
        """Ctrl-C, then the exit status (uvicorn's graceful shutdown)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(timeout=20)
        finally:
            self.kill()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


@pytest.fixture
def start() -> Iterator[type[SimProcess]]:
    started: list[SimProcess] = []

    class Tracked(SimProcess):
        def __init__(self, *args: str) -> None:
            super().__init__(*args)
            started.append(self)

    yield Tracked
    for sim in started:
        sim.kill()


def credit_body(external_id: str) -> dict[str, object]:
    return {"client": {"email": "cli@example.com"}, "amount": 1000, "external_id": external_id}


# -- the command line ---------------------------------------------------------------


@posix_only
def test_serves_on_a_free_port_and_stops_on_ctrl_c(start: type[SimProcess]) -> None:
    sim = start("--controls")
    assert sim.url.startswith("http://127.0.0.1:")
    assert not sim.url.endswith(":0")
    assert f"merchant key: {MAIN_KEY}" in sim.banner
    with httpx.Client(base_url=sim.url, timeout=10) as client:
        r = client.get("/external/branch", headers={"x-api-key": MAIN_KEY})
        assert r.status_code == 200
        assert r.json()["success"] is True
        assert client.get("/external/branch").status_code == 401
        assert client.get("/_sim/health").json()["ok"] is True
    assert sim.stop() == 0


@posix_only
def test_controls_off_and_rate_limits_switch(start: type[SimProcess]) -> None:
    sim = start("--no-rate-limits", "--level-delay", "0")
    assert "rate limits off" in sim.lines.get(timeout=10)
    with httpx.Client(base_url=sim.url, timeout=10, headers={"x-api-key": MAIN_KEY}) as client:
        assert client.get("/_sim/health").status_code == 404
        codes = [client.put(f"/external/tags/cancel/none-{i}").status_code for i in range(15)]
        assert set(codes) == {404}
    assert sim.stop() == 0


@posix_only
def test_db_keeps_a_credit_across_restarts_and_keys_override(
    start: type[SimProcess], tmp_path: Path
) -> None:
    db = str(tmp_path / "sim.sqlite")
    sim = start("--db", db, "--controls")
    with httpx.Client(base_url=sim.url, timeout=10, headers={"x-api-key": MAIN_KEY}) as client:
        r = client.post("/external/tags/add", json=credit_body("CLI-1"))
        assert r.status_code == 201
        operation_id = r.json()["data"]["pointOperationId"]
    assert sim.stop() == 0

    sim = start("--db", db, "--controls", "--api-key", "clave-propia-123")
    assert "custom merchant key in use" in sim.banner
    assert "clave-propia-123" not in sim.banner
    with httpx.Client(base_url=sim.url, timeout=10) as client:
        ledger = client.get("/_sim/ledger").json()
        assert [o["id"] for o in ledger if o["externalId"] == "CLI-1"] == [operation_id]
        body = credit_body("CLI-1")
        assert (
            client.post(
                "/external/tags/add", json=body, headers={"x-api-key": MAIN_KEY}
            ).status_code
            == 401
        )
        again = client.post(
            "/external/tags/add", json=body, headers={"x-api-key": "clave-propia-123"}
        )
        assert again.status_code == 409  # the kept credit still guards its external_id
    assert sim.stop() == 0


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "kiosk.sim", *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_refuses_a_non_loopback_host() -> None:
    done = run_cli("--host", "0.0.0.0", "--port", "0")
    assert done.returncode == 2
    assert "--allow-remote" in done.stderr
    assert done.stdout == ""


def test_refuses_an_unreadable_database(tmp_path: Path) -> None:
    db = tmp_path / "broken.sqlite"
    db.write_bytes(b"this is not a database" * 100)
    done = run_cli("--port", "0", "--db", str(db))
    assert done.returncode == 2
    assert "error:" in done.stderr


# -- persistence in process ----------------------------------------------------------


def request(world: World, method: str, path: str, **kwargs: object) -> httpx.Response:
    app = create_app(world, controls=True)

    async def run() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            return await client.request(method, path, headers={"x-api-key": MAIN_KEY}, **kwargs)  # type: ignore[arg-type]

    return asyncio.run(run())


def test_open_world_seeds_saves_and_reloads(tmp_path: Path) -> None:
    db = tmp_path / "w.sqlite"
    world, store = open_world(db)
    assert store.saves == 1  # the fresh seed is saved at once
    assert request(world, "POST", "/external/tags/add", json=credit_body("P-1")).status_code == 201
    assert store.saves == 2
    assert request(world, "GET", "/external/branch").status_code == 200
    assert store.saves == 2  # reads save nothing
    store.close()
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    again, store = open_world(db, other_api_key="k2")
    assert [o["externalId"] for o in again.merchants[1].tables["operations"].values()].count(
        "P-1"
    ) == 1
    assert again.merchants[1].api_key == MAIN_KEY
    assert again.merchants[2].api_key == "k2"
    assert again.seq == world.seq
    store.close()


def test_deferred_jobs_and_controls_are_saved(tmp_path: Path) -> None:
    db = tmp_path / "w.sqlite"
    world, store = open_world(db)
    ran: list[int] = []

    def job(w: World, merchant: Merchant) -> None:
        ran.append(merchant.id)
        merchant.name = "Almacén renombrado"

    world.register_job("rename", job)
    world.schedule("rename", world.merchants[1], delay=0.0001)
    saves = store.saves
    world.clock.advance(1)
    assert request(world, "GET", "/external/branch").status_code == 200  # runs the due job
    assert ran == [1]
    assert store.saves == saves + 1
    assert request(world, "POST", "/_sim/clock", json={"advance": 3600}).status_code == 200
    assert store.saves == saves + 2
    store.close()
    again, store = open_world(db)
    assert again.merchants[1].name == "Almacén renombrado"
    assert again.clock.time() >= world.clock.time() - 5  # the moved clock is kept
    store.close()


def test_unreadable_snapshot_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "w.sqlite"
    with sqlite3.connect(db) as raw:
        raw.execute("CREATE TABLE world (id INTEGER PRIMARY KEY, snapshot TEXT, saved_at REAL)")
        raw.execute("INSERT INTO world VALUES (1, '{not json', 0)")
    with pytest.raises(PersistError):
        open_world(db)
