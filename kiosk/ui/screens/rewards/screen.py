"""Rewards: the client's catalog at their level, and exchanges for a reward or money.

Pages: the grid of rewards or the money amount (a toggle on top), then a
confirmation sheet saying exactly what will happen, then the result with the
pickup code large and as a QR. Refusals (insufficient points, no stock, level,
cap, disabled, money minimum) end in plain words; a lost answer that cannot be
settled says "not certain: check before retrying" and is never resent. Offline, or
for a client accepted offline (unverified), nothing is tried (``rewards_offline``).
A change of page and of the bar is laid out once (``one_relayout``, issue #4).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from decimal import Decimal

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QLabel

from kiosk.api.errors import AmbiguousOutcome, ApiError, ErrorKind, Reason
from kiosk.api.models.clients import Client
from kiosk.core.amounts import format_points
from kiosk.core.counter.catalogue import catalogue_changes
from kiosk.core.counter.offline_client import is_unverified, no_connection
from kiosk.core.counter.rewards import (
    ExchangeDone,
    ExchangeKind,
    LevelLadder,
    RewardCard,
    level_of,
    load_catalog,
    load_ladder,
    with_balance,
)
from kiosk.core.session import CounterSession
from kiosk.ui.icons import icon
from kiosk.ui.messages import error_text
from kiosk.ui.screens.base import Screen
from kiosk.ui.screens.rewards.grid import RewardGrid
from kiosk.ui.screens.rewards.money import MoneyPanel
from kiosk.ui.screens.rewards.offline import exchange_offline_text, exchange_refusal
from kiosk.ui.screens.rewards.sheets import ExchangeResult, segment_button, segment_style
from kiosk.ui.screens.rewards.text import SheetTexts, money_sheet, result_texts, reward_sheet
from kiosk.ui.screens.rewards.write import PendingWrite, exchange_and_journal
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.confirm_sheet import ConfirmSheet
from kiosk.ui.widgets.elided import ElidedLabel
from kiosk.ui.widgets.qr_view import load_encoder
from kiosk.ui.widgets.relayout import PageStack, one_relayout
from kiosk.ui.widgets.whole_button import WholeButton

log = logging.getLogger(__name__)

# Refusals of an exchange: nothing happened, the screen says why in plain words.
REFUSALS = frozenset(
    {
        Reason.INSUFFICIENT_POINTS,
        Reason.NO_STOCK,
        Reason.PRODUCT_DISABLED,
        Reason.LEVEL_NOT_ALLOWED,
        Reason.EXCHANGE_CAP,
        Reason.MONEY_MINIMUM,
    }
)


class RewardsScreen(Screen):
    key = "rewards"
    icon_name = "rewards"
    needs_client = True

    def __init__(self, session: CounterSession) -> None:
        super().__init__(session)
        locale = session.config.locale
        self._ladder: LevelLadder | None = None
        self._client_id: int | None = None
        self._level_id: int | None = None  # the level the catalog was priced for
        self._repriced = True  # False: a new balance came while hidden (see entered)
        # A manager changed the rewards or their stock: read the catalog again (#14).
        self._stale = False
        catalogue_changes(session).rewards.connect(self._rewards_changed)
        self._chosen: RewardCard | None = None
        self._money: Decimal | None = None
        # The client's exchanges by reward, as this counter saw them (its own, and a
        # cap the service refused): the catalog does not say what a client took.
        self._used: dict[int, int] = {}
        self._write: PendingWrite[ExchangeDone] | None = None
        p = current_palette()
        self.rewards_tab = segment_button(self.tr("Rewards"), "rewards")
        self.money_tab = segment_button(self.tr("Money"), "money")
        self.tabs = QButtonGroup(self)
        self.tabs.setExclusive(True)
        self.tabs.addButton(self.rewards_tab)
        self.tabs.addButton(self.money_tab)
        self.rewards_tab.setChecked(True)
        self.rewards_tab.clicked.connect(lambda: self._switch(self.show_catalog))
        self.money_tab.clicked.connect(lambda: self._switch(self.show_money))
        self.summary = ElidedLabel(keep_chars=12)
        self.summary.setProperty("role", "muted")
        self.refresh = WholeButton(self.tr("Refresh"))
        self.refresh.setIcon(icon("refresh", p.text))
        self.refresh.setMinimumHeight(48)
        self.refresh.clicked.connect(self.reload)
        bar = QHBoxLayout()
        bar.setSpacing(8)
        bar.addWidget(self.rewards_tab)
        bar.addWidget(self.money_tab)
        bar.addSpacing(16)
        bar.addWidget(self.summary)
        bar.addStretch(1)
        bar.addWidget(self.refresh)
        self.grid = RewardGrid(locale)
        self.grid.chosen.connect(self.choose)
        self.empty = QLabel()
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.setProperty("role", "muted")
        self.empty.setStyleSheet("font-size: 22px;")
        self.money = MoneyPanel(locale)
        self.money.requested.connect(self.ask_money)
        self.sheet = ConfirmSheet("rewards", danger=False, page=True)
        self.sheet.confirmed.connect(self.confirm)
        self.sheet.dismissed.connect(self.back)
        self.result = ExchangeResult()
        self.result.done.connect(self.finish)
        self.pages = PageStack()
        for page in (self.grid, self.empty, self.money, self.sheet, self.result):
            self.pages.addWidget(page)
        self.setStyleSheet(segment_style())
        self.body.addLayout(bar)
        self.body.addWidget(self.pages, 1)
        self._show_empty(self.tr("Identify a client to see the rewards they can exchange."))

    def title(self) -> str:
        return self.tr("Rewards")

    # -- life cycle ------------------------------------------------------------------
    async def preload(self) -> None:
        load_encoder()  # (warm-up) the pickup QR of the first exchange is then instant
        self._ladder = await self.session.call(lambda: load_ladder(self.session.api))

    def entered(self) -> None:
        client = self.session.client
        write = self._write
        if write is not None and client is not None and write.owner == client.id:
            # An exchange still on its way (or done while the screen was away).
            self.run("exchange", self._watch(write, client))
        stale = self._stale or not self.grid.tiles
        if client is not None and (client.id != self._client_id or stale):
            self._client_id = client.id
            self.reload()
        elif client is not None and not self._repriced:
            self._reprice(client)

    def client_changed(self, client: Client | None) -> None:
        if client is not None and client.id == self._client_id:
            # The same client with a new balance (after an exchange or a credit); a
            # hidden screen re-prices when shown (not inside another screen's answer).
            if self.isVisible():
                self._reprice(client)
            else:
                self._repriced = False
            return
        self.reset()
        if client is not None and self.isVisible():
            self._client_id = client.id
            self.reload()

    def _reprice(self, client: Client) -> None:
        self._repriced = True
        self.grid.set_cards(with_balance(self.grid.cards(), client.balance))
        self._summarize()
        if level_of(client) != self._level_id:
            self.reload()  # a credit moved them up a level: other prices

    def reset(self) -> None:
        self.tasks.cancel_all()
        self._write = None  # a write on its way still ends and is journaled
        self._client_id = None
        self._chosen = None
        self._money = None
        self._used = {}
        self.grid.set_used({})
        self.grid.set_cards([])
        self.grid.verticalScrollBar().setValue(0)  # the next client's catalog from its top
        self.result.clear()
        self.money.clear()
        self.sheet.finish()
        self.money.exchange.set_busy(False)
        self.banner.dismiss()
        self.summary.setText("")
        self.rewards_tab.setChecked(True)
        self._show_empty(self.tr("Identify a client to see the rewards they can exchange."))

    # -- the catalog -----------------------------------------------------------------
    def _rewards_changed(self, _: None) -> None:
        """A manager changed the rewards: read again now if shown, else when shown."""
        self._stale = True
        if self.isVisible():
            self.reload()

    def reload(self) -> None:
        self._stale = False
        client = self.session.client
        if is_unverified(client):
            self._show_empty(exchange_refusal(self.session, client) or "")
        elif client is not None:
            self.run("catalog", self._load(), buttons=[])

    async def _load(self) -> None:
        client = self.session.client
        if client is None:
            return
        self.refresh.setEnabled(False)
        if not self.grid.tiles and self.pages.currentWidget() is self.empty:
            self._show_empty(self.tr("Loading the rewards…"))
        try:
            if self._ladder is None:
                self._ladder = await self.session.call(lambda: load_ladder(self.session.api))
            ladder = self._ladder
            cards = await self.session.call(lambda: load_catalog(self.session.api, client, ladder))
        except ApiError as error:
            if no_connection(error):
                log.info("rewards: no connection (%s)", error.kind.value)
                # Said once: on the page when nothing else shows, else in the banner.
                if self.pages.currentWidget() is self.empty:
                    self._show_empty(exchange_offline_text())
                else:
                    self.banner.show_error(exchange_offline_text())
                return
            if self.pages.currentWidget() is self.empty:
                self._show_empty(
                    self.tr("The rewards could not be loaded. Tap Refresh to try again.")
                )
            raise
        finally:
            self.refresh.setEnabled(True)
        ready = await self.grid.prepare(cards)  # new tiles one per loop turn: no freeze
        current = self.session.client
        if not ready or current is None or current.id != client.id:
            return
        self._level_id = level_of(client)
        self.grid.set_cards(with_balance(cards, current.balance))
        self._summarize()
        if self.pages.currentWidget() is self.empty:
            await asyncio.sleep(0)  # tiles placed this turn, the page shown the next (#4)
            now = self.session.client
            if now is None or now.id != client.id:  # (a new balance is the same client)
                return
        if self.pages.currentWidget() in (self.grid, self.empty):
            self.show_catalog()

    def _summarize(self) -> None:
        cards = self.grid.cards()
        affordable = sum(1 for c in cards if c.affordable and not self.grid.used_up(c))
        self.summary.setText(
            self.tr("%1 of %2 rewards within reach")
            .replace("%1", str(affordable))
            .replace("%2", str(len(cards)))
            if cards
            else ""
        )

    def _switch(self, show: Callable[[], None]) -> None:
        if self._writing():
            # The request is on its way: stay on its sheet.
            (self.money_tab if self._money is not None else self.rewards_tab).setChecked(True)
            return
        self.banner.dismiss()
        self._chosen, self._money = None, None
        show()

    def show_catalog(self) -> None:
        with one_relayout(self):
            self.rewards_tab.setChecked(True)
            self.summary.show()
            self.refresh.show()
            if self.grid.tiles:
                self.pages.setCurrentWidget(self.grid)
            elif is_unverified(self.session.client):
                self.reload()  # says why: no rewards until identified online
            elif self.tasks.running("catalog"):
                self._show_empty(self.tr("Loading the rewards…"))
            else:
                self._show_empty(self.tr("No rewards are available for this client right now."))

    def show_money(self) -> None:
        with one_relayout(self):
            self.money_tab.setChecked(True)
            self.summary.hide()
            self.refresh.hide()
            self.pages.setCurrentWidget(self.money)
        self.money.amount.setFocus()

    def _show_empty(self, text: str) -> None:
        with one_relayout(self):
            self.empty.setText(text)
            self.pages.setCurrentWidget(self.empty)

    # -- exchange for a reward ---------------------------------------------------------
    def _refuse_now(self) -> bool:
        """Offline or unverified: say why and try nothing."""
        refusal = exchange_refusal(self.session, self.session.client)
        if refusal is not None:
            self.banner.show_error(refusal)
        return refusal is not None

    def choose(self, card: RewardCard) -> None:
        locale = self.session.config.locale
        if self._refuse_now():
            return
        if not card.in_stock:
            self.banner.show_info(self.tr("This reward is out of stock."))
            return
        if self.grid.used_up(card):
            self.banner.show_info(
                error_text(ApiError(ErrorKind.CONFLICT, reason=Reason.EXCHANGE_CAP))
            )
            return
        if card.missing:
            self.banner.show_info(
                self.tr("The client is missing %1 points for %2.")
                .replace("%1", format_points(card.missing, locale))
                .replace("%2", card.name)
            )
            return
        self.banner.dismiss()
        self._chosen, self._money = card, None
        self._ask("rewards", reward_sheet(card, locale))

    def _ask(self, icon_name: str, texts: SheetTexts) -> None:
        with one_relayout(self):
            self.sheet.ask(
                texts.heading,
                texts.message,
                texts.confirm,
                detail=texts.detail,
                hint=texts.hint,
                icon_name=icon_name,
            )
            self.pages.setCurrentWidget(self.sheet)

    # -- exchange for money --------------------------------------------------------------
    def ask_money(self, amount: Decimal) -> None:
        client = self.session.client
        if client is None or self._refuse_now():
            return
        locale = self.session.config.locale
        self.banner.dismiss()
        self._chosen, self._money = None, amount
        self._ask("money", money_sheet(amount, client.balance, locale))

    # -- confirm, result -----------------------------------------------------------------
    def _writing(self) -> bool:
        return self._write is not None and self._write.running

    def confirm(self) -> None:
        """The sheet's Confirm was accepted (armed, once): send the exchange, once."""
        client = self.session.client
        if self._writing():
            return  # (Confirm is busy with it)
        if client is None or (self._chosen is None and self._money is None):
            self.sheet.finish()
            return
        if self._refuse_now():
            self.sheet.finish()
            self._close_sheet()
            return
        self.sheet.set_running(True)
        work = exchange_and_journal(self.session, client, self._chosen, self._money)
        self._write = PendingWrite("exchange", work, client.id)
        self.run("exchange", self._watch(self._write, client))

    def back(self) -> None:
        if not self._writing():
            self._close_sheet()

    def _close_sheet(self) -> None:
        self._chosen, self._money = None, None
        if self.money_tab.isChecked():
            self.show_money()
        else:
            self.show_catalog()

    def finish(self) -> None:
        self.result.clear()
        self.money.clear()
        self.back()

    async def _watch(self, write: PendingWrite[ExchangeDone], client: Client) -> None:
        """Wait for the exchange on its sheet, then show what happened."""
        self.pages.setCurrentWidget(self.sheet)
        self.sheet.set_running(True)
        try:
            done = await write.result()
        except ApiError as error:
            self._write = None
            self.sheet.finish()
            self._refused(error)
            return
        self._write = None
        self.sheet.finish()
        product = done.purchase.product
        chosen = self._chosen
        product_id = product.id if product is not None else (chosen and chosen.product_id)
        if done.kind is ExchangeKind.REWARD and product_id:
            self._use(product_id, self._used.get(product_id, 0) + 1)
        self._show_result(done)
        await self._after(client, done)

    def _use(self, product_id: int, times: int) -> None:
        """The client has exchanged this reward ``times`` times: a capped one is used up."""
        self._used[product_id] = times
        self.grid.set_used(self._used)
        self._summarize()

    def _refused(self, error: ApiError) -> None:
        if isinstance(error, AmbiguousOutcome):
            log.warning("exchange outcome unknown: %s", error)
        elif error.reason in REFUSALS or error.kind is ErrorKind.SUSPENDED:
            log.info("exchange refused: %s", error)
        else:
            log.warning("exchange failed: %s", error)
        locale = self.session.config.locale
        self.banner.show_error(
            exchange_offline_text() if no_connection(error) else error_text(error, locale)
        )
        chosen = self._chosen
        if error.reason is Reason.EXCHANGE_CAP and chosen is not None:
            self._use(chosen.product_id, chosen.max_per_client or 1)
        self._close_sheet()
        # The balance or the stock may have moved: read both again.
        self.run("after-refusal", self._refresh_after_refusal())

    async def _refresh_after_refusal(self) -> None:
        await self.session.refresh_client()
        await self._load()

    def _show_result(self, done: ExchangeDone) -> None:
        heading, points, balance = result_texts(done, self.session.config.locale)
        with one_relayout(self):
            self.result.show_result(heading, done.code, points, balance)
            self.pages.setCurrentWidget(self.result)

    async def _after(self, client: Client, done: ExchangeDone) -> None:
        """Fresh balance, fresh catalog (the stock changed)."""
        locale = self.session.config.locale
        fresh = await self.session.refresh_client()
        if fresh is not None and fresh is not client and fresh.id == client.id:
            balance = format_points(fresh.balance, locale)
            self.result.set_balance(self.tr("New balance: %1").replace("%1", balance))
        else:
            expected = format_points(done.expected_balance, locale)
            self.result.set_balance(
                self.tr("New balance: %1 (expected; could not be read now)").replace("%1", expected)
            )
        await self._load()
