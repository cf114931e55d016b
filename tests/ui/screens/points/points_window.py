"""The Points screen in the counter's window at a real counter size, themed, in English
or Spanish: what the tap-driven tests click on (``tap`` checks that the widget is
visible and is what lies under the click point)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from kiosk.core.session import CounterSession
from kiosk.ui.i18n import install_translators
from kiosk.ui.main_window import CounterView
from kiosk.ui.screens.points.screen import PointsScreen
from tests.ui.theme_support import app_theme

LEFT = Qt.MouseButton.LeftButton
SIZES = [(1280, 800), (1024, 768)]
SHOTS = Path(os.environ.get("KIOSK_SHOTS", "/tmp/shots"))


@contextmanager
def language(qapp: QApplication, name: str) -> Iterator[None]:
    """The counter's theme, and the Spanish translator when ``name`` is "es"."""
    installed = install_translators(qapp, name) if name != "en" else []
    try:
        with app_theme(qapp):
            yield
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)


def points_window(
    qtbot: QtBot, session: CounterSession, size: tuple[int, int]
) -> tuple[CounterView, PointsScreen]:
    """The counter with its Points screen shown (the session has a client)."""
    screen = PointsScreen(session)
    view = CounterView(session, [screen])
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    view.show_screen(screen.key)
    return view, screen


def under(view: QWidget, widget: QWidget) -> QWidget | None:
    """The widget of ``view`` under ``widget``'s centre."""
    return view.childAt(widget.mapTo(view, widget.rect().center()))


def is_under(view: QWidget, widget: QWidget) -> bool:
    found = under(view, widget)
    while found is not None and found is not widget:
        found = found.parentWidget()
    return found is widget


def tap(qtbot: QtBot, view: QWidget, widget: QWidget, at: QPoint | None = None) -> None:
    """A cashier's tap on ``widget``: it must be visible and be what is under the finger."""
    assert widget.isVisible(), f"{widget!r} is not visible"
    assert is_under(view, widget), f"{widget!r} is not under its own centre"
    qtbot.mouseClick(widget, LEFT, pos=at if at is not None else widget.rect().center())


def shot(widget: QWidget, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    widget.grab().save(str(SHOTS / f"points-{name}.png"))
