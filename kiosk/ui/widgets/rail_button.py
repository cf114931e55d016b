"""A button of the counter's rail: icon over word, and the key that opens it.

F1-F7 open the rail's screens; each button says its key in its top right corner, in its
tooltip and in its accessible description, so that a cashier (and a screen reader) can
find it out."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent
from PySide6.QtWidgets import QToolButton, QWidget

from kiosk.ui.theme import current_palette

KEY_PX = 12  # the key's text: small, muted, in the corner (it never takes the word's room)


class RailButton(QToolButton):
    def __init__(self, title: str, key_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.key_name = key_name
        self.setProperty("role", "rail")
        self.setCheckable(True)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextUnderIcon)
        self.setIconSize(QSize(32, 32))
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setText(title)
        self.set_hint("")

    def set_hint(self, why_disabled: str) -> None:
        """The tooltip: the screen and its key, and why it is disabled when it is."""
        name = self.text()
        keyed = self.tr("%1 (key %2)").replace("%1", name).replace("%2", self.key_name)
        self.setToolTip(f"{keyed}\n{why_disabled}" if why_disabled else keyed)
        self.setAccessibleName(name)
        self.setAccessibleDescription(self.tr("Key %1").replace("%1", self.key_name))

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        painter = QPainter(self)
        font = QFont(self.font())
        font.setPixelSize(KEY_PX)
        painter.setFont(font)
        palette = current_palette()
        painter.setPen(QColor(palette.muted if self.isEnabled() else palette.border))
        corner = QRect(0, 2, self.width() - 6, KEY_PX + 4)
        painter.drawText(
            corner, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop, self.key_name
        )
        painter.end()
