"""The kiosk's top-level window. It imports nothing but Qt and the theme, so it can
paint a "Starting…" frame before the API client, the simulator and the screens are
imported; the counter view then replaces that frame."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QLabel, QMainWindow, QVBoxLayout, QWidget


class KioskWindow(QMainWindow):
    first_painted = Signal()
    closing = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle(self.tr("Loyalty Kiosk"))
        self.setMinimumSize(QSize(1024, 700))
        splash = QWidget()
        splash.setObjectName("root")
        layout = QVBoxLayout(splash)
        self.splash_label = QLabel(self.tr("Starting…"))
        self.splash_label.setProperty("role", "heading")
        self.splash_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(self.splash_label)
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
