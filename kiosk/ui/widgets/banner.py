"""Inline banners: an error with the next step, a success with what changed, or a note.

Showing one moves the screen's content down: the screen is laid out with the next
pass of the event loop (``show_deferred``), once with whatever else the same answer
changed, instead of synchronously inside ``show()`` (issue #4).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

from kiosk.ui.icons import pixmap
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.relayout import show_deferred


class Banner(QFrame):
    """Hidden until told to show; a success hides itself after ``success_seconds``."""

    dismissed = Signal()

    def __init__(self, parent: QWidget | None = None, *, success_seconds: float = 6.0) -> None:
        super().__init__(parent)
        self.kind = ""
        self._look: tuple[str, str] | None = None  # (kind, color) the icon and style are for
        self._icon = QLabel()
        self._text = QLabel()
        self._text.setWordWrap(True)
        self._text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._close = QToolButton()
        self._close.setAutoRaise(True)
        self._close.setMinimumSize(48, 48)
        self._close.clicked.connect(self.dismiss)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(16, 8, 8, 8)
        layout.setSpacing(12)
        layout.addWidget(self._icon, 0, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self._text, 1)
        layout.addWidget(self._close, 0, Qt.AlignmentFlag.AlignTop)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.dismiss)
        self._success_ms = int(success_seconds * 1000)
        self.hide()

    def text(self) -> str:
        return (
            self._text.text()
            if self.isVisibleTo(self.parentWidget()) or not self.isHidden()
            else ""
        )

    def show_error(self, text: str) -> None:
        self._show("error", text, current_palette().danger)

    def show_success(self, text: str) -> None:
        self._show("success", text, current_palette().success)
        self._timer.start(self._success_ms)

    def show_info(self, text: str) -> None:
        self._show("info", text, current_palette().accent)

    def _show(self, kind: str, text: str, color: str) -> None:
        self._timer.stop()
        self.kind = kind
        if self._look != (kind, color):  # restyled only when the kind (or theme) changes
            self._look = (kind, color)
            self.setProperty("role", f"banner-{kind}")
            self.style().unpolish(self)
            self.style().polish(self)
            self._icon.setPixmap(pixmap({"info": "info"}.get(kind, kind), color, 28))
            self._close.setIcon(self._close_icon())
        self._text.setText(text)
        if self.isHidden():
            show_deferred(self)

    def _close_icon(self):  # type: ignore[no-untyped-def]
        from kiosk.ui.icons import icon

        return icon("close", current_palette().muted)

    def dismiss(self) -> None:
        self._timer.stop()
        self.kind = ""
        self._text.setText("")
        self.hide()
        self.dismissed.emit()
