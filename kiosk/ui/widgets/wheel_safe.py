"""Combo and spin boxes that a scroll wheel passes over: the page scrolls, the value stays.

A manager scrolling a long form with the mouse wheel must never change a setting that
happens to pass under the pointer (the Branch combo once went from Sucursal Centro to
Sucursal Rosario that way, even right after the manager had picked it, focused). So, for
every combo and spin box:

- the wheel never changes the value, focused or not: a value changes only by a tap, a
  click or the keyboard. The box hands the wheel to the scroll area around it (the
  nearest one that can still move that way), which scrolls the page. It does so itself
  rather than by ignoring the event: Qt passes an ignored wheel event on to the parents
  only when it came from the system, so a synthesized wheel (a test's, an accessibility
  tool's) would otherwise scroll nothing. (An open combo's list is a view of its own:
  the wheel scrolls that list, and only a tap or Enter takes an entry);
- the wheel never gives the box the focus (``Qt.StrongFocus`` instead of Qt's default
  ``Qt.WheelFocus``).

Use the classes (``WheelSafeComboBox``, ``WheelSafeSpinBox``, ``WheelSafeDoubleSpinBox``)
for new widgets, or ``wheel_safe(widget)`` for a box made elsewhere (it installs one
shared event filter and returns the widget).
"""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDoubleSpinBox,
    QSpinBox,
    QWidget,
)

W = TypeVar("W", bound=QWidget)


def scroll_page(widget: QWidget, event: QWheelEvent) -> None:
    """Give ``event`` to the scroll areas around ``widget``, nearest first, until one
    scrolls (the event is then accepted; ignored when none could move)."""
    area = _area_around(widget)
    while area is not None:
        viewport = area.viewport()
        moved = QWheelEvent(
            QPointF(viewport.mapFromGlobal(event.globalPosition().toPoint())),
            event.globalPosition(),
            event.pixelDelta(),
            event.angleDelta(),
            event.buttons(),
            event.modifiers(),
            event.phase(),
            event.inverted(),
            event.source(),
        )
        QApplication.sendEvent(viewport, moved)
        if moved.isAccepted():
            event.accept()
            return
        area = _area_around(area)
    event.ignore()


def _area_around(widget: QWidget) -> QAbstractScrollArea | None:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea) and parent.viewport().isAncestorOf(widget):
            return parent
        parent = parent.parentWidget()
    return None


class WheelSafeComboBox(QComboBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def wheelEvent(self, event: QWheelEvent) -> None:
        scroll_page(self, event)


class WheelSafeSpinBox(QSpinBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def wheelEvent(self, event: QWheelEvent) -> None:
        scroll_page(self, event)


class WheelSafeDoubleSpinBox(QDoubleSpinBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def wheelEvent(self, event: QWheelEvent) -> None:
        scroll_page(self, event)


class _WheelFilter(QObject):
    """Passes the wheel over a box on to the page around it."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.Wheel
            and isinstance(watched, QComboBox | QAbstractSpinBox)
            and isinstance(event, QWheelEvent)
        ):
            scroll_page(watched, event)
            return True
        return False


_filter: _WheelFilter | None = None


def wheel_safe(widget: W) -> W:
    """Make an existing combo or spin box wheel-safe (see the module); returns it."""
    global _filter
    if not isinstance(widget, QComboBox | QAbstractSpinBox):
        raise TypeError(f"wheel_safe: {type(widget).__name__} is no combo or spin box")
    if _filter is None:
        _filter = _WheelFilter()
    widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    widget.installEventFilter(_filter)
    return widget
