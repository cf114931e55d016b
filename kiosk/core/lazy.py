"""A value given now, or made by a function the first time it is needed.

The counter opens before the API client exists: the session and the outbox's sender
hold their client as a ``Lazy`` (made at the first call, after "ready"), and the
composition root holds the training simulator's transport the same way. What such a
first use imports can be imported ahead, off the event loop (``import_ahead``).
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")
log = logging.getLogger(__name__)


def import_ahead(name: str) -> bool:
    """Import the module ``name`` before its first use (a worker thread does it, so
    the event loop keeps turning). False when it failed: its user's own import raises
    where it is used, so the failure is only noted here."""
    try:
        importlib.import_module(name)
    except Exception as error:  # said by the user's own import
        log.debug("import ahead of %s failed: %s", name, type(error).__name__)
        return False
    return True


class Lazy(Generic[T]):
    """``get()`` returns the value; a function given instead is called once, at the
    first ``get()``. ``made`` says whether the value exists yet."""

    def __init__(self, value_or_maker: T | Callable[[], T]) -> None:
        self._maker: Callable[[], T] | None = None
        self._value: T | None = None
        self._made = False
        if callable(value_or_maker):
            self._maker = value_or_maker
        else:
            self._value, self._made = value_or_maker, True

    @property
    def made(self) -> bool:
        return self._made

    def get(self) -> T:
        if not self._made:
            assert self._maker is not None
            self._value, self._made = self._maker(), True
            self._maker = None
        return self._value  # type: ignore[return-value]  # (T may itself be None)
