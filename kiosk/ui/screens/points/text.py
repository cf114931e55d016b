"""The Points screen's messages for the cashier (context ``PointsScreen``, as when they
were the screen's own ``self.tr`` calls: the Spanish catalogue keeps them)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from kiosk.core.counter.sale import SaleProblem
from kiosk.core.counter.tickets import MAX_TICKET_LENGTH


def basket_full_text(limit: int) -> str:
    return QCoreApplication.translate(
        "PointsScreen", "A credit takes at most %1 units. Credit these first, then the rest."
    ).replace("%1", str(limit))


def credit_failed_text(error: str, *, outbox: bool, maybe_applied: bool) -> str:
    """Why a credit failed (``error``: the API error in words) and what happens next."""
    if outbox:
        return QCoreApplication.translate(
            "PointsScreen",
            "%1 The credit was not given; it stays in the Pending list for a manager.",
        ).replace("%1", error)
    if maybe_applied:
        return QCoreApplication.translate(
            "PointsScreen",
            "The answer was lost on the way: the points may already be credited. "
            "Tap Try again: this sale is never credited twice.",
        )
    return error


def ticket_problem_text() -> str:
    return QCoreApplication.translate(
        "PointsScreen", "Check the ticket number: letters, digits and '-' only, up to %1."
    ).replace("%1", str(MAX_TICKET_LENGTH))


def sale_problem_text(problem: SaleProblem) -> str:
    if problem is SaleProblem.EMPTY_BASKET:
        return QCoreApplication.translate("PointsScreen", "Tap the items of the purchase first.")
    if problem is SaleProblem.NO_CLIENT:
        return QCoreApplication.translate("PointsScreen", "Identify a client first.")
    if problem is SaleProblem.CLIENT_CHANGED:
        return QCoreApplication.translate(
            "PointsScreen", "The client changed. Check the sale and preview it again."
        )
    return QCoreApplication.translate("PointsScreen", "Wait for the current credit to finish.")
