"""The status bar that never moves: branch, connection, pending credits, busy, clock.

The pending counter shows the outbox (issue #5): operations waiting to be sent,
dead letters a manager must see to, and a warning past 24 hours; a tap on it
asks for the Pending list (``pending_tapped``).
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QDateTime, QLocale, Qt, QTimer, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QWidget

from kiosk.ui.icons import pixmap, set_pixmap
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.elided import ElidedLabel
from kiosk.ui.widgets.relayout import FixedFill


class PendingStatus(Protocol):
    """What the bar reads of ``kiosk.core.outbox.queue.OutboxStatus``."""

    @property
    def pending(self) -> int: ...

    @property
    def dead(self) -> int: ...

    @property
    def stale(self) -> bool: ...


class CounterStatusBar(QFrame):
    pending_tapped = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "statusbar")
        self.setFixedHeight(52)
        self.branch = ElidedLabel()  # a long name gives way: cut, whole in its tooltip
        self.connection_icon = QLabel()
        self.connection = QLabel()
        self.pending_icon = QLabel()
        self.pending = ElidedLabel(hint=self.tr("Tap to see the pending operations"))
        self.pending.setCursor(Qt.CursorShape.PointingHandCursor)
        self.pending_icon.setCursor(Qt.CursorShape.PointingHandCursor)
        self.busy = QLabel()
        self.busy.setProperty("role", "muted")
        self.clock = QLabel()
        # The bar changes on every network call ("Working…") and every minute (the
        # clock): its layout lives on a fixed-size filler so that the window is not
        # laid out again each time (kiosk/ui/widgets/relayout.py).
        layout = QHBoxLayout(FixedFill(self))
        layout.setContentsMargins(16, 4, 16, 4)
        layout.setSpacing(12)
        store = QLabel()
        store.setPixmap(pixmap("store", current_palette().muted, 22))
        layout.addWidget(store)
        layout.addWidget(self.branch)
        layout.addSpacing(24)
        layout.addWidget(self.connection_icon)
        layout.addWidget(self.connection)
        layout.addSpacing(24)
        layout.addWidget(self.pending_icon)
        layout.addWidget(self.pending)
        layout.addStretch(1)
        layout.addWidget(self.busy)
        layout.addSpacing(16)
        layout.addWidget(self.clock)
        self._busy_count = 0
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._tick)
        self._timer.start(1000)
        self._tick()
        self.set_online(True)
        self.set_pending(0)

    def set_branch(self, name: str, branch_id: int | None = None) -> None:
        """The branch's name; before the service confirmed it (a start without
        connection, the first time), its number."""
        if not name and branch_id is not None:
            name = self.tr("Branch %1").replace("%1", str(branch_id))
        self.branch.setText(name)

    def set_online(self, online: bool) -> None:
        palette = current_palette()
        self.online = online
        if online:
            set_pixmap(self.connection_icon, pixmap("online", palette.success, 22))
            self.connection.setText(self.tr("Online"))
        else:
            set_pixmap(self.connection_icon, pixmap("offline", palette.danger, 22))
            self.connection.setText(self.tr("No connection"))

    def set_pending(self, count: int) -> None:
        self.show_counts(count, 0, False)

    def show_outbox(self, status: PendingStatus) -> None:
        """The outbox's status (``Outbox.status_changed``)."""
        self.show_counts(status.pending, status.dead, status.stale)

    def show_counts(self, pending: int, dead: int, stale: bool) -> None:
        palette = current_palette()
        self.pending_count, self.dead_count, self.stale = pending, dead, stale
        parts = [self.tr("%n pending", "", pending)]
        if dead:
            parts.append(self.tr("%n refused", "", dead))
        if stale:
            parts.append(self.tr("waiting over 24 h: call a manager"))
        self.pending.setText(" · ".join(parts))
        alarm = bool(dead) or stale
        colour = palette.danger if alarm else palette.accent if pending else palette.muted
        set_pixmap(self.pending_icon, pixmap("outbox", colour, 22))
        self.pending.setStyleSheet(f"color: {colour}; font-weight: 600;" if alarm else "")

    def mousePressEvent(self, event: QMouseEvent) -> None:
        spot = event.position().toPoint()
        if any(w.geometry().contains(spot) for w in (self.pending, self.pending_icon)):
            self.pending_tapped.emit()
            return
        super().mousePressEvent(event)

    def set_busy(self, busy: bool) -> None:
        self._busy_count = max(0, self._busy_count + (1 if busy else -1))
        self.busy.setText(self.tr("Working…") if self._busy_count else "")

    def _tick(self) -> None:
        now = QDateTime.currentDateTime()
        self.clock.setText(QLocale().toString(now.time(), QLocale.FormatType.ShortFormat))
