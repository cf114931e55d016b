"""Every failure the API client can report has its own plain sentence for the counter."""

from __future__ import annotations

import sys

import pytest
from pytestqt.qtbot import QtBot

from kiosk.api.errors import ApiError, ErrorKind, Reason, Resource
from kiosk.core.amounts import AmountError, AmountLocale, AmountProblem, parse_amount
from kiosk.ui.crash import ExceptionReporter
from kiosk.ui.messages import GENERIC, KIND_TEXT, REASON_TEXT, error_text


@pytest.mark.parametrize("kind", [k for k in ErrorKind if k is not ErrorKind.UNEXPECTED])
def test_every_error_kind_has_its_own_text(qtbot: QtBot, kind: ErrorKind) -> None:
    resource = Resource.CLIENT if kind is ErrorKind.NOT_FOUND else None
    text = error_text(ApiError(kind, resource=resource))
    assert text
    assert text != GENERIC
    if kind is not ErrorKind.NOT_FOUND:
        assert text == KIND_TEXT[kind]


@pytest.mark.parametrize("reason", list(Reason))
def test_every_reason_has_its_own_text(qtbot: QtBot, reason: Reason) -> None:
    assert reason in REASON_TEXT
    assert error_text(ApiError(ErrorKind.CONFLICT, reason=reason)) == REASON_TEXT[reason]


@pytest.mark.parametrize("resource", list(Resource))
def test_every_missing_resource_is_named(qtbot: QtBot, resource: Resource) -> None:
    text = error_text(ApiError(ErrorKind.NOT_FOUND, resource=resource))
    assert text
    assert text != GENERIC


def test_amount_problems_are_explained_with_the_locale_separators(qtbot: QtBot) -> None:
    with pytest.raises(AmountError) as caught:
        parse_amount("1,234.56", AmountLocale.ES_AR)
    assert caught.value.problem is AmountProblem.AMBIGUOUS_GROUPING
    assert (
        error_text(caught.value) == "Check the separators: use . for thousands and , for decimals."
    )


def test_unexpected_exceptions_are_logged_and_shown_once(qtbot: QtBot, expect_log) -> None:  # type: ignore[no-untyped-def]
    expect_log("unexpected failure")
    shown: list[str] = []
    reporter = ExceptionReporter(shown.append, quiet_seconds=60)
    reporter.install()
    try:
        for _ in range(3):
            try:
                raise RuntimeError("boom")
            except RuntimeError:
                sys.excepthook(*sys.exc_info())  # type: ignore[arg-type]
    finally:
        reporter.uninstall()
    assert shown == [GENERIC]


def test_the_reporter_remembers_a_bounded_number_of_failure_kinds(qtbot: QtBot, expect_log) -> None:  # type: ignore[no-untyped-def]
    """Each kind of failure is remembered for its quiet time; past ``SEEN_KEPT`` kinds
    the oldest is forgotten (a long-running kiosk never grows the list)."""
    from kiosk.ui.crash import SEEN_KEPT

    expect_log("unexpected failure")
    reporter = ExceptionReporter(lambda _text: None, quiet_seconds=60)
    for n in range(3 * SEEN_KEPT):
        kind = type(f"Failure{n}", (RuntimeError,), {})
        try:
            raise kind("boom")
        except RuntimeError:
            reporter.hook(*sys.exc_info())  # type: ignore[arg-type]
    assert len(reporter._seen) == SEEN_KEPT
    assert f"Failure{3 * SEEN_KEPT - 1}@" in next(reversed(reporter._seen))


@pytest.mark.parametrize(
    ("said", "shown"),
    [
        ("El monto mínimo para canjear dinero es de 500.", "$ 500,00"),
        ("El monto mínimo para canjear dinero es de 1500.5.", "$ 1.500,50"),
        ("El monto mínimo para canjear dinero es de $ 1.500,50", "$ 1.500,50"),
        ("El monto mínimo para canjear dinero es de 2.000", "$ 2.000,00"),
    ],
)
def test_the_money_minimum_names_the_services_figure(qtbot: QtBot, said: str, shown: str) -> None:
    """The service sends its minimum in the refusal: the cashier reads it (issue #21)."""
    error = ApiError(ErrorKind.CONFLICT, reason=Reason.MONEY_MINIMUM, message=said)
    text = error_text(error, AmountLocale.ES_AR)
    assert text == f"The amount is below the minimum for a money exchange: {shown}."
