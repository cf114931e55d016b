"""What the Redeem screen says (context ``RedeemScreen``): a code that cannot be one,
and the end of a delivery attempt.

The order at the counter: only the service's yes says "Hand over the reward"; a
refusal (expired, already delivered, canceled) says plainly what happened and not to
hand anything over."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from kiosk.core.counter.redeem import CodeProblem, DeliveryOutcome, PurchaseView

CODE_TEXT = {
    CodeProblem.EMPTY: QT_TRANSLATE_NOOP("RedeemScreen", "Scan or type the purchase code."),
    CodeProblem.NOT_A_CODE: QT_TRANSLATE_NOOP(
        "RedeemScreen", "A purchase code has only letters and digits. Check it and try again."
    ),
    CodeProblem.LENGTH: QT_TRANSLATE_NOOP(
        "RedeemScreen", "That code is too short or too long. Purchase codes have 8 characters."
    ),
}


def code_text(problem: CodeProblem) -> str:
    return QCoreApplication.translate("RedeemScreen", str(CODE_TEXT[problem]))


def hand_over_text(view: PurchaseView | None) -> str:
    """The card's notice once the service said yes."""
    if view is not None and view.is_money:
        return QCoreApplication.translate("RedeemScreen", "Hand over the money: %1").replace(
            "%1", view.reward
        )
    return QCoreApplication.translate("RedeemScreen", "Hand over the reward")


def outcome_texts(
    outcome: DeliveryOutcome, view: PurchaseView | None, code: str, when: str
) -> tuple[str, str]:
    """(banner, card notice) of a delivery attempt's end; ``when``: the date of the
    purchase's last change (for an already delivered code)."""
    if outcome is DeliveryOutcome.DELIVERED:
        what = view.reward if view else code
        if view is not None and view.is_money:  # money, not a reward (issue #21)
            what = QCoreApplication.translate("RedeemScreen", "%1 in money").replace(
                "%1", view.reward
            )
        # What to hand over is said once, on the card (hand_over_text), not here too.
        said = QCoreApplication.translate("RedeemScreen", "Delivered: %1 · code %2.")
        return said.replace("%1", what).replace("%2", code), hand_over_text(view)
    if outcome is DeliveryOutcome.ALREADY_DELIVERED:
        return (
            QCoreApplication.translate(
                "RedeemScreen", "This code was already delivered (%1). Nothing was changed."
            ).replace("%1", when),
            QCoreApplication.translate(
                "RedeemScreen", "Already delivered: do not hand it over again."
            ),
        )
    if outcome is DeliveryOutcome.EXPIRED:
        return (
            QCoreApplication.translate(
                "RedeemScreen",
                "This code has expired and can no longer be delivered. Nothing was changed.",
            ),
            QCoreApplication.translate("RedeemScreen", "Expired: do not hand over the reward."),
        )
    return (
        QCoreApplication.translate(
            "RedeemScreen",
            "This exchange was canceled: there is nothing to deliver. Nothing was changed.",
        ),
        QCoreApplication.translate("RedeemScreen", "Canceled: do not hand over the reward."),
    )
