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

- ``FixedFill(host)``: a fixed-size content widget for a bar whose texts change
  often: their layout stops at the bar instead of reaching the window.
- ``PageStack``: a ``QStackedWidget`` that does not ask its hidden pages for
  height-for-width at every layout of the window.
- ``lay_out_ahead(page, size)``: lay out a page before its first show (warm-up).

None changes what is drawn; they only move when (and how far) geometry is computed.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSize
from PySide6.QtWidgets import QStackedWidget, QWidget


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


class FixedFill(QWidget):
    """A content widget that fills its host at a fixed size, kept equal to the host's.

    ``QLayout::activate`` ends with ``updateGeometry()`` of its widget, so any text or
    widget changing size anywhere lays out every ancestor up to the window (the whole
    counter), unless a widget on the way has a fixed size. A bar whose contents change
    often (the status bar: "Working…" on every call, the clock) puts its layout on a
    ``FixedFill``: its changes lay out the bar's contents only."""

    def __init__(self, host: QWidget) -> None:
        super().__init__(host)
        self.setFixedSize(host.size())
        host.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        host = self.parentWidget()
        if watched is host and host is not None and event.type() == QEvent.Type.Resize:
            self.setFixedSize(host.size())
        return False


class PageStack(QStackedWidget):
    """A ``QStackedWidget`` that fills the room its layout gives it, whatever its pages'
    texts need, so that it does not ask its pages for height-for-width.

    ``QStackedLayout::heightForWidth`` asks *every* page (not only the one shown), bypassing
    the layout items' caches, and ``QLabel::heightForWidth`` shapes a word-wrapped text
    again at each call; a window whose layout has height-for-width recomputes its minimum
    height that way at every activation. With all the counter's screens built, each layout
    of the window shaped every wrapped label of every screen (a quarter of the UI thread's
    time in a cashier's session, `perf`). The pages still lay their own wrapped texts out
    at the stack's width. Use it where the stack stretches into the room left, not where
    its height should follow its text.

    ``fit_current=True``: the stack's minimum height is what its pages need at the
    stack's width (their height-for-width, or their size hint when that is more: each
    page asked when one changes), so a window short of room gives way elsewhere (a
    banner's kept room, stretches) before it squeezes a page's wrapped texts (Redeem's
    card and sheet at 1024x768, issue #14); the most of all the pages, so that
    switching pages does not move what stands above the stack. For small stacks of a
    few pages."""

    def __init__(self, parent: QWidget | None = None, *, fit_current: bool = False) -> None:
        super().__init__(parent)
        self._fit_current = fit_current

    def hasHeightForWidth(self) -> bool:
        return False

    def addWidget(self, page: QWidget) -> int:
        if self._fit_current:
            page.installEventFilter(self)
        return super().addWidget(page)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # A page laid out again (a text changed): its need may have changed.
        if event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()
        return False

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        if not self._fit_current:
            return hint
        for index in range(self.count()):
            page = self.widget(index)
            if not page.hasHeightForWidth():
                continue
            # Qt's height-for-width of a box with wrapped labels can fall short of what
            # its layout then needs (a few px per wrapped label); its size hint does not.
            width = self.width() if self.width() > 0 else page.width()
            need = max(page.heightForWidth(width), page.sizeHint().height())
            hint.setHeight(max(hint.height(), need))
        return hint


def lay_out_ahead(page: QWidget, size: QSize) -> None:
    """Lay out a page that is not shown yet at ``size``, and its widgets top-down (Qt
    lays a hidden widget out only when it is shown: a screen's first show computed
    every size hint of the screen inside the cashier's tap), the pages of its stacks
    included. Its show then finds the size hints known and, at the same width, the
    layouts done."""
    page.resize(size)

    def lay_out(widget: QWidget) -> None:
        layout = widget.layout()
        if layout is not None:
            layout.activate()
        if isinstance(widget, QStackedWidget):  # its other pages too, at its size
            for index in range(widget.count()):
                other = widget.widget(index)
                if other is not widget.currentWidget():
                    lay_out_ahead(other, widget.size())
        for child in widget.children():
            if isinstance(child, QWidget) and not child.isHidden() and not child.isWindow():
                lay_out(child)

    lay_out(page)
