"""Point items on the Points screen: the grid of big tiles and the visible basket.

A tile shows the item's name, its points (or its amount), and a badge with how
many units are in the basket; a tap asks for one more unit (``tapped``). The
basket lists each item with its count and a remove button (``removed``).

Both are updated in place (issue #4: no stall over 16 ms at the counter): a tap
changes one tile's badge and one basket row; tiles and rows are built once per item
and kept. The tiles share one style sheet, set on the grid, with a ``chosen``
property selector: a tile is re-polished only when it comes into or out of the
basket, not at every count.
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
from kiosk.core.counter.basket import MAX_UNITS
from kiosk.ui.icons import icon
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.layouts import tile_scroll
from kiosk.ui.widgets.relayout import show_deferred

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


def tile_style() -> str:
    """The tiles' one style sheet (set on the grid): a tile in the basket is
    ``chosen``; the labels are told apart by object name."""
    p = current_palette()
    return (
        f"QPushButton#itemTile {{ background: {p.surface}; border: 2px solid {p.border};"
        f" border-radius: 14px; padding: 0; text-align: left;"
        f" min-height: {TILE_HEIGHT - 4}px; max-height: {TILE_HEIGHT - 4}px;"
        f" min-width: {TILE_MIN_WIDTH - 4}px; }}"
        f"QPushButton#itemTile[chosen='true'] {{ border-color: {p.accent};"
        f" background: {p.info_bg}; }}"
        f"QPushButton#itemTile:pressed {{ background: {p.info_bg}; }}"
        f"QPushButton#itemTile:disabled {{ background: {p.surface_alt}; }}"
        "QLabel#itemName { font-size: 18px; font-weight: 600; }"
        f"QLabel#itemValue {{ font-size: 18px; font-weight: 700; color: {p.accent}; }}"
        f"QLabel#itemBadge {{ background: {p.accent}; color: {p.accent_text};"
        " border-radius: 18px; font-size: 18px; font-weight: 700; padding: 0 8px; }"
    )


class ItemTile(QPushButton):
    """One point item as a big touch target (its labels let taps through). Styled by
    its grid's sheet (``tile_style``)."""

    def __init__(self, item: PointItem, locale: AmountLocale, parent: QWidget | None = None):
        super().__init__(parent)
        self.amount_locale = locale
        self.setObjectName("itemTile")
        self.setMinimumSize(TILE_MIN_WIDTH, TILE_HEIGHT)
        self.setFixedHeight(TILE_HEIGHT)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setProperty("chosen", "false")
        self.name = QLabel()
        self.name.setObjectName("itemName")
        self.name.setWordWrap(True)
        self.value = QLabel()
        self.value.setObjectName("itemValue")
        self.badge = QLabel()
        self.badge.setObjectName("itemBadge")
        self.badge.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.badge.setMinimumSize(36, 36)
        self.badge.hide()
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
        self.count = 0
        self.set_item(item)

    def set_item(self, item: PointItem) -> None:
        """Show ``item`` (this item again, maybe renamed or re-priced)."""
        self.item = item
        self.name.setText(item.name or f"#{item.id}")
        self.value.setText(item_value(item, self.amount_locale))
        self._describe()

    def set_count(self, count: int) -> None:
        chosen = count > 0
        was_chosen = self.count > 0
        self.count = count
        self.badge.setText(str(count))
        if chosen != was_chosen:  # the style changes only when it enters or leaves the basket
            self.setProperty("chosen", "true" if chosen else "false")
            self.style().unpolish(self)
            self.style().polish(self)
            if chosen:
                show_deferred(self.badge)  # laid out with the tile, not the whole screen
            else:
                self.badge.hide()
        self._describe()

    def _describe(self) -> None:
        self.setAccessibleName(f"{self.name.text()}: {self.value.text()} ({self.count})")

    def sizeHint(self) -> QSize:
        return QSize(TILE_MIN_WIDTH, TILE_HEIGHT)


class ItemGrid(QScrollArea):
    """The branch's point items, re-flowed to the width."""

    tapped = Signal(int)  # item id

    def __init__(self, locale: AmountLocale, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.amount_locale = locale
        self._inner, self._grid = tile_scroll(self, "itemGrid", GAP)
        self._inner.setStyleSheet(self._inner.styleSheet() + tile_style())
        self.tiles: dict[int, ItemTile] = {}
        self._order: list[ItemTile] = []
        self._columns = 0

    def set_items(self, items: Sequence[PointItem]) -> None:
        """Show ``items`` in their order: an item already shown keeps its tile (and
        its count), updated in place; new items get a tile (polished now, so that the
        first show of the grid does not style them all at once); gone ones are deleted."""
        old = self.tiles
        self.tiles = {}
        order: list[ItemTile] = []
        for item in items:
            tile = old.pop(item.id, None)
            if tile is None:
                tile = ItemTile(item, self.amount_locale, self._inner)  # a hidden child
                tile.clicked.connect(lambda _=False, item_id=item.id: self.tapped.emit(item_id))
                tile.ensurePolished()
            else:
                tile.set_item(item)
            self.tiles[item.id] = tile
            order.append(tile)
        for tile in old.values():
            self._grid.removeWidget(tile)
            tile.hide()
            tile.deleteLater()
        if order != self._order:
            self._order = order
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
            if tile.isHidden() and self._inner.isVisible():
                show_deferred(tile)
        for column in range(MAX_COLUMNS):
            self._grid.setColumnStretch(column, 1 if column < columns else 0)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._flow()


class BasketRow(QWidget):
    """One item of the basket: ``2 ×``, its name, and "−" (one unit less)."""

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.count = QLabel()
        self.count.setStyleSheet("font-weight: 700;")
        self.count.setMinimumWidth(48)
        self.count.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.label = QLabel()
        self.label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.minus = QToolButton()
        self.minus.setText("−")
        self.minus.setMinimumSize(48, 48)
        self.minus.setStyleSheet("font-size: 26px; font-weight: 700;")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(8)
        layout.addWidget(self.count)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.minus)
        self.units = 0
        self.set_name(name)

    def set_name(self, name: str) -> None:
        if name != self.label.text():
            self.label.setText(name)
            self.label.setToolTip(name)
            self.minus.setAccessibleName(self.tr("Remove one %1").replace("%1", name))

    def set_units(self, units: int) -> None:
        if units != self.units:
            self.units = units
            self.count.setText(f"{units} ×")


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
        self.heading.setWordWrap(True)  # "Carrito: 3 de 100 unidades" in a narrow column
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
        self._rows.addStretch(1)
        self._inner = QWidget()
        self._inner.setObjectName("basketRows")
        self._inner.setStyleSheet("QWidget#basketRows { background: transparent; }")
        self._inner.setLayout(self._rows)
        self.rows_area = QScrollArea()
        self.rows_area.setWidgetResizable(True)
        self.rows_area.setFrameShape(QFrame.Shape.NoFrame)
        self.rows_area.viewport().setStyleSheet("background: transparent;")
        self.rows_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.rows_area.setWidget(self._inner)
        self.rows_area.setMinimumHeight(52)  # one row at least; the column is short at 768
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(self.clear)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 6, 8, 8)
        layout.setSpacing(4)
        layout.addLayout(top)
        layout.addWidget(self.empty)
        layout.addWidget(self.rows_area, 1)
        self.rows: dict[int, BasketRow] = {}
        self.minus: dict[int, QToolButton] = {}
        self._total: int | None = None
        self.show_lines([], {})

    def show_lines(self, lines: Sequence[tuple[int, int]], names: dict[int, str]) -> None:
        """Show ``lines`` (item id, units) in order. Rows are kept per item and updated
        in place: a tap changes one count; an item added gets a row, one removed loses it."""
        wanted = dict(lines)
        for item_id in [i for i in self.rows if i not in wanted]:
            row = self.rows.pop(item_id)
            del self.minus[item_id]
            self._rows.removeWidget(row)
            row.hide()
            row.deleteLater()
        for index, (item_id, units) in enumerate(lines):
            row = self.rows.get(item_id)
            name = names.get(item_id, f"#{item_id}")
            if row is None:
                row = self._new_row(item_id, name)
            else:
                row.set_name(name)
            row.set_units(units)
            if self._rows.indexOf(row) != index:
                self._rows.removeWidget(row)
                self._rows.insertWidget(index, row)
                show_deferred(row)  # laid out with the basket's rows only
        total = sum(units for _, units in lines)
        if total != self._total:
            self._total = total
            self.heading.setText(
                self.tr("Basket: %1 of %2 units")
                .replace("%1", str(total))
                .replace("%2", str(MAX_UNITS))
            )
        self.empty.setVisible(not lines)
        self.rows_area.setVisible(bool(lines))
        self.clear.setEnabled(bool(lines))

    def _new_row(self, item_id: int, name: str) -> BasketRow:
        row = BasketRow(name, self._inner)
        row.hide()  # shown once it is in place
        row.minus.clicked.connect(lambda _=False: self.removed.emit(item_id))
        self.rows[item_id] = row
        self.minus[item_id] = row.minus
        return row
