"""The warm-up after "ready" imports the screens' modules ahead, off the UI thread, and
builds each screen in two turns (made, then put in the window): a tap meanwhile still
builds its screen at once, and the screens end up as a direct build makes them."""

from __future__ import annotations

import asyncio
import sys
import threading
import types
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from kiosk.core.session import CounterSession
from kiosk.ui.counter import build_view
from kiosk.ui.warm_imports import ImportsAhead
from tests.qt_async import until

GATE = "w16_warm_gate"  # a module in sys.modules holding the Event the slow import waits on


@pytest.fixture
def modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on sys.path for the test's own modules, forgotten afterwards."""
    monkeypatch.syspath_prepend(str(tmp_path))
    before = set(sys.modules)
    yield tmp_path
    for name in set(sys.modules) - before:
        if name.startswith("w16_"):
            del sys.modules[name]


def test_the_imports_ahead_run_off_the_ui_thread(modules: Path) -> None:
    (modules / "w16_where.py").write_text("import threading\nTHREAD = threading.current_thread()\n")
    ahead = ImportsAhead(["w16_where", "w16_not_there", "w16_where"])
    assert ahead.modules == ("w16_where", "w16_not_there")  # once each, in order
    ahead.start()
    assert ahead.wait(10)
    where = sys.modules["w16_where"]
    assert where.THREAD is not threading.main_thread()
    assert where.THREAD.name == "imports-ahead"
    assert ahead.failed == ["w16_not_there"]  # left to the UI thread's own import
    assert ImportsAhead(()).done()


def test_the_imports_ahead_begin_a_module_only_while_the_loop_is_calm(modules: Path) -> None:
    (modules / "w16_later.py").write_text("")
    calm = threading.Event()
    ahead = ImportsAhead(["w16_later"], calm=calm.is_set)
    ahead.start()
    assert not ahead.wait(0.2)  # a busy turn: the GIL is left to the UI
    assert "w16_later" not in sys.modules
    calm.set()
    assert ahead.wait(10)
    assert "w16_later" in sys.modules


def test_a_tap_during_the_imports_ahead_builds_its_screen_at_once(
    qtbot: QtBot,
    session: CounterSession,
    arun: Callable[..., Any],
    modules: Path,
) -> None:
    """While the thread is held in a slow import, the warm-up builds nothing (no turn
    imports), a tap on Redeem builds it at once, and once the imports are in the
    warm-up builds the rest and keeps the tapped screen."""
    gate = types.ModuleType(GATE)
    gate.EVENT = threading.Event()  # type: ignore[attr-defined]
    sys.modules[GATE] = gate
    (modules / "w16_slow.py").write_text(f"import {GATE}\n{GATE}.EVENT.wait(20)\n")
    view = build_view(session)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    code = view.specs["code"]
    view.specs["code"] = replace(code, modules=("w16_slow", *code.modules))

    async def scenario() -> None:
        await view.load()
        built = set(view.screens)
        view.warm_up()
        for _ in range(20):  # twenty loop turns
            await asyncio.sleep(0.005)
        assert not view.imports_ahead.done()
        assert set(view.screens) == built  # the warm-up waits for its imports
        qtbot.mouseClick(view.rail_buttons["redeem"], Qt.MouseButton.LeftButton)
        assert view.current is not None
        assert view.current.key == "redeem"
        redeem = view.screens["redeem"]
        assert view.stack.currentWidget() is redeem
        gate.EVENT.set()  # type: ignore[attr-defined]
        await until(lambda: len(view.screens) == len(view.specs), timeout=20)
        assert view.imports_ahead.done()
        assert view.imports_ahead.failed == []
        assert view.screens["redeem"] is redeem  # not built twice
        await until(
            lambda: not any(s.tasks.running("preload") for s in view.screens.values()),
            timeout=10,
        )
        view.shutdown()

    arun(scenario(), timeout=40)
    # Every screen in the window once, as a direct build puts it; none left aside.
    assert view.stack.count() == len(view.specs)
    assert all(view.stack.indexOf(screen) >= 0 for screen in view.screens.values())
    assert all(screen.parent() is view.stack for screen in view.screens.values())
    assert view._made == {}


def test_a_screen_made_ahead_is_the_one_put_in_the_window(
    qtbot: QtBot, session: CounterSession
) -> None:
    view = build_view(session)
    qtbot.addWidget(view)
    made = view.make("redeem")
    assert "redeem" not in view.screens
    assert made.parent() is None
    assert view.make("redeem") is made
    view.show_screen("redeem")  # a tap before the warm-up's second turn
    assert view.screens["redeem"] is made
    assert view.current is made
    assert view.stack.indexOf(made) >= 0
    assert view.make("redeem") is made
    assert view._made == {}
