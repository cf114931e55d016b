"""The Points screen's right column: what to do next, the preview with its "Credit
1.234 points" button, and "Preview" at the bottom; and the basket of point items,
which the screen lays out under the items' grid (the column keeps its room for the
preview at 1024x768).

"Preview" and the credit are two buttons in two places: "Preview" never changes its
words and never moves; the credit button appears above it, with the preview, and is a
``CommitButton`` (the screen arms it once the preview is on screen), so a double tap
or Enter, Enter on "Preview" can never credit unseen. A sale without a preview's figures
(offline, or the service's answer held none) says so in the hint, and its credit button
says what a tap does without figures. ``show_sale`` changes only what differs from what
is shown (issue #4: each change of a widget's text, icon or visibility costs a layout or
a repaint of the column).

The credit button stands in one place in both flows (amount and point items), right
above "Preview": the preview card above it grows or shrinks (units, a long level name)
without moving it. Its words are never cut: when "Acreditar 149.998 puntos" is wider
than the column (1024x768, Spanish), they take two lines (issue #21)."""

from __future__ import annotations

import time
from datetime import datetime

from PySide6.QtCore import QSize
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QStyle, QStyleOptionButton, QVBoxLayout, QWidget

from kiosk.core.amounts import AmountLocale, format_points
from kiosk.core.counter.sale import NoPreview, Sale, SaleMode, SaleState
from kiosk.ui.screens.points.items import BasketView
from kiosk.ui.screens.points.panels import PreviewCard
from kiosk.ui.theme import PRIMARY_PX
from kiosk.ui.widgets.busy_button import BusyButton
from kiosk.ui.widgets.commit_button import CommitButton

SIDE_MIN_WIDTH = 300
SIDE_MAX_WIDTH = 520
# The states in which the credit button shows (armed by the screen in the first two).
COMMIT_STATES = (SaleState.PREVIEWED, SaleState.FAILED, SaleState.CREDITING)


class CreditButton(CommitButton):
    """The credit button: its words on one line, or on two when one is too narrow.
    ``text()`` is the whole text on one line; what is drawn may hold a line break."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent, primary=True)
        self._whole = ""
        self.setText(text)

    def text(self) -> str:
        return self._whole

    def setText(self, text: str) -> None:
        if text == self._whole and super().text():
            return  # (every render sets it: only a change costs)
        self._whole = text
        self.setAccessibleName(text)
        self._wrap()

    def _room(self) -> int:
        option = QStyleOptionButton()
        self.initStyleOption(option)
        big = self.style().sizeFromContents(
            QStyle.ContentsType.CT_PushButton, option, self.size(), self
        )
        return self.width() - max(0, big.width() - self.width())

    def _wrap(self) -> None:
        text, metrics = self._whole, self.fontMetrics()
        words = text.split(" ")
        if len(words) > 1 and metrics.horizontalAdvance(text) > self._room():
            # Two lines, broken at the space that makes the longer line shortest.
            cuts = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
            first, second = min(
                cuts,
                key=lambda c: max(metrics.horizontalAdvance(c[0]), metrics.horizontalAdvance(c[1])),
            )
            text = f"{first}\n{second}"
        if super().text() != text:
            super().setText(text)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._wrap()

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        hint.setWidth(min(hint.width(), SIDE_MIN_WIDTH))  # never wider than the column
        return hint


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
        self.credit = CreditButton(self.tr("Credit"))
        self.credit.setMinimumHeight(PRIMARY_PX)
        self.credit.hide()
        self.preview = BusyButton(self.tr("Preview"), primary=True)
        self.preview.setMinimumHeight(PRIMARY_PX)
        self._column = layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(8)
        layout.addWidget(self.hint)
        self._notes = layout.count()  # where the amount's problem goes (add_problem)
        layout.addWidget(self.preview_card)
        layout.addStretch(1)
        layout.addWidget(self.credit)  # one place in both flows, above "Preview"
        layout.addWidget(self.preview)
        self._shown_preview: tuple[object, ...] | None = None

    def add_problem(self, problem: QLabel) -> None:
        """Why a key was refused, under the hint (shown only while there is one: the
        buttons below stand at the bottom and do not move)."""
        self._column.insertWidget(self._notes, problem)

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
        self.credit.setText(self._credit_text(sale))
        self.credit.setVisible(sale.state in COMMIT_STATES)

    def enable_preview(self, enabled: bool) -> None:
        """The Preview button is for a sale being edited, while no request runs."""
        if not self.preview.busy:
            self.preview.setEnabled(enabled)

    def _hint(self, sale: Sale) -> str:
        if sale.preview is not None:
            return ""
        if sale.no_preview is NoPreview.UNAVAILABLE and sale.state is not SaleState.EDITING:
            return self.tr(
                "Preview unavailable: the service did not say how many points this sale "
                "gives. The credit gives what the service computes; the result shows it."
            )
        if sale.no_preview is NoPreview.BUSY and sale.state is not SaleState.EDITING:
            at = datetime.fromtimestamp(sale.retry_at or time.time()).strftime("%H:%M:%S")
            return self.tr(
                "The service is busy: no preview now. The kiosk asks it again at %1. "
                "The credit is saved and sent automatically."
            ).replace("%1", at)
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

    def _credit_text(self, sale: Sale) -> str:
        if sale.state is SaleState.CREDITING:
            return self.tr("Crediting…")
        if sale.state is not SaleState.EDITING and sale.no_preview is NoPreview.UNAVAILABLE:
            if sale.state is SaleState.FAILED:
                return self.tr("Try again: credit")
            return self.tr("Credit anyway")
        if sale.state is not SaleState.EDITING and sale.preview_unavailable:
            if sale.state is SaleState.FAILED:
                return self.tr("Try again: save the credit")
            return self.tr("Save the credit")
        if sale.preview is None:
            return self.tr("Credit")
        points = format_points(sale.preview.points.total, self.amount_locale)
        if sale.state is SaleState.FAILED:
            return self.tr("Try again: credit %1 points").replace("%1", points)
        return self.tr("Credit %1 points").replace("%1", points)
