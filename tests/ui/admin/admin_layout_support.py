"""The layout audit of the manager's pages (issue #14, defect 11): a section inside the
counter window's unlocked manager mode at a counter's size, in English or Spanish,
over a world whose names are long, and the checks of what a manager sees.

``audit(root)`` lists what is wrong with the visible widgets under ``root``: a button
whose text does not fit (and is not elided with the full text in its tooltip), a
button under 44 px, a label whose unwrapped text is wider than the label, two
buttons that overlap. Set ``KIOSK_SHOTS`` to a folder to save the PNGs.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QApplication,
    QLabel,
    QWidget,
)
from pytestqt.qtbot import QtBot

from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.i18n import install_translators
from kiosk.ui.main_window import CounterView
from kiosk.ui.manager.gate import ManagerGate, ManagerScreen
from kiosk.ui.manager.manager_view import ManagerView, Section
from kiosk.ui.screens.base import Screen
from tests.ui.admin.admin_support import table
from tests.ui.manager.manager_support import Clocks, make_lock

SIZES = [(1280, 800), (1024, 768)]
LANGUAGES = ["en", "es"]
LONG_FIRST = "María de los Ángeles Guadalupe"
LONG_LAST = "Fernández de la Torre y Santamaría Oyarzábal"
LONG_REWARD = "Canasta navideña del Almacén del Sol con pan dulce, sidra y turrones"
LONG_ITEM = "Docena de medialunas de manteca con dulce de leche y crema pastelera"
LONG_OPERATOR = ("Juan Bautista Alberdi", "Rodríguez Peña de la Santísima Trinidad")


@contextmanager
def language(qapp: QApplication, name: str) -> Iterator[None]:
    installed = install_translators(qapp, name)
    try:
        yield
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)


def lengthen_names(world: World) -> None:
    """Long names (60+ characters) on the first records of every list."""
    for client in list(table(world, "clients").values())[:4]:
        client["first_name"] = LONG_FIRST
        client["last_name"] = f"{LONG_LAST} {client['id']}"
        client["name"] = f"{client['first_name']} {client['last_name']}"
    for product in list(table(world, "products").values())[:2]:
        product["name"] = f"{LONG_REWARD} {product['id']}"
    for item in list(table(world, "point_items").values())[:2]:
        item["name"] = f"{LONG_ITEM} {item['id']}"
    for purchase in table(world, "purchases").values():
        if purchase.get("client"):
            purchase["client"]["firstName"] = LONG_FIRST
            purchase["client"]["lastName"] = LONG_LAST
        if purchase.get("product"):
            purchase["product"]["name"] = LONG_REWARD
    for operator in list(table(world, "operators").values())[:2]:
        operator["firstName"], operator["lastName"] = LONG_OPERATOR
        operator["fullName"] = " ".join(LONG_OPERATOR)


async def in_manager_window(
    qtbot: QtBot, session: CounterSession, section: QWidget, folder: Path, size: tuple[int, int]
) -> CounterView:
    """``section`` as the one section of unlocked manager mode in the counter window."""
    lock = make_lock(folder, Clocks())
    await lock.set_pin("1357")
    view = ManagerView([Section("Section", "settings", lambda: section)])
    gate = ManagerGate(lock, lambda: view, idle_seconds=900)
    host = ManagerScreen(session, gate)
    window = CounterView(session, [host])
    if isinstance(section, Screen):
        section.say_in(host)  # as a section opened from the list (the first is built early)
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    return window


def shot(widget: QWidget, name: str) -> None:
    folder = os.environ.get("KIOSK_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        widget.grab().save(str(Path(folder) / f"admin-{name}.png"))


def _shown(widget: QWidget) -> bool:
    return widget.isVisible() and widget.width() > 0 and widget.height() > 0


def _in_scroller(widget: QWidget) -> bool:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea):
            return True
        parent = parent.parentWidget()
    return False


def _global_rect(widget: QWidget) -> QRect:
    return QRect(widget.mapToGlobal(QPoint(0, 0)), widget.size())


def _visible_rect(widget: QWidget) -> QRect:
    """The part of ``widget`` its ancestors let show (a scroll area's viewport clips)."""
    rect = _global_rect(widget)
    parent = widget.parentWidget()
    while parent is not None:
        rect = rect.intersected(_global_rect(parent))
        parent = parent.parentWidget()
    return rect


def audit(root: QWidget, *, min_px: int = 44) -> list[str]:
    problems: list[str] = []
    buttons: list[QAbstractButton] = []
    for widget in root.findChildren(QWidget):
        if not _shown(widget):
            continue
        name = f"{type(widget).__name__}({_text(widget)!r})"
        if isinstance(widget, QAbstractButton):
            buttons.append(widget)
            text = widget.text()
            cut = text and widget.sizeHint().width() > widget.width() + 1
            if cut and not (_elided(widget) and widget.toolTip() and text.endswith("…")):
                problems.append(
                    f"{name}: text needs {widget.sizeHint().width()} px, has {widget.width()}"
                )
            if min(widget.width(), widget.height()) < min_px and text:
                problems.append(f"{name}: {widget.width()}x{widget.height()} under {min_px} px")
        elif isinstance(widget, QLabel) and QLabel.text(widget) and not widget.wordWrap():
            if widget.pixmap() is not None and not widget.pixmap().isNull():
                continue
            shown = QLabel.text(widget)  # (an ElidedLabel's text() is the whole text)
            needed = widget.fontMetrics().horizontalAdvance(shown)
            room = widget.contentsRect().width() - 2 * widget.margin() - widget.indent()
            if needed > room + 1 and not ("…" in shown and widget.toolTip()):
                problems.append(f"{name}: text needs {needed} px, has {room}")
    visible = [(b, _visible_rect(b)) for b in buttons]
    for index, (first, a) in enumerate(visible):
        for second, b in visible[index + 1 :]:
            if a.intersects(b) and not (first.isAncestorOf(second) or second.isAncestorOf(first)):
                overlap = a.intersected(b)
                if overlap.width() > 1 and overlap.height() > 1:
                    problems.append(f"{_text(first)!r} overlaps {_text(second)!r}")
    return problems


def _elided(button: QAbstractButton) -> bool:
    return bool(button.property("elided"))


def _text(widget: Any) -> str:
    text = getattr(widget, "text", None)
    return str(text()) if callable(text) else widget.objectName()


def column_widths(table_widget: Any) -> list[int]:
    header = table_widget.horizontalHeader()
    return [header.sectionSize(i) for i in range(table_widget.columnCount())]


def is_scrolled_sideways(area: QAbstractScrollArea) -> bool:
    bar = area.horizontalScrollBar()
    return bar.isVisible() and bar.maximum() > 0


__all__ = [
    "LANGUAGES",
    "SIZES",
    "audit",
    "column_widths",
    "in_manager_window",
    "is_scrolled_sideways",
    "language",
    "lengthen_names",
    "shot",
]
