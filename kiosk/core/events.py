"""Plain callbacks from core to whoever listens (the UI marshals them onto Qt signals).

A listener goes with its owner (issue #14, defect 12: a screen deleted by Qt kept
hearing the session's events, and each one logged "Internal C++ object already
deleted"):

- a bound method of a Qt object (a widget's ``self._changed``) is held weakly and
  dropped, unheard, once Qt deleted the object (``shiboken6.isValid``);
- ``connect(listener, owner=widget)`` does the same for a function or lambda that
  speaks for ``widget``; ``connect(listener, weak=True)`` holds any bound method
  weakly (an object owned by a screen, like the point-item catalogue);
- a listener that still reaches a deleted Qt object is dropped with a debug line,
  never an error in the log.

This module imports no Qt: it asks ``shiboken6`` only when Qt is already loaded.
"""

from __future__ import annotations

import inspect
import logging
import sys
import weakref
from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")

log = logging.getLogger(__name__)

DELETED = "already deleted"  # shiboken's RuntimeError: "Internal C++ object (X) already deleted."


def _shiboken() -> Any:
    return sys.modules.get("shiboken6")


def is_qt_object(value: object) -> bool:
    shiboken = _shiboken()
    return shiboken is not None and isinstance(value, shiboken.Object)


def is_alive(value: object) -> bool:
    """False for a Qt object whose C++ side Qt deleted; True for anything else."""
    shiboken = _shiboken()
    if shiboken is None or not isinstance(value, shiboken.Object):
        return True
    return bool(shiboken.isValid(value))


class _Slot(Generic[T]):
    """One listener: the callable (or a weak reference to it) and its owner."""

    def __init__(self, listener: Callable[[T], None], owner: object, weak: bool | None) -> None:
        bound = inspect.ismethod(listener)
        holder = listener.__self__ if bound else None  # type: ignore[attr-defined]
        if weak is None:
            weak = bound and is_qt_object(holder)
        self._strong: Callable[[T], None] | None = None
        self._weak: weakref.WeakMethod[Callable[[T], None]] | None = None
        if weak and bound:
            self._weak = weakref.WeakMethod(listener)
        else:
            self._strong = listener
        owner = owner if owner is not None else holder
        self._owner: weakref.ref[Any] | None = None
        if owner is not None and is_qt_object(owner):
            self._owner = weakref.ref(owner)

    def target(self) -> Callable[[T], None] | None:
        """The listener, or None when it (or its owner) is gone."""
        if self._owner is not None:
            owner = self._owner()
            if owner is None or not is_alive(owner):
                return None
        if self._weak is not None:
            return self._weak()
        return self._strong

    def holds(self, listener: Callable[[T], None]) -> bool:
        return self.target() == listener


class Event(Generic[T]):
    """A list of listeners called in order with one value. A failing listener is
    logged and does not stop the others (one broken screen must not break credits)."""

    def __init__(self) -> None:
        self._slots: list[_Slot[T]] = []

    def connect(
        self, listener: Callable[[T], None], *, owner: object = None, weak: bool | None = None
    ) -> None:
        """Call ``listener`` on each ``emit``, until it is disconnected, or its owner (the
        Qt object of a bound method, or ``owner``) is deleted. ``weak``: hold a bound
        method weakly (the default for Qt objects' methods)."""
        self._slots.append(_Slot(listener, owner, weak))

    def disconnect(self, listener: Callable[[T], None]) -> None:
        for slot in self._slots:
            if slot.holds(listener):
                self._slots.remove(slot)
                return

    @property
    def listeners(self) -> int:
        """How many listeners are still alive (tests)."""
        self._prune()
        return len(self._slots)

    def _prune(self) -> None:
        self._slots = [slot for slot in self._slots if slot.target() is not None]

    def emit(self, value: T) -> None:
        gone = False
        for slot in list(self._slots):
            listener = slot.target()
            if listener is None:
                gone = True
                continue
            try:
                listener(value)
            except RuntimeError as error:
                if DELETED not in str(error):
                    log.exception("event listener failed")
                    continue
                # A function that speaks for a widget Qt deleted: it goes with it.
                log.debug("event listener dropped: %s", error)
                if slot in self._slots:
                    self._slots.remove(slot)
            except Exception:
                log.exception("event listener failed")
        if gone:
            self._prune()
