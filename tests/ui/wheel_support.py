"""A mouse wheel turned over a widget, delivered as Qt delivers the system's wheel events
(for the wheel tests)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QWidget


def turn_wheel(widget: QWidget, notches: int = -1) -> None:
    """``notches`` wheel notches (negative: towards the person, the page moves down) at the
    middle of ``widget``: to the widget under the pointer, which must be ``widget`` or a
    child of it, then to its parents while they ignore it. (Qt propagates an ignored
    wheel event only when it came from the system; ``sendEvent`` stops at the first.)"""
    middle = QPoint(widget.width() // 2, widget.height() // 2)
    window = widget.window()
    global_point = widget.mapToGlobal(middle)
    receiver: QWidget | None = window.childAt(window.mapFromGlobal(global_point))
    assert receiver is widget or widget.isAncestorOf(receiver), f"{receiver!r} is under it"
    while receiver is not None:
        event = QWheelEvent(
            QPointF(receiver.mapFromGlobal(global_point)),
            QPointF(global_point),
            QPoint(),
            QPoint(0, 120 * notches),
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase,
            False,
        )
        QApplication.sendEvent(receiver, event)
        if event.isAccepted() or receiver.isWindow():
            return
        receiver = receiver.parentWidget()
