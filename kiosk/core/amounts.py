"""Purchase amounts typed at the counter, and points, in the store's locale.

In ``es-AR`` the decimal separator is ``,`` and the grouping separator ``.``;
``en-US`` is the mirror. A grouping separator followed by exactly three digits
is grouping, never a decimal point, so ``1.234`` in ``es-AR`` is one thousand
two hundred and thirty-four. Text that only makes sense in the other locale
(``1,234.56`` in ``es-AR``) is refused as ambiguous rather than guessed: a
slip of a thousand times must be caught before it is credited.

``parse_amount`` raises ``AmountError`` with a ``problem`` the screen turns into
words; ``format_amount`` / ``format_points`` echo values back the same way.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum

MAX_AMOUNT = Decimal("10000000")
"""The largest purchase amount the counter accepts (inclusive)."""
MAX_DECIMALS = 2
_MAX_TEXT = 32
_CURRENCY = "$"


class AmountLocale(StrEnum):
    ES_AR = "es-AR"
    EN_US = "en-US"

    @property
    def decimal_separator(self) -> str:
        return "," if self is AmountLocale.ES_AR else "."

    @property
    def group_separator(self) -> str:
        return "." if self is AmountLocale.ES_AR else ","

    @property
    def other(self) -> AmountLocale:
        return AmountLocale.EN_US if self is AmountLocale.ES_AR else AmountLocale.ES_AR


class AmountProblem(StrEnum):
    EMPTY = "empty"
    NOT_A_NUMBER = "not_a_number"
    NOT_POSITIVE = "not_positive"
    TOO_MANY_DECIMALS = "too_many_decimals"
    AMBIGUOUS_GROUPING = "ambiguous_grouping"
    TOO_LARGE = "too_large"


_MESSAGES = {
    AmountProblem.EMPTY: "Type the purchase amount.",
    AmountProblem.NOT_A_NUMBER: "The amount must be a number, digits only.",
    AmountProblem.NOT_POSITIVE: "The amount must be greater than zero.",
    AmountProblem.TOO_MANY_DECIMALS: "The amount can have at most two decimals.",
    AmountProblem.AMBIGUOUS_GROUPING: "Check the separators: use {group} for thousands "
    "and {decimal} for decimals.",
    AmountProblem.TOO_LARGE: "The amount is larger than {maximum}: check it.",
}


class AmountError(ValueError):
    """The typed text is not an amount the counter accepts; ``problem`` says why."""

    def __init__(self, problem: AmountProblem, locale: AmountLocale, maximum: Decimal) -> None:
        self.problem = problem
        self.locale = locale
        message = _MESSAGES[problem].format(
            group=locale.group_separator,
            decimal=locale.decimal_separator,
            maximum=format_amount(maximum, locale),
        )
        super().__init__(message)


def as_locale(locale: AmountLocale | str) -> AmountLocale:
    """``locale`` as an ``AmountLocale``; ``ValueError`` when it is not one we ship."""
    try:
        return AmountLocale(locale)
    except ValueError:
        raise ValueError(f"unsupported amount locale {locale!r}") from None


def _pattern(locale: AmountLocale) -> re.Pattern[str]:
    group = re.escape(locale.group_separator)
    decimal = re.escape(locale.decimal_separator)
    return re.compile(
        rf"(?P<int>[0-9]+|[1-9][0-9]{{0,2}}(?:{group}[0-9]{{3}})+)?"
        rf"(?:{decimal}(?P<frac>[0-9]*))?"
    )


_PATTERNS = {locale: _pattern(locale) for locale in AmountLocale}


def _match(text: str, locale: AmountLocale) -> tuple[str, str] | None:
    """(integer digits, fraction digits) when ``text`` is well formed in ``locale``."""
    found = _PATTERNS[locale].fullmatch(text)
    if found is None:
        return None
    integer = (found.group("int") or "").replace(locale.group_separator, "")
    fraction = found.group("frac") or ""
    if not integer and not fraction:
        return None
    return integer, fraction


def _well_formed_elsewhere(text: str, locale: AmountLocale) -> bool:
    """Whether ``text`` is a plausible amount in the other locale (a locale slip)."""
    other = _match(text, locale.other)
    return other is not None and len(other[1]) <= MAX_DECIMALS


def parse_amount(
    text: str, locale: AmountLocale | str, *, maximum: Decimal = MAX_AMOUNT
) -> Decimal:
    """The positive amount typed in ``text``, read in ``locale``.

    Accepts surrounding spaces and a leading ``$`` (so a formatted amount reads
    back), ASCII digits and the locale's two separators, nothing else.
    """
    where = as_locale(locale)

    def fail(problem: AmountProblem) -> AmountError:
        return AmountError(problem, where, maximum)

    clean = text.strip()
    if clean.startswith(_CURRENCY):
        clean = clean[len(_CURRENCY) :].strip()
    if not clean:
        raise fail(AmountProblem.EMPTY)
    if len(clean) > _MAX_TEXT:
        raise fail(AmountProblem.TOO_LARGE)
    if clean[0] in "-−":
        raise fail(AmountProblem.NOT_POSITIVE)
    if not re.fullmatch(r"[0-9.,]+", clean) or not re.search(r"[0-9]", clean):
        raise fail(AmountProblem.NOT_A_NUMBER)

    parts = _match(clean, where)
    if parts is None:
        if _well_formed_elsewhere(clean, where) or where.group_separator in clean:
            raise fail(AmountProblem.AMBIGUOUS_GROUPING)
        raise fail(AmountProblem.NOT_A_NUMBER)
    integer, fraction = parts
    if len(fraction) > MAX_DECIMALS:
        # "1,234" in es-AR: most likely someone grouping thousands the other way.
        slip = len(fraction) == 3 and where.group_separator not in clean
        if slip and _well_formed_elsewhere(clean, where):
            raise fail(AmountProblem.AMBIGUOUS_GROUPING)
        raise fail(AmountProblem.TOO_MANY_DECIMALS)
    value = Decimal(f"{integer or '0'}.{fraction or '0'}")
    if value <= 0:
        raise fail(AmountProblem.NOT_POSITIVE)
    if value > maximum:
        raise fail(AmountProblem.TOO_LARGE)
    return value.normalize() if fraction.strip("0") else Decimal(integer or "0")


def _group(digits: str, separator: str) -> str:
    head = len(digits) % 3 or 3
    groups = [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]
    return separator.join(groups)


def format_amount(value: Decimal, locale: AmountLocale | str) -> str:
    """``$ 1.234,56`` (es-AR) or ``$1,234.56`` (en-US): two decimals, half up."""
    where = as_locale(locale)
    if not value.is_finite():
        raise ValueError("cannot format a non-finite amount")
    cents = value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    sign = "-" if cents < 0 else ""
    integer, _, fraction = f"{abs(cents):f}".partition(".")
    number = f"{_group(integer, where.group_separator)}{where.decimal_separator}{fraction}"
    space = " " if where is AmountLocale.ES_AR else ""
    return f"{sign}{_CURRENCY}{space}{number}"


def currency_prefix(locale: AmountLocale | str) -> str:
    """What comes before the figure: ``$ `` (es-AR) or ``$`` (en-US)."""
    return f"{_CURRENCY} " if as_locale(locale) is AmountLocale.ES_AR else _CURRENCY


def typed_value(text: str, locale: AmountLocale | str) -> Decimal | None:
    """The value of an amount as it is being typed (``15000,`` is 15000), or ``None``
    while the text is not a well-formed amount (the preview says why)."""
    where = as_locale(locale)
    clean = text.strip()
    parts = _match(clean, where) if clean else None
    if parts is None or len(parts[1]) > MAX_DECIMALS:
        return None
    integer, fraction = parts
    return Decimal(f"{integer or '0'}.{fraction or '0'}")


def exceeds_maximum(
    text: str, locale: AmountLocale | str, *, maximum: Decimal = MAX_AMOUNT
) -> bool:
    """Whether the digits typed in ``text`` already make more than ``maximum``, however
    the text ends up read (a group separator read as grouping, the first decimal
    separator as the decimal point): the keypad refuses the digit that would."""
    where = as_locale(locale)
    digits = text.replace(where.group_separator, "")
    integer, _, fraction = digits.partition(where.decimal_separator)
    integer = "".join(c for c in integer if c.isascii() and c.isdigit()).lstrip("0")
    fraction = "".join(c for c in fraction if c.isascii() and c.isdigit())[:MAX_DECIMALS]
    if len(integer) > len(str(int(maximum))):
        return True
    return Decimal(f"{integer or '0'}.{fraction or '0'}") > maximum


def display_amount(text: str, locale: AmountLocale | str) -> str:
    """An amount being typed, shown as ``format_amount`` shows it (``15000`` typed reads
    ``$ 15.000,00``, as on the preview); a text that is not (yet) an amount is shown
    as typed, whole, after the currency sign."""
    value = typed_value(text, locale) if text.strip() else Decimal(0)
    if value is not None:
        return format_amount(value, locale)
    return currency_prefix(locale) + text.strip()


def format_points(points: int, locale: AmountLocale | str) -> str:
    """``12.340`` (es-AR) or ``12,340`` (en-US)."""
    where = as_locale(locale)
    sign = "-" if points < 0 else ""
    return sign + _group(str(abs(points)), where.group_separator)
