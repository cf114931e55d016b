"""Program administration without Qt: reading typed numbers, the API's field errors
mapped onto form fields (nested names included), refusals of one field, and the
paging state of a list."""

from __future__ import annotations

from decimal import Decimal

import pytest

from kiosk.api.errors import ApiError, ErrorKind, FieldError, Reason
from kiosk.api.models.common import Direction, PageMeta
from kiosk.core.admin.forms import (
    GENERAL,
    Problem,
    explain,
    map_field_errors,
    parse_decimal,
    parse_id_list,
    parse_whole,
    table_resolver,
    whole_problem,
)
from kiosk.core.admin.paging import ListState, PageWindow


@pytest.mark.parametrize(
    ("text", "value"),
    [("5000", 5000), ("5.000", 5000), ("5,000", 5000), (" 1.234.567 ", 1234567), ("", None)],
)
def test_whole_numbers_as_typed(text: str, value: int | None) -> None:
    assert parse_whole(text) == value


@pytest.mark.parametrize("text", ["1.5", "1,23", "-3", "doce", "5.00", "1.2345", "²"])
def test_not_whole_numbers(text: str) -> None:
    with pytest.raises(ValueError, match="whole"):
        parse_whole(text)


def test_decimals_with_either_separator() -> None:
    assert parse_decimal("1,25") == Decimal("1.25")
    assert parse_decimal("1.5") == Decimal("1.5")
    assert parse_decimal(" ") is None
    for bad in ("1,2,3", "1.2.3", ",", "uno", "1e3"):
        with pytest.raises(ValueError, match="number"):
            parse_decimal(bad)


def test_whole_problem_by_minimum() -> None:
    assert whole_problem("0", minimum=1, required=True) == (None, Problem.NOT_POSITIVE)
    assert whole_problem("0", minimum=0, required=True) == (0, None)
    assert whole_problem("", minimum=0, required=True) == (None, Problem.REQUIRED)
    assert whole_problem("", minimum=1, required=False) == (None, None)
    assert whole_problem("x", minimum=1, required=False) == (None, Problem.NOT_AN_INTEGER)
    assert whole_problem("9" * 12, minimum=1, required=False) == (None, Problem.TOO_LARGE)


def test_id_lists() -> None:
    assert parse_id_list("1, 5 ,9,5") == (1, 5, 9)
    assert parse_id_list("") == ()
    assert parse_id_list("3;4 7") == (3, 4, 7)
    for bad in ("a,b", "0", "1,-2", "1.5"):
        with pytest.raises(ValueError, match="ids"):
            parse_id_list(bad)


def test_field_errors_mapped_with_nested_names_and_unknown_fields() -> None:
    resolve = table_resolver({"name": "name", "branches.permissionGroupId": "group"})
    errors = (
        FieldError("name", {"maxLength": "too long"}),
        FieldError("branches.1.permissionGroupId", {"min": "must not be less than 1"}),
        FieldError("branchId", {"isEmpty": "must be empty"}),
        FieldError("name", {"isNotEmpty": "second error on the same field"}),
    )
    refusal = map_field_errors(errors, resolve, min_problems={"group": Problem.NOT_POSITIVE})
    assert refusal.problems == {
        "name": Problem.TOO_LONG,  # the first one wins
        "group": Problem.NOT_POSITIVE,  # the better word for ``min``
        GENERAL: Problem.INVALID,
    }
    assert refusal.unknown == ("branchId",)


def test_explain_only_what_concerns_the_form() -> None:
    resolve = table_resolver({"minPoints": "min_points"})
    reasons = {Reason.MIN_POINTS_TAKEN: ("min_points", Problem.TAKEN)}
    taken = ApiError(ErrorKind.CONFLICT, status=409, reason=Reason.MIN_POINTS_TAKEN)
    refusal = explain(taken, resolve, reasons=reasons)
    assert refusal is not None
    assert refusal.problems == {"min_points": Problem.TAKEN}
    for error in (
        ApiError(ErrorKind.CONFLICT, status=409),  # a conflict the form cannot fix by field
        ApiError(ErrorKind.NETWORK),
        ApiError(ErrorKind.SERVER, status=500),
    ):
        assert explain(error, resolve, reasons=reasons) is None


def test_list_state_changes_go_back_to_the_first_page() -> None:
    state = ListState(limit=5).at_page(3)
    assert state.searching("  caf  con ").query == "caf con"
    assert state.searching("x").page == 1
    by_name = state.sorted_by("name")
    assert (by_name.order, by_name.direction, by_name.page) == ("name", Direction.ASC, 1)
    assert by_name.sorted_by("name").direction is Direction.DESC  # same column: flipped
    assert by_name.sorted_by("name").sorted_by("points").direction is Direction.ASC
    assert ListState().sent_direction is None  # direction only goes with an order
    filtered = state.filtered("levelId", 3)
    assert (filtered.filter("levelId"), filtered.page, filtered.narrowed) == (3, 1, True)
    assert filtered.filtered("levelId", None).filters == ()
    assert filtered.filtered("levelId", 2).filter_map == {"levelId": 2}
    with pytest.raises(ValueError, match="limit"):
        ListState(limit=201)


def test_page_window() -> None:
    meta = PageMeta(total_pages=4, current_page=2, total_items=36, item_count=10, items_per_page=10)
    window = PageWindow.of(meta, 10, 10)
    assert (window.first, window.last, window.total) == (11, 20, 36)
    assert window.has_previous
    assert window.has_next
    last = PageWindow.of(PageMeta(total_pages=4, current_page=4, total_items=36), 6, 10)
    assert (last.first, last.last, last.has_next) == (31, 36, False)
    empty = PageWindow.of(PageMeta(total_pages=0, current_page=1, total_items=0), 0, 10)
    assert (empty.first, empty.last, empty.total, empty.past_the_end) == (0, 0, 0, False)
    gone = PageWindow.of(PageMeta(total_pages=3, current_page=4, total_items=30), 0, 10)
    assert gone.past_the_end
