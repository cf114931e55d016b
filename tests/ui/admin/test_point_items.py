"""Point items in manager mode over the in-process simulator: the list (paging, search,
sort), create with points or an amount, edit (total replacement), delete confirmed,
and the form's and the API's errors next to the fields."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.core.admin.forms import Problem
from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.admin.form import problem_text
from kiosk.ui.admin.point_items import PointItemsSection
from tests.qt_async import until
from tests.ui.admin.admin_support import Rig, params, table, themed_rig

ITEMS = r"^/external/point-items"


@pytest.fixture
def rig(
    qapp: QApplication, qtbot: QtBot, session: CounterSession, sim_world: World
) -> Iterator[Rig]:
    yield from themed_rig(qapp, qtbot, session, sim_world)


def names(section: PointItemsSection) -> list[str]:
    return section.list.texts(0)


def test_list_pages_and_sorts(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(PointItemsSection)
    section.list.state = section.list.state.at_page(1)

    async def scenario() -> None:
        await rig.loaded()
        # Merchant-wide items plus the one limited to this branch (7 in all).
        seeded = [
            i
            for i in table(rig.world, "point_items").values()
            if i["branchId"] in (None, rig.session.config.branch.id)
        ]
        assert section.list.page_window is not None
        assert section.list.page_window.total == len(seeded)
        rig.shot("point_items_list")
        # A small page: the next page shows the next items.
        section.list.state = section.list.state.__class__(limit=3)
        section.list.reload()
        await rig.loaded(2)
        first = names(section)
        assert len(first) == 3
        assert section.list.range_label.text() == f"1–3 of {len(seeded)}"
        rig.tap(section.list.next_button)
        await rig.loaded(3)
        second = names(section)
        assert section.list.range_label.text() == f"4–6 of {len(seeded)}"
        expected = sorted((i["name"] for i in seeded), key=str.casefold)
        assert first + second == expected[:6]
        assert section.list.previous_button.isEnabled()
        # Sort by points, then tap the header again: descending.
        rig.unfold_options()
        rig.tap(section.list.sort_chips.button_for("points"))
        await rig.loaded(4)
        assert section.list.state.page == 1
        by_points = sorted((i for i in seeded if i["points"]), key=lambda i: i["points"])
        assert names(section)[: len(by_points[:3])] == [i["name"] for i in by_points[:3]]
        rig.tap(section.list.direction_button)
        await rig.loaded(5)
        assert section.list.direction_button.text().endswith("Descending")
        # A tap on the Name header sorts by name; a second tap reverses it.
        header = section.list.table.horizontalHeader()
        header.sectionClicked.emit(0)
        await rig.loaded(6)
        assert names(section) == expected[:3]
        header.sectionClicked.emit(0)
        await rig.loaded(7)
        assert names(section) == expected[::-1][:3]
        assert section.list.sort_chips.value() == "name"

    arun(scenario())
    sent = rig.requests("GET", ITEMS)
    last = [params(entry) for entry in sent[-3:]]
    assert (last[0]["order"], last[0]["direction"]) == ("points", "desc")
    assert (last[2]["order"], last[2]["direction"]) == ("name", "desc")


def test_create_with_points_and_with_an_amount(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(PointItemsSection)

    async def scenario() -> None:
        await rig.loaded()
        rig.tap(section.list.new_button)
        assert section.pages.currentWidget() is section.form
        assert section.form.danger_button.isHidden()  # nothing to delete yet
        rig.type_into(section.name_edit, "Torta del día")
        rig.type_into(section.value_edit, "75")
        rig.shot("point_items_new")
        rig.tap(section.form.save_button)
        await until(lambda: section.banner.kind == "success")
        assert section.pages.currentWidget() is section.list
        await rig.loaded(2)
        # An amount item, typed in the store's locale.
        rig.tap(section.list.new_button)
        assert section.name_edit.text() == ""  # a fresh form
        rig.type_into(section.name_edit, "Menú ejecutivo")
        rig.tap(section.amount_button)
        rig.type_into(section.value_edit, "4.250,50")
        rig.tap(section.form.save_button)
        await until(lambda: section.banner.kind == "success")
        await rig.loaded(3)
        assert "Menú ejecutivo" in names(section)

    arun(scenario())
    rows = {i["name"]: i for i in table(rig.world, "point_items").values()}
    assert (rows["Torta del día"]["points"], rows["Torta del día"]["amount"]) == (75, None)
    assert rows["Torta del día"]["branchId"] is None
    assert (rows["Menú ejecutivo"]["points"], rows["Menú ejecutivo"]["amount"]) == (None, 4250.5)


def test_local_checks_before_sending(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(PointItemsSection)

    async def scenario() -> None:
        await rig.loaded()
        rig.tap(section.list.new_button)
        rig.type_into(section.value_edit, "0")
        rig.tap(section.form.save_button)
        assert section.form.error_of("name") == problem_text(Problem.REQUIRED)
        assert section.form.error_of("value") == problem_text(Problem.NOT_POSITIVE)
        rig.tap(section.amount_button)
        rig.type_into(section.name_edit, "Algo")
        rig.type_into(section.value_edit, "doce")
        rig.tap(section.form.save_button)
        assert section.form.error_of("name") == ""
        assert section.form.error_of("value") == problem_text(Problem.NOT_A_NUMBER)
        rig.shot("point_items_form_error")

    arun(scenario())
    assert rig.requests("POST", ITEMS) == []  # nothing was sent


def validation_body(field: str, rule: str, text: str) -> dict[str, Any]:
    return {
        "statusCode": 400,
        "timestamp": "2026-01-01T00:00:00.000Z",
        "path": "/external/point-items",
        "method": "POST",
        "message": "Error de validación",
        "errors": [{"field": field, "constraints": {rule: text}, "value": None}],
        "data": None,
    }


def test_api_field_error_shown_next_to_the_field(rig: Rig, arun: Callable[..., Any]) -> None:
    """A rule the kiosk does not check (a maximum amount of the real service): the
    API's validation error lands on the field, nothing is created."""
    section = rig.open(PointItemsSection)
    before = len(table(rig.world, "point_items"))
    body = validation_body("amount", "max", "amount must not be greater than 100000")
    rig.control.add_fault("status", path=ITEMS, method="POST", status=400, body=body)

    async def scenario() -> None:
        await rig.loaded()
        rig.tap(section.list.new_button)
        rig.type_into(section.name_edit, "Heladera")
        rig.tap(section.amount_button)
        rig.type_into(section.value_edit, "250000")
        rig.tap(section.form.save_button)
        await until(lambda: section.banner.kind == "error")
        assert section.form.error_of("value") == problem_text(Problem.TOO_LARGE)
        assert section.form.error_of("name") == ""
        assert section.pages.currentWidget() is section.form  # still there to fix it
        assert "marked fields" in section.banner.text()
        rig.shot("point_items_form_api_error")
        # A field the form does not show: said above the fields.
        unknown = validation_body("branchId", "isEmpty", "branchId must be empty")
        rig.control.add_fault("status", path=ITEMS, method="POST", status=400, body=unknown)
        rig.tap(section.form.save_button)
        await until(lambda: section.form.general.isVisible())
        assert "branchId" in section.form.general.text()
        assert section.form.error_of("value") == ""

    arun(scenario())
    assert len(table(rig.world, "point_items")) == before


def test_edit_replaces_the_whole_item_and_keeps_its_branch(
    rig: Rig, arun: Callable[..., Any]
) -> None:
    section = rig.open(PointItemsSection)
    promo = next(i for i in table(rig.world, "point_items").values() if i["branchId"])

    async def scenario() -> None:
        await rig.loaded()
        row = names(section).index(promo["name"])
        section.list.activated.emit(row)
        assert section.pages.currentWidget() is section.form
        assert section.replace_note.isVisible()
        assert section.value_edit.text() == "30"
        rig.tap(section.amount_button)  # from points to an amount: the points go
        rig.type_into(section.value_edit, "900")
        rig.tap(section.form.save_button)
        await until(lambda: section.banner.kind == "success")

    arun(scenario())
    saved = table(rig.world, "point_items")[promo["id"]]
    assert (saved["points"], saved["amount"]) == (None, 900)
    assert saved["branchId"] == promo["branchId"]
    put = rig.requests("PUT", ITEMS)
    assert len(put) == 1


def test_delete_asks_first(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(PointItemsSection)
    cafe = next(i for i in table(rig.world, "point_items").values() if i["name"] == "Café")

    async def scenario() -> None:
        await rig.loaded()
        section.list.activated.emit(names(section).index("Café"))
        rig.tap(section.form.danger_button)
        assert section.sheet.asking == "delete"
        assert "Café" in section.sheet.heading.text()
        rig.shot("point_items_delete_confirm")
        rig.tap(section.sheet.back)  # changed their mind: nothing sent
        assert section.sheet.isHidden()
        assert rig.requests("DELETE", ITEMS) == []
        rig.tap(section.form.danger_button)
        await rig.confirm()
        await until(lambda: section.banner.kind == "success")
        await rig.loaded(2)
        assert "Café" not in names(section)
        assert section.pages.currentWidget() is section.list

    arun(scenario())
    assert cafe["id"] not in table(rig.world, "point_items")
    assert len(rig.requests("DELETE", ITEMS)) == 1


def test_search_latest_wins(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(PointItemsSection)

    async def scenario() -> None:
        await rig.loaded()
        # The first search answers late; the second one, typed meanwhile, wins.
        rig.control.add_fault("latency", path=ITEMS, method="GET", seconds=0.5)
        search = section.list.search
        rig.type_into(search, "caf")
        rig.qtbot.keyClick(search, Qt.Key.Key_Return)  # at once, without the typing pause
        await until(lambda: params(rig.requests("GET", ITEMS)[-1]).get("query") == "caf")
        rig.type_into(search, "combo")  # sent after a short typing pause
        await rig.loaded(2)
        assert names(section) == ["Combo almuerzo"]
        # The late answer of "caf" never replaces it.
        await until(lambda: len(rig.requests("GET", ITEMS)) >= 3)
        await rig.idle("list")
        assert names(section) == ["Combo almuerzo"]
        assert section.list.loads == 2
        search.setText("zzz")
        section.list.apply_search()
        await rig.loaded(3)
        assert section.list.stack.currentWidget() is section.list.empty
        assert "Clear the search" in section.list.empty.text()

    arun(scenario())
    queries = [params(e).get("query") for e in rig.requests("GET", ITEMS)]
    assert queries[-3:] == ["caf", "combo", "zzz"]


def test_a_failed_load_offers_to_try_again(
    rig: Rig, arun: Callable[..., Any], expect_log: Callable[[str], None]
) -> None:
    expect_log(r"admin-point-items: forbidden")
    rig.control.add_fault("status", path=ITEMS, method="GET", status=403, count=None)
    section = rig.open(PointItemsSection)

    async def scenario() -> None:
        await until(lambda: section.list.failed and section.banner.kind == "error")
        assert section.list.stack.currentWidget() is section.list.error_panel
        rig.shot("point_items_list_error")
        rig.control.clear_faults()
        rig.tap(section.list.retry_button)
        await rig.loaded()
        assert section.list.stack.currentWidget() is section.list.table

    arun(scenario())


def test_a_lost_answer_shows_the_list_again(
    rig: Rig, arun: Callable[..., Any], expect_log: Callable[[str], None]
) -> None:
    """The create was applied but its answer lost: the banner says to check, and the
    list, read again, shows whether it happened (it did) before anyone retries."""
    expect_log(r"admin-point-items: ambiguous")
    expect_log(r"POST /external/point-items")
    section = rig.open(PointItemsSection)
    rig.control.add_fault("drop", path=ITEMS, method="POST")

    async def scenario() -> None:
        await rig.loaded()
        rig.tap(section.list.new_button)
        rig.type_into(section.name_edit, "Perdido")
        rig.type_into(section.value_edit, "5")
        rig.tap(section.form.save_button)
        await until(lambda: section.banner.kind == "error")
        assert "not certain" in section.banner.text()
        await until(lambda: "Perdido" in names(section))

    arun(scenario())
    assert sum(i["name"] == "Perdido" for i in table(rig.world, "point_items").values()) == 1
