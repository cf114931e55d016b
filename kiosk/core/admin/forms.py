"""What every program-administration form shares: problems by field, and the API's
refusals turned into problems of the form's fields.

A form is plain text as typed (no Qt here). Each resource module
(``admin_items``, ``admin_levels``, ``admin_rewards``, ``admin_operators``,
``admin_clients``) validates its form before anything is sent and builds the API
body; when the API refuses anyway, ``explain`` maps its per-field validation errors
(``offers.0.points``, ``colors.primary``...) and the refusals that concern one field
(a taken ``minPoints``, the stock of a custom-coupon product...) onto the form's
fields. Whatever does not concern a field goes to the screen's banner.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from enum import StrEnum

from kiosk.api.errors import ApiError, ErrorKind, FieldError, Reason

# Form field keys are plain strings chosen by each resource ("name", "price:3"...).
Problems = dict[str, "Problem"]
# API field name (``offers.0.points``) -> form field key, or None when not shown.
Resolver = Callable[[str], str | None]

GENERAL = "_general"  # problems that belong to no single field (shown above the fields)


class Problem(StrEnum):
    REQUIRED = "required"
    NOT_A_NUMBER = "not_a_number"
    NOT_AN_INTEGER = "not_an_integer"
    NOT_POSITIVE = "not_positive"  # must be greater than zero
    NEGATIVE = "negative"  # must be zero or more
    BELOW_ONE = "below_one"  # a points multiplier is at least 1
    TOO_LARGE = "too_large"
    TOO_SMALL = "too_small"  # the API's ``min`` rule on a field without a better word
    NOT_A_COLOR = "not_a_color"
    TOO_LONG = "too_long"
    EMAIL_FORMAT = "email_format"
    PASSWORD_SHORT = "password_short"  # noqa: S105 - a problem name
    NOT_A_URL = "not_a_url"
    NO_OFFER = "no_offer"  # a reward needs at least one price
    NOT_A_LIST = "not_a_list"  # comma-separated whole numbers expected
    REPEATED = "repeated"
    TAKEN = "taken"  # already used by another record (409)
    NOT_EDITABLE = "not_editable"
    EMAIL_LOCKED = "email_locked"  # the client already entered the platform
    COUPON_STOCK = "coupon_stock"  # stock comes from the reward's coupons
    UNKNOWN_GROUP = "unknown_group"  # permission group id not found
    CANNOT_CLEAR = "cannot_clear"  # the API keeps the old value: it cannot be emptied here
    DOCUMENT_FORMAT = "document_format"
    PHONE_FORMAT = "phone_format"
    NO_REASON = "no_reason"  # a removal needs at least one reason
    NO_BRANCH = "no_branch"  # an operator needs at least one branch to work in
    INVALID = "invalid"  # any other rule the API names


# Rule names of the API's validation errors (class-validator style) -> problem.
RULE_PROBLEMS: dict[str, Problem] = {
    "isNotEmpty": Problem.REQUIRED,
    "isDefined": Problem.REQUIRED,
    "isString": Problem.INVALID,
    "isInt": Problem.NOT_AN_INTEGER,
    "isNumber": Problem.NOT_A_NUMBER,
    "isPositive": Problem.NOT_POSITIVE,
    "min": Problem.TOO_SMALL,
    "max": Problem.TOO_LARGE,
    "isHexColor": Problem.NOT_A_COLOR,
    "maxLength": Problem.TOO_LONG,
    "minLength": Problem.PASSWORD_SHORT,
    "isEmail": Problem.EMAIL_FORMAT,
    "isUrl": Problem.NOT_A_URL,
    "arrayMinSize": Problem.NO_OFFER,
    "isArray": Problem.NOT_A_LIST,
    "uniqueLevel": Problem.REPEATED,
    "uniqueBranch": Problem.REPEATED,
    "isNotEditable": Problem.NOT_EDITABLE,
    "isPhoneNumber": Problem.PHONE_FORMAT,
    "matches": Problem.DOCUMENT_FORMAT,
}

_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}")
_INDEX = re.compile(r"\.\d+(?=\.|$)")


@dataclass(frozen=True)
class Refusal:
    """The API's refusal of a form, by field. ``unknown``: API fields the form does not
    show (their problems are also under ``GENERAL``)."""

    problems: Problems = field(default_factory=dict)
    unknown: tuple[str, ...] = ()


def map_field_errors(
    errors: Sequence[FieldError],
    resolve: Resolver,
    *,
    min_problems: Mapping[str, Problem] | None = None,
) -> Refusal:
    """The API's per-field validation errors as problems of the form's fields.

    ``min_problems`` gives a better word than ``TOO_SMALL`` for the ``min`` rule of a
    form field (``BELOW_ONE`` for a multiplier, ``NEGATIVE`` for minimum points).
    """
    problems: Problems = {}
    unknown: list[str] = []
    for item in errors:
        target = resolve(item.field)
        problem = next(
            (RULE_PROBLEMS[rule] for rule in item.constraints if rule in RULE_PROBLEMS),
            Problem.INVALID,
        )
        if target is None:
            if item.field not in unknown:
                unknown.append(item.field)
            target = GENERAL
        if problem is Problem.TOO_SMALL and min_problems and target in min_problems:
            problem = min_problems[target]
        problems.setdefault(target, problem)
    return Refusal(problems, tuple(unknown))


def explain(
    error: ApiError,
    resolve: Resolver,
    *,
    reasons: Mapping[Reason, tuple[str, Problem]] | None = None,
    min_problems: Mapping[str, Problem] | None = None,
) -> Refusal | None:
    """The refusal as problems of the form's fields, or ``None`` when ``error`` is not
    about the form's data (network, server, a missing record...: the banner's job)."""
    if error.kind is ErrorKind.VALIDATION:
        return map_field_errors(error.field_errors, resolve, min_problems=min_problems)
    if error.reason is not None and reasons and error.reason in reasons:
        key, problem = reasons[error.reason]
        return Refusal({key: problem})
    return None


def table_resolver(table: Mapping[str, str]) -> Resolver:
    """A resolver from exact API names, nested indices ignored (``branches.0.x`` looks
    up ``branches.x``, then ``branches``)."""

    def resolve(name: str) -> str | None:
        if name in table:
            return table[name]
        plain = _INDEX.sub("", name)
        if plain in table:
            return table[plain]
        head = name.split(".", 1)[0]
        return table.get(head)

    return resolve


# -- reading typed text ---------------------------------------------------------------
def clean_text(text: str) -> str:
    """Spaces trimmed and runs of blanks folded."""
    return " ".join(text.split())


def parse_whole(text: str) -> int | None:
    """A whole number as typed (``5.000`` or ``5,000`` read as 5000); None when empty.

    ``ValueError`` for anything else (letters, decimals like ``1,5``, a sign)."""
    clean = text.strip().replace(" ", "")
    if not clean:
        return None
    if re.fullmatch(r"\d{1,3}(?:\.\d{3})+|\d{1,3}(?:,\d{3})+", clean):
        clean = re.sub(r"[.,]", "", clean)
    if not clean.isascii() or not clean.isdigit():
        raise ValueError("not a whole number")
    return int(clean)


def parse_decimal(text: str) -> Decimal | None:
    """A decimal typed with ``.`` or ``,`` (``1,25`` or ``1.25``); None when empty."""
    clean = text.strip().replace(" ", "")
    if not clean:
        return None
    if clean.count(",") + clean.count(".") > 1 or not re.fullmatch(r"\d*[.,]?\d*", clean):
        raise ValueError("not a number")
    if not any(ch.isdigit() for ch in clean):
        raise ValueError("not a number")
    try:
        return Decimal(clean.replace(",", "."))
    except InvalidOperation as error:  # pragma: no cover - the pattern rules it out
        raise ValueError("not a number") from error


def whole_problem(text: str, *, minimum: int, required: bool) -> tuple[int | None, Problem | None]:
    """(value, problem) of a whole-number field with a minimum (0 or 1)."""
    try:
        value = parse_whole(text)
    except ValueError:
        return None, Problem.NOT_AN_INTEGER
    if value is None:
        return None, Problem.REQUIRED if required else None
    if value < minimum:
        return None, Problem.NOT_POSITIVE if minimum >= 1 else Problem.NEGATIVE
    if value > 2_000_000_000:
        return None, Problem.TOO_LARGE
    return value, None


def is_email(text: str) -> bool:
    return bool(_EMAIL.fullmatch(text.strip())) and ".." not in text


def parse_id_list(text: str) -> tuple[int, ...]:
    """``1, 5,9`` -> (1, 5, 9) without repeats; ``ValueError`` for anything else."""
    parts = [p.strip() for p in re.split(r"[,;\s]+", text.strip()) if p.strip()]
    ids: list[int] = []
    for part in parts:
        if not part.isascii() or not part.isdigit() or int(part) < 1:
            raise ValueError("not a list of ids")
        value = int(part)
        if value not in ids:
            ids.append(value)
    return tuple(ids)
