"""What the confirmation of a cancel says (context ``CancelSheet``, as when the sheet was
Today's own widget: the Spanish catalogue keeps them)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from kiosk.core.amounts import AmountLocale, format_points
from kiosk.core.journal import JournalEntry, Outcome


def cancel_texts(entry: JournalEntry, locale: AmountLocale) -> tuple[str, str, str]:
    """The question, what cancelling ``entry`` does, and the action's words."""
    points = format_points(entry.points or 0, locale)
    client = entry.client or QCoreApplication.translate("CancelSheet", "the client")
    if entry.ticket:
        question = QCoreApplication.translate(
            "CancelSheet", "Cancel the credit of %1 points to %2 (ticket %3)?"
        ).replace("%3", entry.ticket)
    else:
        question = QCoreApplication.translate(
            "CancelSheet", "Cancel the credit of %1 points to %2?"
        )
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
        question.replace("%1", points).replace("%2", client),
        consequence,
        QCoreApplication.translate("CancelSheet", "Cancel the credit"),
    )
