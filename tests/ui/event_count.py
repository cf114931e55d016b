"""``EventCount``: an event filter that counts the events of some types the watched
objects receive (layout requests, resizes, restyling), to pin how often a change
makes Qt do work."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject


class EventCount(QObject):
    def __init__(self, *types: QEvent.Type) -> None:
        super().__init__()
        self.types = frozenset(types)
        self.count = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in self.types:
            self.count += 1
        return False
