"""The banner paints its kind's colours itself (issue #4): a change of kind is new
colours and a repaint, not a re-polish against the application's style sheet (about
1 ms inside the answer that showed it); a new theme repaints one already shown."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from kiosk.ui.icons import pixmap
from kiosk.ui.theme import DARK, LIGHT, apply_theme
from kiosk.ui.widgets.banner import Banner, kind_colors
from tests.ui.event_count import EventCount
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
