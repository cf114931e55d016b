"""The rewards grid: one large card per reward, what the client can afford highlighted.

A card shows a drawn placeholder (images are never downloaded), the name, the
price at the client's level, the stock when it is controlled and the per-client
cap; a reward out of reach is dimmed with how many points are missing. A tap
emits ``chosen`` with the card.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from kiosk.core.amounts import AmountLocale, format_points
from kiosk.core.rewards import RewardCard
from kiosk.ui.icons import pixmap
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.layouts import tile_scroll

TILE_MIN_WIDTH = 240
TILE_HEIGHT = 196
GAP = 16


class RewardTile(QPushButton):
    """A reward as a big touch target (the labels inside let taps through)."""

    def __init__(self, card: RewardCard, locale: AmountLocale, parent: QWidget | None = None):
        super().__init__(parent)
        self.amount_locale = locale
        self.setObjectName("rewardTile")
        self.setMinimumSize(TILE_MIN_WIDTH, TILE_HEIGHT)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(TILE_HEIGHT)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        p = current_palette()
        self.art = QLabel()
        self.art.setFixedSize(56, 56)
        self.art.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.badge = QLabel()
        self.badge.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        self.badge.setStyleSheet(f"color: {p.muted}; font-size: 15px;")
        self.name = QLabel()
        self.name.setWordWrap(True)
        self.price = QLabel()
        self.status = QLabel()
        for label in (self.art, self.badge, self.name, self.price, self.status):
            label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        top = QHBoxLayout()
        top.setSpacing(8)
        top.addWidget(self.art, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.badge, 1, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 14, 16, 14)
        layout.setSpacing(4)
        layout.addLayout(top)
        layout.addWidget(self.name, 1, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.price)
        layout.addWidget(self.status)
        self._reachable: bool | None = None
        self.set_card(card)

    def set_card(self, card: RewardCard) -> None:
        """Show ``card`` (this reward again with a new balance, price or stock). The
        styles change only when the reward comes into or out of reach: styling a
        tile is what makes building one slow."""
        self.card = card
        locale = self.amount_locale
        self.badge.setText(self._badge_text(card, locale))
        self.name.setText(card.name)
        self.price.setText(self.tr("%1 pts").replace("%1", format_points(card.price, locale)))
        self.status.setText(self._status_text(card, locale))
        self.setAccessibleName(f"{card.name}: {self.price.text()}. {self.status.text()}")
        if card.affordable != self._reachable:
            self._reachable = card.affordable
            self._style(card.affordable)

    def _style(self, reachable: bool) -> None:
        p = current_palette()
        ink = p.text if reachable else p.muted
        self.art.setPixmap(pixmap("rewards", p.accent if reachable else p.muted, 32))
        self.art.setStyleSheet(
            f"background: {p.info_bg if reachable else p.surface}; border-radius: 12px;"
        )
        self.name.setStyleSheet(f"color: {ink}; font-size: 18px; font-weight: 600;")
        self.price.setStyleSheet(f"color: {ink}; font-size: 26px; font-weight: 700;")
        self.status.setStyleSheet(
            f"color: {p.accent if reachable else p.muted}; font-size: 16px; font-weight: 600;"
        )
        border = p.accent if reachable else p.border
        background = p.surface if reachable else p.surface_alt
        self.setStyleSheet(
            f"QPushButton#rewardTile {{ background: {background}; border: 2px "
            f"{'solid' if reachable else 'dashed'} {border}; border-radius: 14px; "
            f"padding: 0; text-align: left; }}"
            f"QPushButton#rewardTile:pressed {{ background: {p.info_bg}; }}"
            f"QPushButton#rewardTile:focus {{ border: 3px solid {p.accent}; }}"
        )

    def _badge_text(self, card: RewardCard, locale: AmountLocale) -> str:
        parts = []
        if card.stock is not None:
            parts.append(self.tr("%1 left").replace("%1", format_points(card.stock, locale)))
        if card.max_per_client is not None:
            parts.append(
                self.tr("%1 per client").replace("%1", format_points(card.max_per_client, locale))
            )
        return "\n".join(parts)

    def _status_text(self, card: RewardCard, locale: AmountLocale) -> str:
        if not card.in_stock:
            return self.tr("Out of stock")
        if card.missing:
            return self.tr("Missing %1 pts").replace("%1", format_points(card.missing, locale))
        return self.tr("Balance after: %1").replace("%1", format_points(card.balance_after, locale))

    def sizeHint(self) -> QSize:
        return QSize(TILE_MIN_WIDTH, TILE_HEIGHT)


class RewardGrid(QScrollArea):
    """The catalog, re-flowed to the width (at least two columns)."""

    chosen = Signal(object)  # RewardCard

    def __init__(self, locale: AmountLocale, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.amount_locale = locale
        self._inner, self._grid = tile_scroll(self, "rewardGrid", GAP)
        self.tiles: dict[int, RewardTile] = {}
        self._spare: dict[int, RewardTile] = {}  # built by prepare(), not shown yet
        self._order: list[RewardTile] = []
        self._columns = 0

    async def prepare(self, cards: Sequence[RewardCard]) -> bool:
        """Build, one per event-loop turn, the tiles ``cards`` need that do not exist yet
        (hidden and polished): ``set_cards`` then only shows them. A styled tile takes
        a few ms to build and polish: the ten of a first catalog at once held the loop
        50-80 ms. False when the grid was destroyed meanwhile (show nothing)."""
        for card in cards:
            if card.product_id in self.tiles or card.product_id in self._spare:
                continue
            await asyncio.sleep(0)
            if not isValid(self._inner):
                return False
            tile = self._new_tile(card, self._inner)  # a child not shown yet: hidden
            tile.ensurePolished()
            self._spare[card.product_id] = tile
        return True

    def _new_tile(self, card: RewardCard, parent: QWidget | None = None) -> RewardTile:
        tile = RewardTile(card, self.amount_locale, parent)
        tile.clicked.connect(lambda _=False, pid=card.product_id: self._tapped(pid))
        return tile

    def set_cards(self, cards: Sequence[RewardCard]) -> None:
        """Show ``cards`` in their order. A reward already shown keeps its tile, updated
        in place (a new balance re-sorts and restyles; rebuilding ten styled tiles
        held the event loop for 50 ms and more); new rewards get a tile, gone ones
        are deleted."""
        old = self.tiles
        self.tiles = {}
        order: list[RewardTile] = []
        for card in cards:
            tile = old.pop(card.product_id, None)
            if tile is None:
                tile = self._spare.pop(card.product_id, None)
            if tile is None:
                tile = self._new_tile(card)
            else:
                tile.set_card(card)
            self.tiles[card.product_id] = tile
            order.append(tile)
        for tile in (*old.values(), *self._spare.values()):
            self._grid.removeWidget(tile)
            tile.deleteLater()
        self._spare = {}
        if order != self._order:
            self._order = order
            self._columns = 0
        self._flow()

    def _tapped(self, product_id: int) -> None:
        tile = self.tiles.get(product_id)
        if tile is not None:
            self.chosen.emit(tile.card)

    def cards(self) -> list[RewardCard]:
        return [tile.card for tile in self._order]

    def _flow(self) -> None:
        width = max(self.viewport().width(), TILE_MIN_WIDTH * 2 + GAP)
        columns = max(2, min(5, (width + GAP) // (TILE_MIN_WIDTH + GAP)))
        if columns == self._columns and all(self._grid.indexOf(tile) >= 0 for tile in self._order):
            return
        self._columns = columns
        for tile in self._order:
            self._grid.removeWidget(tile)
        for index, tile in enumerate(self._order):
            self._grid.addWidget(tile, index // columns, index % columns)
        for column in range(5):
            self._grid.setColumnStretch(column, 1 if column < columns else 0)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._flow()
