"""Identify's field has the focus at every start and after a rebuild (a new language),
as the kiosk puts the counter in its window (issue #21, item 2)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.core.session import CounterSession
from kiosk.ui.counter import build_view
from kiosk.ui.shell import KioskWindow
from tests.qt_async import until
from tests.ui.keys import MARIA, MARIA_BARCODE, Keys
from tests.ui.scanning.counter_support import stopped
from tests.ui.translated import translated


def test_the_identify_field_has_the_focus_at_start_and_after_a_language_change(
    qtbot: QtBot, qapp: QApplication, session: CounterSession, arun: Any
) -> None:
    window = KioskWindow()  # "Starting…" first, as the kiosk paints it
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    keys = Keys()

    async def start() -> Any:
        view = build_view(session)  # built hidden, then put in the window
        window.setCentralWidget(view)
        identify: Any = view.current
        # The field has the window's focus: the keys go to it (no click first).
        await until(lambda: window.focusWidget() is identify.field, message="no focus")
        return view

    first = arun(start())
    keys.scan(MARIA_BARCODE, widget=window)  # (the keys of a window with nothing focused)
    arun(until(lambda: session.client is not None and session.client.document_number == MARIA))
    arun(stopped(first))
    session.clear_client()
    with translated(qapp, "es"):  # a saved language rebuilds the counter in the window
        second = arun(start())
        arun(stopped(second))
