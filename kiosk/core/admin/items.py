"""Point items: the form (name, and points OR an amount), its checks, the API body.

An update is a total replacement with the same rules as a create: the form always
sends the whole item. Items limited to one branch (made in the merchant panel)
keep their branch when edited.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from kiosk.api.errors import ApiError
from kiosk.api.models.catalog import PointItem, PointItemDraft
from kiosk.core.admin.forms import (
    Problem,
    Problems,
    Refusal,
    clean_text,
    explain,
    table_resolver,
    whole_problem,
)
from kiosk.core.amounts import AmountError, AmountLocale, AmountProblem, format_amount, parse_amount

NAME_MAX = 120  # the simulator's limit (G1); the contract shows none


class ItemField(StrEnum):
    NAME = "name"
    VALUE = "value"


# The most characters of each field with a limit (said in the field's "Too long").
LIMITS = {str(ItemField.NAME): NAME_MAX}


class ItemKind(StrEnum):
    POINTS = "points"  # fixed points whatever the price
    AMOUNT = "amount"  # converted by the merchant's rule, like a purchase of that amount


@dataclass(frozen=True)
class PointItemForm:
    name: str = ""
    kind: ItemKind = ItemKind.POINTS
    value: str = ""  # points (whole number) or amount (in the store's locale)


resolve = table_resolver(
    {"name": ItemField.NAME.value, "points": ItemField.VALUE.value, "amount": ItemField.VALUE.value}
)

_AMOUNT_PROBLEMS = {
    AmountProblem.EMPTY: Problem.REQUIRED,
    AmountProblem.NOT_POSITIVE: Problem.NOT_POSITIVE,
    AmountProblem.TOO_LARGE: Problem.TOO_LARGE,
}


def item_form(item: PointItem, locale: AmountLocale) -> PointItemForm:
    if item.points is not None:
        return PointItemForm(item.name or "", ItemKind.POINTS, str(item.points))
    amount = "" if item.amount is None else format_amount(Decimal(str(item.amount)), locale)
    return PointItemForm(item.name or "", ItemKind.AMOUNT, amount.lstrip("$ ").strip())


def _value(
    form: PointItemForm, locale: AmountLocale
) -> tuple[int | Decimal | None, Problem | None]:
    text = form.value.strip()
    if form.kind is ItemKind.POINTS:
        return whole_problem(text, minimum=1, required=True)
    try:
        return parse_amount(text, locale), None
    except AmountError as error:
        return None, _AMOUNT_PROBLEMS.get(error.problem, Problem.NOT_A_NUMBER)


def validate_item(form: PointItemForm, locale: AmountLocale) -> Problems:
    problems: Problems = {}
    name = clean_text(form.name)
    if not name:
        problems[ItemField.NAME] = Problem.REQUIRED
    elif len(name) > NAME_MAX:
        problems[ItemField.NAME] = Problem.TOO_LONG
    _, problem = _value(form, locale)
    if problem is not None:
        problems[ItemField.VALUE] = problem
    return problems


def item_draft(form: PointItemForm, locale: AmountLocale) -> PointItemDraft:
    """The body of a validated form (``ValueError`` when it is not valid)."""
    if validate_item(form, locale):
        raise ValueError("the form has problems")
    value, _ = _value(form, locale)
    name = clean_text(form.name)
    if form.kind is ItemKind.POINTS:
        assert isinstance(value, int)
        return PointItemDraft(name=name, points=value)
    assert isinstance(value, Decimal)
    return PointItemDraft(name=name, amount=float(value))


def explain_item(error: ApiError) -> Refusal | None:
    return explain(error, resolve)
