"""Identify and Enroll in the whole counter, tapped, at 1280x800 and 1024x768, in English
and Spanish (issue #14, item 7): a long client leaves "Change client" whole and its
long texts elided with a tooltip; an overlong email is refused in words; a double tap
or Enter, Enter on "Enroll client" enrolls once; a banner does not move the button the
cashier taps next ("Show registration QR")."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.core.counter.enroll import FormField
from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.counter import Counter
from kiosk.ui.screens.identify.screen import IdentifyScreen
from tests.qt_async import until
from tests.ui.keys import Keys
from tests.ui.screens.identify.identify_support import (
    LONG_EMAIL,
    LONG_FIRST,
    LONG_LAST,
    SIZES,
    counter,
    creations,
    enroll_long_client,
    enter,
    in_window,
    language,
    tap,
)
from tests.ui.theme_support import app_theme

SHOTS = "/tmp/shots"
TOO_LONG = {
    "en": "This email is too long: at most 64 characters before the @ and 254 in all.",
    "es": "Este email es demasiado largo: hasta 64 caracteres antes de la @ y 254 en total.",
}
# The email: 254 characters, 181 of them before the @.
OVERLONG = "a" * 181 + "@" + "b" * 60 + ".example.com"


@pytest.fixture(params=["en", "es"])
def lang(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    with app_theme(qapp), language(qapp, request.param):
        yield request.param


@pytest.fixture
def themed(qapp: QApplication) -> Iterator[None]:
    with app_theme(qapp):
        yield


@pytest.fixture(params=SIZES, ids=["1280x800", "1024x768"])
def size(request: pytest.FixtureRequest) -> tuple[int, int]:
    return request.param  # type: ignore[no-any-return]


def identify_screen(view: Counter) -> IdentifyScreen:
    screen = view.current
    assert isinstance(screen, IdentifyScreen)
    return screen


def test_a_long_client_leaves_change_client_whole_and_elides_with_tooltips(
    qtbot: QtBot,
    session: CounterSession,
    arun: Callable[..., Any],
    lang: str,
    size: tuple[int, int],
) -> None:
    view = counter(qtbot, session, size)
    screen = identify_screen(view)
    card = view.card

    async def scenario() -> None:
        await enroll_long_client(session)
        tap(qtbot, screen.field)
        enter(qtbot, screen.field, LONG_EMAIL)
        await until(lambda: session.client is not None and card.isVisible())
        await until(lambda: card.name.elided())

    arun(scenario())
    view.grab().save(f"{SHOTS}/idenroll-long-client-{lang}-{size[0]}.png")
    change = card.change
    assert change.isVisible()
    assert change.sizeHint().width() <= change.width()  # its whole text, not "nge cli"
    assert in_window(change).right() < view.width()
    assert in_window(card).contains(in_window(change))
    full_name = f"{LONG_FIRST} {LONG_LAST}"
    assert len(full_name) >= 60
    assert card.name.text() == full_name
    assert card.name.toolTip() == full_name
    assert card.name.shown_text().endswith("…")
    for label in (card.name, card.level, card.points, card.total, card.identity):
        assert in_window(label).right() <= in_window(change).left()
        if label.elided():
            assert label.toolTip() == label.text()
        else:
            assert label.toolTip() == ""
            assert label.sizeHint().width() <= label.width() + 1
    tap(qtbot, change)
    assert session.client is None
    assert not card.isVisible()


def test_an_overlong_email_is_refused_in_words(
    qtbot: QtBot,
    session: CounterSession,
    sim_world: World,
    arun: Callable[..., Any],
    lang: str,
    size: tuple[int, int],
) -> None:
    view = counter(qtbot, session, size)
    screen = identify_screen(view)

    async def scenario() -> None:
        enter(qtbot, screen.field, "44123987")  # nobody: enroll
        await until(lambda: screen.pages.currentWidget() is screen.built("matches"))
        tap(qtbot, screen.matches.enroll_button)
        panel = screen.enroll
        tap(qtbot, panel.email)
        Keys().person(OVERLONG, widget=panel.email)  # a person's keys, not a scanner's
        await until(lambda: panel.enroll_button.armed)
        screen.scroller.ensureWidgetVisible(panel.enroll_button)
        await until(lambda: panel.enroll_button.visibleRegion().boundingRect().height() > 40)
        tap(qtbot, panel.enroll_button)
        await until(lambda: panel.error_of(FormField.EMAIL) != "")

    arun(scenario())
    assert len(OVERLONG) == 254
    assert screen.enroll.error_of(FormField.EMAIL) == TOO_LONG[lang]
    assert screen.banner.kind == "error"
    assert creations(sim_world) == 0
    view.grab().save(f"{SHOTS}/idenroll-overlong-email-{lang}-{size[0]}.png")


@pytest.mark.parametrize("hands", ["double tap", "enter enter"])
def test_a_double_tap_or_enter_enter_enrolls_once(
    qtbot: QtBot,
    session: CounterSession,
    sim_world: World,
    arun: Callable[..., Any],
    size: tuple[int, int],
    hands: str,
    themed: None,
) -> None:
    view = counter(qtbot, session, size)
    screen = identify_screen(view)

    async def scenario() -> None:
        enter(qtbot, screen.field, "doble.toque@example.org")
        await until(lambda: screen.pages.currentWidget() is screen.built("matches"))
        tap(qtbot, screen.matches.enroll_button)
        panel = screen.enroll
        button = panel.enroll_button
        # The form just appeared: Enter, Enter at once commits nothing unseen.
        qtbot.keyClick(panel.document, Qt.Key.Key_Return)
        qtbot.keyClick(panel.document, Qt.Key.Key_Return)
        assert creations(sim_world) == 0
        assert not button.busy
        await until(lambda: button.armed)
        if hands == "double tap":
            tap(qtbot, button)
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # the second tap, at once
        else:
            qtbot.keyClick(panel.email, Qt.Key.Key_Return)
            qtbot.keyClick(panel.email, Qt.Key.Key_Return)
        assert button.busy
        await until(lambda: screen.banner.kind == "success")
        # The cashier's next tap: "Show registration QR", where it stays when the
        # banner goes (issue #14, item 8).
        qr = screen.found.qr_button
        await until(qr.isVisible)
        QCoreApplication.sendPostedEvents()
        with_banner = in_window(qr)
        view.grab().save(f"{SHOTS}/idenroll-enrolled-banner-{size[0]}.png")
        tap(qtbot, screen.banner._close)
        await until(lambda: not screen.banner.isVisible())
        QCoreApplication.sendPostedEvents()
        assert in_window(qr) == with_banner
        tap(qtbot, qr)
        assert screen.found.qr_shown

    arun(scenario())
    assert creations(sim_world) == 1
    assert session.client is not None
