"""Helpers of the identify and enroll screen tests: seeded people, the screen, typing
like a scanner, request counts, and a session whose retries do not wait."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot
from starlette.types import ASGIApp

from kiosk.api.client import LoyaltyClient
from kiosk.api.models.clients import Client, NewClient
from kiosk.api.retry import RetryPolicy
from kiosk.core.db import DatabaseWorker
from kiosk.core.journal import AsyncJournal
from kiosk.core.session import BranchInfo, CounterSession, SessionConfig
from kiosk.sim.transport import SimTransport
from kiosk.sim.world import World
from kiosk.ui.counter import Counter, screen_specs
from kiosk.ui.i18n import install_translators
from kiosk.ui.screens.identify.screen import IdentifyScreen
from tests.conftest import MAIN_KEY
from tests.qt_async import until
from tests.ui.conftest import first_branch

NEW_PEREZ = "00512345678@PEREZ@JUAN CARLOS@M@30123456@B@15/03/1985@20/06/2015@239"
US_PEREZ = '00512345678"PEREZ"JUAN CARLOS"M"30123456"B"15/03/1985"20/06/2015"239'
NEW_LOPEZ = "00734567890@LOPEZ@ANA@X@44123987@A@30/01/2002@11/09/2021@254"
OLD_RODRIGUEZ = (
    "@20111222    @A@1@RODRIGUEZ@PABLO MARTIN@ARGENTINA@09/07/1968@M@12/05/2011@00087654321"
    "@7045 @12/05/2026@421@0@ILR:2.01 C:110613.02 (No Cap.)@UNIDAD #10 || S/N: 0040>2008>>0008"
)
SEARCH = r"/external/clients/search"
CREATE = r"^/external/clients$"


def clients(world: World) -> list[dict[str, Any]]:
    return list(world.merchants[1].tables["clients"].values())


def by_document(world: World, document: str) -> dict[str, Any]:
    return next(c for c in clients(world) if c.get("document_number") == document)


def make_screen(qtbot: QtBot, session: CounterSession) -> IdentifyScreen:
    screen = IdentifyScreen(session)
    qtbot.addWidget(screen)
    screen.resize(1100, 700)
    screen.show()
    screen.entered()
    return screen


def enter(qtbot: QtBot, widget: QWidget, text: str, key: Qt.Key = Qt.Key.Key_Return) -> None:
    """Type ``text`` (as fast as a scanner) and press ``key``."""
    qtbot.keyClicks(widget, text)
    qtbot.keyClick(widget, key)


def searches(world: World) -> int:
    return sum(1 for r in world.request_log if str(r.get("path", "")).startswith("/external/"))


@pytest.fixture
def fast_session(
    arun: Callable[..., Any], sim_world: World, sim_app: ASGIApp, tmp_path: Any
) -> Iterator[CounterSession]:
    """Like ``session``, with retries that do not wait (fault tests) and no settle delay."""
    branch = first_branch(sim_world)
    api = LoyaltyClient(
        f"http://sim-{uuid.uuid4().hex[:8]}.test",
        MAIN_KEY,
        branch_id=branch["id"],
        transport=SimTransport(sim_app),
        retry=RetryPolicy(delays=(0.0, 0.0, 0.0)),
        settle_seconds=0.0,
    )
    worker = DatabaseWorker(tmp_path / "fast.sqlite3")
    arun(worker.start())
    config = SessionConfig("training", BranchInfo(branch["id"], branch["name"]), "k-test")
    fast = CounterSession(api, AsyncJournal(worker), config)
    yield fast
    arun(fast.changes_announced())  # (as the session fixture: before the database closes)
    arun(api.aclose())
    arun(worker.close())


def unregistered(world: World) -> list[dict[str, Any]]:
    return [
        c for c in clients(world) if not c.get("_registered") and c.get("status") != "SUSPENDED"
    ]


def creations(world: World) -> int:
    return sum(
        1
        for r in world.request_log
        if r.get("method") == "POST" and r.get("path") == "/external/clients"
    )


def open_enrollment(qtbot: QtBot, screen: IdentifyScreen, text: str) -> Callable[[], Any]:
    """A coroutine factory: search ``text`` (nobody has it), then tap "Enroll new client"."""

    async def go() -> None:
        enter(qtbot, screen.field, text)
        await until(lambda: screen.pages.currentWidget() is screen.matches)
        qtbot.mouseClick(screen.matches.enroll_button, Qt.MouseButton.LeftButton)
        assert screen.pages.currentWidget() is screen.enroll

    return go


async def tap_enroll(qtbot: QtBot, screen: IdentifyScreen) -> None:
    """Tap "Enroll client" as a cashier does: once it is armed (after an answer that
    leaves the form on screen, it arms again after its guard time)."""
    button = screen.enroll.enroll_button
    await until(lambda: button.armed)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


# -- the whole counter at a real size, in a language ------------------------------------

SIZES = [(1280, 800), (1024, 768)]
# A client whose texts do not fit: a 60+ character name and a long (valid) email.
LONG_FIRST = "María de los Ángeles Guadalupe Inmaculada"
LONG_LAST = "Fernández de la Torre y Santa Cruz Echeverría"
LONG_EMAIL = (
    "maria.de.los.angeles.guadalupe.fernandez.de.la.torre.santacruz"
    "@almacen-del-sol-sucursal-centro-ciudad-autonoma.example.com"
)


@contextmanager
def language(qapp: QApplication, lang: str) -> Iterator[None]:
    """The kiosk's catalogue for ``lang`` installed for the block (build widgets inside)."""
    installed = install_translators(qapp, lang)
    assert lang == "en" or installed
    try:
        yield
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)


def counter(qtbot: QtBot, session: CounterSession, size: tuple[int, int]) -> Counter:
    """The counter in a window of ``size`` (the theme applied by the caller), shown on
    Identify; its other screens are built when first shown, as in the app."""
    view = Counter(session, screen_specs(session))
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    return view


def tap(qtbot: QtBot, widget: QWidget) -> None:
    """A cashier's tap: on a visible widget, which is what is under that point."""
    assert widget.isVisible(), widget
    window = widget.window()
    centre = widget.rect().center()
    under = window.childAt(widget.mapTo(window, centre))
    assert under is widget or widget.isAncestorOf(under), (widget, under)
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=centre)


def in_window(widget: QWidget) -> QRect:
    """Where ``widget`` is, in its window's coordinates."""
    return QRect(widget.mapTo(widget.window(), QPoint(0, 0)), widget.size())


async def enroll_long_client(session: CounterSession) -> Client:
    """The long-named client, created in the simulator (not through the counter)."""
    applied = await session.api.create_client(
        NewClient(first_name=LONG_FIRST, last_name=LONG_LAST, email=LONG_EMAIL),
        branch_id=session.config.branch.id,
    )
    return applied.record
