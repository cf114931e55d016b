"""Page stacks, height-for-width and pages laid out ahead (issue #4, event-loop stalls).

``QStackedLayout::heightForWidth`` asks every page, shown or not, and a word-wrapped
``QLabel`` lays its text out again at each call: with every screen of the counter
built, each layout of the window shaped every wrapped label of every screen.
``PageStack`` fills the room its layout gives it and asks nobody; the page shown still
wraps its texts at the stack's width.
"""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QStackedWidget, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from kiosk.ui.widgets.relayout import PageStack, lay_out_ahead

TEXT = "A long explanation that wraps over several lines in a narrow window. " * 4


class CountingLabel(QLabel):
    """A word-wrapped label that counts how often a layout asks its height-for-width."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.setWordWrap(True)
        self.asked = 0

    def heightForWidth(self, width: int) -> int:
        self.asked += 1
        return super().heightForWidth(width)


def window_with(qtbot: QtBot, stack: QStackedWidget) -> tuple[QWidget, CountingLabel, QLabel]:
    window = QWidget()
    qtbot.addWidget(window)
    hidden = CountingLabel(TEXT)
    shown = QLabel(TEXT)
    shown.setWordWrap(True)
    for label in (shown, hidden):
        page = QWidget()
        QVBoxLayout(page).addWidget(label)
        stack.addWidget(page)
    layout = QVBoxLayout(window)
    layout.addWidget(QLabel("header"))
    layout.addWidget(stack, 1)
    window.resize(320, 480)
    window.show()
    qtbot.waitExposed(window)
    return window, hidden, shown


def relayout_from_a_change(window: QWidget, hidden: CountingLabel) -> int:
    """Counts the hidden page's label's answers over three layouts of the window."""
    hidden.asked = 0
    header = window.layout().itemAt(0).widget()
    assert isinstance(header, QLabel)
    for text in ("one", "a longer header", "three"):
        header.setText(text)  # its size changes: the window is laid out again
        window.layout().activate()
    return hidden.asked


def test_a_qstackedwidget_asks_its_hidden_pages_at_every_layout(qtbot: QtBot) -> None:
    """The cost PageStack removes (if Qt stops doing this, PageStack can go)."""
    window, hidden, _ = window_with(qtbot, QStackedWidget())
    assert relayout_from_a_change(window, hidden) > 0


def test_a_page_stack_asks_no_page_and_still_wraps_the_page_shown(qtbot: QtBot) -> None:
    stack = PageStack()
    window, hidden, shown = window_with(qtbot, stack)
    assert not stack.hasHeightForWidth()
    assert relayout_from_a_change(window, hidden) == 0
    # The page shown wraps its text at the stack's width, several lines tall.
    assert shown.width() <= stack.width()
    assert shown.height() >= 3 * shown.fontMetrics().height()
    # It fills the room the window gives it.
    assert stack.height() > window.height() // 2


def test_a_page_laid_out_ahead_has_the_geometry_its_show_gives_it(qtbot: QtBot) -> None:
    """The warm-up lays out screens (and Identify's pages) before their first show, at
    the room they will get: the same geometry as the show's own layout, so the show
    only moves them into place."""
    stack = PageStack()
    window, _, _ = window_with(qtbot, stack)
    page = QWidget()
    inner = QWidget()
    label = QLabel(TEXT)
    label.setWordWrap(True)
    QVBoxLayout(inner).addWidget(label)
    layout = QVBoxLayout(page)
    layout.addWidget(QLabel("title"))
    layout.addWidget(inner, 1)
    stack.addWidget(page)
    assert not page.isVisible()

    lay_out_ahead(page, stack.size())
    ahead = (inner.geometry(), label.geometry())
    assert label.width() > 100  # laid out at the stack's width, though not shown
    assert label.height() >= 3 * label.fontMetrics().height()  # wrapped at that width

    stack.setCurrentWidget(page)
    window.layout().activate()
    assert (inner.geometry(), label.geometry()) == ahead
