"""Show and hide parts of a screen without laying the whole screen out at each one (#4).

``QWidget.show()`` on a widget inside a layout lays out its ancestors before it
returns (Qt activates the parents' layouts so that the widget appears in place),
while ``hide()`` only asks for a layout later (a posted ``LayoutRequest``). On the
counter a layout of a whole screen costs about 5 ms: an answer that switches a page,
shows an action row and a banner paid three of them in one loop turn.

- ``one_relayout(screen)``: what is shown or hidden inside the block is laid out once,
  at its end (synchronously: geometry is right when the block ends).
- ``show_deferred(widget)``: ``show()`` whose layout of the parent comes with the
  next pass of the event loop (before anything is painted: painting is a posted event
  of lower priority), merged with the other changes of the same turn.

Neither changes what is drawn; both only move when the geometry is computed.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QWidget


@contextmanager
def one_relayout(widget: QWidget) -> Iterator[None]:
    """Lay ``widget`` out once for everything shown, hidden or resized in the block.

    Nested blocks (or a layout disabled on purpose) leave the layout to the outer
    owner. The block must not await: the layout is off while it runs."""
    layout = widget.layout()
    if layout is None or not layout.isEnabled():
        yield
        return
    layout.setEnabled(False)
    try:
        yield
    finally:
        layout.setEnabled(True)
        if widget.isVisible():
            layout.activate()
        # (hidden: Qt activates a widget's layout when it is shown)


def show_deferred(widget: QWidget) -> None:
    """``widget.show()`` without the synchronous layout of its parent."""
    parent = widget.parentWidget()
    layout = parent.layout() if parent is not None else None
    if parent is None or layout is None or not layout.isEnabled():
        widget.show()  # (inside one_relayout: laid out at the end of the block)
        return
    layout.setEnabled(False)
    try:
        widget.show()
    finally:
        layout.setEnabled(True)
    # Compressed with the request the show itself posted, if any.
    QCoreApplication.postEvent(parent, QEvent(QEvent.Type.LayoutRequest))
