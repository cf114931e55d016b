"""Exchanges (the API's purchases): list (filter by status and type, search by code,
client name or email, sort by date, points or status), and delivery of pending ones
(confirmed, then journaled in Today like a delivery at the Redeem screen).

The purchase list's parameters are the simulator's choice C14 (the contract does
not show them). An expired exchange still reads ``pending``: delivering it is
refused, and the banner says why.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtWidgets import QWidget

from kiosk.api.models.common import Page
from kiosk.api.models.purchases import Purchase, PurchaseStatus, PurchaseType
from kiosk.core.admin.paging import ListState
from kiosk.core.counter.redeem import DeliveryOutcome, deliver, journal_delivery, view_purchase
from kiosk.core.session import CounterSession
from kiosk.ui.admin.chips import ChoiceChips
from kiosk.ui.admin.list_view import AdminList, Column
from kiosk.ui.admin.section import AdminSection, date_text

log = logging.getLogger(__name__)

STATUS_TEXT = {
    PurchaseStatus.PENDING.value: QT_TRANSLATE_NOOP("PurchasesSection", "Pending"),
    PurchaseStatus.DELIVERED.value: QT_TRANSLATE_NOOP("PurchasesSection", "Delivered"),
    PurchaseStatus.CANCELED.value: QT_TRANSLATE_NOOP("PurchasesSection", "Canceled"),
}


def _t(text: object) -> str:
    return QCoreApplication.translate("PurchasesSection", str(text))


class PurchasesSection(AdminSection):
    key = "admin-purchases"
    icon_name = "redeem"

    def __init__(self, session: CounterSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        locale = self.amount_locale
        self.list = AdminList(
            self,
            self._fetch,
            [
                Column(self.tr("Code"), lambda p: p.code),
                Column(self.tr("State"), self.status_text, "status"),
                Column(self.tr("Reward"), lambda p: view_purchase(p, locale).reward, stretch=True),
                Column(
                    self.tr("Points"),
                    lambda p: view_purchase(p, locale).points,
                    "points",
                    right=True,
                ),
                Column(self.tr("Client"), self._client_text),
                Column(
                    self.tr("Date"),
                    lambda p: date_text(p.created_at, locale),
                    "createdAt",
                    optional=True,
                ),
            ],
            sorts=[
                (None, self.tr("Newest first")),
                ("createdAt", self.tr("Date")),
                ("points", self.tr("Points")),
                ("status", self.tr("State")),
            ],
            search_hint=self.tr("Search by code, client name or email"),
            empty_text=self.tr("No exchanges yet. Clients exchange their points at the counter."),
        )
        self.status_chips = ChoiceChips(
            self.tr("State"),
            [
                (None, self.tr("All")),
                (PurchaseStatus.PENDING.value, self.tr("Pending")),
                (PurchaseStatus.DELIVERED.value, self.tr("Delivered")),
                (PurchaseStatus.CANCELED.value, self.tr("Canceled")),
            ],
        )
        self.status_chips.chosen.connect(lambda value: self.list.set_filter("status", value))
        self.type_chips = ChoiceChips(
            self.tr("Kind"),
            [
                (None, self.tr("All")),
                (PurchaseType.PRODUCT.value, self.tr("Rewards")),
                (PurchaseType.MONEY.value, self.tr("Money")),
            ],
        )
        self.type_chips.chosen.connect(lambda value: self.list.set_filter("type", value))
        self.list.add_filter(self.status_chips)
        self.list.add_filter(self.type_chips)
        self.list.activated.connect(self.open_row)
        self.add_page(self.list)

    def title(self) -> str:
        return self.tr("Exchanges")

    def status_text(self, purchase: Purchase) -> str:
        text = STATUS_TEXT.get(purchase.status)
        return _t(text) if text is not None else purchase.status

    def _client_text(self, purchase: Purchase) -> str:
        view = view_purchase(purchase, self.amount_locale)
        return " · ".join(t for t in (view.client_name, view.client_email) if t)

    async def _fetch(self, state: ListState) -> Page[Any]:
        status = state.filter("status")
        kind = state.filter("type")
        return await self.session.call(
            lambda: self.session.api.list_purchases(
                page=state.page,
                limit=state.limit,
                query=state.query or None,
                order=state.sent_order,
                direction=state.sent_direction,
                status=PurchaseStatus(status) if isinstance(status, str) else None,
                type=PurchaseType(kind) if isinstance(kind, str) else None,
            )
        )

    # -- delivery ------------------------------------------------------------------------------
    def open_row(self, row: int) -> None:
        purchase = self.list.item(row)
        if purchase is None:
            return
        if not purchase.is_pending:
            self.banner.show_info(
                self.tr("Exchange %1 is %2: only pending exchanges can be delivered.")
                .replace("%1", purchase.code)
                .replace("%2", self.status_text(purchase).lower())
            )
            return
        view = view_purchase(purchase, self.amount_locale)
        client = view.client_name or self.tr("the client")
        self.ask(
            "deliver",
            self.tr("Deliver exchange %1?").replace("%1", purchase.code),
            self.tr(
                "Hand over %1 to %2 (%3 points already paid). It is marked delivered and "
                "cannot be delivered again."
            )
            .replace("%1", view.reward)
            .replace("%2", client)
            .replace("%3", view.points),
            self.tr("Deliver"),
            subject=purchase,
            danger=False,
            icon_name="redeem",
        )

    def confirm(self, action: str, subject: object) -> None:
        if action == "deliver" and isinstance(subject, Purchase):
            self.run("deliver", self._deliver(subject), buttons=[self.sheet.confirm])

    async def _deliver(self, purchase: Purchase) -> None:
        self.sheet.set_running(True)
        try:
            delivery = await self.session.call(lambda: deliver(self.session.api, purchase))
        finally:
            self.sheet.set_running(False)
        self.sheet.dismiss()
        code = purchase.code
        if delivery.outcome is DeliveryOutcome.DELIVERED:
            await journal_delivery(self.session.journal, delivery.purchase)
            self.session.notify_journal()
            self.banner.show_success(self.tr("Exchange %1 delivered.").replace("%1", code))
        elif delivery.outcome is DeliveryOutcome.EXPIRED:
            self.banner.show_error(
                self.tr(
                    "Exchange %1 has expired and cannot be delivered. Nothing was changed."
                ).replace("%1", code)
            )
        elif delivery.outcome is DeliveryOutcome.CANCELED:
            self.banner.show_error(
                self.tr(
                    "Exchange %1 was canceled and cannot be delivered. Nothing was changed."
                ).replace("%1", code)
            )
        else:
            self.banner.show_info(
                self.tr("Exchange %1 was already delivered. Nothing was changed.").replace(
                    "%1", code
                )
            )
        log.info("purchases: delivery of #%d: %s", purchase.id, delivery.outcome.value)
        self.list.reload()
