"""The kiosk's top-level window. It imports nothing but a few Qt classes, so it can
paint a "Starting…" frame before the API client, the simulator and the screens are
imported; the counter view then replaces that frame.

(It avoids ``PySide6.QtCore.Qt``: importing that namespace builds every Qt enum,
about 35 ms, which the first paint does not need.)"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMainWindow, QVBoxLayout, QWidget

COUNTER_SIZE = QSize(1280, 800)  # the window's size where the screen has the room


def first_size(available: QSize | None) -> QSize:
    """The window's first size: the counter's usual size, within the screen's free area
    (a 1024x768 counter gets a window it can show whole, not one cut at its edges)."""
    if available is None or available.isEmpty():
        return QSize(COUNTER_SIZE)
    return COUNTER_SIZE.boundedTo(available)


class KioskWindow(QMainWindow):
    first_painted = Signal()
    closing = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle(self.tr("Loyalty Kiosk"))
        self.setMinimumSize(QSize(1024, 700))
        splash = QWidget()
        splash.setObjectName("root")
        self.splash_label = QLabel(self.tr("Starting…"))
        self.splash_label.setProperty("role", "heading")
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.splash_label)
        row.addStretch(1)
        layout = QVBoxLayout(splash)
        layout.addStretch(1)
        layout.addLayout(row)
        layout.addStretch(1)
        self.setCentralWidget(splash)
        self._painted = False
        self.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if not self._painted and event.type() == QEvent.Type.Paint:
            self._painted = True
            self.removeEventFilter(self)
            self.first_painted.emit()
        return False

    def show_failure(self, text: str) -> None:
        self.splash_label.setText(text)
        self.splash_label.setWordWrap(True)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.closing.emit()
        super().closeEvent(event)
