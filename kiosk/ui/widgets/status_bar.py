"""The status bar that never moves: branch, connection, pending credits, busy, clock."""

from __future__ import annotations

from PySide6.QtCore import QDateTime, QLocale, QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QWidget

from kiosk.ui.icons import pixmap
from kiosk.ui.theme import current_palette


class CounterStatusBar(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "statusbar")
        self.setFixedHeight(52)
        self.branch = QLabel()
        self.connection_icon = QLabel()
        self.connection = QLabel()
        self.pending = QLabel()
        self.busy = QLabel()
        self.busy.setProperty("role", "muted")
        self.clock = QLabel()
        layout = QHBoxLayout(self)
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

    def set_branch(self, name: str) -> None:
        self.branch.setText(name)

    def set_online(self, online: bool) -> None:
        palette = current_palette()
        self.online = online
        if online:
            self.connection_icon.setPixmap(pixmap("online", palette.success, 22))
            self.connection.setText(self.tr("Online"))
        else:
            self.connection_icon.setPixmap(pixmap("offline", palette.danger, 22))
            self.connection.setText(self.tr("No connection"))

    def set_pending(self, count: int) -> None:
        self.pending.setText(self.tr("%n pending", "", count))

    def set_busy(self, busy: bool) -> None:
        self._busy_count = max(0, self._busy_count + (1 if busy else -1))
        self.busy.setText(self.tr("Working…") if self._busy_count else "")

    def _tick(self) -> None:
        now = QDateTime.currentDateTime()
        self.clock.setText(QLocale().toString(now.time(), QLocale.FormatType.ShortFormat))
