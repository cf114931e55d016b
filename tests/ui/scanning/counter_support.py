"""What the scanner's and the keyboard's tests share: the counter's sizes, a tap, and
the counter stopped as the kiosk stops it."""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from kiosk.ui.main_window import CounterView

SIZES = [(1280, 800), (1024, 768)]
TASKS = (
    *("load", "preload", "search", "lookup", "catalog", "items", "preview", "credit", "level"),
    *("after-refusal", "cancel", "deliver", "discard", "exchange", "retry"),
)


def _running(view: CounterView) -> list[asyncio.Task[Any]]:
    return [
        task
        for screen in view.screens.values()
        for name in TASKS
        if (task := screen.tasks.current(name)) is not None and not task.done()
    ]


async def stopped(view: CounterView) -> None:
    """The counter stops, as the kiosk's does: its screens' tasks end before it goes
    (again while one ending started another)."""
    running = _running(view)
    view.shutdown()  # (cancels them, and forgets them)
    for _ in range(5):
        await asyncio.gather(*running, return_exceptions=True)
        running = _running(view)
        if not running:
            return
        for screen in view.screens.values():
            screen.tasks.cancel_all()


def tap(qtbot: QtBot, widget: QWidget) -> None:
    assert widget.isVisible(), widget
    window = widget.window()
    under = window.childAt(widget.mapTo(window, widget.rect().center()))
    assert under is widget or widget.isAncestorOf(under), (widget, under)
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)
