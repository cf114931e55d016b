"""Today's operations as a table view over ``JournalModel``, newest first.

No widget per row: "Cancel credit" is painted by ``ActionDelegate`` in the last
column and hit-tested on tap (a press and a release on the action's rect emit
``cancel_requested(entry_id)``; Enter or Space on the focused action cell too).
Only the visible rows are painted, and the fitted columns are measured on the rows
that came in or changed, never on the whole day.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QColor,
    QFocusEvent,
    QFont,
    QFontMetrics,
    QPainter,
    QPen,
)
from PySide6.QtWidgets import (
    QHeaderView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from kiosk.core.amounts import AmountLocale
from kiosk.core.journal import JournalEntry, Outcome
from kiosk.ui.screens.today.model import (
    ACTION,
    AMOUNT,
    CANCEL_PENDING,
    CANCELABLE_ROLE,
    CANCELED,
    CLIENT,
    CONTEXT,
    ENTRY_ID_ROLE,
    HEADERS,
    KIND,
    KIND_TEXT,
    OUTCOME_TEXT,
    POINTS,
    RESULT,
    TICKET,
    JournalModel,
)
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.action_table import CELL_PAD, ROW_PX, ActionTable, action_rect

# The client's column tells the rows apart: when the table is too narrow for it (1024
# px with a long operation name), these columns give way, in this order, rather than
# the table scrolling sideways or the client shrinking to "…".
GIVE_WAY = (TICKET, AMOUNT)
CLIENT_MIN_PX = 160
FITTED = tuple(c for c in range(len(HEADERS)) if c not in (CLIENT, ACTION))
_INDEX = QModelIndex | QPersistentModelIndex


def reserved_texts() -> dict[int, list[str]]:
    """Every text the Operation and Result columns can show (in the language now): a
    cancel turns a row "Canceled" and adds a "Credit canceled" row, and the columns
    never jump for it (the client's column never shrinks under the cashier's eyes)."""

    def tr(text: object) -> str:
        return QCoreApplication.translate(CONTEXT, str(text))

    return {
        KIND: [tr(text) for text in KIND_TEXT.values()],
        # (Not "Previewed, not credited": no cancel leads to it, and it is the longest.)
        RESULT: [
            tr(text) for outcome, text in OUTCOME_TEXT.items() if outcome is not Outcome.ABANDONED
        ]
        + [tr(CANCELED), tr(CANCEL_PENDING)],
    }


class ActionDelegate(QStyledItemDelegate):
    """Paints "Cancel credit" as the theme's button on a cancelable row."""

    def __init__(self, table: JournalTable) -> None:
        super().__init__(table)
        self.table = table

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _INDEX) -> None:
        super().paint(painter, option, index)  # the row's background
        if not index.data(CANCELABLE_ROLE):
            return
        p = current_palette()
        enabled = self.table.actions_enabled
        pressed = self.table.pressed_id == index.data(ENTRY_ID_ROLE)
        rect = action_rect(option.rect)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        focused = self.table.hasFocus() and self.table.currentIndex() == index
        border = p.accent if focused else p.border
        painter.setPen(QPen(QColor(border), 2))
        fill = p.surface_alt if pressed or not enabled else p.surface
        painter.setBrush(QColor(fill))
        painter.drawRoundedRect(rect.adjusted(1, 1, -1, -1), 10, 10)
        painter.setFont(self.table.action_font)
        painter.setPen(QColor(p.text if enabled else p.muted))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, self.table.action_text)
        painter.restore()


class JournalTable(ActionTable):
    """``cancel_requested(entry_id)`` when a row's "Cancel credit" is tapped."""

    cancel_requested = Signal(int)
    _built = False  # the columns are fitted from the end of __init__ on

    def __init__(self, locale: AmountLocale, parent: QWidget | None = None) -> None:
        super().__init__(
            parent,
            action_column=ACTION,
            action_role=CANCELABLE_ROLE,
            id_role=ENTRY_ID_ROLE,
            word_wrap=False,
        )
        self._widths: dict[int, int] = {}  # the fitted columns' widest text so far
        self._measured = QFont(self.font())  # the font they were measured in
        self.journal_model = JournalModel(locale, self)
        self.setModel(self.journal_model)
        self.verticalScrollBar().setSingleStep(ROW_PX // 2)
        header = self.horizontalHeader()
        for column in range(len(HEADERS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(CLIENT, QHeaderView.ResizeMode.Stretch)
        self.action_text = self.tr("Cancel credit")
        self.action_font = QFont(self.font())
        self.action_font.setBold(True)
        self.setColumnWidth(
            ACTION, QFontMetrics(self.action_font).horizontalAdvance(self.action_text) + 80
        )
        self.setItemDelegateForColumn(ACTION, ActionDelegate(self))
        model = self.journal_model
        model.modelReset.connect(lambda: self._fit(range(model.rowCount()), fresh=True))
        model.rowsInserted.connect(lambda _p, first, last: self._fit(range(first, last + 1)))
        model.dataChanged.connect(lambda top, bottom: self._fit(range(top.row(), bottom.row() + 1)))
        self._built = True

    # -- what the screen and the tests read -------------------------------------------
    @property
    def queued(self) -> bool:
        return self.journal_model.queued

    @queued.setter
    def queued(self, queued: bool) -> None:
        """The counter has an outbox: pending credits can be canceled."""
        self.journal_model.queued = queued

    @property
    def entries(self) -> list[JournalEntry]:
        return self.journal_model.entries

    def rowCount(self) -> int:
        return self.journal_model.rowCount()

    def entry(self, entry_id: int) -> JournalEntry | None:
        return self.journal_model.entry(entry_id)

    def cell_text(self, row: int, column: int) -> str:
        return str(self.journal_model.index(row, column).data() or "")

    def cancelable_ids(self) -> list[int]:
        """The rows read so far whose "Cancel credit" shows, newest first."""
        return self.journal_model.cancelable_ids()

    def action_rect(self, entry_id: int) -> QRect | None:
        """Where the row's "Cancel credit" is, in the viewport's coordinates (the row
        scrolled into view first); None when the row has none."""
        row = self.journal_model.row_of(entry_id)
        if row is None or entry_id not in self.journal_model.cancelable_ids():
            return None
        return self.row_action_rect(row)

    def activate(self, row_id: int) -> None:
        self.cancel_requested.emit(row_id)

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        if not self.currentIndex().isValid():  # the first action the keyboard can reach
            ids = self.cancelable_ids()
            row = self.journal_model.row_of(ids[0]) if ids else None
            if row is not None:
                self.setCurrentIndex(self.journal_model.index(row, ACTION))

    # -- columns -----------------------------------------------------------------------
    def _fit(self, rows: Iterable[int], *, fresh: bool = False) -> None:
        """Widen the fitted columns to the texts of ``rows`` (only those rows)."""
        if fresh:
            self._widths = {}
            self._measured = QFont(self.font())
        metrics = self.fontMetrics()
        model = self.journal_model
        widths = dict(self._widths)
        if fresh or not widths:  # what a cancel may show: its room is kept from the start
            for column, texts in reserved_texts().items():
                wanted = max(metrics.horizontalAdvance(text) for text in texts) + CELL_PAD
                widths[column] = max(widths.get(column, 0), wanted)
        for row in rows:
            for column in FITTED:
                text = model.index(row, column).data()
                if text:
                    lines = str(text).split("\n")
                    if column == POINTS and not lines[0].startswith("-"):
                        lines = [f"-{lines[0]}"]  # its cancel shows it taken back
                    width = max(metrics.horizontalAdvance(line) for line in lines)
                    widths[column] = max(widths.get(column, 0), width + CELL_PAD)
        header = self.horizontalHeader()
        resized = fresh
        for column in FITTED:
            wanted = max(widths.get(column, 0), header.sectionSizeHint(column))
            if wanted != header.sectionSize(column) and (
                fresh or wanted > header.sectionSize(column)
            ):
                header.resizeSection(column, wanted)
                resized = True
        self._widths = widths
        if resized:
            self._give_way()

    def _give_way(self) -> None:
        """Hide the ``GIVE_WAY`` columns whose room the client's column needs."""
        header = self.horizontalHeader()
        kept = sum(
            header.sectionSize(c)
            for c in range(len(HEADERS))
            if c != CLIENT and c not in GIVE_WAY and not header.isSectionHidden(c)
        )
        room = self.viewport().width() - kept - CLIENT_MIN_PX
        widths = {c: max(self._widths.get(c, 0), header.sectionSizeHint(c)) for c in GIVE_WAY}
        shown = list(GIVE_WAY)
        while shown and sum(widths[c] for c in shown) > room:
            shown.pop(0)
        for column in GIVE_WAY:
            if self.isColumnHidden(column) == (column in shown):
                self.setColumnHidden(column, column not in shown)

    def event(self, event: QEvent) -> bool:
        kind = event.type()
        handled = super().event(event)
        if self._built and kind in (
            QEvent.Type.Resize,
            QEvent.Type.Show,
            QEvent.Type.StyleChange,
        ):
            if kind != QEvent.Type.Resize and self.font() != self._measured:
                self._fit(range(self.journal_model.rowCount()), fresh=True)  # a new font
            self._give_way()
        return handled
