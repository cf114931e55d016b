"""The Pending list of the Today screen: the outbox's waiting and dead-letter rows.

A model (``PendingModel``, kept current by ``PendingFeed``: the first page, the next
ones as the manager scrolls, then only the rows the outbox says changed) and a table
view: no widget per row, "Discard" painted by a delegate and hit-tested. Each row: its age, what it is (credit or cancel), the client (masked), its
reference (external id), attempts, and the last error in plain words; "Retry now"
makes every waiting row due now; "Discard" on a dead letter (behind the manager's
PIN, asked by the screen) gives it up. The summary and the warning for rows waiting
over 24 hours come from the outbox's counts (``ListCounts``), not from the rows read.
Rows are never dropped silently: only a manager's discard; a row the kiosk cannot
read shows, saying so.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from PySide6.QtCore import (
    QEvent,
    QRect,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from kiosk.core.amounts import AmountLocale
from kiosk.core.outbox.listing import ListCounts
from kiosk.core.outbox.queue import OutboxEntry
from kiosk.ui.icons import icon
from kiosk.ui.screens.today.pending_model import (
    _INDEX,
    ACTION,
    AGE,
    CLIENT,
    DISARM_MS,
    DISCARD,
    DISCARDABLE_ROLE,
    ERROR,
    FITTED,
    HEADERS,
    REFERENCE,
    ROW_ID_ROLE,
    ROW_PX,
    TAP_AGAIN,
    PendingModel,
    _t,
    discardable,
)
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.action_table import CELL_PAD, ActionTable, action_rect
from kiosk.ui.widgets.busy_button import BusyButton
from kiosk.ui.widgets.commit_button import ARM_GUARD_MS

FIT_ROWS = 100
AGE_TICK_MS = 60_000  # the ages shown are in minutes
# The list never scrolls sideways ("Discard" out of reach): see ``_give_way``.
REFERENCE_PX = 200
REFERENCE_MIN_PX = 120
CLIENT_MIN_PX = 120
ERROR_MIN_PX = 180
ACTION_PX = 140


class DiscardDelegate(QStyledItemDelegate):
    """Paints "Discard" (or "Tap again to discard") as the theme's danger button."""

    def __init__(self, table: PendingTable) -> None:
        super().__init__(table)
        self.table = table

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _INDEX) -> None:
        super().paint(painter, option, index)
        if not index.data(DISCARDABLE_ROLE):
            return
        p = current_palette()
        enabled = self.table.actions_enabled
        rect = action_rect(option.rect)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        focused = self.table.hasFocus() and self.table.currentIndex() == index
        painter.setPen(QPen(QColor(p.text if focused else p.danger), 2))
        painter.setBrush(QColor(p.danger if enabled else p.surface_alt))
        painter.drawRoundedRect(rect.adjusted(1, 1, -1, -1), 10, 10)
        painter.setFont(self.table.action_font)
        painter.setPen(QColor("#ffffff" if enabled else p.muted))
        text = self.table.action_text(int(index.data(ROW_ID_ROLE)))
        flags = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap
        painter.drawText(rect.adjusted(6, 0, -6, 0), int(flags), text)
        painter.restore()


class PendingTable(ActionTable):
    """``discard_requested(row_id)`` when a dead letter's "Discard" is tapped twice (the
    first tap arms it: "Tap again to discard", for a few seconds). No widget per row:
    the action is painted and hit-tested (a tap; Enter or Space on its focused cell)."""

    discard_requested = Signal(int)

    def __init__(
        self, parent: QWidget | None = None, *, amount_locale: AmountLocale = AmountLocale.ES_AR
    ) -> None:
        super().__init__(
            parent,
            action_column=ACTION,
            action_role=DISCARDABLE_ROLE,
            id_role=ROW_ID_ROLE,
            word_wrap=True,
            row_px=ROW_PX,
        )
        self.pending_model = PendingModel(amount_locale, self)
        self.setModel(self.pending_model)
        header = self.horizontalHeader()
        for column in range(len(HEADERS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(ERROR, QHeaderView.ResizeMode.Stretch)
        self.setColumnWidth(REFERENCE, REFERENCE_PX)
        self.setTextElideMode(Qt.TextElideMode.ElideLeft)
        self.setColumnWidth(ACTION, ACTION_PX)
        self._fitted: dict[int, int] = {}  # the fitted columns' widths for their texts
        self.action_font = QFont(self.font())
        self.action_font.setBold(True)
        self.setItemDelegateForColumn(ACTION, DiscardDelegate(self))
        self.armed: int | None = None  # the row whose "Discard" waits for a second tap
        self.clock: Callable[[], float] = time.monotonic  # when it was armed (tests move it)
        self._armed_at = 0.0
        self._disarm = QTimer(self)
        self._disarm.setSingleShot(True)
        self._disarm.setInterval(DISARM_MS)
        self._disarm.timeout.connect(lambda: self._arm(None))
        # While shown, the ages move on by themselves (texts made again for the rows
        # painted: the visible ones), as a manager watching the list expects.
        self.age_timer = QTimer(self)
        self.age_timer.setInterval(AGE_TICK_MS)
        self.age_timer.timeout.connect(self.pending_model.refresh_ages)
        model = self.pending_model
        for changed in (model.modelReset, model.rowsRemoved, model.dataChanged):
            changed.connect(self._keep_armed)
        model.modelReset.connect(self._fit)

    # -- what the screen and the tests read --------------------------------------------
    @property
    def entries(self) -> list[OutboxEntry]:
        return self.pending_model.entries

    def rowCount(self) -> int:
        return self.pending_model.rowCount()

    def cell_text(self, row: int, column: int) -> str:
        return str(self.pending_model.index(row, column).data() or "")

    def entry(self, row_id: int) -> OutboxEntry | None:
        return self.pending_model.entry(row_id)

    def discard_ids(self) -> list[int]:
        """The dead letters shown, whose "Discard" is painted."""
        return [e.id for e in self.entries if discardable(e)]

    def action_text(self, row_id: int) -> str:
        armed = self.armed == row_id
        return _t(TAP_AGAIN if armed else DISCARD)

    def action_rect(self, row_id: int) -> QRect | None:
        """Where the row's "Discard" is, in the viewport's coordinates (scrolled to)."""
        row = self.pending_model.row_of(row_id)
        entry = self.entry(row_id)
        if row is None or entry is None or not discardable(entry):
            return None
        return self.row_action_rect(row)

    def show_entries(self, entries: Sequence[OutboxEntry], *, more: bool = False) -> None:
        """Show these rows (the list's first page) instead of everything."""
        self.pending_model.reset(entries, more=more)

    def _keep_armed(self, *_: object) -> None:
        """An armed "Discard" whose row went (or is no dead letter now) is disarmed."""
        if self.armed is None:
            return
        entry = self.entry(self.armed)
        if entry is None or not discardable(entry):
            self._arm(None)

    # -- taps and keys ---------------------------------------------------------------
    def activate(self, row_id: int) -> None:
        """Two taps: the first arms the action for a few seconds; only the second asks
        for the discard (then the manager's PIN), once "Tap again to discard" has been
        on screen ``ARM_GUARD_MS`` (a double tap, or Enter, Enter, is one tap)."""
        if self.armed == row_id:
            if self.clock() - self._armed_at < ARM_GUARD_MS / 1000:
                return  # the second tap of a double tap: nobody read "Tap again"
            self._arm(None)
            self.discard_requested.emit(row_id)
            return
        self._arm(row_id)
        self._disarm.start()

    def _arm(self, row_id: int | None) -> None:
        self.armed = row_id
        self._armed_at = self.clock()
        self.viewport().update()

    def _fit(self) -> None:
        """The fitted columns to the widest text of the first rows (``FIT_ROWS``: the
        columns' texts are alike, and no list of thousands is measured in a tap). The
        age wraps onto two lines ("under a / minute"): its widest word counts."""
        metrics = self.fontMetrics()
        heading = self.horizontalHeader().fontMetrics()
        model = self.pending_model
        rows = [model.cells(row) for row in range(min(FIT_ROWS, model.rowCount()))]
        for column in FITTED:
            texts = (cells[column] for cells in rows)
            parts = (p for t in texts for p in (t.split() if column == AGE else t.split("\n")))
            widest = max((metrics.horizontalAdvance(part) for part in parts), default=0)
            title = heading.horizontalAdvance(_t(HEADERS[column]))
            self._fitted[column] = max(widest, title) + CELL_PAD
        self._give_way()

    def _give_way(self) -> None:
        """The last error keeps ``ERROR_MIN_PX``: the reference narrows, then hides, then
        the client narrows (elided, whole in its tooltip) down to ``CLIENT_MIN_PX``."""
        header = self.horizontalHeader()
        width = {c: self._fitted.get(c, header.sectionSize(c)) for c in FITTED}
        others = sum(width[c] for c in FITTED if c != CLIENT) + ACTION_PX
        room = self.viewport().width() - others - ERROR_MIN_PX  # the client's and reference's
        reference = min(REFERENCE_PX, room - width[CLIENT])
        hidden = reference < REFERENCE_MIN_PX
        if hidden:
            width[CLIENT] = max(CLIENT_MIN_PX, min(width[CLIENT], room))
        else:
            width[REFERENCE] = reference
        if self.isColumnHidden(REFERENCE) != hidden:
            self.setColumnHidden(REFERENCE, hidden)
        for column, wanted in width.items():
            if header.sectionSize(column) != wanted:
                header.resizeSection(column, wanted)

    def event(self, event: QEvent) -> bool:
        handled = super().event(event)
        kind = event.type()
        if kind in (QEvent.Type.Resize, QEvent.Type.Show):
            self._give_way()
        if kind == QEvent.Type.Show:
            self.age_timer.start()
        elif kind == QEvent.Type.Hide:
            self.age_timer.stop()
        return handled


class PendingPanel(QWidget):
    """The list, its summary and warning, and "Retry now"."""

    def __init__(
        self, parent: QWidget | None = None, *, amount_locale: AmountLocale = AmountLocale.ES_AR
    ) -> None:
        super().__init__(parent)
        p = current_palette()
        self.summary = QLabel()
        self.summary.setProperty("role", "muted")
        self.summary.setWordWrap(True)
        self.warning = QLabel()
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet(f"color: {p.danger}; font-weight: 600;")
        self.warning.hide()
        self.retry = BusyButton(self.tr("Retry now"))
        self.retry.setIcon(icon("refresh", p.accent))
        self.retry.setMinimumHeight(48)
        self.table = PendingTable(amount_locale=amount_locale)
        self.empty = QLabel(
            self.tr("Nothing waiting: every credit and cancel of this kiosk has been sent.")
        )
        self.empty.setProperty("role", "muted")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        top = QHBoxLayout()
        texts = QVBoxLayout()
        texts.addWidget(self.summary)
        texts.addWidget(self.warning)
        top.addLayout(texts, 1)
        top.addWidget(self.retry, 0, Qt.AlignmentFlag.AlignBottom)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(12)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.empty, 1)

    def show_counts(self, counts: ListCounts) -> None:
        """The summary, the warning and "Retry now" from the outbox's counts."""
        pending, dead = counts.pending, counts.dead
        self.table.setVisible(bool(pending or dead))
        self.empty.setVisible(not (pending or dead))
        parts = [self.tr("%n waiting to be sent", "", pending)] if pending or not dead else []
        if dead:
            parts.append(self.tr("%n refused by the server: a manager must discard", "", dead))
        self.summary.setText(" · ".join(parts))
        self.retry.setEnabled(bool(pending))
        self.warning.setVisible(bool(counts.stale))
        if counts.stale:
            self.warning.setText(
                self.tr(
                    "%n operation(s) waiting for more than 24 hours. Manager: check the "
                    "connection and the server, or call support.",
                    "",
                    counts.stale,
                )
            )
