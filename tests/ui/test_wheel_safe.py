"""Wheel-safe combo and spin boxes (kiosk.ui.widgets.wheel_safe): over a box without the
focus the wheel scrolls the page and leaves the value alone, and over a focused box too
(issue #21, item 7): a value changes by a tap, a click or the keyboard only."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QComboBox,
    QDoubleSpinBox,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)
from pytestqt.qtbot import QtBot

from kiosk.ui.widgets.wheel_safe import (
    WheelSafeComboBox,
    WheelSafeDoubleSpinBox,
    WheelSafeSpinBox,
    wheel_safe,
)
from tests.ui.wheel_support import turn_wheel

SIZES = [(1280, 800), (1024, 768)]


def page(qtbot: QtBot, size: tuple[int, int], boxes: list[QWidget]) -> QScrollArea:
    """A form taller than the window, with the boxes in its middle."""
    content = QWidget()
    column = QVBoxLayout(content)
    for _ in range(8):
        column.addWidget(QComboBox())  # plain boxes around: not under the pointer
        column.itemAt(column.count() - 1).widget().setMinimumHeight(60)
    for box in boxes:
        box.setMinimumHeight(60)
        column.addWidget(box)
    for _ in range(20):
        filler = QWidget()
        filler.setMinimumHeight(60)
        column.addWidget(filler)
    scroller = QScrollArea()
    scroller.setWidgetResizable(True)
    scroller.setWidget(content)
    qtbot.addWidget(scroller)
    scroller.resize(*size)
    with qtbot.waitExposed(scroller):
        scroller.show()
    scroller.verticalScrollBar().setValue(200)  # a page scrolled part of the way
    return scroller


def value(box: QWidget) -> object:
    if isinstance(box, QComboBox):
        return box.currentIndex()
    assert isinstance(box, QSpinBox | QDoubleSpinBox)
    return box.value()


def made_boxes() -> list[QWidget]:
    combo = WheelSafeComboBox()
    combo.addItems(["Sucursal Centro", "Sucursal Palermo", "Sucursal Rosario"])
    spin = WheelSafeSpinBox()
    spin.setRange(0, 100)
    spin.setValue(50)
    double = WheelSafeDoubleSpinBox()
    double.setRange(0, 100)
    double.setValue(50)
    plain_combo = wheel_safe(QComboBox())
    plain_combo.addItems(["Light", "Dark"])
    plain_spin = wheel_safe(QSpinBox())
    plain_spin.setValue(5)
    return [combo, spin, double, plain_combo, plain_spin]


@pytest.mark.parametrize("size", SIZES)
def test_the_wheel_over_an_unfocused_box_scrolls_the_page(
    qtbot: QtBot, size: tuple[int, int]
) -> None:
    boxes = made_boxes()
    scroller = page(qtbot, size, boxes)
    bar = scroller.verticalScrollBar()
    for box in boxes:
        scroller.ensureWidgetVisible(box, 0, 0)
        before, position = value(box), bar.value()
        assert not box.hasFocus()
        turn_wheel(box, -1)
        assert value(box) == before, type(box).__name__
        assert bar.value() > position, f"{type(box).__name__}: the page did not scroll"
        assert not box.hasFocus()  # the wheel gives no focus
        scroller.ensureWidgetVisible(box, 0, 0)
        position = bar.value()
        turn_wheel(box, 1)
        assert value(box) == before
        assert bar.value() < position


@pytest.mark.parametrize("size", SIZES)
def test_the_wheel_over_a_focused_box_scrolls_the_page_too(
    qtbot: QtBot, size: tuple[int, int]
) -> None:
    """Issue #21, item 7: a box just picked (so focused) keeps its value under the wheel."""
    boxes = made_boxes()
    scroller = page(qtbot, size, boxes)
    bar = scroller.verticalScrollBar()
    with qtbot.waitActive(scroller):
        scroller.activateWindow()
    for box in boxes:
        scroller.ensureWidgetVisible(box, 0, 0)
        box.setFocus()
        assert box.hasFocus()
        before, position = value(box), bar.value()
        turn_wheel(box, -1)
        assert value(box) == before, type(box).__name__
        assert bar.value() > position, f"{type(box).__name__}: the page did not scroll"
        scroller.ensureWidgetVisible(box, 0, 0)
        position = bar.value()
        turn_wheel(box, 1)
        assert value(box) == before, type(box).__name__
        assert bar.value() < position
        assert box.hasFocus()  # still the keyboard's: the arrows change it
        qtbot.keyClick(box, Qt.Key.Key_Down if isinstance(box, QComboBox) else Qt.Key.Key_Up)
        assert value(box) != before, type(box).__name__


def test_wheel_safe_refuses_what_is_no_box() -> None:
    with pytest.raises(TypeError):
        wheel_safe(QWidget())  # type: ignore[type-var]
    assert issubclass(WheelSafeSpinBox, QAbstractSpinBox)
