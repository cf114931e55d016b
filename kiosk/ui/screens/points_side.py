"""The Points screen's right column: the basket (items mode), what to do next,
the preview, and the main button that walks the sale. ``show_sale`` changes only
what differs from what is shown (issue #4: each change of a widget's text, icon or
visibility costs a layout or a repaint of the column)."""

from __future__ import annotations

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from kiosk.core.amounts import AmountLocale, format_points
from kiosk.core.sale import Sale, SaleMode, SaleState
from kiosk.ui.icons import icon
from kiosk.ui.screens.points_items import BasketView
from kiosk.ui.screens.points_panels import PreviewCard
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.busy_button import BusyButton

SIDE_MIN_WIDTH = 380
SIDE_MAX_WIDTH = 520


class SaleSide(QWidget):
    def __init__(self, locale: AmountLocale, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.amount_locale = locale
        self.setMinimumWidth(SIDE_MIN_WIDTH)
        self.setMaximumWidth(SIDE_MAX_WIDTH)
        self.basket = BasketView()
        self.hint = QLabel()
        self.hint.setProperty("role", "hint")
        self.hint.setWordWrap(True)
        self.preview_card = PreviewCard(locale)
        self.main = BusyButton(self.tr("Preview"), primary=True)
        self.main.setMinimumHeight(64)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(12)
        layout.addWidget(self.basket, 1)
        layout.addWidget(self.hint)
        layout.addWidget(self.preview_card)
        layout.addStretch(0)
        layout.addWidget(self.main)
        self._shown_preview: tuple[object, ...] | None = None
        self._main_icon: bool | None = None

    def show_sale(self, sale: Sale, names: dict[int, str]) -> None:
        items = sale.mode is SaleMode.ITEMS
        basket = sale.basket
        if items or self.basket.rows:
            self.basket.show_lines(basket.lines(), names)
        self.basket.setVisible(items)
        preview = sale.preview
        units = basket.total_units if items else 0
        if preview is not None:
            shown = (preview, sale.amount, units)
            if shown != self._shown_preview:
                self.preview_card.show_preview(preview, sale.amount, units)
                self._shown_preview = shown
        self.preview_card.setVisible(preview is not None)
        hint = self._hint(sale)
        self.hint.setText(hint)
        self.hint.setVisible(bool(hint))
        self.main.setText(self._main_text(sale))
        if self._main_icon is not (preview is not None):
            self._main_icon = preview is not None
            accent_text = current_palette().accent_text
            self.main.setIcon(icon("points", accent_text) if preview is not None else QIcon())

    def _hint(self, sale: Sale) -> str:
        if sale.preview is not None:
            return ""
        if sale.preview_unavailable and sale.state is not SaleState.EDITING:
            return self.tr(
                "No preview without a connection: the points will be computed when the "
                "connection returns. The credit is saved and sent automatically."
            )
        if sale.mode is SaleMode.AMOUNT:
            return self.tr(
                "Type the purchase amount with the keypad or the keyboard, then tap Preview."
            )
        return self.tr("Tap an item once per unit, then tap Preview.")

    def _main_text(self, sale: Sale) -> str:
        if sale.state is SaleState.CREDITING:
            return self.tr("Crediting…")
        if sale.state is not SaleState.EDITING and sale.preview_unavailable:
            if sale.state is SaleState.FAILED:
                return self.tr("Try again: save the credit")
            return self.tr("Save the credit")
        if sale.state is SaleState.EDITING or sale.preview is None:
            return self.tr("Preview")
        points = format_points(sale.preview.points.total, self.amount_locale)
        if sale.state is SaleState.FAILED:
            return self.tr("Try again: credit %1 points").replace("%1", points)
        return self.tr("Credit %1 points").replace("%1", points)
