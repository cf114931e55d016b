"""The window's first size fits the counter's screen (a 1024x768 counter, seen in a real
window under Xvfb: a 1280x800 window was cut at the screen's right and bottom edges)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSize

from kiosk.ui.shell import COUNTER_SIZE, first_size


@pytest.mark.parametrize(
    ("available", "expected"),
    [
        (QSize(1920, 1040), COUNTER_SIZE),
        (QSize(1280, 800), QSize(1280, 800)),
        (QSize(1024, 768), QSize(1024, 768)),
        (QSize(1024, 728), QSize(1024, 728)),  # a taskbar takes 40 px
        (None, COUNTER_SIZE),
        (QSize(), COUNTER_SIZE),
    ],
)
def test_first_size_stays_within_the_screen(available: QSize | None, expected: QSize) -> None:
    assert first_size(available) == expected
