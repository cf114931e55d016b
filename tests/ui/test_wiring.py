"""The composition root: training mode builds a working counter from settings alone."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kiosk.core.settings.layers import load_settings
from kiosk.core.settings.paths import resolve_paths
from kiosk.core.setup_errors import NotConfigured
from kiosk.sim.seed_branches import fresh_branches
from kiosk.sim.transport import DeferredSimTransport
from kiosk.wiring import BRANCH_MEMORY, TRAINING_DB, build_counter


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("LOYALTY_KIOSK_HOME", str(tmp_path))
    monkeypatch.setenv("LOYALTY_KIOSK_MACHINE_SETTINGS", str(tmp_path / "machine.ini"))
    return tmp_path


def test_training_counter_from_settings(home: Path, arun: Callable[..., Any]) -> None:
    paths = resolve_paths()
    paths.ensure_dirs()
    load_settings(paths).set_overrides(
        {"on_screen_keyboard": "always", "idle_timeout_seconds": 120}
    )
    settings = load_settings(paths)  # as the next start reads them

    async def scenario() -> tuple[str, str]:
        counter = await build_counter(settings, paths, demo=True)
        try:
            session = counter.session
            assert session.config.environment == "training"
            assert session.config.branch.name  # the simulator's first branch
            assert session.config.extra["on_screen_keyboard"] == "always"
            assert session.config.idle_timeout_seconds == 120
            client = await session.api.search_client("30123456")
            assert client.document_number == "30123456"
            return session.config.kiosk_id, session.config.branch.name
        finally:
            await counter.close()

    first = arun(scenario())
    # The training simulator keeps its state in the data folder, and the kiosk id is
    # stable across restarts.
    assert (paths.data_dir / TRAINING_DB).exists()
    assert arun(scenario()) == first


def test_production_without_a_key_is_not_configured(
    home: Path, arun: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = resolve_paths()
    (home / "machine.ini").write_text(
        "[connection]\nenvironment = production\nproduction_url = https://api.example.test\n",
        encoding="utf-8",
    )
    settings = load_settings(paths)
    monkeypatch.setattr("kiosk.core.security.secrets.load_api_key", lambda *_: None)

    async def scenario() -> None:
        with pytest.raises(NotConfigured):
            await build_counter(settings, paths, demo=False)

    arun(scenario())


def test_a_training_restart_opens_before_the_simulator_is_built(
    home: Path, arun: Callable[..., Any]
) -> None:
    """The branch comes from the last start; the API client and the simulator (httpx,
    Starlette, the saved world) are made at the first request, after the counter is up."""
    paths = resolve_paths()
    settings = load_settings(paths)

    async def start() -> tuple[bool, str, bool]:
        counter = await build_counter(settings, paths, demo=True)
        try:
            built_at_start = counter.session.api_made
            name = counter.session.config.branch.name
            counter.start_checks()  # the background check wakes the simulator
            if counter.confirming is not None:
                await counter.confirming
            transport = counter.transport
            assert isinstance(transport, DeferredSimTransport)
            return built_at_start, name, transport.made
        finally:
            await counter.close()

    first = arun(start())
    second = arun(start())
    assert second == (False, first[1], True)


def test_a_first_training_start_shows_the_seed_branch_and_checks_it_after(
    home: Path, arun: Callable[..., Any]
) -> None:
    """An empty data folder: the branch is the seed's (``kiosk.sim.seed_branches``), known
    without building the simulator; the check after the start asks the simulator,
    which agrees, and remembers it for the next start."""
    paths = resolve_paths()
    settings = load_settings(paths)

    async def start() -> tuple[bool, tuple[int | None, str], bool, list[tuple[int, str]]]:
        counter = await build_counter(settings, paths, demo=True)
        try:
            built_at_start = counter.session.api_made
            branch = counter.session.config.branch
            transport = counter.transport
            assert isinstance(transport, DeferredSimTransport)
            made_at_start = transport.made
            counter.start_checks()
            assert counter.confirming is not None
            await counter.confirming
            listed = await counter.session.api.list_branches()
            return (
                built_at_start or made_at_start,
                (branch.id, branch.name),
                counter.session.config.branch == branch,
                [(b.id, b.name or "") for b in listed],
            )
        finally:
            await counter.close()

    made, branch, unchanged, listed = arun(start())
    assert not made
    assert branch == fresh_branches()[0] == listed[0]
    assert unchanged  # the simulator confirmed the name shown
    assert [pair for pair in listed if pair in fresh_branches()] == list(fresh_branches())
    assert (paths.data_dir / BRANCH_MEMORY).exists()


def test_a_first_training_start_with_a_configured_branch_or_a_saved_world(
    home: Path, arun: Callable[..., Any]
) -> None:
    paths = resolve_paths()
    paths.ensure_dirs()
    load_settings(paths).set_overrides({"branch_id": 2})
    settings = load_settings(paths)

    async def start() -> tuple[bool, str]:
        counter = await build_counter(settings, paths, demo=True)
        try:
            transport = counter.transport
            assert isinstance(transport, DeferredSimTransport)
            return transport.made, counter.session.config.branch.name
        finally:
            await counter.close()

    assert arun(start()) == (False, dict(fresh_branches())[2])
    # A saved training world (its branches may have been renamed in manager mode) and
    # no memory of the branch: the simulator is asked before the counter opens.
    assert not (paths.data_dir / BRANCH_MEMORY).exists()  # (no check ran)
    (paths.data_dir / TRAINING_DB).write_bytes(b"")  # an empty SQLite file: a new world
    assert arun(start()) == (True, dict(fresh_branches())[2])


def test_the_background_works_modules_are_imported_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The API client's modules (~100 ms) and the training simulator's (~65 ms) are
    imported in a worker thread before the sender's and the branch check's first call,
    not in the first turns after "ready"; one already imported is not imported again,
    one that fails is left to its user's own import (no exception here)."""
    import importlib
    import threading

    from kiosk import wiring
    from kiosk.core import lazy

    seen: list[tuple[str, int]] = []
    real = importlib.import_module

    def recording(name: str, package: str | None = None) -> Any:
        seen.append((name, threading.get_ident()))
        return real(name, package)

    monkeypatch.setattr(lazy.importlib, "import_module", recording)
    modules = ["tabnanny", "kiosk", "kiosk.no_such_module"]
    asyncio.run(wiring.modules_ahead(modules))
    names = [name for name, _ in seen]
    assert names == ["tabnanny", "kiosk.no_such_module"]  # "kiosk" was in already
    assert all(ident != threading.get_ident() for _, ident in seen)
    assert set(wiring.CLIENT_MODULES) >= {"kiosk.api.client"}
    assert "kiosk.sim.transport" in wiring.TRAINING_MODULES
