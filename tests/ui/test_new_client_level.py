"""A new client's header follows the level the service assigns (issue #21, minor): the
card showed "No level" for good after enrollment; a client shown without a level is
read again a few seconds later, and the card shows the level once assigned."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pytestqt.qtbot import QtBot

from kiosk.api.models.clients import NewClient
from kiosk.core.session import CounterSession
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from kiosk.ui.counter import build_view
from kiosk.ui.widgets.client_card import LEVEL_CHECKS
from tests.qt_async import until


def test_the_card_shows_the_level_assigned_after_enrollment(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any], sim_world: World
) -> None:
    view = build_view(session)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    view.card.level_check.setInterval(10)  # the 3 s between reads, in 10 ms

    async def scenario() -> None:
        draft = NewClient(first_name="Ana", last_name="Nueva", email="ana.nueva@example.com")
        created = (await session.api.create_client(draft)).record
        assert created.level is None  # the service assigns it a moment later
        session.set_client(created)
        assert view.card.level.text() == "No level"
        SimControl(sim_world).advance(5)  # the service's level job has run
        await until(lambda: view.card.level.text() not in ("", "No level"))
        view.shutdown()

    arun(scenario())


def test_a_client_without_a_level_is_read_again_a_few_times_only(
    qtbot: QtBot, session: CounterSession, arun: Callable[..., Any]
) -> None:
    view = build_view(session)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    view.card.level_check.setInterval(5)
    asked: list[int] = []
    view.card.level_wanted.connect(lambda: asked.append(1))

    async def scenario() -> None:
        draft = NewClient(first_name="Bea", last_name="Nueva", email="bea.nueva@example.com")
        session.set_client((await session.api.create_client(draft)).record)
        await until(lambda: len(asked) == LEVEL_CHECKS and not view.card.level_check.isActive())
        await session.changes_announced()
        assert len(asked) == LEVEL_CHECKS  # then it stops asking
        view.shutdown()

    arun(scenario())
