"""Redeem: type or scan a purchase code, see the purchase, deliver it.

"Deliver" is the only primary button, enabled only for a pending purchase, and
confirms first on an in-screen sheet whose Confirm is a ``CommitButton`` (armed once
the sheet is painted, one request per tap). The order at the counter is: confirm,
the service says yes, and only then the screen says "Hand over the reward"; before
that it says to keep the reward. A code already delivered or canceled is said on
look-up (the record shows it); an expired one only after the attempt (the record of
an expired code still says pending), and plainly, with nothing to hand over. A
purchase of another client than the one identified is flagged on the card and on
the sheet before confirming. Nothing changes on a refusal; a lost answer is settled
by the API client reading the code again, and when it cannot tell the screen
says so and asks for a new look-up before anything else is tried. Offline nothing
is tried nor queued: the screen says that nothing was sent (``rewards_offline``).
"""

from __future__ import annotations

import logging

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from kiosk.api.errors import AmbiguousOutcome, ApiError, ErrorKind
from kiosk.api.models.clients import Client
from kiosk.api.models.purchases import Purchase
from kiosk.core.counter.offline_client import no_connection
from kiosk.core.counter.redeem import (
    CodeError,
    Delivery,
    DeliveryOutcome,
    PurchaseState,
    belongs_to_other,
    deliver,
    format_when,
    is_complete_code,
    journal_delivery,
    normalize_code,
    parse_code,
    view_purchase,
)
from kiosk.core.session import CounterSession
from kiosk.ui.icons import pixmap
from kiosk.ui.messages import error_text
from kiosk.ui.screens.base import Screen
from kiosk.ui.screens.redeem.card import PurchaseCard
from kiosk.ui.screens.redeem.text import code_text, outcome_texts
from kiosk.ui.screens.rewards.offline import delivery_offline_text
from kiosk.ui.screens.rewards.write import PendingWrite
from kiosk.ui.theme import PRIMARY_PX, current_palette
from kiosk.ui.widgets.banner import BannerSlot
from kiosk.ui.widgets.busy_button import BusyButton
from kiosk.ui.widgets.confirm_sheet import ConfirmSheet
from kiosk.ui.widgets.plain_text import clip
from kiosk.ui.widgets.relayout import PageStack, one_relayout
from kiosk.ui.widgets.scan_field import ScanField
from kiosk.ui.widgets.touch_keyboard import TouchKeyboard, TouchKeyboardController

log = logging.getLogger(__name__)


class RedeemScreen(Screen):
    key = "redeem"
    icon_name = "redeem"
    needs_client = False

    def __init__(self, session: CounterSession) -> None:
        super().__init__(session)
        self.purchase: Purchase | None = None
        self._state: PurchaseState | None = None
        self._uncertain = False  # a delivery whose outcome is unknown: look up again first
        self._other = ""  # the purchase is of another client than this one (their name)
        self._handed = False  # the service said yes: hand over the reward
        self._looking_up = ""
        self._write: PendingWrite[Delivery] | None = None
        self._client_id = session.client.id if session.client else None
        self.code = ScanField()
        self.code.setPlaceholderText(self.tr("Scan or type the purchase code"))
        self.code.setAccessibleName(self.tr("Purchase code"))
        self.code.submitted.connect(lambda text, _scanned: self.look_up(text))
        self.code.textEdited.connect(self._edited)
        self.find_button = BusyButton(self.tr("Look up"))
        self.find_button.setMinimumSize(180, 72)
        self.find_button.clicked.connect(lambda: self.look_up())
        top = QHBoxLayout()
        top.setSpacing(12)
        top.addWidget(self.code, 1)
        top.addWidget(self.find_button)
        self.card = PurchaseCard()
        self.sheet = ConfirmSheet("redeem", danger=False, page=True)
        self.sheet.confirmed.connect(self.confirm)
        self.sheet.dismissed.connect(self.back)
        self.empty = self._empty_page()
        self.pages = PageStack(fit_current=True)  # the card's texts never squeezed
        for page in (self.empty, self.card, self.sheet):
            self.pages.addWidget(page)
        self.deliver_button = BusyButton(self.tr("Deliver"), primary=True)  # opens the sheet
        # (The application's style sheet sets a min-width that setMinimumSize cannot beat.)
        self.deliver_button.setStyleSheet(f"min-width: 320px; min-height: {PRIMARY_PX - 16}px;")
        self.deliver_button.clicked.connect(self.ask)
        self.deliver_hint = QLabel()
        self.deliver_hint.setProperty("role", "hint")
        self.deliver_hint.setWordWrap(True)
        self.action_row = QWidget()
        # The banner's room is the hint's, beside Deliver: at the top it had none at
        # 1024x768 and covered the code field and Look up (issue #21).
        slot = BannerSlot(self.banner, self.action_row, host=self)
        hint_box = QVBoxLayout(slot)
        hint_box.setContentsMargins(0, 0, 0, 0)
        hint_box.addWidget(self.deliver_hint)
        self.move_banner(slot)
        row = QHBoxLayout(self.action_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(slot, 1)
        row.addWidget(self.deliver_button)
        self.keyboard = TouchKeyboard()
        mode = str(session.config.extra.get("on_screen_keyboard", "auto"))
        self.keyboard_controller = TouchKeyboardController(self.keyboard, mode, owner=self)
        self.body.addLayout(top)
        self.body.addWidget(self.pages, 1)
        self.body.addWidget(self.action_row)
        self.body.addWidget(self.keyboard)
        self._show_empty()

    def title(self) -> str:
        return self.tr("Redeem")

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if not self.banner.isHidden():
            self.banner.place()  # its slot, beside Deliver, moved with the action row

    def _empty_page(self) -> QWidget:
        page = QWidget()
        art = QLabel()
        art.setPixmap(pixmap("redeem", current_palette().border, 96))
        art.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_text = QLabel()
        self.empty_text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_text.setWordWrap(True)
        self.empty_text.setStyleSheet("font-size: 24px; font-weight: 600;")
        hint = QLabel(
            self.tr("Press Enter to look it up; a complete code is looked up as soon as it is in.")
        )
        hint.setProperty("role", "hint")
        hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout = QVBoxLayout(page)
        layout.addStretch(1)
        layout.addWidget(art)
        layout.addSpacing(12)
        layout.addWidget(self.empty_text)
        layout.addWidget(hint)
        layout.addStretch(2)
        return page

    # -- life cycle ------------------------------------------------------------------
    def entered(self) -> None:
        if self._write is not None:
            # A delivery still on its way (or done while the screen was away).
            self.run("deliver", self._watch(self._write))
        self.code.setFocus()
        self.code.selectAll()

    def client_changed(self, client: Client | None) -> None:
        new_id = client.id if client else None
        if new_id != self._client_id:
            self._client_id = new_id
            self.reset()

    def reset(self) -> None:
        """Forget the code and the purchase (it shows a client's name)."""
        self.tasks.cancel_all()
        self._write = None  # a delivery on its way still ends and is journaled
        self.code.clear_input()
        with one_relayout(self):
            self.banner.dismiss()
            self.sheet.finish()
            self.find_button.set_busy(False)
            self._show_empty()

    def _show_empty(self, text: str = "") -> None:
        self.purchase = None
        self._state = None
        self._uncertain = False
        self._other = ""
        self._handed = False
        self.card.clear()
        self.empty_text.setText(text or self.tr("Scan the QR or type the code the client shows."))
        self._show_page(self.empty)

    # -- look up -----------------------------------------------------------------------
    def _edited(self, text: str) -> None:
        if is_complete_code(text) and normalize_code(text) != self._looking_up:
            self.look_up(text)

    def take_scan(self, text: str) -> bool:
        """A scan on Redeem (wherever the focus was): a purchase code is looked up; a
        client's DNI barcode is not one (the counter offers that client)."""
        try:
            parse_code(text)
        except CodeError:
            return False
        self.code.setFocus()
        self.look_up(text)
        return True

    def look_up(self, text: str | None = None) -> None:
        typed = self.code.text() if text is None else text
        try:
            code = parse_code(typed)
        except CodeError as error:
            self.banner.show_error(code_text(error.problem))
            return
        if self._writing():
            return
        if self.code.text() != code:
            self.code.setText(code)
        if self.tasks.running("lookup") and code == self._looking_up:
            return  # the scanner's Enter after the code was already complete
        self._looking_up = code
        self.banner.dismiss()
        self.run("lookup", self._look_up(code), buttons=[self.find_button])

    async def _look_up(self, code: str) -> None:
        try:
            found = await self.session.call(lambda: self.session.api.find_purchase(code))
        except ApiError as error:
            if error.kind is ErrorKind.NOT_FOUND:
                log.info("redeem: code not found")
                # Said once, on the page (a banner said it again in other words).
                self._show_empty(
                    self.tr("No purchase has the code %1. Check it and try again.").replace(
                        "%1", code
                    )
                )
                return
            if no_connection(error):
                log.info("redeem: no connection (%s)", error.kind.value)
                self.banner.show_error(delivery_offline_text())
                return
            raise
        finally:
            self._looking_up = ""
        with one_relayout(self):  # the card, the action row and a banner: one layout
            self._show_purchase(found)
            # What the record already shows is said before any attempt.
            if found.is_delivered:
                self.banner.show_error(
                    self.tr("This code was already delivered (%1). Nothing to do.").replace(
                        "%1", self._when(found)
                    )
                )
                self._stop(DeliveryOutcome.ALREADY_DELIVERED)
            elif self._state is PurchaseState.CANCELED:
                self.banner.show_error(
                    self.tr("This exchange was canceled: there is nothing to deliver.")
                )
                self._stop(DeliveryOutcome.CANCELED)
        self.code.selectAll()

    def _stop(self, outcome: DeliveryOutcome) -> None:
        """The card says not to hand anything over (what ``outcome`` means)."""
        self.card.show_notice(outcome_texts(outcome, self.card.view, "", "")[1], "stop")

    def _when(self, purchase: Purchase) -> str:
        return format_when(purchase.updated_at or purchase.created_at, self.session.config.locale)

    def _show_purchase(self, purchase: Purchase, *, expired: bool = False) -> None:
        self.purchase = purchase
        self._uncertain = False
        self._handed = False
        view = view_purchase(purchase, self.session.config.locale, expired=expired)
        self._state = view.state
        self.card.show_view(view)
        client = self.session.client
        self._other = ""
        if client is not None and belongs_to_other(purchase, client.id):
            self._other = client.name or " ".join(
                p for p in (client.first_name, client.last_name) if p
            )
            if view.state is PurchaseState.PENDING:
                self.card.show_notice(self._other_text(), "check")
        self._show_page(self.card)

    def _other_text(self) -> str:
        return self.tr(
            "Not the client identified (%1): this purchase is another client's. "
            "Check who collects it before confirming."
        ).replace("%1", clip(self._other) if self._other else self.tr("another client"))

    def _show_page(self, page: QWidget) -> None:
        """``page`` in, the action row as it fits: one layout of the screen."""
        with one_relayout(self):
            self.pages.setCurrentWidget(page)
            self._update_actions()

    def _update_actions(self) -> None:
        on_sheet = self.pages.currentWidget() is self.sheet
        if on_sheet:
            self.banner.dismiss()  # its room is the action row's, hidden with it
        self.action_row.setVisible(not on_sheet)
        deliverable = self._state is PurchaseState.PENDING and not self._uncertain
        self.deliver_button.setEnabled(deliverable and not self.deliver_button.busy)
        if self.purchase is None:
            self.deliver_hint.setText(self.tr("Look up a code to deliver its purchase."))
        elif self._uncertain:
            self.deliver_hint.setText(
                self.tr("Look up the code again to see whether it was delivered.")
            )
        elif deliverable:
            self.deliver_hint.setText(
                self.tr(
                    "Confirm the delivery first. Keep the reward until the service confirms it."
                )
            )
        elif self._handed:
            self.deliver_hint.setText(
                self.tr("The service confirmed the delivery. Then scan or type the next code.")
            )
        elif self._state is PurchaseState.DELIVERED:
            self.deliver_hint.setText(self.tr("Nothing to deliver. Scan or type the next code."))
        else:
            self.deliver_hint.setText(self.tr("Only a pending purchase can be delivered."))

    # -- deliver -------------------------------------------------------------------------
    def ask(self) -> None:
        purchase = self.purchase
        if purchase is None or self._state is not PurchaseState.PENDING or self._uncertain:
            return
        view = self.card.view
        assert view is not None
        what = self.tr("%1 in money").replace("%1", view.reward) if view.is_money else view.reward
        who = view.client_name or view.client_email
        detail = self.tr("Code %1 will be marked delivered and cannot be used again.").replace(
            "%1", purchase.code
        )
        if self._other:
            detail = f"{self._other_text()}\n{detail}"
        self.sheet.ask(
            self.tr("Confirm the delivery"),
            self.tr("Deliver %1 to %2.").replace("%1", what).replace("%2", who),
            self.tr("Confirm delivery"),
            detail=detail,
            hint=self.tr(
                "Keep the reward until the service confirms the delivery: "
                "an expired or used code is refused."
            ),
        )
        self._show_page(self.sheet)

    def back(self) -> None:
        if self._writing():
            return
        self._show_page(self.card if self.purchase else self.empty)

    def _writing(self) -> bool:
        return self._write is not None and self._write.running

    def confirm(self) -> None:
        purchase = self.purchase
        if self._writing():
            return  # (Confirm is busy with it)
        if purchase is None or self.tasks.running("lookup"):
            self.sheet.finish()
            self.back()
            return
        if not self.session.online:
            with one_relayout(self):
                self.sheet.finish()
                self.back()
                self.banner.show_error(delivery_offline_text())
            return
        self.sheet.set_running(True)
        self._write = PendingWrite("redeem", self._deliver(purchase))
        self.run("deliver", self._watch(self._write))

    async def _deliver(self, purchase: Purchase) -> Delivery:
        """The delivery and its journal row: runs to the end even if the screen is left."""
        delivery = await self.session.call(lambda: deliver(self.session.api, purchase))
        if delivery.changed:
            try:
                await journal_delivery(self.session.journal, delivery.purchase)
            except Exception:
                log.exception("could not write the delivery to today's journal")
            else:
                self.session.notify_journal()
        return delivery

    async def _watch(self, write: PendingWrite[Delivery]) -> None:
        with one_relayout(self):
            self.sheet.set_running(True)
            self._show_page(self.sheet)
        try:
            delivery = await write.result()
        except AmbiguousOutcome as error:
            log.warning("redeem outcome unknown: %s", error)
            self._write = None
            with one_relayout(self):
                self.sheet.finish()
                self.back()
                self._uncertain = True
                self._update_actions()
                self.banner.show_error(error_text(error))
            return
        except ApiError as error:
            self._write = None
            with one_relayout(self):
                self.sheet.finish()
                self.back()
                if no_connection(error):
                    log.info("redeem: no connection (%s)", error.kind.value)
                    self.banner.show_error(delivery_offline_text())
                    return
            raise
        self._write = None
        with one_relayout(self):  # card, action row, banner: one layout, not three
            self.sheet.finish()
            self._delivered(delivery)

    def _delivered(self, delivery: Delivery) -> None:
        self._show_purchase(delivery.purchase, expired=delivery.outcome is DeliveryOutcome.EXPIRED)
        purchase = delivery.purchase
        said, notice = outcome_texts(
            delivery.outcome, self.card.view, purchase.code, self._when(purchase)
        )
        if delivery.changed:
            # The service said yes: now, and only now, the goods leave.
            self._handed = True
            self.card.show_notice(notice, "go")
            self._update_actions()
            self.banner.show_success(said)
        else:
            self.card.show_notice(notice, "stop")
            self.banner.show_error(said)
        self.code.setFocus()
        self.code.selectAll()
