"""A sale's state machine: edits, preview, the fixed external id, retries."""

from __future__ import annotations

from decimal import Decimal

import pytest

from kiosk.api.errors import ApiError, ErrorKind
from kiosk.api.models.points import Preview, PreviewPoints
from kiosk.core.counter.basket import BasketFull
from kiosk.core.counter.credit import maybe_applied
from kiosk.core.counter.sale import (
    CreditOutcome,
    CreditStatus,
    NoPreview,
    Sale,
    SaleError,
    SaleMode,
    SaleProblem,
    SaleState,
)
from kiosk.core.counter.tickets import TicketError


def _preview(total: int = 10) -> Preview:
    return Preview(PreviewPoints(total=total, initial=total))


# -- the sale's state machine ------------------------------------------------------------


def test_sale_walks_editing_previewed_crediting_done() -> None:
    sale = Sale()
    assert sale.state is SaleState.EDITING
    sale.set_amount_text("1.234,56")
    assert sale.previewed(
        _preview(), client_id=7, amount=Decimal("1234.56"), revision=sale.revision
    )
    assert sale.state is SaleState.PREVIEWED
    assert sale.preview is not None
    first = sale.begin_attempt(lambda ticket: f"id-{ticket}")
    assert first == "id-None"
    assert sale.state is SaleState.CREDITING
    assert sale.attempts == 1
    with pytest.raises(SaleError) as busy:
        sale.begin_attempt(lambda ticket: "other")
    assert busy.value.problem is SaleProblem.BUSY
    with pytest.raises(SaleError):
        sale.set_amount_text("5")
    sale.failed(RuntimeError("lost"), maybe_applied=True)
    assert sale.state is SaleState.FAILED
    assert sale.maybe_applied
    assert sale.begin_attempt(lambda ticket: "never made") == first  # retry: same id
    assert sale.attempts == 2
    sale.failed(ApiError(ErrorKind.UNAVAILABLE), maybe_applied=False)
    assert sale.maybe_applied  # an earlier doubt is never forgotten by this sale
    sale.begin_attempt(lambda ticket: "never made")
    assert sale.preview is not None
    sale.succeeded(CreditOutcome(CreditStatus.CREDITED, first, 10))
    assert sale.state is SaleState.DONE
    for edit in (lambda: sale.set_amount_text("9"), lambda: sale.add_item(3)):
        with pytest.raises(SaleError) as done:
            edit()
        assert done.value.problem is SaleProblem.FINISHED


def test_an_edit_after_a_preview_or_a_failure_is_a_new_sale() -> None:
    sale = Sale()
    sale.set_amount_text("100")
    sale.previewed(_preview(), client_id=1, amount=Decimal(100), revision=sale.revision)
    made = iter(["first-id", "second-id"])
    assert sale.begin_attempt(lambda ticket: next(made)) == "first-id"
    sale.failed(RuntimeError("x"), maybe_applied=True)
    sale.set_amount_text("1000")  # another amount: a new sale
    assert sale.state is SaleState.EDITING
    assert sale.preview is None
    assert sale.external_id is None
    assert sale.attempts == 0
    assert not sale.maybe_applied
    with pytest.raises(SaleError) as not_previewed:
        sale.begin_attempt(lambda ticket: "x")
    assert not_previewed.value.problem is SaleProblem.NOT_PREVIEWED
    sale.previewed(_preview(), client_id=1, amount=Decimal(1000), revision=sale.revision)
    assert sale.begin_attempt(lambda ticket: next(made)) == "second-id"


def test_a_sale_without_figures_says_why_until_it_is_edited() -> None:
    sale = Sale()
    sale.set_amount_text("100")
    why = NoPreview.UNAVAILABLE
    assert sale.unpreviewed(client_id=1, amount=Decimal(100), revision=sale.revision, why=why)
    assert sale.state is SaleState.PREVIEWED
    assert sale.no_preview is NoPreview.UNAVAILABLE
    assert sale.preview_unavailable
    assert sale.preview is None
    assert sale.begin_attempt(lambda ticket: "an-id") == "an-id"  # it is credited as usual
    sale.failed(RuntimeError("x"), maybe_applied=False)
    sale.set_amount_text("1000")  # an edit: a new sale, to be previewed again
    assert sale.state is SaleState.EDITING
    assert sale.no_preview is None
    assert not sale.preview_unavailable
    sale.unpreviewed(client_id=1, amount=Decimal(1000), revision=sale.revision)
    assert sale.no_preview is NoPreview.OFFLINE  # offline unless told otherwise


def test_a_stale_preview_is_ignored_and_the_same_text_is_no_edit() -> None:
    sale = Sale()
    sale.set_amount_text("100")
    asked = sale.revision
    sale.set_amount_text("100")
    assert sale.revision == asked  # unchanged text: not an edit
    sale.set_amount_text("1000")
    assert not sale.previewed(_preview(), client_id=1, amount=Decimal(100), revision=asked)
    assert sale.state is SaleState.EDITING
    assert sale.preview is None


def test_another_ticket_keeps_the_preview_but_not_the_id() -> None:
    sale = Sale()
    sale.set_amount_text("100")
    sale.previewed(_preview(), client_id=1, amount=Decimal(100), revision=sale.revision)
    sale.set_ticket_text("0001-5")
    assert sale.begin_attempt(lambda ticket: f"T{ticket}") == "T0001-5"
    assert sale.ticket == "0001-5"
    sale.failed(RuntimeError("x"), maybe_applied=False)
    sale.set_ticket_text("0001-6")
    assert sale.state is SaleState.PREVIEWED
    assert sale.preview is not None
    assert sale.begin_attempt(lambda ticket: f"T{ticket}") == "T0001-6"


def test_a_bad_ticket_is_refused_before_the_sale_locks() -> None:
    sale = Sale()
    sale.previewed(_preview(), client_id=1, amount=Decimal(1), revision=sale.revision)
    sale.set_ticket_text("tick$t")
    with pytest.raises(TicketError):
        sale.begin_attempt(lambda ticket: "x")
    assert sale.state is SaleState.PREVIEWED
    assert sale.external_id is None


def test_items_mode_and_the_101st_unit() -> None:
    sale = Sale()
    sale.set_mode(SaleMode.ITEMS)
    for _ in range(100):
        sale.add_item(12)
    sale.previewed(_preview(), client_id=1, amount=None, revision=sale.revision)
    with pytest.raises(BasketFull):
        sale.add_item(37)
    assert sale.state is SaleState.PREVIEWED  # a refused unit changes nothing
    assert sale.remove_item(12) == 99
    assert sale.preview is None
    assert sale.remove_item(37) == 0
    sale.set_mode(SaleMode.AMOUNT)
    assert sale.basket.total_units == 99  # kept when switching back and forth


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (ApiError(ErrorKind.UNAVAILABLE), False),
        (ApiError(ErrorKind.SUSPENDED), False),
        (ApiError(ErrorKind.NETWORK), False),  # the connection never opened
        (ApiError(ErrorKind.MALFORMED), True),  # a 2xx we could not read
        (ApiError(ErrorKind.SERVER), True),
        (RuntimeError("after sending"), True),
    ],
)
def test_which_failures_may_have_been_applied(error: BaseException, expected: bool) -> None:
    assert maybe_applied(error) is expected


def test_a_lost_answer_flag_means_maybe_applied() -> None:
    error = ApiError(ErrorKind.NETWORK)
    error.after_lost_answer = True
    assert maybe_applied(error)
