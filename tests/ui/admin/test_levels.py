"""Levels in manager mode over the in-process simulator: list (lowest first, sorted),
create, edit (total replacement), delete (confirmed, offers gone, clients relocated
later), the multiplier checked before sending and by the API, the duplicate
``minPoints`` 409 on its field, colours with a swatch."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.core.admin.forms import Problem
from kiosk.core.admin.levels import NAME_MAX, LevelField
from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.admin.form import problem_text
from kiosk.ui.admin.levels import LevelsSection
from tests.qt_async import until
from tests.ui.admin.admin_layout_support import in_manager_window
from tests.ui.admin.admin_support import Rig, params, table, themed_rig
from tests.ui.translated import translated
from tests.ui.wheel_support import turn_wheel

LEVELS = r"^/external/levels"


@pytest.fixture
def rig(
    qapp: QApplication, qtbot: QtBot, session: CounterSession, sim_world: World
) -> Iterator[Rig]:
    yield from themed_rig(qapp, qtbot, session, sim_world)


def names(section: LevelsSection) -> list[str]:
    return section.list.texts(0)


def open_level(rig: Rig, section: LevelsSection, name: str) -> None:
    section.list.activated.emit(names(section).index(name))
    assert section.pages.currentWidget() is section.form


def test_list_lowest_first_and_sorted_by_name(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(LevelsSection)

    async def scenario() -> None:
        await rig.loaded()
        assert names(section) == ["Bronce", "Plata", "Oro"]
        assert section.list.texts(1) == ["0", "5.000", "15.000"]
        assert section.list.texts(2) == ["×1", "×1,25", "×1,5"]
        rig.shot("levels_list")
        rig.unfold_options()
        rig.tap(section.list.sort_chips.button_for("name"))
        await rig.loaded(2)
        assert names(section) == ["Bronce", "Oro", "Plata"]

    arun(scenario())
    last = params(rig.requests("GET", LEVELS)[-1])
    assert (last["order"], last["direction"]) == ("name", "asc")


def fill_new(rig: Rig, section: LevelsSection, name: str, points: str, multiplier: str) -> None:
    rig.tap(section.list.new_button)
    rig.type_into(section.name_edit, name)
    rig.type_into(section.min_points_edit, points)
    rig.type_into(section.multiplier_edit, multiplier)


def test_create_a_level_and_clients_move_later(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(LevelsSection)
    clients = table(rig.world, "clients")

    async def scenario() -> None:
        await rig.loaded()
        fill_new(rig, section, "Diamante", "20.000", "1,75")
        rig.type_into(section.color_edit(LevelField.PRIMARY), "B9F2FF")
        assert "#b9f2ff" in section.colors[LevelField.PRIMARY].swatch.styleSheet()
        rig.type_into(section.description_edit, "Los mejores clientes")
        rig.shot("levels_new")
        rig.tap(section.form.save_button)
        await until(lambda: section.banner.kind == "success")
        assert "a few seconds" in section.banner.text()
        await rig.loaded(2)
        assert names(section)[-1] == "Diamante"

    arun(scenario())
    level = next(v for v in table(rig.world, "levels").values() if v["name"] == "Diamante")
    assert (level["minPoints"], level["pointsMultiplier"]) == (20000, 1.75)
    assert level["colors"]["primary"] == "#b9f2ff"
    assert level["description"] == "Los mejores clientes"
    # Relocation is asynchronous: it happens when the deferred job runs.
    top = [c for c in clients.values() if c["total_score"] >= 20000]
    assert top
    assert all((c.get("level") or {}).get("name") == "Oro" for c in top)
    rig.control.run_jobs()
    assert all((c.get("level") or {}).get("id") == level["id"] for c in top)


def test_multiplier_below_one_refused_before_sending(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(LevelsSection)

    async def scenario() -> None:
        await rig.loaded()
        fill_new(rig, section, "Cobre", "100", "0,5")
        rig.type_into(section.color_edit(LevelField.BORDER), "#12345")  # five digits
        rig.tap(section.form.save_button)
        assert section.form.error_of(LevelField.MULTIPLIER) == problem_text(Problem.BELOW_ONE)
        assert section.form.error_of(LevelField.BORDER) == problem_text(Problem.NOT_A_COLOR)
        assert section.form.error_of(LevelField.NAME) == ""
        assert section.multiplier_edit.hasFocus()
        rig.shot("levels_form_error")

    arun(scenario())
    assert rig.requests("POST", LEVELS) == []


def test_multiplier_refused_by_the_api_lands_on_the_field(
    rig: Rig, arun: Callable[..., Any]
) -> None:
    """Where the kiosk's check and the API's differ (a service that refuses a
    multiplier the kiosk accepts): the API's ``min`` error on ``pointsMultiplier``."""
    section = rig.open(LevelsSection)
    body = {
        "statusCode": 400,
        "message": "Error de validación",
        "errors": [
            {
                "field": "pointsMultiplier",
                "constraints": {"min": "pointsMultiplier must not be less than 1"},
                "value": 1.05,
            }
        ],
        "data": None,
    }
    rig.control.add_fault("status", path=LEVELS, method="POST", status=400, body=body)

    async def scenario() -> None:
        await rig.loaded()
        fill_new(rig, section, "Cobre", "100", "1,05")
        rig.tap(section.form.save_button)
        await until(lambda: section.banner.kind == "error")
        assert section.form.error_of(LevelField.MULTIPLIER) == problem_text(Problem.BELOW_ONE)

    arun(scenario())
    assert len(rig.requests("POST", LEVELS)) == 1
    assert not any(v["name"] == "Cobre" for v in table(rig.world, "levels").values())


def test_duplicate_min_points_shown_on_the_field(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(LevelsSection)

    async def scenario() -> None:
        await rig.loaded()
        fill_new(rig, section, "Plata bis", "5000", "1,3")
        rig.tap(section.form.save_button)
        await until(lambda: section.banner.kind == "error")
        assert "already starts at these points" in section.form.error_of(LevelField.MIN_POINTS)
        assert section.banner.text() == "Another level already starts at those points."
        assert section.min_points_edit.hasFocus()
        rig.shot("levels_form_duplicate")

    arun(scenario())
    assert len(table(rig.world, "levels")) == 3


def test_edit_replaces_the_whole_level(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(LevelsSection)
    plata = next(v for v in table(rig.world, "levels").values() if v["name"] == "Plata")

    async def scenario() -> None:
        await rig.loaded()
        open_level(rig, section, "Plata")
        assert section.replace_note.isVisible()
        assert section.multiplier_edit.text() == "1,25"
        assert section.min_points_edit.text() == "5000"
        rig.type_into(section.multiplier_edit, "1,3")
        section.description_edit.clear()
        rig.tap(section.form.save_button)
        await until(lambda: section.banner.kind == "success")

    arun(scenario())
    saved = table(rig.world, "levels")[plata["id"]]
    assert saved["pointsMultiplier"] == 1.3
    assert saved["minPoints"] == 5000
    assert saved["description"] == ""  # total replacement: the empty field is sent
    assert saved["colors"] == plata["colors"]


def test_delete_a_level_confirmed(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(LevelsSection)
    oro = next(v for v in table(rig.world, "levels").values() if v["name"] == "Oro")
    products = table(rig.world, "products")

    async def scenario() -> None:
        await rig.loaded()
        open_level(rig, section, "Oro")
        rig.tap(section.form.danger_button)
        assert section.sheet.asking == "delete"
        assert "a few seconds" in section.sheet.message.text()
        assert not section.pages.isEnabled()  # the form waits for the answer
        rig.shot("levels_delete_confirm")
        await rig.confirm()
        await until(lambda: section.banner.kind == "success")
        await rig.loaded(2)
        assert names(section) == ["Bronce", "Plata"]
        assert section.pages.isEnabled()

    arun(scenario())
    assert oro["id"] not in table(rig.world, "levels")
    assert not any(o["levelId"] == oro["id"] for p in products.values() for o in p["offers"])


@pytest.mark.parametrize("lang", ["en", "es"])
def test_too_long_says_the_limit(
    rig: Rig, arun: Callable[..., Any], lang: str, qapp: QApplication
) -> None:
    """Issue #21 (minor): "Too long" says how long it may be."""
    section = rig.open(LevelsSection)

    async def scenario() -> None:
        await rig.loaded()
        fill_new(rig, section, "Platino " + "x" * NAME_MAX, "90000", "2")
        rig.tap(section.form.save_button)
        error = section.form.error_of(LevelField.NAME)
        if lang == "en":
            assert error == f"Too long: at most {NAME_MAX} characters."
        else:
            assert error == f"Es demasiado largo: como máximo {NAME_MAX} caracteres."
        rig.shot(f"levels_too_long_{lang}")

    with translated(qapp, lang):
        arun(scenario())
    assert rig.requests("POST", LEVELS) == []


@pytest.mark.parametrize("size", [(1280, 800), (1024, 768)], ids=lambda s: f"{s[0]}")
def test_a_level_form_opens_at_its_top(
    rig: Rig, arun: Callable[..., Any], tmp_path: Path, size: tuple[int, int]
) -> None:
    """Issue #21 (minor): the form is used again for each level; scrolled down on one
    level, it opens the next one (or a new one) at its first field."""
    section = LevelsSection(rig.session)
    rig.section = section

    async def scenario() -> None:
        await in_manager_window(rig.qtbot, rig.session, section, tmp_path, size)
        await rig.loaded()
        open_level(rig, section, "Plata")
        bar = section.form.scroller.verticalScrollBar()
        await until(lambda: bar.maximum() > 0)
        rig.shot(f"levels_form_top_{size[0]}")
        turn_wheel(section.form.scroller.viewport(), -5)  # down to the colours
        assert bar.value() > 0
        rig.tap(section.form.back_button)
        open_level(rig, section, "Oro")
        assert bar.value() == 0
        turn_wheel(section.form.scroller.viewport(), -5)  # down to the colours
        assert bar.value() > 0
        rig.tap(section.form.back_button)
        rig.tap(section.list.new_button)
        assert bar.value() == 0

    arun(scenario())


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_fixed_field_loses_its_error_and_the_banner_goes(
    rig: Rig, arun: Callable[..., Any], lang: str, qapp: QApplication
) -> None:
    """Issue #21 (minor): the service refused a level's points (banner and field);
    typing other points clears the field's error, and the banner with it; a problem
    found before sending goes too when its field is edited."""
    section = rig.open(LevelsSection)

    async def scenario() -> None:
        await rig.loaded()
        fill_new(rig, section, "Plata bis", "5000", "0,5")
        rig.tap(section.form.save_button)
        assert section.form.error_of(LevelField.MULTIPLIER) != ""  # before sending
        rig.type_into(section.multiplier_edit, "1,3")
        assert section.form.error_of(LevelField.MULTIPLIER) == ""
        rig.tap(section.form.save_button)
        await until(lambda: section.banner.kind == "error")
        assert section.form.error_of(LevelField.MIN_POINTS) != ""
        section.name_edit.setFocus()
        rig.type_into(section.name_edit, "Plata dos")  # another field: the cause stays
        assert section.banner.kind == "error"
        assert section.form.error_of(LevelField.MIN_POINTS) != ""
        rig.type_into(section.min_points_edit, "7000")
        assert section.form.error_of(LevelField.MIN_POINTS) == ""
        assert section.banner.isHidden()
        rig.shot(f"levels_form_fixed_{lang}")
        rig.tap(section.form.save_button)
        await until(lambda: section.banner.kind == "success")

    with translated(qapp, lang):
        arun(scenario())


def test_a_failed_load_banner_goes_when_the_list_loads(
    rig: Rig, arun: Callable[..., Any], expect_log: Callable[[str], None]
) -> None:
    """Issue #21 (minor): "No connection" (or a refusal) of a list load stays only until
    the list loads again."""
    expect_log(r"admin-levels: forbidden")
    rig.control.add_fault("status", path=LEVELS, method="GET", status=403)
    section = rig.open(LevelsSection)

    async def scenario() -> None:
        await until(lambda: section.banner.kind == "error" and section.list.failed)
        await rig.idle("list")
        rig.control.clear_faults()
        rig.tap(section.list.retry_button)
        await rig.loaded()
        await until(lambda: section.list.table.rowCount() > 0)
        assert section.banner.isHidden()

    arun(scenario())
