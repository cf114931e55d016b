"""The manager's settings screen over the in-process simulator: the API key (checked,
stored in an in-memory keyring, never shown again), branch and QR binding, counter
buttons and their order, IT-locked settings, and refusals."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot
from starlette.types import ASGIApp

from kiosk.core.admin.manager_settings import Field
from kiosk.core.outbox.types import SwitchRefused
from kiosk.core.security import secrets
from kiosk.core.session import CounterSession
from kiosk.core.settings import layers as S
from kiosk.core.settings.binding import Binding
from kiosk.sim.world import World
from kiosk.ui.main_window import CounterView
from kiosk.ui.manager.assemble import build_manager_screen, settings_sections
from kiosk.ui.manager.manager_view import Section
from kiosk.ui.manager.settings_checklist import ID_ROLE
from kiosk.ui.manager.settings_screen import SettingsScreen
from tests.conftest import MAIN_KEY
from tests.qt_async import until
from tests.ui.fake_keyring import MemoryKeyring, memory_keyring, no_keyring
from tests.ui.keys import Keys
from tests.ui.manager.manager_support import (
    Clocks,
    in_counter_window,
    make_lock,
    shot,
    themed,
    visible_text,
)
from tests.ui.manager.settings_support import Rig, choose

WRONG_KEY = "sk-wrong-0123456789abcdef"
CHECK = Qt.ItemDataRole.CheckStateRole


@pytest.fixture(autouse=True)
def _themed(qapp: QApplication) -> Iterator[None]:
    with themed(qapp):
        yield


@pytest.fixture
def keys() -> Iterator[MemoryKeyring]:
    with memory_keyring() as backend:
        yield backend


@pytest.fixture
def rig(qtbot: QtBot, sim_app: ASGIApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Rig:
    return Rig(qtbot, sim_app, tmp_path / "home", monkeypatch)


PRODUCTION = "[connection]\nenvironment = production\nproduction_url = PROD_URL\n"


def test_a_right_key_is_checked_stored_and_never_shown_again(
    rig: Rig,
    keys: MemoryKeyring,
    arun: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
    sim_world: World,
) -> None:
    caplog.set_level(logging.DEBUG)
    rig.machine(PRODUCTION)
    screen = rig.open()
    connection = screen.connection

    async def scenario() -> None:
        assert connection.key_status.text() == "No key is stored for Production yet."
        assert screen.branch.branch_combo.placeholderText().startswith("Store the API key")
        rig.click(connection.replace_button)
        assert connection.key_entry.isVisible()
        assert connection.key_edit.echoMode() == connection.key_edit.EchoMode.Password
        rig.qtbot.keyClicks(connection.key_edit, MAIN_KEY)
        rig.click(connection.check_button)
        await until(lambda: screen.banner.kind == "success")
        assert "will not be shown again" in screen.banner.text()
        assert secrets.load_api_key("production", rig.prod_url) == MAIN_KEY
        assert connection.key_edit.text() == ""
        assert not connection.key_entry.isVisible()
        assert connection.replace_button.text() == "Replace key"
        assert connection.key_status.text().startswith("A key is stored for Production")
        await until(lambda: screen.branch.branch_combo.count() == 3)
        assert rig.applied == [("api_key",)]
        assert rig.overrides() == {}  # never in a settings file
        await until(lambda: not screen.tasks.running("choices"))
        assert MAIN_KEY not in visible_text(screen)
        assert MAIN_KEY not in caplog.text

    arun(scenario())
    for folder in ("config", "data", "log", "machine"):
        for path in (rig.home / folder).rglob("*"):
            if path.is_file():
                assert MAIN_KEY.encode() not in path.read_bytes(), path


def test_a_wrong_key_is_refused_and_nothing_is_stored(
    rig: Rig,
    keys: MemoryKeyring,
    arun: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
    session: CounterSession,
    tmp_path: Path,
) -> None:
    caplog.set_level(logging.DEBUG)
    rig.machine(PRODUCTION)
    screen = rig.open()
    connection = screen.connection
    key_row = connection.rows_by_field[Field.API_KEY]

    async def scenario() -> None:
        window = await in_counter_window(rig.qtbot, session, screen, tmp_path / "lock")
        rig.click(connection.replace_button)
        hands = Keys()  # a person's keys: a scanner's Enter is never sent
        hands.person(WRONG_KEY, widget=connection.key_edit)
        hands.press(Qt.Key.Key_Return, widget=connection.key_edit)
        await until(lambda: screen.banner.kind == "error")
        assert "does not accept this API key" in key_row.error.text()
        assert key_row.error.isVisible()
        assert keys.writes == 0
        assert connection.key_edit.text() == ""  # typed again, never kept
        assert connection.check_button.isEnabled()
        shot(window, "settings_key_error")
        assert WRONG_KEY not in visible_text(screen)
        assert WRONG_KEY not in caplog.text
        assert rig.applied == []

    arun(scenario())


def test_branch_qr_and_counter_buttons_are_bound_and_saved_in_order(
    rig: Rig, arun: Callable[..., Any], sim_world: World, session: CounterSession, tmp_path: Path
) -> None:
    screen = rig.open()  # training: the simulator, no key needed
    branch = screen.branch
    tables = sim_world.merchants[1].tables

    async def scenario() -> None:
        window = await in_counter_window(rig.qtbot, session, screen, tmp_path / "lock")
        assert screen.connection.key_status.text() == "Training needs no key."
        await until(lambda: branch.branch_combo.count() == len(tables["branches"]))
        choose(branch.branch_combo, 2)
        assert "Sucursal Palermo" in branch.details.text()
        assert "Av. Santa Fe 3456" in branch.details.text()
        assert "physical" in branch.details.text()
        await until(lambda: branch.items.count() > 0)
        qrs = [branch.qr_combo.itemData(i) for i in range(branch.qr_combo.count())]
        assert qrs == [None, 2]  # the branch's active QR only
        choose(branch.qr_combo, 2)
        wanted = {i["id"] for i in tables["point_items"].values() if i["branchId"] in (None, 2)}
        checklist = branch.checklist
        rows = {checklist.index(i).data(ID_ROLE): i for i in range(branch.items.count())}
        assert set(rows) == wanted
        # None set: every item shows (as on the counter); the manager keeps three.
        assert set(branch.item_ids()) == wanted
        for item_id in wanted - {7, 1, 3}:
            checklist.setData(checklist.index(rows[item_id]), Qt.CheckState.Unchecked, CHECK)
        # Order: put item 7 first (it is listed by name, after the others).
        branch.items.set_current_row(rows[7])
        for _ in range(branch.items.count()):
            rig.click(branch.up_button)
        assert branch.item_ids()[0] == 7
        screen.scroller.ensureWidgetVisible(branch.items)
        shot(window, "settings_branch")
        rig.click(screen.save_button)
        await until(lambda: screen.banner.kind == "success")
        saved = rig.overrides()
        assert saved["branch_id"] == 2
        assert saved["validation_qr_id"] == 2
        assert saved["point_items"] == list(branch.item_ids())
        assert saved["point_items"][0] == 7
        assert sorted(saved["point_items"]) == [1, 3, 7]
        assert set(rig.applied[-1]) == {"branch_id", "validation_qr_id", "point_items"}
        assert "Branch" in screen.banner.text()

    arun(scenario())


def test_an_it_locked_setting_is_read_only(
    rig: Rig, arun: Callable[..., Any], session: CounterSession, tmp_path: Path
) -> None:
    rig.machine("[display]\ntheme = dark\n[lock]\nlocked = theme, branch_id\n")
    screen = rig.open()
    theme_row = screen.counter.rows_by_field[Field.THEME]
    branch_row = screen.branch.rows_by_field[Field.BRANCH]

    async def scenario() -> None:
        window = await in_counter_window(rig.qtbot, session, screen, tmp_path / "lock")
        await until(lambda: screen.branch.branch_combo.count() > 0)
        await until(lambda: not screen.tasks.running("choices"))
        assert theme_row.locked_note.isVisible()
        assert theme_row.locked_text.text() == "Set by IT"
        assert not screen.counter.theme.isEnabled()
        assert screen.counter.theme.currentText() == "Dark"
        assert branch_row.locked_note.isVisible()
        assert not screen.branch.branch_combo.isEnabled()
        language_row = screen.counter.rows_by_field[Field.LANGUAGE]
        assert not language_row.locked_note.isVisible()
        assert screen.counter.language.isEnabled()
        screen.scroller.ensureWidgetVisible(screen.counter.theme)
        shot(window, "settings_it_locked")
        screen.counter.language.setCurrentIndex(screen.counter.language.findData("es"))
        rig.click(screen.save_button)
        await until(lambda: screen.banner.kind == "success")
        assert rig.overrides() == {"language": "es"}
        assert rig.model.settings.get(S.THEME) is S.Theme.DARK

    arun(scenario())


def test_field_level_messages_and_nothing_saved(rig: Rig, arun: Callable[..., Any]) -> None:
    screen = rig.open()

    async def scenario() -> None:
        await until(lambda: screen.branch.branch_combo.count() > 0)
        screen.counter.idle.setValue(300)
        manager_idle = screen.counter.manager_idle
        manager_idle.edit.clear()
        rig.qtbot.keyClicks(manager_idle.edit, "5")
        rig.click(screen.save_button)
        await until(lambda: screen.banner.kind == "error")
        assert screen.banner.text() == "Nothing was saved. Check the marked fields."
        idle_row = screen.counter.rows_by_field[Field.MANAGER_IDLE_TIMEOUT]
        assert idle_row.error.text() == "Choose between 60 and 900."
        assert not screen.counter.rows_by_field[Field.IDLE_TIMEOUT].error.isVisible()
        assert rig.overrides() == {}
        rig.click(manager_idle.plus)  # stepping brings it back within range
        assert manager_idle.value() == 65

    arun(scenario())


def test_no_switch_while_credits_are_pending(rig: Rig, arun: Callable[..., Any]) -> None:
    class Pending:
        def __init__(self, binding: Binding) -> None:
            self.binding = binding

        async def check_switch(self, new: Binding) -> None:
            if new != self.binding:
                raise SwitchRefused("2 waiting", waiting=2, bindings=(self.binding,))

    rig.machine("[connection]\nbranch_id = 1\n")
    rig.pending = Pending(Binding.of("training", rig.training.base_url, MAIN_KEY, 1))
    screen = rig.open()

    async def scenario() -> None:
        await until(lambda: screen.branch.branch_combo.count() > 0)
        await until(lambda: not screen.tasks.running("choices"))
        choose(screen.branch.branch_combo, 3)
        rig.click(screen.save_button)
        await until(lambda: screen.banner.kind == "error")
        assert screen.banner.text().startswith("Not changed: 2 credit(s) made here")
        assert "wrong place" in screen.banner.text()
        assert rig.overrides() == {}
        assert rig.model.settings.get(S.BRANCH_ID) == 1

    arun(scenario(), timeout=30)


def test_without_a_keyring_the_key_cannot_be_stored(rig: Rig, arun: Callable[..., Any]) -> None:
    rig.machine(PRODUCTION + "branch_id = 1\n")

    async def scenario() -> None:
        with no_keyring():
            screen = rig.open()
            connection = screen.connection
            assert "no secure keyring" in connection.key_status.text()
            assert "never keeps the key in a plain file" in connection.key_status.text()
            assert not connection.replace_button.isVisible()
            assert not connection.key_entry.isVisible()
            rig.click(screen.save_button)
            await until(lambda: screen.banner.kind == "error")
            key_row = connection.rows_by_field[Field.API_KEY]
            assert "no secure keyring" in key_row.error.text()
        assert rig.overrides() == {}

    arun(scenario())


def test_manager_mode_in_the_counter_window(
    rig: Rig, arun: Callable[..., Any], session: CounterSession, tmp_path: Path
) -> None:
    rig.machine(
        "[connection]\nproduction_url = PROD_URL\nqa_url = https://qa.example.test\n"
        "[lock]\nlocked = environment, production_url, qa_url\n"
    )
    lock = make_lock(tmp_path / "lock", Clocks())
    model = rig.build_model()
    admin = Section("Point items", "points", lambda: QLabel("the other engineer's screen"))
    sections = [*settings_sections(model, rig.applied.append), admin]

    async def scenario() -> None:
        await lock.set_pin("1357")
        screen = build_manager_screen(session, lock, sections, idle_seconds=900)
        window = CounterView(session, [screen])
        rig.qtbot.addWidget(window)
        window.resize(1280, 800)
        window.show()
        assert window.current is screen
        view = screen.gate.view
        assert view is not None
        assert [view.list.item(i).text() for i in range(view.list.count())] == [
            "Settings",
            "Point items",
        ]
        settings = view.current_widget()
        assert isinstance(settings, SettingsScreen)
        await until(lambda: settings.branch.branch_combo.count() == 3)
        await until(lambda: not settings.tasks.running("choices"))
        env_row = settings.connection.rows_by_field[Field.ENVIRONMENT]
        assert env_row.locked_note.isVisible()
        assert all(not b.isEnabled() for b in settings.connection.environment_buttons.values())
        assert settings.connection.production_url.isReadOnly()
        assert not settings.connection.rows_by_field[Field.API_KEY].locked_note.isVisible()
        shot(window, "settings_screen")
        view.list.setCurrentRow(1)
        assert view.current_widget() is not settings
        rig.click(view.lock_button)
        assert not lock.unlocked
        assert screen.gate.stack.currentWidget() is screen.gate.panel
        shot(window, "pin_pad_in_counter")

    arun(scenario())


def test_where_the_key_goes_is_shown_read_only_and_said_before_typing(
    rig: Rig, keys: MemoryKeyring, arun: Callable[..., Any]
) -> None:
    """#22 item 1: the environment and addresses are IT's (read-only, "Set by IT"), and
    the key entry says the address the key is checked at before it is typed."""
    rig.machine(PRODUCTION)
    screen = rig.open()
    connection = screen.connection

    async def scenario() -> None:
        for which in (Field.ENVIRONMENT, Field.PRODUCTION_URL, Field.QA_URL):
            row = connection.rows_by_field[which]
            assert row.locked, which
            assert row.locked_note.isVisible(), which
        assert connection.production_url.isReadOnly()
        rig.qtbot.keyClicks(connection.production_url, "x")
        assert connection.production_url.text() == rig.prod_url
        assert not connection.environment_buttons[S.Environment.QA].isEnabled()
        rig.click(connection.replace_button)
        assert connection.key_target.isVisible()
        assert connection.key_target.text() == (
            f"The key is checked at {rig.prod_url}, the address IT set for Production."
        )

    arun(scenario())
