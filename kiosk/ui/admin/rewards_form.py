"""The reward form: texts, one price per level (and one for clients without level),
stock, per-client cap and categories.

Built for the program's current levels each time it opens. Editing is a total
replacement: the form warns so, and lists the prices that saving will delete.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLabel, QLineEdit

from kiosk.api.models.catalog import Level, Product
from kiosk.core.admin.forms import whole_problem
from kiosk.core.admin.rewards import (
    AVAILABLE,
    BASE_PRICE,
    CATEGORIES,
    DESCRIPTION,
    IMAGE,
    LIMITS,
    MAX_PURCHASES,
    NAME,
    OFFERS,
    SHORT,
    STOCK,
    LevelPrice,
    LevelsChange,
    RewardForm,
    StockMode,
    lost_offers,
    price_key,
)
from kiosk.core.amounts import AmountLocale, format_points
from kiosk.ui.admin.chips import ChoiceChips
from kiosk.ui.admin.form import FormPanel, line
from kiosk.ui.widgets.plain_text import clip


def categories_in_use(products: Sequence[Product], most: int = 3) -> str:
    """ "Used by the rewards listed: 1 (Café, Alfajores); 4 (Kit matero)." (or "")."""
    names: dict[int, list[str]] = {}
    for product in products:
        for category in product.category_ids:
            names.setdefault(category, []).append(clip(product.name) or f"#{product.id}")
    if not names:
        return ""
    parts = [
        f"{category} ({', '.join(shown[:most])}{', …' if len(shown) > most else ''})"
        for category, shown in sorted(names.items())
    ]
    text = QCoreApplication.translate("RewardFormPanel", "Used by the rewards listed: %1.")
    return text.replace("%1", "; ".join(parts))


def levels_change_text(change: LevelsChange, locale: AmountLocale) -> str:
    """ "Not saved: the levels changed while the form was open (“Plata” was deleted: its
    price 300 is not sent; “Diamante” was added, with no price yet). Check the prices
    and save again." """
    parts: list[str] = []
    for price in change.removed:
        value, _ = whole_problem(price.price, minimum=1, required=False)
        if value is None:
            parts.append(
                QCoreApplication.translate("RewardFormPanel", "“%1” was deleted").replace(
                    "%1", price.level_name
                )
            )
        else:
            parts.append(
                QCoreApplication.translate(
                    "RewardFormPanel", "“%1” was deleted: its price %2 is not sent"
                )
                .replace("%1", price.level_name)
                .replace("%2", format_points(value, locale))
            )
    for level in change.added:
        parts.append(
            QCoreApplication.translate(
                "RewardFormPanel", "“%1” was added, with no price yet"
            ).replace("%1", level.name or "")
        )
    for before, level in change.renamed:
        parts.append(
            QCoreApplication.translate("RewardFormPanel", "“%1” is now called “%2”")
            .replace("%1", before)
            .replace("%2", level.name or "")
        )
    return QCoreApplication.translate(
        "RewardFormPanel",
        "Not saved: the levels changed while the form was open (%1). "
        "Check the prices and save again.",
    ).replace("%1", "; ".join(parts))


class RewardFormPanel(FormPanel):
    def __init__(
        self,
        levels: Sequence[Level],
        product: Product | None,
        locale: AmountLocale,
        known: Sequence[Product] = (),
    ) -> None:
        super().__init__(save_text=self.tr("Save reward"))
        self.limits(LIMITS)
        self.levels = list(levels)
        self.product = product
        self.amount_locale = locale
        if product is None:
            self.heading.setText(self.tr("New reward"))
        else:
            self.heading.setText(self.tr("Edit reward “%1”").replace("%1", product.name or ""))
            self.add_note(
                self.tr(
                    "Saving replaces the whole reward: a level left without a price loses its "
                    "offer, and categories not listed are unlinked. Options the kiosk does not "
                    "show (messages, time limits, coupons) stay as they are."
                ),
                warning=True,
            )
        self.lost_note = QLabel()
        self.lost_note.setWordWrap(True)
        self.lost_note.setProperty("role", "field-error")
        self.lost_note.hide()
        self.notes.addWidget(self.lost_note)

        self.name_edit = line()
        self.short_edit = line(self.tr("One line shown under the name"))
        self.description_edit = line()
        self.image_edit = line("https://")
        self.add_field(NAME, self.tr("Name"), self.name_edit)
        self.add_field(SHORT, self.tr("Short description"), self.short_edit)
        self.add_field(DESCRIPTION, self.tr("Description"), self.description_edit)
        self.add_field(
            IMAGE,
            self.tr("Image address (optional)"),
            self.image_edit,
            hint=self.tr("A public web address; the kiosk never downloads it."),
        )

        self.add_heading(self.tr("Price in points"))
        self.add_widget(
            self._hint(
                self.tr(
                    "An offer is open to its level and the higher ones. Leave a level empty "
                    "to give it no offer of its own."
                )
            )
        )
        self.price_edits: dict[str, QLineEdit] = {}
        base = line(self.tr("No offer"))
        self.price_edits[BASE_PRICE] = base
        self.add_field(BASE_PRICE, self.tr("Clients without level"), base)
        self.alias(OFFERS, BASE_PRICE)
        for level in self.levels:
            edit = line(self.tr("No offer"))
            self.price_edits[price_key(level.id)] = edit
            label = (
                self.tr("%1 (from %2 points)")
                .replace("%1", level.name or "")
                .replace("%2", format_points(level.min_points, locale))
            )
            self.add_field(price_key(level.id), label, edit)
        for edit in self.price_edits.values():
            edit.textChanged.connect(self._update_lost)

        self.add_heading(self.tr("Stock and limits"))
        choices = [
            (StockMode.FREE, self.tr("No stock control")),
            (StockMode.CONTROLLED, self.tr("Controlled stock")),
        ]
        if product is not None:
            choices.append((StockMode.KEEP, self.tr("Leave the stock as it is")))
        self.stock_chips = ChoiceChips("", choices)
        self.stock_chips.chosen.connect(lambda _: self._stock_changed())
        self.add_field(
            STOCK, self.tr("Stock"), self.stock_chips, hint=self._stock_hint(), wide=True
        )
        self.available_edit = line(self.tr("Units available"))
        self.add_field(
            AVAILABLE,
            self.tr("Units available"),
            self.available_edit,
            hint=self.tr("At 0 the reward is disabled automatically."),
        )
        self.max_edit = line(self.tr("No limit"))
        self.add_field(MAX_PURCHASES, self.tr("Exchanges per client (optional)"), self.max_edit)
        # The contract gives no category list (ids only, no names): the form says where
        # the numbers come from, and which ones the rewards listed use (issue #14).
        self.categories_edit = line(self.tr("None"))
        box = self.add_field(
            CATEGORIES,
            self.tr("Category numbers (optional)"),
            self.categories_edit,
            hint=self.tr(
                "Category numbers are shown in the merchant panel, where categories are "
                "managed; the service does not give the kiosk their names. Type the "
                "numbers separated by commas, or leave it empty."
            ),
            wide=True,
        )
        self.categories_in_use = QLabel(categories_in_use(known))
        self.categories_in_use.setProperty("role", "hint")
        self.categories_in_use.setWordWrap(True)
        self.categories_in_use.setVisible(bool(self.categories_in_use.text()))
        box.layout().insertWidget(3, self.categories_in_use)

    def _hint(self, text: str) -> QLabel:
        label = QLabel(text)
        label.setProperty("role", "hint")
        label.setWordWrap(True)
        return label

    def _stock_hint(self) -> str:
        stock = self.product.stock if self.product is not None else None
        if stock is None:
            return ""
        if not stock.controlled:
            return self.tr("Now: no stock control.")
        return self.tr("Now: %1 units available.").replace(
            "%1", format_points(stock.available or 0, self.amount_locale)
        )

    def _stock_changed(self) -> None:
        self.available_edit.setEnabled(self.stock_chips.value() is StockMode.CONTROLLED)

    # -- reading and filling --------------------------------------------------------------------
    def fill(self, form: RewardForm) -> None:
        self.clear_problems()
        self.name_edit.setText(form.name)
        self.short_edit.setText(form.short_description)
        self.description_edit.setText(form.description)
        self.image_edit.setText(form.image)
        self.price_edits[BASE_PRICE].setText(form.base_price)
        for price in form.level_prices:
            edit = self.price_edits.get(price_key(price.level_id))
            if edit is not None:
                edit.setText(price.price)
        self.stock_chips.set_value(form.stock_mode)
        self.available_edit.setText(form.available)
        self.max_edit.setText(form.max_purchases)
        self.categories_edit.setText(form.categories)
        self._stock_changed()
        self._update_lost()
        self.rewind()

    def read(self) -> RewardForm:
        return RewardForm(
            name=self.name_edit.text(),
            short_description=self.short_edit.text(),
            description=self.description_edit.text(),
            image=self.image_edit.text(),
            base_price=self.price_edits[BASE_PRICE].text(),
            level_prices=tuple(
                LevelPrice(level.id, level.name or "", self.price_edits[price_key(level.id)].text())
                for level in self.levels
            ),
            stock_mode=StockMode(self.stock_chips.value()),
            available=self.available_edit.text(),
            max_purchases=self.max_edit.text(),
            categories=self.categories_edit.text(),
        )

    def price_edit(self, level_id: int | None) -> QLineEdit:
        return self.price_edits[price_key(level_id)]

    def _update_lost(self) -> None:
        lost = lost_offers(self.product, self.read())
        if not lost:
            self.lost_note.hide()
            return
        names = {level.id: level.name or "" for level in self.levels}
        offers = {o.level_id: o.level_name for o in (self.product.offers if self.product else ())}
        shown = [
            self.tr("clients without level")
            if level_id is None
            else names.get(level_id) or offers.get(level_id) or str(level_id)
            for level_id in lost
        ]
        self.lost_note.setText(
            self.tr("Saving deletes the offer of: %1.").replace("%1", ", ".join(shown))
        )
        self.lost_note.show()
