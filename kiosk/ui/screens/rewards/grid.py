"""The rewards grid: one large card per reward, what the client can afford highlighted.

A card shows a drawn placeholder (images are never downloaded), the name, the
price at the client's level, the stock when it is controlled and the per-client
cap; a reward out of reach is dimmed with how many points are missing, one whose
stock ran out is dimmed with "Out of stock" (it stays on the grid); a reward the
client already exchanged as often as its per-client cap allows is dimmed with "Already
exchanged" (the grid is told how many each client took: ``set_used``). A tap emits
``chosen`` with the card.

The tiles' labels share one style sheet, set on the grid, with a ``reach`` property
selector (styling each tile with sheets of its own is what made building and
restyling them slow); each tile draws its card (background, border, rounded corners)
from a pixmap drawn once per size and state (``kiosk.ui.widgets.rounded``: the
sheet's rounded, dashed borders were half of the screen's repaint). Tiles are kept
per product and updated in place, also from one client to the next (``reset`` hides
them): the next client's catalog mostly has the same rewards (issue #4).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from functools import cache

from PySide6.QtCore import QPointF, QSize, Qt, Signal
from PySide6.QtGui import QPainter, QPaintEvent, QPixmap, QResizeEvent
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
from kiosk.core.counter.rewards import RewardCard
from kiosk.ui.icons import pixmap
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.elided import ElidedLines
from kiosk.ui.widgets.layouts import tile_scroll
from kiosk.ui.widgets.relayout import show_deferred
from kiosk.ui.widgets.rounded import rounded_card

ART_PX = 56
TILE_MIN_WIDTH = 240
TILE_HEIGHT = 196
GAP = 16
SPARE_TILES = 48  # hidden tiles kept for the next clients (the oldest go past it)


def tile_style() -> str:
    """The tiles' one style sheet (set on the grid): ``reach`` is "true" on a tile and
    its labels when the client can take the reward."""
    p = current_palette()
    sheet = [
        # The card itself (background, border, corners) is drawn by RewardTile.paintEvent.
        # (The application's sheet gives buttons a min-height that beats setFixedHeight:
        # the tiles were squeezed to ~130 px, their labels over each other.)
        "QPushButton#rewardTile { border: none; background: transparent; padding: 0;"
        f" min-height: {TILE_HEIGHT}px; max-height: {TILE_HEIGHT}px; }}",
        f"QLabel#rewardBadge {{ color: {p.muted}; font-size: 15px; }}",
        "QLabel#rewardName { font-size: 18px; font-weight: 600; }",
        "QLabel#rewardPrice { font-size: 26px; font-weight: 700; }",
        "QLabel#rewardStatus { font-size: 16px; font-weight: 600; }",
    ]
    for reach, ink, status in (("true", p.text, p.accent), ("false", p.muted, p.muted)):
        sheet.append(
            f"QLabel#rewardName[reach='{reach}'], QLabel#rewardPrice[reach='{reach}']"
            f" {{ color: {ink}; }}"
        )
        sheet.append(f"QLabel#rewardStatus[reach='{reach}'] {{ color: {status}; }}")
    return "".join(sheet)


@cache
def _art(color: str, background: str) -> QPixmap:
    """The placeholder art: the rewards icon on a rounded square (56 px, drawn once)."""
    ratio = 2.0
    art = rounded_card(ART_PX, ART_PX, background, background, 0, 12, ratio=ratio).copy()
    art.setDevicePixelRatio(ratio)
    painter = QPainter(art)
    offset = (ART_PX - 32) / 2
    painter.drawPixmap(QPointF(offset, offset), pixmap("rewards", color, 32, ratio))
    painter.end()
    return art


def _card(tile: QPushButton, reachable: bool) -> QPixmap:
    """The tile's card for its state, as the grid's style sheet used to draw it: a
    surface with an accent border within reach, dimmed with a dashed border out of it,
    the pressed background, a thicker accent border with the focus."""
    p = current_palette()
    fill = p.info_bg if tile.isDown() else (p.surface if reachable else p.surface_alt)
    focus = tile.hasFocus()
    border = p.accent if reachable or focus else p.border
    return rounded_card(
        tile.width(),
        tile.height(),
        fill,
        border,
        3 if focus else 2,
        14,
        dashed=not (reachable or focus),
        ratio=tile.devicePixelRatioF(),
    )


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
        self.art = QLabel()
        self.art.setFixedSize(ART_PX, ART_PX)
        self.art.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.badge = ElidedLines(lines=1)  # stock and cap, one line
        self.badge.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.name = ElidedLines(lines=2)  # a long name: two lines, "…", the whole in a tooltip
        self.price = QLabel()
        self.status = ElidedLines(lines=1)
        names = ("rewardArt", "rewardBadge", "rewardName", "rewardPrice", "rewardStatus")
        for label, name in zip(self._labels(), names, strict=True):
            label.setObjectName(name)
            label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        # The name beside the art (two lines), then stock and cap, price, status: each
        # row keeps its height whatever the text, so every tile has the same layout.
        top = QHBoxLayout()
        top.setSpacing(12)
        top.addWidget(self.art, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.name, 1, Qt.AlignmentFlag.AlignVCenter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 14, 16, 14)
        layout.setSpacing(4)
        layout.addLayout(top)
        layout.addWidget(self.badge)
        layout.addStretch(1)
        layout.addWidget(self.price)
        layout.addWidget(self.status)
        self._reachable: bool | None = None
        self.set_card(card)

    def _labels(self) -> tuple[QLabel, ...]:
        return (self.art, self.badge, self.name, self.price, self.status)

    def set_card(self, card: RewardCard, *, used_up: bool = False) -> None:
        """Show ``card`` (this reward again with a new balance, price or stock);
        ``used_up``: the client reached its per-client cap. The style changes only
        when the reward comes into or out of reach."""
        self.card = card
        self.used_up = used_up
        reachable = card.affordable and not used_up
        locale = self.amount_locale
        self.badge.setText(self._badge_text(card, locale))
        self.name.setText(card.name)
        self.setToolTip(card.name)  # (the labels let the pointer through to the tile)
        self.price.setText(self.tr("%1 pts").replace("%1", format_points(card.price, locale)))
        status = self._status_text(card, locale)
        self.status.setText(status)
        self.setAccessibleName(f"{card.name}: {self.price.text()}. {status}")
        if reachable != self._reachable:
            self._reachable = reachable
            self._style(reachable)

    @property
    def reachable(self) -> bool:
        return bool(self._reachable)

    def _style(self, reachable: bool) -> None:
        """The ``reach`` property of the tile and its labels, for the grid's sheet."""
        p = current_palette()
        if reachable:
            self.art.setPixmap(_art(p.accent, p.info_bg))
        else:
            self.art.setPixmap(_art(p.muted, p.surface))
        reach = "true" if reachable else "false"
        for widget in (self, *self._labels()):
            widget.setProperty("reach", reach)
            if widget.testAttribute(Qt.WidgetAttribute.WA_WState_Polished):
                widget.style().unpolish(widget)
                widget.style().polish(widget)

    def paintEvent(self, event: QPaintEvent) -> None:
        QPainter(self).drawPixmap(0, 0, _card(self, bool(self._reachable)))

    def _badge_text(self, card: RewardCard, locale: AmountLocale) -> str:
        parts = []
        if card.stock is not None and card.in_stock:  # (none left: the status says so)
            left = self.tr("%n left", "", card.stock)  # "queda 1", "quedan 2"
            parts.append(left.replace(str(card.stock), format_points(card.stock, locale), 1))
        if card.max_per_client is not None:
            parts.append(
                self.tr("%1 per client").replace("%1", format_points(card.max_per_client, locale))
            )
        return " · ".join(parts)

    def _status_text(self, card: RewardCard, locale: AmountLocale) -> str:
        if not card.in_stock:
            return self.tr("Out of stock")
        if self.used_up:
            return self.tr("Already exchanged: %1 per client").replace(
                "%1", format_points(card.max_per_client or 0, locale)
            )
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
        self._inner.setStyleSheet(self._inner.styleSheet() + tile_style())
        self.tiles: dict[int, RewardTile] = {}
        # Hidden tiles, by product: built by prepare(), or shown for an earlier client.
        self._spare: dict[int, RewardTile] = {}
        self._order: list[RewardTile] = []
        self._columns = 0
        self._used: dict[int, int] = {}  # exchanges the client made, by product

    def set_used(self, used: dict[int, int]) -> None:
        """How many times the client exchanged each reward (for the per-client caps)."""
        self._used = dict(used)
        for tile in self._order:
            tile.set_card(tile.card, used_up=self.used_up(tile.card))

    def used_up(self, card: RewardCard) -> bool:
        cap = card.max_per_client
        return cap is not None and self._used.get(card.product_id, 0) >= cap

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
        """Show ``cards`` in their order. A reward that has a tile (shown, or hidden
        since an earlier client) keeps it, updated in place (a new balance re-sorts and
        restyles; rebuilding ten styled tiles held the event loop for 50 ms and more);
        new rewards get a tile; the tiles of rewards not shown now are hidden and kept
        for the next client (``set_cards([])`` on a reset)."""
        old = self.tiles
        self.tiles = {}
        order: list[RewardTile] = []
        for card in cards:
            tile = old.pop(card.product_id, None)
            if tile is None:
                tile = self._spare.pop(card.product_id, None)
            if tile is None:
                tile = self._new_tile(card, self._inner)
            tile.set_card(card, used_up=self.used_up(card))
            self.tiles[card.product_id] = tile
            order.append(tile)
        for product_id, tile in old.items():
            self._grid.removeWidget(tile)
            tile.hide()
            self._spare[product_id] = tile
        self._trim_spares()
        if order != self._order:
            self._order = order
            self._columns = 0
        self._flow()

    def _trim_spares(self) -> None:
        """At most ``SPARE_TILES`` hidden tiles: a catalogue of hundreds of rewards seen
        over a day of clients would otherwise keep a widget for each."""
        while len(self._spare) > SPARE_TILES:
            tile = self._spare.pop(next(iter(self._spare)))  # the longest kept
            tile.deleteLater()

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
            if tile.isHidden():
                show_deferred(tile)  # laid out with the grid, not the whole screen
        for column in range(5):
            self._grid.setColumnStretch(column, 1 if column < columns else 0)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._flow()
