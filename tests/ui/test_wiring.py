"""The composition root: training mode builds a working counter from settings alone."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kiosk.core.paths import resolve_paths
from kiosk.core.settings import load_settings
from kiosk.sim.transport import DeferredSimTransport
from kiosk.wiring import TRAINING_DB, NotConfigured, build_counter


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
    monkeypatch.setattr("kiosk.core.secrets.load_api_key", lambda *_: None)

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
