"""Point items on the Points screen: the grid of big tiles and the visible basket.

A tile shows the item's name, its points (or its amount), and a badge with how
many units are in the basket; a tap asks for one more unit (``tapped``). The
basket lists each item with its count and a remove button (``removed``).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from PySide6.QtCore import QCoreApplication, QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from kiosk.api.models.catalog import PointItem
from kiosk.core.amounts import AmountLocale, format_amount, format_points
from kiosk.core.basket import MAX_UNITS
from kiosk.ui.icons import icon
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.layouts import tile_scroll

TILE_MIN_WIDTH = 220
TILE_HEIGHT = 120
GAP = 12
MAX_COLUMNS = 5


def item_value(item: PointItem, locale: AmountLocale) -> str:
    """``50 pts`` or ``$ 1.500,00``: what one unit is worth."""
    if item.points is not None:
        text = QCoreApplication.translate("ItemTile", "%1 pts")
        return text.replace("%1", format_points(item.points, locale))
    if item.amount is not None:
        return format_amount(Decimal(str(item.amount)), locale)
    return ""


class ItemTile(QPushButton):
    """One point item as a big touch target (its labels let taps through)."""

    def __init__(self, item: PointItem, locale: AmountLocale, parent: QWidget | None = None):
        super().__init__(parent)
        self.item = item
        self.setObjectName("itemTile")
        self.setMinimumSize(TILE_MIN_WIDTH, TILE_HEIGHT)
        self.setFixedHeight(TILE_HEIGHT)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        p = current_palette()
        self.name = QLabel(item.name or f"#{item.id}")
        self.name.setWordWrap(True)
        self.name.setStyleSheet("font-size: 18px; font-weight: 600;")
        self.value = QLabel(item_value(item, locale))
        self.value.setStyleSheet(f"font-size: 18px; font-weight: 700; color: {p.accent};")
        self.badge = QLabel()
        self.badge.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.badge.setMinimumSize(36, 36)
        self.badge.setStyleSheet(
            f"background: {p.accent}; color: {p.accent_text}; border-radius: 18px;"
            " font-size: 18px; font-weight: 700; padding: 0 8px;"
        )
        for label in (self.name, self.value, self.badge):
            label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        top = QHBoxLayout()
        top.setSpacing(8)
        top.addWidget(self.name, 1, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.badge, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 10, 10, 10)
        layout.setSpacing(2)
        layout.addLayout(top, 1)
        layout.addWidget(self.value)
        self.setStyleSheet(
            f"QPushButton#itemTile {{ background: {p.surface}; border: 2px solid {p.border};"
            f" border-radius: 14px; padding: 0; text-align: left;"
            f" min-height: {TILE_HEIGHT - 4}px; max-height: {TILE_HEIGHT - 4}px;"
            f" min-width: {TILE_MIN_WIDTH - 4}px; }}"
            f"QPushButton#itemTile[chosen='true'] {{ border-color: {p.accent};"
            f" background: {p.info_bg}; }}"
            f"QPushButton#itemTile:pressed {{ background: {p.info_bg}; }}"
            f"QPushButton#itemTile:disabled {{ background: {p.surface_alt}; }}"
        )
        self.set_count(0)

    def set_count(self, count: int) -> None:
        self.count = count
        self.badge.setText(str(count))
        self.badge.setVisible(count > 0)
        self.setProperty("chosen", "true" if count else "false")
        self.style().unpolish(self)
        self.style().polish(self)
        self.setAccessibleName(f"{self.name.text()}: {self.value.text()} ({count})")

    def sizeHint(self) -> QSize:
        return QSize(TILE_MIN_WIDTH, TILE_HEIGHT)


class ItemGrid(QScrollArea):
    """The branch's point items, re-flowed to the width."""

    tapped = Signal(int)  # item id

    def __init__(self, locale: AmountLocale, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.amount_locale = locale
        self._inner, self._grid = tile_scroll(self, "itemGrid", GAP)
        self.tiles: dict[int, ItemTile] = {}
        self._order: list[ItemTile] = []
        self._columns = 0

    def set_items(self, items: Sequence[PointItem]) -> None:
        for tile in self._order:
            self._grid.removeWidget(tile)
            tile.deleteLater()
        self.tiles, self._order = {}, []
        for item in items:
            tile = ItemTile(item, self.amount_locale)
            tile.clicked.connect(lambda _=False, item_id=item.id: self.tapped.emit(item_id))
            self.tiles[item.id] = tile
            self._order.append(tile)
        self._columns = 0
        self._flow()

    def set_counts(self, counts: dict[int, int]) -> None:
        for item_id, tile in self.tiles.items():
            if tile.count != counts.get(item_id, 0):
                tile.set_count(counts.get(item_id, 0))

    def _flow(self) -> None:
        width = max(self.viewport().width(), TILE_MIN_WIDTH * 2 + GAP)
        columns = max(2, min(MAX_COLUMNS, (width + GAP) // (TILE_MIN_WIDTH + GAP)))
        if columns == self._columns:
            return
        self._columns = columns
        for tile in self._order:
            self._grid.removeWidget(tile)
        for index, tile in enumerate(self._order):
            self._grid.addWidget(tile, index // columns, index % columns)
        for column in range(MAX_COLUMNS):
            self._grid.setColumnStretch(column, 1 if column < columns else 0)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._flow()


class BasketView(QFrame):
    """The items of the sale: one row per item with its count and a remove button."""

    removed = Signal(int)  # item id: one unit less
    cleared = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "card")
        p = current_palette()
        self.heading = QLabel()
        self.heading.setStyleSheet("font-weight: 600;")
        self.clear = QToolButton()
        self.clear.setIcon(icon("trash", p.danger, p.border))
        self.clear.setAutoRaise(True)
        self.clear.setMinimumSize(48, 48)
        self.clear.setToolTip(self.tr("Empty the basket"))
        self.clear.setAccessibleName(self.tr("Empty the basket"))
        self.clear.clicked.connect(self.cleared.emit)
        self.empty = QLabel(self.tr("Tap the items of the purchase."))
        self.empty.setProperty("role", "hint")
        self.empty.setWordWrap(True)
        self._rows = QVBoxLayout()
        self._rows.setSpacing(0)
        self._rows.setContentsMargins(0, 0, 0, 0)
        rows = QWidget()
        rows.setObjectName("basketRows")
        rows.setStyleSheet("QWidget#basketRows { background: transparent; }")
        rows.setLayout(self._rows)
        self.rows_area = QScrollArea()
        self.rows_area.setWidgetResizable(True)
        self.rows_area.setFrameShape(QFrame.Shape.NoFrame)
        self.rows_area.viewport().setStyleSheet("background: transparent;")
        self.rows_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.rows_area.setWidget(rows)
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(self.clear)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 6, 8, 8)
        layout.setSpacing(4)
        layout.addLayout(top)
        layout.addWidget(self.empty)
        layout.addWidget(self.rows_area, 1)
        self.minus: dict[int, QToolButton] = {}
        self.show_lines([], {})

    def show_lines(self, lines: Sequence[tuple[int, int]], names: dict[int, str]) -> None:
        while self._rows.count():
            row = self._rows.takeAt(0)
            widget = row.widget() if row is not None else None
            if widget is not None:
                widget.deleteLater()
        self.minus = {}
        total = sum(units for _, units in lines)
        self.heading.setText(
            self.tr("Basket: %1 of %2 units")
            .replace("%1", str(total))
            .replace("%2", str(MAX_UNITS))
        )
        for item_id, units in lines:
            self._rows.addWidget(self._row(item_id, units, names.get(item_id, f"#{item_id}")))
        self._rows.addStretch(1)
        self.empty.setVisible(not lines)
        self.rows_area.setVisible(bool(lines))
        self.clear.setEnabled(bool(lines))

    def _row(self, item_id: int, units: int, name: str) -> QWidget:
        row = QWidget()
        count = QLabel(f"{units} ×")
        count.setStyleSheet("font-weight: 700;")
        count.setMinimumWidth(48)
        count.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        label = QLabel(name)
        label.setToolTip(name)
        label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        minus = QToolButton()
        minus.setText("−")
        minus.setMinimumSize(48, 48)
        minus.setStyleSheet("font-size: 26px; font-weight: 700;")
        minus.setAccessibleName(self.tr("Remove one %1").replace("%1", name))
        minus.clicked.connect(lambda _=False: self.removed.emit(item_id))
        self.minus[item_id] = minus
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(8)
        layout.addWidget(count)
        layout.addWidget(label, 1)
        layout.addWidget(minus)
        return row
