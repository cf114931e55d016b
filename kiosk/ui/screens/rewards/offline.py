"""Exchanges and deliveries need a live answer: refused offline, never queued.

An exchange debits points (the balance must be read now) and takes stock; a
delivery marks a code used. None of them can wait in the outbox like a credit:
when the counter is offline (``session.online`` is False) or the call could not
reach the service (``kiosk.core.counter.offline_client.no_connection``), the screen says
so and that nothing was sent. An unverified client (accepted offline) has no
balance to exchange from: rewards refuse them until they are identified online.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from kiosk.api.models.clients import Client
from kiosk.core.counter.offline_client import is_unverified
from kiosk.core.session import CounterSession

EXCHANGE_OFFLINE = QT_TRANSLATE_NOOP(
    "RewardsScreen",
    "No connection: exchanges need the service to check the balance and stock. "
    "Nothing was sent; try again when the connection returns.",
)
NEEDS_VERIFIED = QT_TRANSLATE_NOOP("RewardsScreen", "Identify the client online to use rewards")
DELIVERY_OFFLINE = QT_TRANSLATE_NOOP(
    "RedeemScreen",
    "No connection: deliveries need the service to check the code. "
    "Nothing was sent; try again when the connection returns.",
)


def exchange_offline_text() -> str:
    return QCoreApplication.translate("RewardsScreen", str(EXCHANGE_OFFLINE))


def delivery_offline_text() -> str:
    return QCoreApplication.translate("RedeemScreen", str(DELIVERY_OFFLINE))


def exchange_refusal(session: CounterSession, client: Client | None) -> str | None:
    """Why an exchange cannot even be tried now (translated), or None."""
    if is_unverified(client):
        return QCoreApplication.translate("RewardsScreen", str(NEEDS_VERIFIED))
    if not session.online:
        return exchange_offline_text()
    return None
