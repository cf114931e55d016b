"""What the Points screen tests share: the screen over the simulator, ledger helpers."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable, Iterator
from typing import Any

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.core.journal import JournalEntry, Outcome
from kiosk.core.session import CounterSession
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from kiosk.ui.screens.points.screen import PointsScreen
from tests.qt_async import until

JUAN = "30123456"  # Juan Carlos Pérez, Plata in the seed
CREDIT = r"^/external/tags/add$"
LEFT = Qt.MouseButton.LeftButton

Run = Callable[..., Any]


def points_screen(qtbot: QtBot, session: CounterSession, arun: Run) -> Iterator[PointsScreen]:
    """The screen for Juan, shown; deleted on this thread afterwards (see below)."""
    session.config.kiosk_id = "0a1b2c3d"  # a real kiosk id (8 hex digits)
    session.set_client(arun(session.api.search_client(JUAN)))
    widget = shown_screen(qtbot, session)
    yield widget
    release_screens(session, [widget])
    gc.collect()


def shown_screen(qtbot: QtBot, session: CounterSession) -> PointsScreen:
    """A Points screen at a counter's size, shown and entered."""
    widget = PointsScreen(session)
    qtbot.addWidget(widget)
    widget.resize(1100, 640)
    widget.show()
    widget.entered()
    return widget


def release_screens(session: CounterSession, screens: list[PointsScreen]) -> None:
    """pytest-qt has closed them and asked for their deletion: delete them now, on this
    thread. Left to the garbage collector (a screen and the session refer to each
    other), their widgets could be destroyed on the database thread, which Qt does not
    allow."""
    for widget in screens:
        session.client_changed.disconnect(widget._client_changed)
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def ledger_of(world: World, external_id: str | None) -> list[dict[str, Any]]:
    return [op for op in SimControl(world).ledger() if op.get("externalId") == external_id]


def score(world: World, client_id: int) -> int:
    return int(world.merchants[1].tables["clients"][client_id]["score"])


def credits_sent(world: World) -> list[dict[str, Any]]:
    return SimControl(world).requests(path=CREDIT, method="POST")


async def preview_amount(qtbot: QtBot, screen: PointsScreen, typed: str) -> None:
    qtbot.keyClicks(screen, typed)
    qtbot.keyClick(screen, Qt.Key.Key_Return)
    await previewed(screen)


async def previewed(screen: PointsScreen) -> None:
    """The preview is on screen and its credit button armed (painted + the guard)."""
    await until(lambda: screen.preview_card.isVisible() and not screen.preview_button.busy)
    await armed(screen)


async def armed(screen: PointsScreen) -> None:
    await until(lambda: screen.credit_button.armed, timeout=3)


async def credit(qtbot: QtBot, screen: PointsScreen) -> None:
    """Tap the armed credit button; wait for the result and the level's re-read."""
    await armed(screen)
    qtbot.mouseClick(screen.credit_button, LEFT)
    await settled(screen)


async def settled(screen: PointsScreen) -> None:
    await until(
        lambda: (
            screen.pages.currentWidget() is screen.result
            and not screen.credit_button.busy
            and not screen.tasks.running("level")
        )
    )


async def journal_rows(
    session: CounterSession, *outcomes: Outcome, timeout: float = 10.0
) -> list[JournalEntry]:
    """Today's journal once its rows have exactly these outcomes, newest first (the
    outbox settles them in the background)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        rows = await session.journal.today()
        if [r.outcome for r in rows] == list(outcomes):
            return rows
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"journal outcomes {[r.outcome for r in rows]} != {outcomes}")
        await asyncio.sleep(0.01)
