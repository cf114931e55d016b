"""The whole counter for the scanner's and the keyboard's tests: shown, at the
counter's sizes, in both languages, with Juan identified."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.core.session import CounterSession
from kiosk.ui.counter import Counter, screen_specs
from tests.ui.scanning.counter_support import SIZES, stopped
from tests.ui.screens.points.points_support import JUAN, Run
from tests.ui.theme_support import app_theme
from tests.ui.translated import translated


@pytest.fixture(params=SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def size(request: pytest.FixtureRequest) -> tuple[int, int]:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture(params=["en", "es"])
def lang(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    with app_theme(qapp), translated(qapp, request.param):
        yield request.param


@pytest.fixture
def view(
    qtbot: QtBot, session: CounterSession, arun: Run, size: tuple[int, int], lang: str
) -> Iterator[Counter]:
    """The counter, shown, with Juan identified. Stopped as the kiosk stops it, then
    closed and deleted here (not by pytest-qt, which deletes it before the fixtures'
    teardown: a screen's task cancelled then would end on deleted buttons)."""
    session.config.kiosk_id = "0a1b2c3d"
    counter = Counter(session, screen_specs(session))
    counter.resize(*size)
    counter.show()
    session.set_client(arun(session.api.search_client(JUAN)))
    yield counter
    arun(session.changes_announced())  # (Today reloads on them: while it is there)
    arun(stopped(counter))
    counter.close()
    counter.deleteLater()
