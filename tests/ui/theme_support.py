"""``app_theme(qapp)``: the counter's theme on the application for a block, and the
application's style sheet, palette, font and theme as they were after it (tests share
one ``QApplication``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtWidgets import QApplication

from kiosk.ui.theme import Palette, apply_theme


@contextmanager
def app_theme(qapp: QApplication, name: str = "light") -> Iterator[Palette]:
    sheet, palette, font = qapp.styleSheet(), qapp.palette(), qapp.font()
    theme = qapp.property("kioskTheme")
    try:
        yield apply_theme(qapp, name)
    finally:
        qapp.setStyleSheet(sheet)
        qapp.setPalette(palette)
        qapp.setFont(font)
        qapp.setProperty("kioskTheme", theme)
