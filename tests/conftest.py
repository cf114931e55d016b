"""Shared fixtures: the simulator in process and over loopback.

- ``sim_world``: a freshly seeded simulated world (two merchants).
- ``sim_app``: the simulator's ASGI app over that world, test controls on (``/_sim/``).
- ``sim_url``: the same app served by uvicorn on an ephemeral loopback port.

The Qt + asyncio recipe lives in ``tests/qt_async.py`` (loaded below).

After collection, what it loaded (every test module, Qt's and the kiosk's modules) is
frozen out of the garbage collector (``pytest_collection_finish``), as the kiosk
freezes what its start loaded (``kiosk.app.ready_memory``). Without it, a collection
pass over that heap stalled the test process long enough to bunch a real-time burst
of requests past the rate limiter's 50 ms margin (``tests/api/test_limiter_burst.py``
saw 429s once the run collected one more Qt test module): a pause the kiosk,
which freezes its heap, does not have.

PySide6's import hook is taken out before the test modules load, as the kiosk
takes it out at its start (``kiosk.ui.pyside_imports``): the suite runs the imports
the kiosk runs.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_API", "PySide6")

import PySide6.QtCore  # noqa: F401  (loaded first: plain_imports() below takes its hook out)
import pytest
from starlette.types import ASGIApp

from kiosk.sim import DEFAULT_API_KEY, DEFAULT_OTHER_API_KEY, build_world, create_app
from kiosk.sim.server import SimServer
from kiosk.sim.world import World
from kiosk.ui.pyside_imports import plain_imports

plain_imports()  # as the kiosk does at its start (kiosk.app): Python's own import back

pytest_plugins = ["tests.qt_async", "tests.logfail"]

MAIN_KEY = DEFAULT_API_KEY
OTHER_KEY = DEFAULT_OTHER_API_KEY


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()


@pytest.fixture
def sim_world() -> World:
    return build_world()


@pytest.fixture
def sim_app(sim_world: World) -> ASGIApp:
    return create_app(sim_world, controls=True)


@pytest.fixture
def sim_url(sim_app: ASGIApp) -> Iterator[str]:
    with SimServer(sim_app) as server:
        yield server.base_url
