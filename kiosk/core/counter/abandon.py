"""A sale left half-done: what idle clears, and the journal row that says so.

A sale with something typed (an amount, items) or previewed but not credited is
*unfinished*: idle warns before it clears one. A previewed sale that is cleared all
the same leaves a journal row ("Previewed, not credited": kind credit, outcome
``ABANDONED``, the preview's points and the sale's amount and ticket, no external
id: nothing was sent), so the cashier and the manager see it in Today.
"""

from __future__ import annotations

import logging
from decimal import Decimal

from kiosk.api.models.clients import Client
from kiosk.core.counter.sale import Sale, SaleMode, SaleState
from kiosk.core.journal import OperationKind, Outcome, client_display
from kiosk.core.session import CounterSession

log = logging.getLogger(__name__)


def unfinished(sale: Sale) -> bool:
    """Begun and not credited: an amount or items typed, or a preview on screen (a
    credit on its way goes on by itself; a failed one is the cashier's to retry)."""
    if sale.state in (SaleState.PREVIEWED, SaleState.FAILED):
        return True
    if sale.state is not SaleState.EDITING:
        return False
    if sale.mode is SaleMode.AMOUNT:
        return bool(sale.amount_text.strip())
    return not sale.basket.is_empty


async def record_abandoned(session: CounterSession, sale: Sale, client: Client | None) -> bool:
    """Write "previewed, not credited" for ``sale`` when it was previewed (or failed)
    and never credited; True when a row was written."""
    if sale.state not in (SaleState.PREVIEWED, SaleState.FAILED) or sale.maybe_applied:
        return False
    points = sale.preview.points.total if sale.preview is not None else None
    amount: Decimal | None = sale.amount
    if amount is None and sale.mode is SaleMode.ITEMS and sale.preview is not None:
        value = sale.preview.points.amount
        amount = Decimal(str(value)) if value else None
    items = sale.basket.total_units if sale.mode is SaleMode.ITEMS else None
    who = ""
    if client is not None:
        name = client.name or " ".join(p for p in (client.first_name, client.last_name) if p)
        who = client_display(name, client.email, client.document_number)
    try:
        await session.journal.record(
            OperationKind.CREDIT,
            Outcome.ABANDONED,
            client=who,
            points=points,
            amount=amount,
            ticket=sale.ticket_text.strip() or None,
            units=items,
        )
    except Exception:
        log.exception("could not write the sale left unfinished to the journal")
        return False
    log.info("idle: a previewed sale was cleared before its credit")
    session.notify_journal()
    return True
