"""What the confirmation of a cancel says (context ``CancelSheet``, as when the sheet was
Today's own widget: the Spanish catalogue keeps them)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from kiosk.core.amounts import AmountLocale, format_amount, format_points
from kiosk.core.journal import JournalEntry, Outcome


def cancel_texts(entry: JournalEntry, locale: AmountLocale) -> tuple[str, str, str]:
    """The question, what cancelling ``entry`` does, and the action's words."""
    client = entry.client or QCoreApplication.translate("CancelSheet", "the client")
    if entry.points is not None:
        what = format_points(entry.points, locale)
        question = (
            QCoreApplication.translate(
                "CancelSheet", "Cancel the credit of %1 points to %2 (ticket %3)?"
            )
            if entry.ticket
            else QCoreApplication.translate("CancelSheet", "Cancel the credit of %1 points to %2?")
        )
    elif entry.amount is not None:  # not previewed (offline): the sale says which one
        what = format_amount(entry.amount, locale)
        question = (
            QCoreApplication.translate(
                "CancelSheet", "Cancel the credit for the sale of %1 to %2 (ticket %3)?"
            )
            if entry.ticket
            else QCoreApplication.translate(
                "CancelSheet", "Cancel the credit for the sale of %1 to %2?"
            )
        )
    else:
        what = ""
        question = (
            QCoreApplication.translate("CancelSheet", "Cancel the credit of ticket %3 to %2?")
            if entry.ticket
            else QCoreApplication.translate("CancelSheet", "Cancel this credit to %2?")
        )
    question = question.replace("%3", entry.ticket or "")
    if entry.outcome is Outcome.PENDING:
        consequence = QCoreApplication.translate(
            "CancelSheet",
            "This credit has not reached the service yet: it will not be sent, and no "
            "points change.",
        )
    else:
        consequence = QCoreApplication.translate(
            "CancelSheet", "The points are taken back from the client. This cannot be undone."
        )
    return (
        question.replace("%1", what).replace("%2", client),
        consequence,
        QCoreApplication.translate("CancelSheet", "Cancel the credit"),
    )
