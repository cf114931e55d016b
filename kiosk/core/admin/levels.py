"""Levels: the form, its checks, the API body, and the refusals shown on fields.

A level update is a total replacement: the form sends the whole level. Creating,
changing or deleting a level makes the API relocate clients and re-synchronise the
rewards' offers asynchronously: for a few seconds lists may show the old levels.
A ``minPoints`` already used by another level is a 409, shown on that field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from kiosk.api.errors import ApiError, Reason
from kiosk.api.models.catalog import Level, LevelColors, LevelDraft
from kiosk.core.admin.forms import (
    Problem,
    Problems,
    Refusal,
    clean_text,
    explain,
    parse_decimal,
    table_resolver,
    whole_problem,
)

NAME_MAX = 60  # the simulator's limits (K9); the contract shows none
DESCRIPTION_MAX = 500
MULTIPLIER_MAX = Decimal(100)
HEX_COLOR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")

# A new level starts with the kiosk's accent colours (the manager changes them).
DEFAULT_COLORS = ("#1d4ed8", "#dbeafe", "#1e3a8a")


class LevelField(StrEnum):
    NAME = "name"
    MIN_POINTS = "min_points"
    MULTIPLIER = "multiplier"
    PRIMARY = "primary"
    SECONDARY = "secondary"
    BORDER = "border"
    DESCRIPTION = "description"


COLOR_FIELDS = (LevelField.PRIMARY, LevelField.SECONDARY, LevelField.BORDER)
# The most characters of each field with a limit (said in the field's "Too long").
LIMITS = {str(LevelField.NAME): NAME_MAX, str(LevelField.DESCRIPTION): DESCRIPTION_MAX}


@dataclass(frozen=True)
class LevelForm:
    name: str = ""
    min_points: str = ""
    multiplier: str = "1"
    primary: str = DEFAULT_COLORS[0]
    secondary: str = DEFAULT_COLORS[1]
    border: str = DEFAULT_COLORS[2]
    description: str = ""

    def color(self, which: LevelField) -> str:
        return {
            LevelField.PRIMARY: self.primary,
            LevelField.SECONDARY: self.secondary,
            LevelField.BORDER: self.border,
        }[which]


resolve = table_resolver(
    {
        "name": LevelField.NAME.value,
        "minPoints": LevelField.MIN_POINTS.value,
        "pointsMultiplier": LevelField.MULTIPLIER.value,
        "colors.primary": LevelField.PRIMARY.value,
        "colors.secondary": LevelField.SECONDARY.value,
        "colors.border": LevelField.BORDER.value,
        "colors": LevelField.PRIMARY.value,
        "description": LevelField.DESCRIPTION.value,
    }
)
MIN_PROBLEMS = {
    LevelField.MULTIPLIER.value: Problem.BELOW_ONE,
    LevelField.MIN_POINTS.value: Problem.NEGATIVE,
}
REASONS = {Reason.MIN_POINTS_TAKEN: (LevelField.MIN_POINTS.value, Problem.TAKEN)}


def multiplier_text(value: float | None) -> str:
    if value is None:
        return "1"
    text = f"{Decimal(str(value)).normalize():f}"
    return text


def level_form(level: Level) -> LevelForm:
    colors = level.colors or LevelColors()
    return LevelForm(
        name=level.name or "",
        min_points=str(level.min_points),
        multiplier=multiplier_text(level.points_multiplier),
        primary=colors.primary or DEFAULT_COLORS[0],
        secondary=colors.secondary or DEFAULT_COLORS[1],
        border=colors.border or DEFAULT_COLORS[2],
        description=level.description or "",
    )


def normalize_color(text: str) -> str | None:
    """``#abc``/``#aabbcc`` (``#`` optional when typed), lower case; None if not a colour."""
    clean = text.strip()
    if clean and not clean.startswith("#"):
        clean = "#" + clean
    return clean.lower() if HEX_COLOR.fullmatch(clean) else None


def _multiplier(text: str) -> tuple[Decimal | None, Problem | None]:
    try:
        value = parse_decimal(text)
    except ValueError:
        return None, Problem.NOT_A_NUMBER
    if value is None:
        return None, Problem.REQUIRED
    if value < 1:
        return None, Problem.BELOW_ONE
    if value > MULTIPLIER_MAX:
        return None, Problem.TOO_LARGE
    return value, None


def validate_level(form: LevelForm) -> Problems:
    problems: Problems = {}
    name = clean_text(form.name)
    if not name:
        problems[LevelField.NAME] = Problem.REQUIRED
    elif len(name) > NAME_MAX:
        problems[LevelField.NAME] = Problem.TOO_LONG
    _, problem = whole_problem(form.min_points, minimum=0, required=True)
    if problem is not None:
        problems[LevelField.MIN_POINTS] = problem
    _, problem = _multiplier(form.multiplier)
    if problem is not None:
        problems[LevelField.MULTIPLIER] = problem
    for which in COLOR_FIELDS:
        text = form.color(which)
        if not text.strip():
            problems[which] = Problem.REQUIRED
        elif normalize_color(text) is None:
            problems[which] = Problem.NOT_A_COLOR
    if len(form.description.strip()) > DESCRIPTION_MAX:
        problems[LevelField.DESCRIPTION] = Problem.TOO_LONG
    return problems


def level_draft(form: LevelForm) -> LevelDraft:
    """The whole level of a validated form (``ValueError`` when it is not valid)."""
    if validate_level(form):
        raise ValueError("the form has problems")
    min_points, _ = whole_problem(form.min_points, minimum=0, required=True)
    multiplier, _ = _multiplier(form.multiplier)
    assert min_points is not None
    assert multiplier is not None
    return LevelDraft(
        name=clean_text(form.name),
        min_points=min_points,
        points_multiplier=float(multiplier),
        colors=LevelColors(
            primary=normalize_color(form.primary),
            secondary=normalize_color(form.secondary),
            border=normalize_color(form.border),
        ),
        description=form.description.strip(),
    )


def explain_level(error: ApiError) -> Refusal | None:
    return explain(error, resolve, reasons=REASONS, min_problems=MIN_PROBLEMS)
