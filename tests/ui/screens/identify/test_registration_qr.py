"""#22 item 7: the registration QR of an exact match is noted in the log by client id
(never its link), and only an https link with a host is ever shown as a QR."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from kiosk.api.models.common import SecretUrl
from kiosk.core.counter.identify import registration_link
from kiosk.core.session import CounterSession
from kiosk.sim import people_common
from kiosk.sim.world import World
from tests.qt_async import until
from tests.ui.screens.identify.identify_support import (
    enter,
    fast_session,  # noqa: F401  (fixture)
    make_screen,
    unregistered,
)


def test_the_qr_shown_is_logged_by_client_id_never_by_link(
    qtbot: QtBot,
    session: CounterSession,
    sim_world: World,
    arun: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="kiosk")
    screen = make_screen(qtbot, session)
    client = unregistered(sim_world)[0]

    async def scenario() -> None:
        enter(qtbot, screen.field, client["email"])
        await until(lambda: session.client is not None)
        assert screen.found.qr_button.isVisible()
        qtbot.mouseClick(screen.found.qr_button, Qt.MouseButton.LeftButton)
        assert screen.found.qr_shown

    arun(scenario())
    assert f"registration QR shown for client #{client['id']}" in caplog.text
    assert people_common.REGISTER_BASE not in caplog.text


@pytest.mark.parametrize(
    "base",
    ["http://registro.example.test/r/", "javascript:alert(1)//", "https:///r/", "data:text/html,"],
)
def test_a_link_that_is_not_https_with_a_host_is_never_a_qr(
    qtbot: QtBot,
    session: CounterSession,
    sim_world: World,
    arun: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    base: str,
) -> None:
    monkeypatch.setattr(people_common, "REGISTER_BASE", base)
    screen = make_screen(qtbot, session)
    client = unregistered(sim_world)[0]

    async def scenario() -> None:
        enter(qtbot, screen.field, client["email"])
        await until(lambda: session.client is not None)
        assert session.client is not None
        assert session.client.register_url is not None  # the server sent one
        assert not screen.found.qr_button.isVisible()
        screen.found.show_qr()  # even asked directly: nothing
        assert not screen.found.qr_shown

    arun(scenario())


def test_the_link_rules() -> None:
    from kiosk.api.models.clients import Client

    def client(link: str) -> Client:
        return Client(id=7, balance=0, registered=False, register_url=SecretUrl(link))

    assert registration_link(client("https://registro.example.test/r/abc")) is not None
    for bad in (
        "https://registro.example.test/r/a b",
        "https://registro.example.test/r/\u202eabc",
        "https://" + "a" * 2050 + ".test/",
        "HTTPS://",
        "ftp://registro.example.test/r/abc",
    ):
        assert registration_link(client(bad)) is None, bad
