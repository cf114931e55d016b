"""A button whose text is never cut by a layout short of room."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QPushButton


class WholeButton(QPushButton):
    """A button never narrower than its text. The theme's ``min-width`` is an explicit
    minimum, which a layout short of room takes instead of the text's width: here the
    minimum follows the text, the font and the style whenever they change."""

    def event(self, event: QEvent) -> bool:
        handled = super().event(event)
        if event.type() in _RESIZING_EVENTS:
            self.setMinimumWidth(self.sizeHint().width())
        return handled

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setMinimumWidth(self.sizeHint().width())


_RESIZING_EVENTS = (QEvent.Type.Polish, QEvent.Type.StyleChange, QEvent.Type.FontChange)
