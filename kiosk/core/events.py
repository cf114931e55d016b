"""Plain callbacks from core to whoever listens (the UI marshals them onto Qt signals)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")

log = logging.getLogger(__name__)


class Event(Generic[T]):
    """A list of listeners called in order with one value. A failing listener is
    logged and does not stop the others (one broken screen must not break credits)."""

    def __init__(self) -> None:
        self._listeners: list[Callable[[T], None]] = []

    def connect(self, listener: Callable[[T], None]) -> None:
        self._listeners.append(listener)

    def disconnect(self, listener: Callable[[T], None]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def emit(self, value: T) -> None:
        for listener in list(self._listeners):
            try:
                listener(value)
            except Exception:
                log.exception("event listener failed")
