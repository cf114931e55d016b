"""The manager's settings model: field checks, the API key, branch choices, applying,
IT locks, and the refusal to switch while credits wait in the outbox."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from kiosk.api.models.points import CreditClient, CreditRequest
from kiosk.core.admin.manager_settings import (
    IDLE_RANGE,
    MANAGER_IDLE_RANGE,
    Field,
    FieldProblem,
    KeyState,
    ManagerSettings,
    Problem,
    SettingsRefused,
    TrainingLink,
)
from kiosk.core.db import DatabaseWorker
from kiosk.core.outbox.queue import Binding, Outbox, SwitchRefused
from kiosk.core.security import secrets
from kiosk.core.settings import layers as S
from kiosk.core.settings.layers import Environment, Settings
from kiosk.sim import DEFAULT_API_KEY, build_world, create_app
from kiosk.sim.transport import SimTransport
from kiosk.sim.world import World
from tests.ui.fake_keyring import MemoryKeyring, memory_keyring, no_keyring

T = TypeVar("T")
PROD = "https://api.loyalty.example.test"
QA = "https://qa.loyalty.example.test"
TRAINING = TrainingLink("http://training.sim", DEFAULT_API_KEY)


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


class Counting(httpx.AsyncBaseTransport):
    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.paths: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.paths.append(request.url.path)
        return await self.inner.handle_async_request(request)


@pytest.fixture
def world() -> World:
    return build_world()


@pytest.fixture
def keys() -> Iterator[MemoryKeyring]:
    with memory_keyring() as backend:
        yield backend


@pytest.fixture
def transport(world: World) -> Counting:
    return Counting(SimTransport(create_app(world)))


def model(
    tmp_path: Path,
    transport: Counting,
    machine: dict[str, object] | None = None,
    pending: Any = None,
) -> ManagerSettings:
    settings = Settings(
        {"production_url": PROD, "qa_url": QA, **(machine or {})},
        overrides_path=tmp_path / "settings.json",
    )
    return ManagerSettings(
        settings, transport_for=lambda env, url: transport, training=TRAINING, pending=pending
    )


def saved(tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "settings.json"
    return json.loads(path.read_text())["settings"] if path.exists() else {}


def test_the_draft_is_the_effective_settings(tmp_path: Path, transport: Counting) -> None:
    m = model(tmp_path, transport, {"environment": "qa", "branch_id": "2", "point_items": "5, 1"})
    draft = m.draft()
    assert (draft.environment, draft.branch_id, draft.point_items) == (Environment.QA, 2, (5, 1))
    assert draft.base_url(TRAINING) == QA
    assert m.changes(draft) == {}
    # Where the key goes is IT's alone: shown, never changed on the kiosk.
    assert all(m.is_locked(f) for f in (Field.ENVIRONMENT, Field.PRODUCTION_URL, Field.QA_URL))


def test_the_ranges_agree_with_the_settings() -> None:
    pairs = ((S.IDLE_TIMEOUT, IDLE_RANGE), (S.MANAGER_IDLE_TIMEOUT, MANAGER_IDLE_RANGE))
    for setting, (low, high) in pairs:
        assert setting.parse(low) == low
        assert setting.parse(high) == high
        for outside in (low - 1, high + 1):
            with pytest.raises(ValueError, match="between"):
                setting.parse(outside)


def test_field_checks(tmp_path: Path, transport: Counting, keys: MemoryKeyring) -> None:
    m = model(tmp_path, transport, {"production_url": "", "environment": "production"})
    draft = dataclasses.replace(
        m.draft(),
        idle_timeout_seconds=5,
        manager_idle_timeout_seconds=901,  # PCI DSS 8.2.8: at most 15 minutes
        point_items=tuple(range(1, 62)),
    )
    assert m.validate(draft) == {
        Field.PRODUCTION_URL: FieldProblem(Problem.REQUIRED),
        Field.BRANCH: FieldProblem(Problem.REQUIRED),
        Field.POINT_ITEMS: FieldProblem(Problem.TOO_MANY, high=60),
        Field.IDLE_TIMEOUT: FieldProblem(Problem.OUT_OF_RANGE, 15, 3600),
        Field.MANAGER_IDLE_TIMEOUT: FieldProblem(Problem.OUT_OF_RANGE, 60, 900),
    }
    with pytest.raises(SettingsRefused):
        run(m.apply(draft))
    assert saved(tmp_path) == {}


def test_production_needs_a_stored_key(
    tmp_path: Path, transport: Counting, keys: MemoryKeyring
) -> None:
    m = model(tmp_path, transport, {"environment": "production"})
    draft = dataclasses.replace(m.draft(), branch_id=1)
    assert m.key_state(draft) is KeyState.MISSING
    assert m.validate(draft) == {Field.API_KEY: FieldProblem(Problem.NO_KEY)}
    secrets.store_api_key("production", PROD, DEFAULT_API_KEY)
    assert m.key_state(draft) is KeyState.STORED
    assert m.validate(draft) == {}
    with no_keyring():
        assert m.key_state(draft) is KeyState.NO_KEYRING
        assert m.validate(draft) == {Field.API_KEY: FieldProblem(Problem.NO_KEYRING)}


def test_a_right_key_is_checked_then_stored(
    tmp_path: Path, transport: Counting, keys: MemoryKeyring, world: World
) -> None:
    m = model(tmp_path, transport, {"environment": "production"})
    draft = m.draft()
    branches = run(m.replace_key(draft, f"  {DEFAULT_API_KEY}\n"))
    assert {b.id for b in branches} == set(world.merchants[1].tables["branches"])
    assert transport.paths == ["/external/branch"]
    assert secrets.load_api_key("production", PROD) == DEFAULT_API_KEY
    assert secrets.load_api_key("qa", QA) is None  # a key belongs to one environment
    assert saved(tmp_path) == {}  # never in a settings file


def test_a_wrong_key_is_refused_and_nothing_is_stored(
    tmp_path: Path, transport: Counting, keys: MemoryKeyring
) -> None:
    m = model(tmp_path, transport, {"environment": "qa"})
    draft = m.draft()
    with pytest.raises(SettingsRefused) as refused:
        run(m.replace_key(draft, "sk-not-a-real-key-000000"))
    assert refused.value.problems == {Field.API_KEY: FieldProblem(Problem.KEY_REFUSED)}
    assert "sk-not-a-real-key" not in str(refused.value)
    assert keys.writes == 0
    with pytest.raises(SettingsRefused) as short:
        run(m.replace_key(draft, "short"))
    assert short.value.problems == {Field.API_KEY: FieldProblem(Problem.KEY_FORMAT)}
    assert keys.writes == 0
    assert transport.paths == ["/external/branch"]


def test_without_a_keyring_the_key_is_not_even_checked(tmp_path: Path, transport: Counting) -> None:
    m = model(tmp_path, transport, {"environment": "production"})
    draft = m.draft()
    with no_keyring(), pytest.raises(SettingsRefused) as refused:
        run(m.replace_key(draft, DEFAULT_API_KEY))
    assert refused.value.problems == {Field.API_KEY: FieldProblem(Problem.NO_KEYRING)}
    assert transport.paths == []


def test_branch_choices_come_from_the_api(
    tmp_path: Path, transport: Counting, world: World
) -> None:
    m = model(tmp_path, transport)  # training: the simulator's own key
    draft = m.draft()
    branches = run(m.branches(draft))
    choices = run(m.branch_choices(draft, 2))
    tables = world.merchants[1].tables
    assert {b.id for b in branches} == set(tables["branches"])
    expected_qrs = {
        q["qrId"] for q in tables["qrs"].values() if q["branchId"] == 2 and q["_active"]
    }
    assert {q.id for q in choices.qrs} == expected_qrs
    expected_items = {i["id"] for i in tables["point_items"].values() if i["branchId"] in (None, 2)}
    assert {i.id for i in choices.items} == expected_items
    other_qr = next(q for q in tables["qrs"].values() if q["branchId"] != 2)["qrId"]
    bad = dataclasses.replace(draft, branch_id=99, validation_qr_id=other_qr)
    assert m.validate(bad, branches=branches, qrs=choices.qrs) == {
        Field.BRANCH: FieldProblem(Problem.UNKNOWN_BRANCH),
        Field.VALIDATION_QR: FieldProblem(Problem.UNKNOWN_QR),
    }


def test_apply_saves_every_change_and_names_them(tmp_path: Path, transport: Counting) -> None:
    m = model(tmp_path, transport)
    draft = dataclasses.replace(
        m.draft(), branch_id=2, point_items=(7, 2, 5), idle_timeout_seconds=120
    )
    changed = run(m.apply(draft))
    assert set(changed) == {"branch_id", "point_items", "idle_timeout_seconds"}
    assert saved(tmp_path) == {
        "branch_id": 2,
        "point_items": [7, 2, 5],
        "idle_timeout_seconds": 120,
    }
    assert m.settings.get(S.POINT_ITEMS) == (7, 2, 5)
    assert run(m.apply(m.draft())) == ()


def test_it_locked_settings_are_refused(tmp_path: Path, transport: Counting) -> None:
    m = model(tmp_path, transport, {"theme": "dark", "locked": "theme, branch_id"})
    assert m.is_locked(Field.THEME)
    assert m.is_locked(Field.BRANCH)
    assert not m.is_locked(Field.LANGUAGE)
    assert not m.is_locked(Field.API_KEY)
    draft = dataclasses.replace(m.draft(), theme=S.Theme.LIGHT, language=S.Language.ES)
    with pytest.raises(SettingsRefused) as refused:
        run(m.apply(draft))
    assert refused.value.problems == {Field.THEME: FieldProblem(Problem.LOCKED)}
    assert saved(tmp_path) == {}  # all or nothing: not even the language


@pytest.fixture
def outbox(tmp_path: Path) -> Iterator[tuple[Outbox, asyncio.AbstractEventLoop]]:
    loop = asyncio.new_event_loop()
    worker = DatabaseWorker(tmp_path / "kiosk.sqlite3")
    loop.run_until_complete(worker.start())
    box = Outbox(worker, Binding.of("training", TRAINING.base_url, TRAINING.api_key, 1))
    who = CreditClient(email="ana.perez@gmail.com")
    request = CreditRequest("b1-20261122-k0a1b2c3d-00000000000a", who, amount=1500.0)
    loop.run_until_complete(box.submit_credit(request))  # no sender: it stays pending
    try:
        yield box, loop
    finally:
        loop.run_until_complete(worker.close())
        loop.close()


def test_no_switch_while_credits_are_pending(
    tmp_path: Path, transport: Counting, outbox: tuple[Outbox, asyncio.AbstractEventLoop]
) -> None:
    box, loop = outbox
    m = model(tmp_path, transport, {"branch_id": "1"}, pending=box)
    other_branch = dataclasses.replace(m.draft(), branch_id=2)
    with pytest.raises(SwitchRefused) as refused:
        loop.run_until_complete(m.apply(other_branch))
    assert refused.value.waiting == 1
    assert saved(tmp_path) == {}
    assert m.settings.get(S.BRANCH_ID) == 1
    # What does not move the credits is still saved.
    theme_only = dataclasses.replace(m.draft(), theme=S.Theme.DARK)
    assert loop.run_until_complete(m.apply(theme_only)) == ("theme",)


def test_no_key_replacement_while_credits_wait_on_the_old_one(
    tmp_path: Path, transport: Counting, keys: MemoryKeyring
) -> None:
    class Waiting:
        binding = Binding.of("production", PROD, "sk-the-old-key-123456", 1)

        async def check_switch(self, new: Binding) -> None:
            if new != self.binding:
                raise SwitchRefused("3 waiting", waiting=3, bindings=(self.binding,))

    m = model(tmp_path, transport, {"environment": "production"}, pending=Waiting())
    with pytest.raises(SwitchRefused):
        run(m.replace_key(m.draft(), DEFAULT_API_KEY))
    assert keys.writes == 0
    assert transport.paths == []
    qa = model(tmp_path, transport, {"environment": "qa"}, pending=Waiting())
    run(qa.replace_key(qa.draft(), DEFAULT_API_KEY))  # another environment's key: no credit moves
    assert keys.writes == 1


def test_a_key_goes_only_where_it_says_whatever_the_draft_holds(
    tmp_path: Path, transport: Counting, keys: MemoryKeyring, caplog: pytest.LogCaptureFixture
) -> None:
    """#22 item 1: the draft's environment and address never choose where the key goes."""
    m = model(tmp_path, transport, {"environment": "production"})
    target = m.destination()
    assert (target.environment, target.base_url) == (Environment.PRODUCTION, PROD)
    assert target.origin.startswith("production_url set by IT in ")
    elsewhere = dataclasses.replace(
        m.draft(), environment=Environment.QA, qa_url="https://attacker.example.test"
    )
    caplog.set_level("INFO", logger="kiosk.core.admin.manager_settings")
    run(m.replace_key(elsewhere, DEFAULT_API_KEY))
    assert secrets.load_api_key("production", PROD) == DEFAULT_API_KEY
    assert secrets.load_api_key("qa", "https://attacker.example.test") is None
    assert f"checking a new API key at {PROD} (production_url set by IT" in caplog.text
    refused = m.validate(elsewhere)
    assert refused[Field.ENVIRONMENT] == FieldProblem(Problem.LOCKED)
    assert refused[Field.QA_URL] == FieldProblem(Problem.LOCKED)


def test_the_managers_file_cannot_move_the_key(
    tmp_path: Path, expect_log: Callable[[str], None]
) -> None:
    """#22 item 1: settings.json naming another server is ignored, with a problem."""
    expect_log("only IT may set this")
    overrides = tmp_path / "settings.json"
    overrides.write_text(
        json.dumps(
            {
                "version": 1,
                "settings": {
                    "production_url": "https://attacker.example.test",
                    "environment": "qa",
                },
            }
        )
    )
    settings = S.Settings.load(None, overrides)
    assert settings.get(S.PRODUCTION_URL) is None
    assert settings.get(S.ENVIRONMENT) is Environment.TRAINING
    assert {p.key for p in settings.problems} == {"production_url", "environment"}
