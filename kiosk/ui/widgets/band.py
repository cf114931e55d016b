"""The amber band that says the kiosk is not crediting real points (training or QA)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QWidget


class EnvironmentBand(QFrame):
    """Visible in training and QA, hidden in production."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "band")
        self.label = QLabel()
        self.label.setProperty("role", "band")
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(16, 6, 16, 6)
        layout.addWidget(self.label)
        self.hide()

    def set_environment(self, environment: str) -> None:
        if environment == "training":
            self.label.setText(self.tr("TRAINING: no real points are credited"))
            self.show()
        elif environment == "qa":
            self.label.setText(self.tr("QA: test environment, not for real sales"))
            self.show()
        else:
            self.label.setText("")
            self.hide()
