"""Points: credit the active client by purchase amount or by point items.

Left, the amount in 64 px digits (smaller when it must, to fit whole) over the keypad
(the physical keyboard works too: digits, the locale's separators, Backspace, Enter
for the next step), or the grid of point items; right, the basket, the preview with
its "Credit 1.234 points" button, and "Preview" at the bottom. Preview and credit are
two buttons in two places: "Preview" never turns into the credit under the finger,
and the credit button is a ``CommitButton``, armed once the preview is painted and
``ARM_GUARD_MS`` have passed, busy at the tap (a double tap or Enter, Enter can never
credit unseen, nor twice). A preview the service answers without figures is no error:
the screen says "Preview unavailable" and offers the credit without them, armed the same
way. A digit past the largest amount is refused at the key, with the reason. After a
credit the client is read again until a level change shows
(``kiosk.core.counter.credit_level``): "New level: Plata". The optional ticket number sits
top right. The sale itself (its state, its fixed
external id, the journal) lives in ``kiosk.core.counter.credit``; this screen shows it.
Point items from the offline copy say how old they are. An edit or answer changes
only what differs, laid out once; a request in flight refuses edits by a flag, with
only the action buttons disabled (issue #4: no event-loop stall over 16 ms).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from PySide6.QtCore import QElapsedTimer, Qt, QTimer
from PySide6.QtGui import QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget
from shiboken6 import isValid

from kiosk.api.errors import ApiError
from kiosk.api.models.clients import Client
from kiosk.core.counter.abandon import record_abandoned, unfinished
from kiosk.core.counter.basket import BasketFull
from kiosk.core.counter.catalogue import PointItemCatalogue, saved_at_text
from kiosk.core.counter.credit import CreditFlow
from kiosk.core.counter.credit_level import Sleep
from kiosk.core.counter.sale import CreditOutcome, Sale, SaleMode, SaleState
from kiosk.core.session import CounterSession
from kiosk.ui.screens.base import Screen
from kiosk.ui.screens.points.bar import ModeBar
from kiosk.ui.screens.points.items import ItemGrid
from kiosk.ui.screens.points.panels import AmountPad, CreditResultView
from kiosk.ui.screens.points.side import SaleSide
from kiosk.ui.screens.points.steps import CreditSteps
from kiosk.ui.screens.points.text import (
    basket_full_text,
)
from kiosk.ui.widgets.amount_entry import ENTER_KEYS, amount_key, next_text
from kiosk.ui.widgets.commit_button import ARM_GUARD_MS
from kiosk.ui.widgets.relayout import PageStack, one_relayout

log = logging.getLogger(__name__)

RESULT_SECONDS = 20
BASKET_MAX_PX = 200


class PointsScreen(CreditSteps, Screen):
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
        self.level_sleep: Sleep = asyncio.sleep  # the level re-read's waits (tests: no sleep)
        self._result_shown = QElapsedTimer()  # Enter on the result: not in the guard time
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
        items_top = QHBoxLayout()  # "Refresh items" with the items it refreshes
        items_top.setSpacing(8)
        items_top.addWidget(self.items_age, 1)
        items_top.addStretch(0)
        items_top.addWidget(self.bar.refresh)
        items_column.addLayout(items_top)
        self.items_stack = PageStack()  # the grid, or the note (with Refresh above it)
        self.items_stack.addWidget(self.grid)
        self.items_stack.addWidget(self.items_note)
        items_column.addWidget(self.items_stack, 1)
        self.modes = PageStack()
        for page in (self.pad, self.items_page):
            self.modes.addWidget(page)
        # Right: basket, hint, preview, main button.
        self.side = SaleSide(locale)
        self.side.add_problem(self.pad.problem)
        self.basket, self.preview_card = self.side.basket, self.side.preview_card
        self.preview_button, self.credit_button = self.side.preview, self.side.credit
        self.basket.setMaximumHeight(BASKET_MAX_PX)
        items_column.addWidget(self.basket)  # under the grid: the side keeps the preview's room
        self.basket.removed.connect(self.remove_item)
        self.basket.cleared.connect(self.clear_items)
        self.preview_button.clicked.connect(self._preview_tapped)
        self.credit_button.committed.connect(self._start_credit)
        # The pages go into the screen first, then their contents into them: each part
        # is styled once as it joins (a finished tree put in a parent is styled again).
        self.pages = PageStack()
        self.body.addWidget(self.pages, 1)
        sale_page = QWidget()  # the bar is part of it: hidden with it behind the result
        self.pages.addWidget(sale_page)
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
        self.pages.addWidget(self.result)
        self.result_timer = QTimer(self)
        self.result_timer.setSingleShot(True)
        self.result_timer.setInterval(RESULT_SECONDS * 1000)
        self.result_timer.timeout.connect(self.new_sale)
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
        self.credit_button.disarm()
        self.flow.new_sale(SaleMode.AMOUNT)
        self.ticket.clear()
        self.banner.dismiss()
        self._render()

    def unfinished(self) -> bool:
        return unfinished(self.flow.sale)

    def abandon(self) -> None:
        sale, client = self.flow.sale, self.session.client
        self.session.keep_going(record_abandoned(self.session, sale, client))

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
        if self.sale.state is SaleState.EDITING:
            self.credit_button.disarm()
        else:
            self.credit_button.arm()  # another ticket: what the tap credits changed
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
        if self._working or self.sale.locked:
            return
        text, refused = next_text(self.sale.amount_text, key, self.session.config.locale)
        if refused is not None:
            self.pad.show_problem(refused)  # the figure stays whole, as it was
            return
        self.type_text(text)

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
        if event.key() in ENTER_KEYS:
            self.next_step()
            return
        if self._working or self.sale.mode is not SaleMode.AMOUNT or self.sale.locked:
            super().keyPressEvent(event)
            return
        key = amount_key(event, self.session.config.locale)
        if key is None:
            super().keyPressEvent(event)
        else:
            self._key(key)

    def escape(self) -> bool:
        """Escape: a preview is discarded (the amount or items stay, to edit); True if so."""
        if self._working or self.sale.state is not SaleState.PREVIEWED:
            return False
        self._edit(self.sale.reopen)
        self.setFocus()
        return True

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.setFocus()  # a tap outside the ticket field: typing goes to the amount again
        super().mousePressEvent(event)

    # -- preview, credit, result -----------------------------------------------------------
    def next_step(self) -> None:
        """Enter: the next step, through the same guards as a tap (a credit only by the
        armed credit button; the result stays at least the guard time)."""
        if self._working:
            return
        state = self.sale.state
        if state is SaleState.EDITING:
            self._start_preview()
        elif state in (SaleState.PREVIEWED, SaleState.FAILED):
            self.credit_button.click()  # ignored until armed
        elif state is SaleState.DONE:
            shown = self._result_shown
            if shown.isValid() and shown.elapsed() >= ARM_GUARD_MS:
                self.new_sale()

    def _preview_tapped(self) -> None:
        # The keyboard keeps editing the amount: Preview, disabled while it runs, would
        # hand the focus to the next button in the window ("Change client").
        self.setFocus()
        if self.sale.state is SaleState.EDITING:
            self._start_preview()

    def new_sale(self) -> None:
        if self._working:
            return
        self.credit_button.disarm()
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
        self.side.enable_preview(not working and self.sale.state is SaleState.EDITING)

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
                self._result_shown.start()
            self.pages.setCurrentWidget(self.result)
            return
        self._shown_outcome = None
        self._result_shown.invalidate()
        self.pages.setCurrentIndex(0)
        items = sale.mode is SaleMode.ITEMS
        self.bar.show_mode(sale.mode)
        self.bar.show_ticket(sale.ticket_text)
        self.pad.show_text(sale.amount_text)
        if not items:
            self.modes.setCurrentWidget(self.pad)
        elif self.grid.tiles:
            self.modes.setCurrentWidget(self.items_page)
            self.items_stack.setCurrentWidget(self.grid)
        else:
            if not self.tasks.running("items"):
                self.items_note.setText(
                    self.tr("No point items are offered at this branch.")
                    if self.catalogue.loaded
                    else self.tr("The point items could not be loaded. Tap Refresh items.")
                )
            self.modes.setCurrentWidget(self.items_page)
            self.items_stack.setCurrentWidget(self.items_note)
        self.grid.set_counts(dict(sale.basket.lines()))
        names = {item.id: item.name or f"#{item.id}" for item in self.catalogue.items}
        self.side.show_sale(sale, names)
        self.side.enable_preview(not self._working and sale.state is SaleState.EDITING)
