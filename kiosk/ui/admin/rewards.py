"""Rewards (the API's products): list with stock and a price column per level,
create, and edit (total replacement) with offers per level, stock, per-client cap
and categories. The form reads the levels when it opens, and again at Save: a level
created or deleted meanwhile rebuilds the form (what was typed stays) and the banner
says what changed, before anything is sent.

The contract shows neither the product list's ``order`` values nor a delete for
products: the list keeps the API's order (searchable, filterable by availability)
and rewards are not deleted from the kiosk (disable them with a stock of 0 or in
the merchant panel).
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtWidgets import QWidget

from kiosk.api.errors import ApiError
from kiosk.api.models.catalog import Level, Product
from kiosk.api.models.common import Page
from kiosk.core.admin.paging import ListState
from kiosk.core.admin.rewards import (
    RewardForm,
    explain_reward,
    follow_levels,
    levels_change,
    new_reward_form,
    reward_draft,
    reward_form,
    validate_reward,
)
from kiosk.core.amounts import format_points
from kiosk.core.counter.catalogue import catalogue_changes
from kiosk.core.counter.credit_level import all_levels
from kiosk.core.session import CounterSession
from kiosk.ui.admin.chips import ChoiceChips
from kiosk.ui.admin.list_view import AdminList, Column
from kiosk.ui.admin.rewards_form import RewardFormPanel, levels_change_text
from kiosk.ui.admin.section import AdminSection

log = logging.getLogger(__name__)


class RewardsSection(AdminSection):
    key = "admin-rewards"
    icon_name = "rewards"

    def __init__(self, session: CounterSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.levels: tuple[Level, ...] = ()
        self.editing: Product | None = None
        self.form: RewardFormPanel | None = None
        self.list = AdminList(
            self,
            self._fetch,
            self._columns(),
            new_text=self.tr("New reward"),
            search_hint=self.tr("Search rewards by name"),
            empty_text=self.tr(
                "No rewards yet. Tap “New reward” to offer the first one to your clients."
            ),
        )
        self.enabled_chips = ChoiceChips(
            self.tr("Show"),
            [
                (None, self.tr("All rewards")),
                (True, self.tr("Available")),
                (False, self.tr("Disabled")),
            ],
        )
        self.enabled_chips.chosen.connect(lambda value: self.list.set_filter("isEnabled", value))
        self.list.add_filter(self.enabled_chips)
        self.list.activated.connect(self.open_row)
        self.list.new_requested.connect(self.open_new)
        for button in (self.list.refresh_button, self.list.retry_button):
            button.clicked.disconnect()
            button.clicked.connect(self.refresh)  # the levels may have changed too
        self.add_page(self.list)

    def title(self) -> str:
        return self.tr("Rewards")

    # -- the list ------------------------------------------------------------------------------
    def _columns(self) -> list[Column]:
        locale = self.amount_locale

        def price(level_id: int | None) -> Any:
            def text(product: Product) -> str:
                offer = product.offer_for(level_id)
                return format_points(offer.points, locale) if offer is not None else "—"

            return text

        columns = [
            Column(self.tr("Reward"), lambda p: p.name or "", stretch=True, dim=self._disabled),
            Column(self.tr("No level"), price(None), right=True),
        ]
        columns += [
            Column(level.name or "", price(level.id), right=True, optional=True)
            for level in self.levels
        ]
        columns += [
            Column(self.tr("Stock"), self._stock_text, right=True),
            Column(self.tr("Per client"), self._cap_text, right=True, optional=True),
            Column(self.tr("State"), self._state_text, optional=True),
        ]
        return columns

    @staticmethod
    def _disabled(product: Product) -> bool:
        return product.is_enabled is False

    def _stock_text(self, product: Product) -> str:
        stock = product.stock
        if stock is None or not stock.controlled:
            return self.tr("No limit")
        if not stock.available:
            return self.tr("Out of stock")
        count = stock.available  # "1 left" / "quedan 1.500": the plural, the store's digits
        return self.tr("%n left", "", count).replace(
            str(count), format_points(count, self.amount_locale)
        )

    def _cap_text(self, product: Product) -> str:
        if not product.max_purchases:
            return "—"
        return self.tr("Max %1").replace("%1", str(product.max_purchases))

    def _state_text(self, product: Product) -> str:
        if product.is_enabled is None:
            return ""
        return self.tr("Available") if product.is_enabled else self.tr("Disabled")

    def refresh(self) -> None:
        self.run("levels", self._load_levels())

    async def _load_levels(self) -> None:
        """The levels give the price columns; then the list."""
        try:
            levels = await self.session.call(lambda: all_levels(self.session.api))
        except ApiError:
            self.list.reload()  # shows its own state (the error panel when offline)
            raise
        if levels != self.levels:
            self.levels = levels
            self.list.set_columns(self._columns())
        self.list.reload()

    async def _fetch(self, state: ListState) -> Page[Any]:
        enabled = state.filter("isEnabled")
        return await self.session.call(
            lambda: self.session.api.list_products(
                page=state.page,
                limit=state.limit,
                query=state.query or None,
                is_enabled=enabled if isinstance(enabled, bool) else None,
            )
        )

    # -- the form ----------------------------------------------------------------------------
    def _show_form(self, product: Product | None, form: RewardForm) -> None:
        old = self.form
        panel = RewardFormPanel(self.levels, product, self.amount_locale, self.list.items)
        panel.submitted.connect(self.save)
        panel.cancelled.connect(self.back_to_list)
        self.form = panel
        self.add_page(panel)
        panel.fill(form)
        self.show_page(panel)
        self.drop_page(old)

    def open_new(self) -> None:
        self.run("form", self._open(None))

    def open_row(self, row: int) -> None:
        product = self.list.item(row)
        if product is not None:
            self.run("form", self._open(product))

    async def _open(self, product: Product | None) -> None:
        """The form for the levels as they are now: a level created or deleted in
        Levels since the list was read shows (or is gone) without a Refresh. Levels that
        cannot be read: the form opens with those last read, and the banner says why."""
        try:
            levels = await self._read_levels()
        except ApiError as error:
            levels = self.levels
            self.show_error(error)
        self.editing = product
        if product is None:
            self._show_form(None, new_reward_form(levels))
            assert self.form is not None
            self.form.name_edit.setFocus()
        else:
            self._show_form(product, reward_form(product, levels))

    async def _read_levels(self) -> tuple[Level, ...]:
        levels = await self.session.call(lambda: all_levels(self.session.api))
        if levels != self.levels:
            self.levels = levels
            self.list.set_columns(self._columns())
        return levels

    def forget(self) -> None:
        self.editing = None
        self.drop_page(self.form)
        self.form = None

    # -- saving ------------------------------------------------------------------------------
    async def _levels_changed(
        self, panel: RewardFormPanel, form: RewardForm, editing: Product | None
    ) -> bool:
        """When the levels changed since ``panel`` opened: the form again for the levels
        now (what was typed stays), the banner says what changed, nothing is sent."""
        try:
            levels = await self._read_levels()
        except ApiError as error:  # the service checks the levels sent: let it say
            log.info("reward form: the levels could not be read again (%s)", error.kind)
            return False
        change = levels_change(form, levels)
        if not change or self.form is not panel:
            return False
        log.info(
            "reward form: levels changed (%d added, %d deleted, %d renamed), form reloaded",
            len(change.added),
            len(change.removed),
            len(change.renamed),
        )
        self._show_form(editing, follow_levels(panel.read(), self.levels))
        self.say_error(levels_change_text(change, self.amount_locale), self.form)
        return True

    def save(self) -> None:
        panel = self.form
        if panel is None or self.tasks.running("save"):
            return
        form = panel.read()
        problems = validate_reward(form)
        if problems:
            panel.show_problems(problems)
            return
        self.run("save", self._save(panel, form, self.editing), buttons=[panel.save_button])

    async def _save(
        self, panel: RewardFormPanel, form: RewardForm, editing: Product | None
    ) -> None:
        if await self._levels_changed(panel, form, editing):
            return
        draft = reward_draft(form)
        api = self.session.api

        def explain(error: Any) -> Any:
            return explain_reward(error, form)

        if editing is None:
            saved = await self.submit(panel, lambda: api.create_product(draft), explain)
        else:
            saved = await self.submit(panel, lambda: api.update_product(editing.id, draft), explain)
        if saved is None:
            # A level deleted between the check and the write: the form follows too.
            await self._levels_changed(panel, form, editing)
            return
        log.info("reward #%d %s", saved.id, "created" if editing is None else "replaced")
        catalogue_changes(self.session).rewards.emit(None)  # to the counter's Rewards
        text = self.tr("Reward saved: %1.") if editing else self.tr("Reward created: %1.")
        self.banner.show_success(text.replace("%1", saved.name or draft.name))
        self.back_to_list()
        self.list.reload()
