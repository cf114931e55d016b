"""The Points screen's fixtures: Juan at the counter in the themed window, at each of
``SIZES`` and in each language (the by-taps tests of the commit screen share them)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.core.session import CounterSession
from kiosk.ui.main_window import CounterView
from kiosk.ui.screens.points.screen import PointsScreen
from tests.ui.screens.points.points_support import JUAN, Run, release_screens
from tests.ui.screens.points.points_window import SIZES, language, points_window


@pytest.fixture(params=SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def size(request: pytest.FixtureRequest) -> tuple[int, int]:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture(params=["en", "es"])
def lang(request: pytest.FixtureRequest) -> str:
    return request.param  # type: ignore[no-any-return]


def juan_at_points(
    qtbot: QtBot,
    qapp: QApplication,
    session: CounterSession,
    arun: Run,
    size: tuple[int, int],
    lang: str,
) -> Iterator[tuple[CounterView, PointsScreen]]:
    """Juan at the counter, the Points screen shown in the themed window."""
    session.config.kiosk_id = "0a1b2c3d"
    session.set_client(arun(session.api.search_client(JUAN)))
    with language(qapp, lang):
        view, screen = points_window(qtbot, session, size)
        yield view, screen
        release_screens(session, [screen])
        session.client_changed.disconnect(view._client_changed)


@pytest.fixture
def counter(
    qtbot: QtBot,
    qapp: QApplication,
    session: CounterSession,
    arun: Run,
    size: tuple[int, int],
    lang: str,
) -> Iterator[tuple[CounterView, PointsScreen]]:
    yield from juan_at_points(qtbot, qapp, session, arun, size, lang)
