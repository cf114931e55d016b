"""What the Rewards screen's confirmation sheet and result say (context
``RewardsScreen``, as when they were the screen's own ``self.tr`` calls: the Spanish
catalogue keeps them)."""

from __future__ import annotations

from decimal import Decimal
from typing import NamedTuple

from PySide6.QtCore import QCoreApplication

from kiosk.core.amounts import AmountLocale, format_amount, format_points
from kiosk.core.counter.rewards import ExchangeDone, ExchangeKind, RewardCard


class SheetTexts(NamedTuple):
    """What the confirmation sheet says (``ConfirmSheet.ask``)."""

    heading: str
    message: str
    detail: str
    hint: str
    confirm: str


def reward_sheet(card: RewardCard, locale: AmountLocale) -> SheetTexts:
    price = format_points(card.price, locale)
    return SheetTexts(
        QCoreApplication.translate("RewardsScreen", "Confirm the exchange"),
        QCoreApplication.translate("RewardsScreen", "Exchange %1 for %2 points.")
        .replace("%1", card.name)
        .replace("%2", price),
        QCoreApplication.translate("RewardsScreen", "Balance now: %1. Balance after: %2.")
        .replace("%1", format_points(card.balance, locale))
        .replace("%2", format_points(card.balance_after, locale)),
        QCoreApplication.translate(
            "RewardsScreen",
            "The points are debited at once. The client collects the reward with a code.",
        ),
        QCoreApplication.translate("RewardsScreen", "Exchange for %1 pts").replace("%1", price),
    )


def money_sheet(amount: Decimal, balance: int, locale: AmountLocale) -> SheetTexts:
    """The amount, the balance, and plainly that the points are not known before: the
    service computes them (the contract gives no preview), the result shows them."""
    money = format_amount(amount, locale)
    return SheetTexts(
        QCoreApplication.translate("RewardsScreen", "Confirm the money exchange"),
        QCoreApplication.translate("RewardsScreen", "Exchange points for %1 in money.").replace(
            "%1", money
        ),
        QCoreApplication.translate("RewardsScreen", "The client's balance: %1 points.").replace(
            "%1", format_points(balance, locale)
        ),
        # No figure here: the contract has no preview of a money exchange (issue #14).
        QCoreApplication.translate(
            "RewardsScreen",
            "The points are computed by the program: there is no preview of how many will "
            "be taken. The result shows them.",
        ),
        QCoreApplication.translate("RewardsScreen", "Exchange for %1").replace("%1", money),
    )


def result_texts(done: ExchangeDone, locale: AmountLocale) -> tuple[str, str, str]:
    """Heading, points debited, expected balance of an exchange's result."""
    if done.kind is ExchangeKind.MONEY and done.money is not None:
        heading = QCoreApplication.translate("RewardsScreen", "Exchanged for %1 in money").replace(
            "%1", format_amount(done.money, locale)
        )
    else:
        heading = QCoreApplication.translate("RewardsScreen", "Exchanged: %1").replace(
            "%1", done.reward
        )
    points = QCoreApplication.translate("RewardsScreen", "−%1 points").replace(
        "%1", format_points(done.points, locale)
    )
    balance = QCoreApplication.translate("RewardsScreen", "New balance: %1 (updating…)").replace(
        "%1", format_points(done.expected_balance, locale)
    )
    return heading, points, balance
