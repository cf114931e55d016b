"""Shared by the manager-mode UI tests: fast PIN hashes, hand-moved clocks, the theme,
and screenshots (written only when ``KIOSK_SHOTS`` names a folder)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtWidgets import QApplication, QLabel, QLineEdit, QWidget
from pytestqt.qtbot import QtBot

from kiosk.core.security import lock as L
from kiosk.core.security.lock import ManagerLock, PinStore, Provisioned, ScryptParams
from kiosk.core.session import CounterSession
from kiosk.ui.main_window import CounterView
from kiosk.ui.manager.gate import ManagerGate, ManagerScreen
from kiosk.ui.manager.manager_view import ManagerView, Section
from kiosk.ui.theme import apply_theme

FAST = ScryptParams(n=2**4, r=1, p=1)


class Clocks:
    """A wall clock and a monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.wall = 1_800_000_000.0
        self.mono = 100.0

    def advance(self, seconds: float) -> None:
        self.wall += seconds
        self.mono += seconds


def make_lock(folder: Path, clocks: Clocks, provisioned: Provisioned | None = None) -> ManagerLock:
    """A lock in training mode with no PIN yet (the first person chooses it), unless
    ``provisioned`` says otherwise."""
    given = provisioned or Provisioned(None, False, training=True)
    return ManagerLock(
        PinStore(folder / L.PIN_FILE, lambda: given),
        folder / L.LOCKOUT_FILE,
        params=FAST,
        wall=lambda: clocks.wall,
        monotonic=lambda: clocks.mono,
    )


@contextmanager
def themed(app: QApplication) -> Iterator[None]:
    sheet, palette, font = app.styleSheet(), app.palette(), app.font()
    apply_theme(app)
    try:
        yield
    finally:
        app.setStyleSheet(sheet)
        app.setPalette(palette)
        app.setFont(font)
        app.setProperty("kioskTheme", None)


def shot(widget: QWidget, name: str) -> None:
    folder = os.environ.get("KIOSK_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        widget.grab().save(str(Path(folder) / f"manager_{name}.png"))


async def in_counter_window(
    qtbot: QtBot, session: CounterSession, widget: QWidget, folder: Path
) -> CounterView:
    """``widget`` as the "Settings" section of unlocked manager mode in the counter window
    (1280x800), the way a manager sees it."""
    lock = make_lock(folder, Clocks())
    await lock.set_pin("1357")
    view = ManagerView([Section("Settings", "settings", lambda: widget)])
    gate = ManagerGate(lock, lambda: view, idle_seconds=900)
    window = CounterView(session, [ManagerScreen(session, gate)])
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    return window


def visible_text(widget: QWidget) -> str:
    """Every text a person or a screen reader could get from ``widget``'s labels and fields
    (a password field's text excluded: it is masked on screen)."""
    parts: list[str] = []
    for child in [widget, *widget.findChildren(QWidget)]:
        parts += [child.toolTip(), child.accessibleName(), child.accessibleDescription()]
        if isinstance(child, QLabel):
            parts.append(child.text())
        elif isinstance(child, QLineEdit) and child.echoMode() == QLineEdit.EchoMode.Normal:
            parts += [child.text(), child.placeholderText()]
    return "\n".join(parts)
