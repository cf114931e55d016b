"""Points: credit the active client by purchase amount or by point items.

Left, the amount in 64 px digits over the keypad (the physical keyboard works
too: digits, the locale's separators, Backspace, Enter for the next step), or
the grid of point items; right, the basket, the preview and the main button,
which walks the sale: "Preview" -> "Credit 1.234 points" -> the result. The
optional ticket number sits top right. The sale itself (its state, its fixed
external id, the journal) lives in ``kiosk.core.credit``; this screen shows it.
Point items from the offline copy say how old they are. An edit or answer changes
only what differs, laid out once; a request in flight refuses edits by a flag, with
only the action buttons disabled (issue #4: no event-loop stall over 16 ms).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget
from shiboken6 import isValid

from kiosk.api.errors import ApiError
from kiosk.api.models.clients import Client
from kiosk.core.amounts import AmountError
from kiosk.core.basket import BasketFull
from kiosk.core.catalogue import PointItemCatalogue, saved_at_text
from kiosk.core.credit import CreditFlow
from kiosk.core.credit_outbox import OutboxSender
from kiosk.core.sale import CreditOutcome, Sale, SaleError, SaleMode, SaleState
from kiosk.core.session import CounterSession
from kiosk.core.tickets import TicketError
from kiosk.ui.messages import amount_text, error_text
from kiosk.ui.screens.base import Screen
from kiosk.ui.screens.points_bar import ModeBar
from kiosk.ui.screens.points_items import ItemGrid
from kiosk.ui.screens.points_panels import (
    MAX_AMOUNT_TEXT,
    AmountPad,
    CreditResultView,
)
from kiosk.ui.screens.points_side import SaleSide
from kiosk.ui.screens.points_text import (
    basket_full_text,
    credit_failed_text,
    sale_problem_text,
    ticket_problem_text,
)
from kiosk.ui.widgets.keypad import BACKSPACE
from kiosk.ui.widgets.relayout import PageStack, one_relayout

log = logging.getLogger(__name__)

RESULT_SECONDS = 20
ENTER_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


class PointsScreen(Screen):
    key = "points"
    icon_name = "points"
    needs_client = True

    def __init__(self, session: CounterSession) -> None:
        super().__init__(session)
        locale = session.config.locale
        self.flow = CreditFlow(session)
        self.catalogue = PointItemCatalogue(session)
        self.catalogue.changed.connect(self._items_changed)
        self._client_id = session.client.id if session.client else None
        self._working = False
        self._shown_outcome: CreditOutcome | None = None
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.bar = ModeBar()
        self.bar.mode_chosen.connect(lambda mode: self.set_mode(SaleMode(mode)))
        self.bar.refresh_requested.connect(self.reload_items)
        self.bar.ticket_edited.connect(self._ticket_edited)
        self.amount_tab, self.items_tab = self.bar.amount_tab, self.bar.items_tab
        self.ticket, self.ticket_problem = self.bar.ticket, self.bar.ticket_problem
        # Left: the amount pad or the items grid.
        self.pad = AmountPad(locale)
        self.pad.keypad.pressed.connect(self._key)
        self.grid = ItemGrid(locale)
        self.grid.tapped.connect(self.add_item)
        self.items_note = QLabel()
        self.items_note.setProperty("role", "muted")
        self.items_note.setWordWrap(True)
        self.items_note.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.items_note.setStyleSheet("font-size: 22px;")
        self.items_age = QLabel()  # "Point items as of 14:32 (offline)"
        self.items_age.setProperty("role", "muted")
        self.items_age.setStyleSheet("font-size: 17px; font-weight: 600;")
        self.items_age.hide()
        self.items_page = QWidget()
        items_column = QVBoxLayout(self.items_page)
        items_column.setContentsMargins(0, 0, 0, 0)
        items_column.setSpacing(8)
        items_column.addWidget(self.items_age)
        items_column.addWidget(self.grid, 1)
        self.modes = PageStack()
        for page in (self.pad, self.items_page, self.items_note):
            self.modes.addWidget(page)
        # Right: basket, hint, preview, main button.
        self.side = SaleSide(locale)
        self.basket, self.preview_card = self.side.basket, self.side.preview_card
        self.main = self.side.main
        self.basket.removed.connect(self.remove_item)
        self.basket.cleared.connect(self.clear_items)
        self.main.clicked.connect(self.next_step)
        sale_page = QWidget()  # the bar is part of it: hidden with it behind the result
        column = QVBoxLayout(sale_page)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(16)
        row = QHBoxLayout()
        row.setSpacing(24)
        row.addWidget(self.modes, 3)
        row.addWidget(self.side, 2)
        column.addWidget(self.bar)
        column.addLayout(row, 1)
        self.result = CreditResultView(locale)
        self.result.new_sale.connect(self.new_sale)
        self.pages = PageStack()
        self.pages.addWidget(sale_page)
        self.pages.addWidget(self.result)
        self.result_timer = QTimer(self)
        self.result_timer.setSingleShot(True)
        self.result_timer.setInterval(RESULT_SECONDS * 1000)
        self.result_timer.timeout.connect(self.new_sale)
        self.body.addWidget(self.pages, 1)
        self._render()

    def title(self) -> str:
        return self.tr("Points")

    # -- life cycle ------------------------------------------------------------------
    async def preload(self) -> None:
        self.grid.set_items(await self.catalogue.preload())
        self._show_items_age()
        self._render()

    def entered(self) -> None:
        self.setFocus()
        sale, running = self.flow.sale, self.flow.in_flight
        if sale.state is SaleState.CREDITING and running is not None and not running.done():
            self._follow(sale, running)  # a credit that went on while the screen was away
        elif sale.mode is SaleMode.ITEMS and not self.catalogue.loaded:
            self.reload_items()
        self._render()

    def client_changed(self, client: Client | None) -> None:
        client_id = client.id if client is not None else None
        if client_id != self._client_id:  # a refreshed balance is the same client
            self._client_id = client_id
            self.reset()

    def reset(self) -> None:
        self.result_timer.stop()
        self.flow.new_sale(SaleMode.AMOUNT)
        self.ticket.clear()
        self.banner.dismiss()
        self._render()

    # -- editing -----------------------------------------------------------------------
    @property
    def sale(self) -> Sale:
        return self.flow.sale

    def _edit(self, change: Any) -> bool:
        """Apply an edit of the sale; refused while a request runs or after the result."""
        if self._working or self.sale.locked:
            return False
        try:
            change()
        except BasketFull as full:
            self.banner.show_error(basket_full_text(full.limit))
            return False
        self.pad.show_problem("")
        if self.banner.kind == "error":
            self.banner.dismiss()
        self._render()
        return True

    def set_mode(self, mode: SaleMode) -> None:
        if not self._edit(lambda: self.sale.set_mode(mode)):
            self._render()  # keep the toggle showing the sale's mode
            return
        if mode is SaleMode.ITEMS and not self.catalogue.loaded:
            self.reload_items()

    def type_text(self, text: str) -> None:
        self._edit(lambda: self.sale.set_amount_text(text))

    def _key(self, key: str) -> None:
        text = self.sale.amount_text
        if key == BACKSPACE:
            self.type_text(text[:-1])
        elif len(text) < MAX_AMOUNT_TEXT:
            self.type_text(text + key)

    def _ticket_edited(self, text: str) -> None:
        self.bar.show_ticket_problem("")
        if not self._edit(lambda: self.sale.set_ticket_text(text)):
            self.bar.show_ticket(self.sale.ticket_text)

    def add_item(self, item_id: int) -> None:
        self._edit(lambda: self.sale.add_item(item_id))

    def remove_item(self, item_id: int) -> None:
        self._edit(lambda: self.sale.remove_item(item_id))

    def clear_items(self) -> None:
        self._edit(self.sale.clear_items)

    def reload_items(self) -> None:
        if self.tasks.running("items"):
            return
        self.items_note.setText(self.tr("Loading the point items…"))
        self.run("items", self._load_items(), buttons=[])

    async def _load_items(self) -> None:
        self.bar.refresh.setEnabled(False)
        try:
            self.grid.set_items(await self.catalogue.refresh())
        except ApiError as error:
            self.show_error(error)
        finally:
            self.bar.refresh.setEnabled(not self._working)
            self._show_items_age()
            self._render()

    def _items_changed(self, _: None) -> None:
        """The catalogue fetched a fresh list by itself (the connection came back)."""
        if isValid(self):
            self.grid.set_items(self.catalogue.items)
            self._show_items_age()
            self._render()

    def _show_items_age(self) -> None:
        """Say when the point items shown were fetched, if they come from the offline copy."""
        saved_at = self.catalogue.saved_at
        if self.catalogue.from_cache and saved_at is not None:
            when = saved_at_text(saved_at, self.session.config.locale)
            self.items_age.setText(self.tr("Point items as of %1 (offline)").replace("%1", when))
            self.items_age.setVisible(True)
        else:
            self.items_age.setVisible(False)

    # -- keyboard ------------------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:
        key, text = event.key(), event.text()
        if key in ENTER_KEYS:
            self.next_step()
            return
        if self._working or self.sale.mode is not SaleMode.AMOUNT or self.sale.locked:
            super().keyPressEvent(event)
            return
        locale = self.session.config.locale
        if key == Qt.Key.Key_Backspace:
            self._key(BACKSPACE)
        elif text.isdigit() and text.isascii():
            self._key(text)
        elif text in (".", ",") and event.modifiers() & Qt.KeyboardModifier.KeypadModifier:
            self._key(locale.decimal_separator)  # the numeric pad's key is the decimal one
        elif text in (locale.decimal_separator, locale.group_separator):
            self._key(text)
        else:
            super().keyPressEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.setFocus()  # a tap outside the ticket field: typing goes to the amount again
        super().mousePressEvent(event)

    # -- the main button -------------------------------------------------------------------
    def next_step(self) -> None:
        if self._working:
            return
        state = self.sale.state
        if state is SaleState.EDITING:
            self._start_preview()
        elif state in (SaleState.PREVIEWED, SaleState.FAILED):
            self._start_credit()
        elif state is SaleState.DONE:
            self.new_sale()

    def new_sale(self) -> None:
        if self._working:
            return
        self.result_timer.stop()
        self.flow.new_sale()
        self.ticket.clear()
        self.banner.dismiss()
        self._render()
        self.setFocus()

    def _set_working(self, working: bool) -> None:
        """While a request runs, edits are refused (``_edit``, ``next_step`` and the
        keys check the flag) and the action buttons are disabled; the tiles and the
        basket only ignore taps: disabling them restyled every tile twice a request."""
        self._working = working
        self.bar.set_working(working)
        self.pad.keypad.setEnabled(not working)

    def _start_preview(self) -> None:
        self.banner.dismiss()
        self._set_working(True)
        self.run("preview", self._preview(), buttons=[self.main])

    async def _preview(self) -> None:
        try:
            await self.flow.preview()
        except (AmountError, TicketError, SaleError, ApiError) as error:
            self._problem(error)
        finally:
            self._set_working(False)
            self._render()

    def _start_credit(self) -> None:
        self.banner.dismiss()
        try:
            attempt = self.flow.begin_credit()
        except (TicketError, SaleError) as error:
            self._problem(error)
            self._render()
            return
        except ValueError as error:  # a misconfigured kiosk (its id): for the log and IT
            self.show_error(error)
            return
        self._follow(attempt.sale, self.flow.start_credit(attempt))

    def _follow(self, sale: Sale, running: asyncio.Task[CreditOutcome]) -> None:
        """Show the credit running in ``running`` until it ends (the credit itself goes
        on even if this screen's task is cancelled)."""
        self._set_working(True)
        self._render()
        self.run("credit", self._credit(sale, running), buttons=[self.main])

    async def _credit(self, sale: Sale, running: asyncio.Task[CreditOutcome]) -> None:
        outcome: CreditOutcome | None = None
        try:
            outcome = await asyncio.shield(running)
        except ApiError as error:
            if sale is self.sale:
                self._credit_failed(sale, error)
        finally:
            self._set_working(False)
            self._render()
        if outcome is not None and sale is self.sale:
            self.result_timer.start()

    def _credit_failed(self, sale: Sale, error: ApiError) -> None:
        log.warning("points: credit failed: %s", error)
        outbox = isinstance(self.flow.sender, OutboxSender)
        self.banner.show_error(
            credit_failed_text(error_text(error), outbox=outbox, maybe_applied=sale.maybe_applied)
        )

    def _problem(self, error: BaseException) -> None:
        if isinstance(error, AmountError):
            self.pad.show_problem(amount_text(error))
        elif isinstance(error, TicketError):
            self.bar.show_ticket_problem(ticket_problem_text())
        elif isinstance(error, SaleError):
            self.banner.show_error(sale_problem_text(error.problem))
        else:
            self.show_error(error)

    # -- showing the sale ------------------------------------------------------------------
    def _render(self) -> None:
        with one_relayout(self):  # what changes is laid out once, not at each show()
            self._show_sale()

    def _show_sale(self) -> None:
        sale = self.sale
        outcome = sale.outcome
        if sale.state is SaleState.DONE and outcome is not None:
            basket = sale.basket
            units = basket.total_units if sale.mode is SaleMode.ITEMS else 0
            amount = sale.amount if sale.mode is SaleMode.AMOUNT else None
            if self._shown_outcome is not outcome:  # (a render with the result on show)
                self._shown_outcome = outcome
                self.result.show_outcome(outcome, amount, units, sale.ticket)
            self.pages.setCurrentWidget(self.result)
            return
        self._shown_outcome = None
        self.pages.setCurrentIndex(0)
        items = sale.mode is SaleMode.ITEMS
        self.bar.show_mode(sale.mode)
        self.bar.show_ticket(sale.ticket_text)
        self.pad.show_text(sale.amount_text)
        if not items:
            self.modes.setCurrentWidget(self.pad)
        elif self.grid.tiles:
            self.modes.setCurrentWidget(self.items_page)
        else:
            if not self.tasks.running("items"):
                self.items_note.setText(
                    self.tr("No point items are offered at this branch.")
                    if self.catalogue.loaded
                    else self.tr("The point items could not be loaded. Tap Refresh items.")
                )
            self.modes.setCurrentWidget(self.items_note)
        self.grid.set_counts(dict(sale.basket.lines()))
        names = {item.id: item.name or f"#{item.id}" for item in self.catalogue.items}
        self.side.show_sale(sale, names)
