"""A reward tile draws its own card (issue #4: the style sheet's rounded, dashed
borders were half of the Rewards screen's repaint): the same look as the sheet had,
for each state — within reach, out of reach, pressed, focused — in both themes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.core.amounts import AmountLocale
from kiosk.core.counter.rewards import RewardCard
from kiosk.ui.screens.rewards.grid import RewardGrid, RewardTile
from kiosk.ui.theme import apply_theme, current_palette


@pytest.fixture(params=["light", "dark"])
def theme(request: pytest.FixtureRequest) -> Iterator[str]:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, request.param)
    yield request.param
    apply_theme(app, "light")


def shown_tile(qtbot: QtBot, balance: int) -> RewardTile:
    grid = RewardGrid(AmountLocale.ES_AR)
    qtbot.addWidget(grid)
    grid.resize(600, 400)
    grid.set_cards([RewardCard(1, "Café con medialunas", "", 1, 640, balance)])
    grid.show()
    qtbot.waitExposed(grid)
    tile = grid.tiles[1]
    qtbot.waitUntil(tile.isVisible)
    return tile


def colour(image: QImage, x: int, y: int) -> str:
    return QColor(image.pixel(x, y)).name()


def test_each_state_draws_the_card_the_style_sheet_drew(qtbot: QtBot, theme: str) -> None:
    p = current_palette()
    within = shown_tile(qtbot, balance=1000)
    middle = within.height() // 2
    image = within.grab().toImage()
    assert colour(image, 1, middle) == p.accent  # a 2 px solid accent border
    assert colour(image, 6, middle) == p.surface  # on the surface

    within.setDown(True)
    assert colour(within.grab().toImage(), 6, middle) == p.info_bg  # pressed
    within.setDown(False)

    within.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(within.hasFocus)
    focused = within.grab().toImage()
    assert colour(focused, 2, middle) == p.accent  # 3 px with the focus
    assert colour(image, 2, middle) != p.accent  # 2 px without

    out = shown_tile(qtbot, balance=100)
    image = out.grab().toImage()
    assert colour(image, 6, middle) == p.surface_alt  # dimmed
    border = {colour(image, x, 1) for x in range(20, out.width() - 20)}
    assert p.border in border  # dashed: the border's colour...
    assert p.surface_alt in border  # ...and gaps between the dashes
