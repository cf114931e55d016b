"""The counter view's frame: rail gating by client, idle clearing, band, status bar."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from kiosk.api.errors import ApiError, ErrorKind
from kiosk.core.session import CounterSession
from kiosk.ui.main_window import CounterView
from kiosk.ui.screens.base import Screen
from tests.qt_async import until
from tests.ui.event_count import EventCount


class FrontScreen(Screen):
    key = "front"
    icon_name = "identify"

    def __init__(self, session: CounterSession) -> None:
        super().__init__(session)
        self.resets = 0
        self.body.addWidget(QLabel("front"))

    def title(self) -> str:
        return "Front"

    def reset(self) -> None:
        self.resets += 1


class ClientScreen(Screen):
    key = "client-only"
    icon_name = "points"
    needs_client = True

    def title(self) -> str:
        return "Client"


def make_view(qtbot: QtBot, session: CounterSession) -> CounterView:
    view = CounterView(session, [FrontScreen(session), ClientScreen(session)])
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    return view


def find_client(session: CounterSession, arun: Callable[..., Any], query: str) -> Any:
    return arun(session.api.search_client(query))


def test_screens_that_need_a_client_are_disabled_until_one_is_set(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: Any
) -> None:
    view = make_view(qtbot, session)
    assert view.current is view.screens["front"]
    button = view.rail_buttons["client-only"]
    assert not button.isEnabled()
    assert "Identify a client first" in button.toolTip()
    view.show_screen("client-only")
    assert view.current is view.screens["front"]

    client = sim_world.merchants[1].tables["clients"]
    email = next(
        c["email"] for c in client.values() if c.get("status") == "ACTIVE" and c.get("email")
    )
    session.set_client(find_client(session, arun, email))
    assert button.isEnabled()
    assert view.card.isVisible()
    view.show_screen("client-only")
    assert view.current is view.screens["client-only"]

    # Changing the client goes back to the first screen and hides the card.
    qtbot.mouseClick(view.card.change, Qt.MouseButton.LeftButton)
    assert session.client is None
    assert view.current is view.screens["front"]
    assert not view.card.isVisible()
    assert not button.isEnabled()


def test_idle_clears_the_client_and_resets_every_screen(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: Any
) -> None:
    view = make_view(qtbot, session)
    clients = sim_world.merchants[1].tables["clients"]
    email = next(
        c["email"] for c in clients.values() if c.get("status") == "ACTIVE" and c.get("email")
    )
    session.set_client(find_client(session, arun, email))
    view.show_screen("client-only")
    front = view.screens["front"]
    assert isinstance(front, FrontScreen)
    view.idle.timer.setInterval(30)
    view.idle.start()

    async def scenario() -> None:
        await until(lambda: session.client is None, timeout=3)

    arun(scenario())
    assert view.current is front
    assert front.resets == 1


def test_band_and_status_bar_follow_the_session(qtbot: QtBot, session: CounterSession) -> None:
    view = make_view(qtbot, session)
    assert view.band.isVisible()
    assert "TRAINING" in view.band.label.text()
    assert view.status.branch.text() == session.config.branch.name
    session.online_changed.emit(False)
    assert view.status.connection.text() == "No connection"
    session.online_changed.emit(True)
    assert view.status.connection.text() == "Online"
    session.busy_changed.emit(True)
    assert view.status.busy.text()
    session.busy_changed.emit(False)
    assert view.status.busy.text() == ""


def test_session_call_reports_offline_on_network_failure(
    session: CounterSession, arun: Callable[..., Any]
) -> None:
    seen: list[bool] = []
    session.online_changed.connect(seen.append)

    async def fail() -> None:
        raise ApiError(ErrorKind.NETWORK, message="connection refused")

    async def ok() -> int:
        return 1

    async def scenario() -> None:
        with contextlib.suppress(ApiError):
            await session.call(fail)
        assert session.online is False
        assert await session.call(ok) == 1
        assert session.online is True

    arun(scenario())
    assert seen == [False, True]


class RecordingScreen(ClientScreen):
    """Records each client change it is told of, whether it was on show then, and how
    many times the window had been painted by then."""

    def __init__(self, session: CounterSession) -> None:
        super().__init__(session)
        self.heard: list[tuple[int | None, bool]] = []
        self.paints = EventCount(QEvent.Type.UpdateRequest)  # the window's paints
        self.paints_when_heard: list[int] = []

    def client_changed(self, client: Any) -> None:
        self.heard.append((client.id if client is not None else None, self.isVisible()))
        self.paints_when_heard.append(self.paints.count)


def clients_of(sim_world: Any, session: CounterSession, arun: Callable[..., Any]) -> list[Any]:
    rows = sim_world.merchants[1].tables["clients"].values()
    emails = [c["email"] for c in rows if c.get("status") == "ACTIVE" and c.get("email")]
    return [find_client(session, arun, email) for email in emails[:2]]


def test_a_hidden_screen_hears_of_a_new_client_a_turn_later_in_order(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: Any
) -> None:
    """The answer that identifies a client changes only what is on show; hidden screens
    catch up in the next turn, each change in order (a client and back resets a sale)."""
    recording = RecordingScreen(session)
    view = CounterView(session, [FrontScreen(session), recording])
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    ana, ben = clients_of(sim_world, session, arun)
    view.window().installEventFilter(recording.paints)

    painted = recording.paints.count
    session.set_client(ana)
    session.set_client(ben)
    session.set_client(ana)
    assert recording.heard == []  # not inside the answer
    assert view.card.isVisible()  # what the cashier sees changed at once
    qtbot.waitUntil(lambda: len(recording.heard) == 3)
    assert recording.heard == [(ana.id, False), (ben.id, False), (ana.id, False)]
    # ...and not before the window painted the answer: the catch-up is not between
    # the answer and its paint (a posted event would be: it runs before the paint).
    assert min(recording.paints_when_heard) > painted


def test_a_screen_shown_before_its_turn_catches_up_before_it_is_entered(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: Any
) -> None:
    recording = RecordingScreen(session)
    entered: list[int] = []
    recording.entered = lambda: entered.append(len(recording.heard))  # type: ignore[method-assign]
    view = CounterView(session, [FrontScreen(session), recording])
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    ana, _ = clients_of(sim_world, session, arun)

    session.set_client(ana)
    view.show_screen(recording.key)  # in the same turn: the change is told first
    assert entered == [1]
    assert recording.heard[0][0] == ana.id
    # Shown, it hears of the next change at once.
    session.clear_client()
    assert recording.heard[-1] == (None, True)
