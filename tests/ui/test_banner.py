"""The banner paints its kind's colours itself (issue #4): a change of kind is new
colours and a repaint, not a re-polish against the application's style sheet (about
1 ms inside the answer that showed it); a new theme repaints one already shown.

A banner shown or dismissed moves no button or field of any counter screen (issue #14):
its room is kept and it is drawn over it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QRect, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)
from pytestqt.qtbot import QtBot

from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.counter import Counter
from kiosk.ui.icons import pixmap
from kiosk.ui.theme import DARK, LIGHT, apply_theme
from kiosk.ui.widgets.banner import Banner, kind_colors
from tests.qt_async import until
from tests.ui.event_count import EventCount
from tests.ui.screens.identify.identify_support import SIZES, clients, counter, in_window, tap
from tests.ui.theme_support import app_theme

RESTYLE = {QEvent.Type.PaletteChange, QEvent.Type.FontChange, QEvent.Type.StyleChange}
TEXT = "No connection. The credit is saved and will be sent automatically."


@pytest.fixture
def banner(qtbot: QtBot, qapp: QApplication) -> Iterator[Banner]:
    with app_theme(qapp, "light"):
        host = QWidget()
        host.setObjectName("root")
        layout = QVBoxLayout(host)
        banner = Banner(host)
        layout.addWidget(banner)
        layout.addStretch(1)
        qtbot.addWidget(host)
        host.resize(600, 160)
        host.show()
        yield banner


def colors_at_edge(banner: Banner) -> tuple[str, str]:
    """(fill, border) as painted: the middle of the right edge, and just inside it."""
    image = banner.grab().toImage()
    y = image.height() // 2
    right = image.width() - 1
    return (
        QColor(image.pixel(right - 3, y)).name(),
        QColor(image.pixel(right, y)).name(),
    )


def shown(qtbot: QtBot, banner: Banner) -> None:
    qtbot.waitUntil(banner.isVisible)


@pytest.mark.parametrize("kind", ["error", "success", "info"])
def test_each_kind_is_painted_in_its_colours(qtbot: QtBot, banner: Banner, kind: str) -> None:
    getattr(banner, f"show_{kind}")(TEXT)
    shown(qtbot, banner)
    fill, border, _ = kind_colors(kind, LIGHT)
    assert banner.kind == kind
    assert banner.text() == TEXT
    assert colors_at_edge(banner) == (fill, border)


def test_a_change_of_kind_repaints_without_restyling(qtbot: QtBot, banner: Banner) -> None:
    banner.show_error(TEXT)
    shown(qtbot, banner)
    restyles = EventCount(*RESTYLE)
    for widget in (banner, *banner.findChildren(QWidget)):
        widget.installEventFilter(restyles)
    banner.show_success("Credited.")
    banner.show_info("Note.")
    banner.show_error(TEXT)
    assert restyles.count == 0
    assert colors_at_edge(banner) == kind_colors("error", LIGHT)[:2]


def test_a_new_theme_repaints_a_banner_already_shown(
    qtbot: QtBot, qapp: QApplication, banner: Banner
) -> None:
    banner.show_success("Credited.")
    shown(qtbot, banner)
    apply_theme(qapp, "dark")
    qtbot.waitUntil(lambda: colors_at_edge(banner) == kind_colors("success", DARK)[:2])
    banner.dismiss()
    assert not banner.isVisible()
    assert banner.kind == ""


def test_prepare_draws_every_kinds_icon_and_polishes_ahead(qtbot: QtBot) -> None:
    """The warm-up's step: the first banner of the day then draws no icon and
    polishes nothing inside the answer that shows it."""
    banner = Banner()
    qtbot.addWidget(banner)
    parts = [banner, *banner.findChildren(QWidget)]
    assert not any(w.testAttribute(Qt.WidgetAttribute.WA_WState_Polished) for w in parts)
    pixmap.cache_clear()
    banner.prepare()
    assert all(w.testAttribute(Qt.WidgetAttribute.WA_WState_Polished) for w in parts)
    drawn = pixmap.cache_info().misses
    assert drawn == 3
    banner.show_success("Credited.")
    banner.show_error(TEXT)
    banner.show_info("Note.")
    assert pixmap.cache_info().misses == drawn


# -- a banner never moves what the cashier is about to tap (issue #14, item 8) -----------

LONG = (
    "No connection. The credit is saved and will be sent automatically when the "
    "connection returns; the client can leave now and see the points later today."
)


def tappable(screen: QWidget) -> dict[QWidget, QRect]:
    """Every visible button, field and card of ``screen`` (not the banner's), where it
    is in its window."""
    kinds = (QAbstractButton, QLineEdit, QComboBox, QAbstractSpinBox)
    found = {}
    for widget in screen.findChildren(QWidget):
        mine = screen.banner.isAncestorOf(widget)
        wanted = isinstance(widget, kinds) or widget.property("role") == "card"
        if wanted and widget.isVisible() and not mine:
            found[widget] = in_window(widget)
    return found


def settle() -> None:
    """Deliver what showing or hiding posted (a deferred layout would move things here)."""
    QCoreApplication.sendPostedEvents()
    QCoreApplication.sendPostedEvents()


async def no_button_moves(qtbot: QtBot, view: Counter, key: str, size: int) -> None:
    tap(qtbot, view.rail_buttons[key])
    await until(lambda: view.current is not None and view.current.key == key)
    screen = view.current
    assert screen is not None
    settle()
    before = tappable(screen)
    assert before, key
    for show in (screen.banner.show_error, screen.banner.show_success):
        for text in (TEXT, LONG):
            show(text)
            await until(screen.banner.isVisible)
            settle()
            assert tappable(screen) == before, (key, text)
            assert in_window(screen.banner).top() >= in_window(screen).top()
    view.grab().save(f"/tmp/shots/idenroll-banner-{key}-{size}.png")
    tap(qtbot, screen.banner._close)
    await until(lambda: not screen.banner.isVisible())
    settle()
    assert tappable(screen) == before, key


@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x768"])
def test_a_banner_moves_no_button_on_any_counter_screen(
    qtbot: QtBot,
    qapp: QApplication,
    session: CounterSession,
    sim_world: World,
    arun: Callable[..., Any],
    size: tuple[int, int],
) -> None:
    """Each screen of the rail, a client identified: an error and a success, one line
    and two, shown and dismissed; every button and field stays where it was."""
    with app_theme(qapp):
        view = counter(qtbot, session, size)
        record = clients(sim_world)[0]
        session.set_client(arun(session.api.search_client(record["email"])))

        async def scenario() -> None:
            for key in view.specs:
                await no_button_moves(qtbot, view, key, size[0])
            # The screens' reads end with the test, not after its loop (Today's page).
            for screen in view.screens.values():
                await until(lambda screen=screen: not screen.tasks.running("load"))
            view.shutdown()

        arun(scenario())
