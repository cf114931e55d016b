"""Identify offline over the simulator: a search that cannot reach the service (dropped
connections, 503) offers "Continue without checking"; the email or document typed
twice (a mismatch is refused) or a DNI scanned once makes an unverified client, whom
the card shows without a balance; nothing is sent for them from this screen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from kiosk.api.errors import ApiError
from kiosk.core.amounts import AmountLocale
from kiosk.core.counter.offline_client import is_unverified
from kiosk.core.session import CounterSession
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from kiosk.ui.widgets.client_card import ClientCard
from tests.qt_async import until
from tests.ui.screens.identify.identify_support import (
    NEW_LOPEZ,
    NEW_PEREZ,
    SEARCH,
    enter,
    fast_session,  # noqa: F401  (fixture)
    make_screen,
)

OUTAGES = [{"kind": "drop"}, {"kind": "status", "status": 503}]


def _click(qtbot: QtBot, button: Any) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


@pytest.mark.parametrize("fault", OUTAGES, ids=["dropped", "503"])
def test_typed_twice_offline_makes_an_unverified_client(
    qtbot: QtBot,
    fast_session: CounterSession,  # noqa: F811
    sim_world: World,
    arun: Callable[..., Any],
    expect_log: Callable[[str], None],
    fault: dict[str, Any],
) -> None:
    expect_log(r"retry|identify|search")
    session = fast_session
    screen = make_screen(qtbot, session)
    control = SimControl(sim_world)
    control.add_fault(fault.pop("kind"), SEARCH, count=None, **fault)
    panel = screen.offline

    async def scenario() -> None:
        enter(qtbot, screen.field, "ana.offline@example.com")
        await until(lambda: screen.banner.kind == "error")
        assert screen.pages.currentWidget() is panel
        assert panel.heading.text() == "The client cannot be checked: no connection"
        assert panel.continue_button.isVisible()
        assert not panel.form.isVisible()
        _click(qtbot, panel.continue_button)
        assert panel.form.isVisible()
        # What was searched is the first entry; it must be typed again.
        assert panel.first.text() == "ana.offline@example.com"
        assert panel.second.text() == ""
        _click(qtbot, panel.use_button)
        assert panel.problem.text() == "Type it again in the second field to confirm it."
        qtbot.keyClicks(panel.second, "ana.ofline@example.com")
        qtbot.keyClick(panel.second, Qt.Key.Key_Return)
        assert "not the same" in panel.problem.text()
        assert session.client is None
        panel.second.clear()
        qtbot.keyClicks(panel.second, "Ana.Offline@example.com")
        _click(qtbot, panel.use_button)
        await until(lambda: session.client is not None)

    arun(scenario())
    client = session.client
    assert is_unverified(client)
    assert client is not None
    assert client.email == "ana.offline@example.com"
    assert client.document_number is None
    # The identify screen and the card say "not verified", never a balance.
    assert screen.pages.currentWidget() is screen.found
    assert screen.found.name.text() == "Client not verified (offline)"
    assert not screen.found.rewards_button.isEnabled()
    assert screen.found.points_button.isEnabled()
    assert screen.banner.kind == "info"
    assert panel.first.text() == ""  # forgotten once used
    card = ClientCard(AmountLocale.ES_AR)
    qtbot.addWidget(card)
    card.show_client(client)
    assert card.points.text() == "Not verified (offline)"
    assert "pts" not in card.points.text()
    assert card.name.text() == "Unverified client"
    assert "a***" in card.identity.text() or "@example.com" in card.identity.text()
    assert "ana.offline" not in card.identity.text()
    # Nothing but the searches went out: no client was created, no credit queued.
    assert all(r["method"] == "GET" for r in control.requests())


def test_a_dni_scanned_offline_is_accepted_with_one_scan(
    qtbot: QtBot,
    fast_session: CounterSession,  # noqa: F811
    sim_world: World,
    arun: Callable[..., Any],
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"retry|identify|search")
    session = fast_session
    screen = make_screen(qtbot, session)
    control = SimControl(sim_world)
    control.add_fault("drop", SEARCH, count=None)

    async def scenario() -> None:
        enter(qtbot, screen.field, NEW_PEREZ)
        await until(lambda: screen.pages.currentWidget() is screen.offline)
        assert not session.online
        _click(qtbot, screen.offline.continue_button)  # no second entry asked
        await until(lambda: session.client is not None)

    arun(scenario())
    client = session.client
    assert is_unverified(client)
    assert client is not None
    assert client.document_number == "30123456"
    assert client.document_type == "DNI"
    assert client.email is None
    assert screen.found.name.text() == "Client not verified (offline)"


def test_offline_the_empty_page_offers_the_way_in_and_a_scan_into_the_form_suffices(
    qtbot: QtBot,
    fast_session: CounterSession,  # noqa: F811
    sim_world: World,
    arun: Callable[..., Any],
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"retry|identify|search|clients")
    session = fast_session
    screen = make_screen(qtbot, session)
    control = SimControl(sim_world)
    assert not screen.offline_strip.isVisible()
    control.add_fault("drop", SEARCH, count=None)

    async def go_offline() -> None:
        # Any call that cannot reach the service puts the counter offline.
        with pytest.raises(ApiError):
            await session.call(lambda: session.api.search_client("30123456"))

    arun(go_offline())
    assert not session.online
    assert screen.offline_strip.isVisible()
    panel = screen.offline

    async def scenario() -> None:
        _click(qtbot, screen.offline_strip.button)
        assert screen.pages.currentWidget() is panel
        assert panel.form.isVisible()
        # A scan that is not a DNI barcode must be typed twice like anything else.
        enter(qtbot, panel.first, "44123987")
        assert session.client is None
        enter(qtbot, panel.second, NEW_LOPEZ)
        await until(lambda: session.client is not None)

    arun(scenario())
    client = session.client
    assert is_unverified(client)
    assert client is not None
    assert client.document_number == "44123987"
    assert (client.first_name, client.last_name) == ("Ana", "Lopez")
    assert not screen.offline_strip.isVisible()  # a client is shown now


def test_back_online_the_strip_goes_and_a_search_finds_the_real_client(
    qtbot: QtBot,
    fast_session: CounterSession,  # noqa: F811
    sim_world: World,
    arun: Callable[..., Any],
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"retry|identify|search")
    session = fast_session
    screen = make_screen(qtbot, session)
    control = SimControl(sim_world)
    control.add_fault("drop", SEARCH, count=4)

    async def scenario() -> None:
        enter(qtbot, screen.field, "30123456")
        await until(lambda: screen.pages.currentWidget() is screen.offline)
        # The fault is spent: "Try again" searches again and finds the client.
        _click(qtbot, screen.offline.retry_button)
        await until(lambda: session.client is not None)

    arun(scenario())
    assert session.online
    assert session.client is not None
    assert not is_unverified(session.client)
    assert session.client.document_number == "30123456"
    assert not screen.offline_strip.isVisible()


def test_reset_forgets_what_was_typed_offline(
    qtbot: QtBot,
    fast_session: CounterSession,  # noqa: F811
    sim_world: World,
    arun: Callable[..., Any],
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"retry|identify|search")
    screen = make_screen(qtbot, fast_session)
    SimControl(sim_world).add_fault("drop", SEARCH, count=None)

    async def scenario() -> None:
        enter(qtbot, screen.field, "ana.offline@example.com")
        await until(lambda: screen.pages.currentWidget() is screen.offline)
        _click(qtbot, screen.offline.continue_button)
        qtbot.keyClicks(screen.offline.second, "ana.offline@")

    arun(scenario())
    screen.reset()
    assert screen.offline.first.text() == ""
    assert screen.offline.second.text() == ""
    assert screen.pages.currentWidget() is screen.empty
