"""Inline banners: an error with the next step, a success with what changed, or a note.

Showing one moves the screen's content down: the screen is laid out with the next
pass of the event loop (``show_deferred``), once with whatever else the same answer
changed, instead of synchronously inside ``show()`` (issue #4).

The banner paints its own rounded card (``rounded_card``: drawn once per size and
colours, then copied) in the colours of its kind. A style-sheet role per kind made
every change of kind re-polish the banner against the application's whole style
sheet, about 1 ms inside the answer that showed it, and drew the rounded border with
four anti-aliased arcs at each paint.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

from kiosk.ui.icons import pixmap
from kiosk.ui.theme import Palette, current_palette
from kiosk.ui.widgets.relayout import show_deferred

RADIUS_PX = 10
BORDER_PX = 1


def kind_colors(kind: str, p: Palette) -> tuple[str, str, str]:
    """The (fill, border, icon) colours of a banner of ``kind`` in palette ``p``."""
    if kind == "error":
        return p.danger_bg, p.danger, p.danger
    if kind == "success":
        return p.success_bg, p.success, p.success
    return p.info_bg, p.accent, p.accent


class Banner(QFrame):
    """Hidden until told to show; a success hides itself after ``success_seconds``."""

    dismissed = Signal()

    def __init__(self, parent: QWidget | None = None, *, success_seconds: float = 6.0) -> None:
        super().__init__(parent)
        self.kind = ""
        self._look: tuple[str, str, str] | None = None  # (fill, border, icon) being shown
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
        self._show("error", text)

    def show_success(self, text: str) -> None:
        self._show("success", text)
        self._timer.start(self._success_ms)

    def show_info(self, text: str) -> None:
        self._show("info", text)

    def _show(self, kind: str, text: str) -> None:
        self._timer.stop()
        self.kind = kind
        self._restyle()
        self._text.setText(text)
        if self.isHidden():
            show_deferred(self)

    def prepare(self) -> None:
        """What a first banner would do inside the answer that shows it, done ahead
        (the warm-up): each kind's icon drawn, the banner and its parts polished."""
        p = current_palette()
        for kind in ("error", "success", "info"):
            pixmap(kind, kind_colors(kind, p)[2], 28)
        self._close_icon()
        self.ensurePolished()

    def _restyle(self) -> None:
        look = kind_colors(self.kind, current_palette())
        if self._look != look:  # new colours only when the kind (or the theme) changes
            self._look = look
            self._icon.setPixmap(pixmap(self.kind, look[2], 28))
            self._close.setIcon(self._close_icon())
            self.update()

    def changeEvent(self, event: QEvent) -> None:
        # A new theme (the application's style sheet set again) while shown.
        if event.type() == QEvent.Type.StyleChange and self.kind:
            self._restyle()
        super().changeEvent(event)

    def _close_icon(self):  # type: ignore[no-untyped-def]
        from kiosk.ui.icons import icon

        return icon("close", current_palette().muted)

    def paintEvent(self, event: Any) -> None:
        if self._look is None:
            return
        from kiosk.ui.widgets.rounded import rounded_card  # (not on the start-up path)

        fill, border, _ = self._look
        card = rounded_card(
            self.width(),
            self.height(),
            fill,
            border,
            BORDER_PX,
            RADIUS_PX,
            ratio=self.devicePixelRatioF(),
        )
        painter = QPainter(self)
        painter.drawPixmap(0, 0, card)
        painter.end()

    def dismiss(self) -> None:
        self._timer.stop()
        self.kind = ""
        self._text.setText("")
        self.hide()
        self.dismissed.emit()
