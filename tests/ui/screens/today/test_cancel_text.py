"""The cancel's question names the sale when the credit has no points yet (issue #21,
minor): an offline credit never previewed read "Cancel the credit of 0 points"."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from kiosk.core.amounts import AmountLocale
from kiosk.core.journal import JournalEntry, OperationKind, Outcome
from kiosk.ui.screens.today.text import cancel_texts


def unsent(**fields: Any) -> JournalEntry:
    base: dict[str, Any] = {
        "id": 7,
        "at": datetime(2026, 11, 27, 15, 0, tzinfo=UTC),
        "local_date": date(2026, 11, 27),
        "kind": OperationKind.CREDIT,
        "outcome": Outcome.PENDING,
        "client": "Juan Pérez · j***@example.com",
        "external_id": "1-20261127-k0a1b2c3d-000000000001",
    }
    return JournalEntry(**{**base, **fields})


def test_an_unpreviewed_credit_is_named_by_its_sale_not_0_points() -> None:
    locale = AmountLocale.ES_AR
    question, _, _ = cancel_texts(unsent(amount=Decimal("3000"), ticket="A-15"), locale)
    assert (
        question
        == "Cancel the credit for the sale of $ 3.000,00 to Juan Pérez · j***@example.com (ticket A-15)?"
    )
    question, _, _ = cancel_texts(unsent(amount=Decimal("1234.5")), locale)
    assert "0 points" not in question
    assert "$ 1.234,50" in question
    question, _, _ = cancel_texts(unsent(ticket="A-16"), locale)
    assert question.startswith("Cancel the credit of ticket A-16 to Juan")
    question, _, _ = cancel_texts(unsent(points=120), locale)
    assert question.startswith("Cancel the credit of 120 points to Juan")


def test_in_spanish(spanish: Any) -> None:
    question, _, _ = cancel_texts(unsent(amount=Decimal("3000")), AmountLocale.ES_AR)
    assert question.startswith("¿Anular la acreditación de la venta de $ 3.000,00 a Juan")
