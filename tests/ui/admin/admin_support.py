"""Helpers of the program-administration tests: a themed section at 1280x800 over the
in-process simulator, taps, waits, and screenshots.

Each test module declares its fixture ``rig`` with ``themed_rig`` (fixtures imported
from a helper module would shadow test parameters). Set ``KIOSK_SHOTS`` to a folder to save PNGs of the states seen (``rig.shot(name)``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qsl

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from kiosk.core.session import CounterSession
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from kiosk.ui.admin.section import AdminSection
from tests.qt_async import until
from tests.ui.theme_support import app_theme

S = TypeVar("S", bound=AdminSection)
MERCHANT = 1


def themed_rig(
    qapp: QApplication, qtbot: QtBot, session: CounterSession, world: World
) -> Iterator[Rig]:
    """The rig with the counter's theme applied for its test (restored after)."""
    with app_theme(qapp):
        yield Rig(qtbot, session, world)


def params(entry: dict[str, Any]) -> dict[str, str]:
    """The query parameters of a logged request."""
    query = entry.get("query") or ""
    return dict(parse_qsl(query)) if isinstance(query, str) else dict(query)


def table(world: World, name: str) -> dict[int, dict[str, Any]]:
    return world.merchants[MERCHANT].tables[name]


class Rig:
    """One section of the manager view, shown at 1280x800."""

    def __init__(self, qtbot: QtBot, session: CounterSession, world: World) -> None:
        self.qtbot = qtbot
        self.session = session
        self.world = world
        self.control = SimControl(world)

    def open(self, cls: type[S]) -> S:
        """Build and show the section (which loads its list); call inside the loop."""
        section = cls(self.session)
        self.qtbot.addWidget(section)
        section.resize(1280, 800)
        section.show()
        self.section: AdminSection = section
        return section

    def tap(self, widget: QWidget) -> None:
        assert widget.isVisible(), f"{widget!r} is not visible"
        assert widget.isEnabled(), f"{widget!r} is disabled"
        self.qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)

    def unfold_options(self) -> None:
        """Tap "Sort and filter" (the chips of the sort and the filters fold under it)."""
        options = self.section.list.options_button
        if not options.isChecked():
            self.tap(options)
        assert self.section.list.options.isVisible()

    async def confirm(self) -> None:
        """Tap the confirmation sheet's action once it accepts taps (painted, guard passed)."""
        button = self.section.sheet.confirm
        await until(lambda: button.armed)
        self.tap(button)

    def type_into(self, edit: Any, text: str) -> None:
        """Type like a keyboard (QTest aborts on letters beyond ASCII: those are inserted)."""
        edit.clear()
        for char in text:
            if char.isascii():
                self.qtbot.keyClicks(edit, char)
            else:
                edit.insert(char)

    async def loaded(self, count: int = 1) -> None:
        """Until the list showed ``count`` pages and nothing runs."""
        lst = self.section.list
        await until(lambda: lst.loads >= count and not self.section.tasks.running("list"))

    async def idle(self, name: str) -> None:
        await until(lambda: not self.section.tasks.running(name))

    def requests(self, method: str, path: str) -> list[dict[str, Any]]:
        return self.control.requests(method=method, path=path)

    def shot(self, name: str, widget: QWidget | None = None) -> None:
        folder = os.environ.get("KIOSK_SHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            (widget or self.section).grab().save(str(Path(folder) / f"admin_{name}.png"))
