"""Text that may not fit (``kiosk.ui.widgets.elided``): one line that gives way, or a few
lines in the width given; cut with "…", the whole text in the tooltip (with the hint,
when there is one) and in the accessible name; ``text()`` is always the whole text."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication, QHBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from kiosk.ui.widgets.elided import ElidedLabel, ElidedLines
from tests.ui.theme_support import app_theme

LONG = "Gift card Spotify Premium 1 mes Ñandú Ñandú Ñandú Ñandú Ñandú Ñandú Ñandú Ñandú"


@pytest.fixture(autouse=True)
def _themed(qapp: QApplication) -> Iterator[None]:
    with app_theme(qapp):
        yield


def shown_in(qtbot: QtBot, label: QWidget, width: int) -> QWidget:
    """``label`` alone in a window ``width`` px wide (keep the window: it owns the label)."""
    host = QWidget()
    qtbot.addWidget(host)
    QHBoxLayout(host).addWidget(label)
    host.resize(width, 120)
    host.show()
    QApplication.processEvents()
    return host


def test_one_line_gives_way_with_the_whole_in_its_tooltip_and_the_hint(qtbot: QtBot) -> None:
    label = ElidedLabel(LONG, hint="Tap to see the pending operations")
    _host = shown_in(qtbot, label, 240)
    assert label.text() == LONG
    assert label.elided()
    assert label.shown_text().endswith("…")
    assert label.toolTip() == f"{LONG}\nTap to see the pending operations"
    assert label.accessibleName() == LONG
    label.setText("3 pending")
    assert not label.elided()
    assert label.shown_text() == "3 pending"
    assert label.toolTip() == "Tap to see the pending operations"  # the hint alone


def test_lines_wrap_in_the_width_given_and_cut_the_last(qtbot: QtBot) -> None:
    label = ElidedLines(lines=2)
    label.setText(LONG)
    _host = shown_in(qtbot, label, 300)
    assert label.text() == LONG
    lines = label.shown_text().split("\n")
    assert len(lines) == 2
    assert lines[1].endswith("…")
    assert label.elided()
    assert label.toolTip() == LONG
    assert label.accessibleName() == LONG
    assert label.sizeHint().height() == 2 * label.fontMetrics().lineSpacing()
    label.setText("Café")
    assert label.shown_text() == "Café"
    assert not label.elided()
    assert label.toolTip() == ""
