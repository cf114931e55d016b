"""Amounts typed at the counter: locales, errors, the thousand-times slip, round trips."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from kiosk.core.amounts import (
    MAX_AMOUNT,
    AmountError,
    AmountLocale,
    AmountProblem,
    format_amount,
    format_points,
    parse_amount,
)

AR = AmountLocale.ES_AR
US = AmountLocale.EN_US


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1.234,56", "1234.56"),
        ("1.234", "1234"),
        ("1234,5", "1234.5"),
        ("1234", "1234"),
        ("0,5", "0.5"),
        (",5", "0.5"),
        ("12,", "12"),
        ("007", "7"),
        ("1.000,00", "1000"),
        ("1.234.567,89", "1234567.89"),
        ("10.000.000", "10000000"),
        ("$ 1.234,56", "1234.56"),
        ("$1.234,56", "1234.56"),
        ("  99,99 \t", "99.99"),
        ("0,01", "0.01"),
    ],
)
def test_es_ar_reads(text: str, expected: str) -> None:
    assert parse_amount(text, AR) == Decimal(expected)
    assert parse_amount(text, "es-AR") == Decimal(expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1,234.56", "1234.56"),
        ("1,234", "1234"),
        ("1234.5", "1234.5"),
        ("0.5", "0.5"),
        (".5", "0.5"),
        ("1,234,567.89", "1234567.89"),
        ("$1,234.56", "1234.56"),
        ("10,000,000", "10000000"),
    ],
)
def test_en_us_reads(text: str, expected: str) -> None:
    assert parse_amount(text, US) == Decimal(expected)


@pytest.mark.parametrize(
    ("text", "locale", "problem"),
    [
        ("", AR, AmountProblem.EMPTY),
        ("   ", AR, AmountProblem.EMPTY),
        ("$", AR, AmountProblem.EMPTY),
        ("abc", AR, AmountProblem.NOT_A_NUMBER),
        ("12a", AR, AmountProblem.NOT_A_NUMBER),
        ("NaN", AR, AmountProblem.NOT_A_NUMBER),
        ("inf", US, AmountProblem.NOT_A_NUMBER),
        ("Infinity", AR, AmountProblem.NOT_A_NUMBER),
        ("1e5", US, AmountProblem.NOT_A_NUMBER),
        ("+5", AR, AmountProblem.NOT_A_NUMBER),
        ("1 234", AR, AmountProblem.NOT_A_NUMBER),
        ("١٢٣", AR, AmountProblem.NOT_A_NUMBER),  # Arabic-Indic digits: Decimal would take them
        ("１２３", US, AmountProblem.NOT_A_NUMBER),  # full-width digits
        (",", AR, AmountProblem.NOT_A_NUMBER),
        ("1,2,3", AR, AmountProblem.NOT_A_NUMBER),
        ("-5", AR, AmountProblem.NOT_POSITIVE),
        ("−5", US, AmountProblem.NOT_POSITIVE),
        ("-1.234,56", AR, AmountProblem.NOT_POSITIVE),
        ("0", AR, AmountProblem.NOT_POSITIVE),
        ("0,00", AR, AmountProblem.NOT_POSITIVE),
        ("0.00", US, AmountProblem.NOT_POSITIVE),
        ("1,2345", AR, AmountProblem.TOO_MANY_DECIMALS),
        ("1.234,567", AR, AmountProblem.TOO_MANY_DECIMALS),
        ("0,125", AR, AmountProblem.TOO_MANY_DECIMALS),
        ("1.2345", US, AmountProblem.TOO_MANY_DECIMALS),
        ("1,234.56", AR, AmountProblem.AMBIGUOUS_GROUPING),
        ("1,234,567", AR, AmountProblem.AMBIGUOUS_GROUPING),
        ("1.23", AR, AmountProblem.AMBIGUOUS_GROUPING),
        ("1.5", AR, AmountProblem.AMBIGUOUS_GROUPING),
        ("12.34.567", AR, AmountProblem.AMBIGUOUS_GROUPING),
        ("1234.567", AR, AmountProblem.AMBIGUOUS_GROUPING),
        ("0.500", AR, AmountProblem.AMBIGUOUS_GROUPING),
        ("1.234,56", US, AmountProblem.AMBIGUOUS_GROUPING),
        ("1,5", US, AmountProblem.AMBIGUOUS_GROUPING),
        ("10.000.000,01", AR, AmountProblem.TOO_LARGE),
        ("99999999", AR, AmountProblem.TOO_LARGE),
        ("9" * 40, AR, AmountProblem.TOO_LARGE),
    ],
)
def test_refusals(text: str, locale: AmountLocale, problem: AmountProblem) -> None:
    with pytest.raises(AmountError) as caught:
        parse_amount(text, locale)
    assert caught.value.problem is problem
    assert str(caught.value)  # a sentence for the screen


def test_thousand_slip_is_never_a_decimal_point() -> None:
    """``1.234`` at an Argentine counter is 1234, not 1.234; the other habit is refused."""
    assert parse_amount("1.234", AR) == 1234
    assert parse_amount("1,234", US) == 1234
    for text, locale in (("1,234", AR), ("1.234", US), ("12,345", AR), ("999.999", US)):
        with pytest.raises(AmountError) as caught:
            parse_amount(text, locale)
        assert caught.value.problem is AmountProblem.AMBIGUOUS_GROUPING


def test_grouped_numbers_never_read_silently_in_the_other_locale() -> None:
    """Any number with a thousands separator, typed with the other locale's habit, is refused
    (so a 1000x slip can never pass), whatever its size."""
    rng = random.Random(4)
    for _ in range(3000):
        points = rng.randint(1000, 10_000_000)
        for locale in AmountLocale:
            grouped = format_points(points, locale)
            assert parse_amount(grouped, locale) == points
            with pytest.raises(AmountError) as caught:
                parse_amount(grouped, locale.other)
            assert caught.value.problem is AmountProblem.AMBIGUOUS_GROUPING


def test_formatted_amounts_read_back_and_only_in_their_locale() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        cents = rng.choice([rng.randint(1, 999), rng.randint(1, int(MAX_AMOUNT) * 100)])
        value = Decimal(cents) / 100
        for locale in AmountLocale:
            shown = format_amount(value, locale)
            assert parse_amount(shown, locale) == value
            with pytest.raises(AmountError):
                parse_amount(shown, locale.other)


def test_plain_digits_with_up_to_two_decimals_read_the_same_everywhere() -> None:
    rng = random.Random(11)
    for _ in range(2000):
        integer = str(rng.randint(1, 999_999))
        fraction = "".join(rng.choice("0123456789") for _ in range(rng.randint(0, 2)))
        expected = Decimal(f"{integer}.{fraction or '0'}")
        for locale in AmountLocale:
            text = f"{integer}{locale.decimal_separator}{fraction}" if fraction else integer
            assert parse_amount(text, locale) == expected


def test_maximum_is_inclusive_and_adjustable() -> None:
    assert parse_amount("10.000.000,00", AR) == MAX_AMOUNT
    assert parse_amount("500", AR, maximum=Decimal(500)) == 500
    with pytest.raises(AmountError) as caught:
        parse_amount("500,01", AR, maximum=Decimal(500))
    assert caught.value.problem is AmountProblem.TOO_LARGE
    assert "$ 500,00" in str(caught.value)


def test_error_message_names_the_locale_separators() -> None:
    with pytest.raises(AmountError) as caught:
        parse_amount("1,234.56", AR)
    assert "." in str(caught.value)
    assert "," in str(caught.value)
    assert caught.value.locale is AR


def test_unknown_locale_is_a_plain_value_error() -> None:
    with pytest.raises(ValueError, match="unsupported amount locale") as caught:
        parse_amount("1", "fr-FR")
    assert not isinstance(caught.value, AmountError)
    with pytest.raises(ValueError, match="unsupported"):
        format_points(1, "de-DE")


@pytest.mark.parametrize(
    ("value", "es_ar", "en_us"),
    [
        ("1234.56", "$ 1.234,56", "$1,234.56"),
        ("1234.5", "$ 1.234,50", "$1,234.50"),
        ("0", "$ 0,00", "$0.00"),
        ("0.005", "$ 0,01", "$0.01"),
        ("999.994", "$ 999,99", "$999.99"),
        ("999.995", "$ 1.000,00", "$1,000.00"),
        ("1000000", "$ 1.000.000,00", "$1,000,000.00"),
        ("-1234.5", "-$ 1.234,50", "-$1,234.50"),
        ("12E+3", "$ 12.000,00", "$12,000.00"),
    ],
)
def test_format_amount(value: str, es_ar: str, en_us: str) -> None:
    assert format_amount(Decimal(value), AR) == es_ar
    assert format_amount(Decimal(value), US) == en_us


def test_format_amount_refuses_non_finite() -> None:
    with pytest.raises(ValueError, match="non-finite"):
        format_amount(Decimal("NaN"), AR)


@pytest.mark.parametrize(
    ("points", "es_ar", "en_us"),
    [
        (0, "0", "0"),
        (999, "999", "999"),
        (1000, "1.000", "1,000"),
        (12340, "12.340", "12,340"),
        (1234567, "1.234.567", "1,234,567"),
        (-1234, "-1.234", "-1,234"),
    ],
)
def test_format_points(points: int, es_ar: str, en_us: str) -> None:
    assert format_points(points, AR) == es_ar
    assert format_points(points, US) == en_us
