"""The kiosk's icon set: SVG line icons from ``resources/icons``, tinted to the theme."""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import QByteArray, QRectF, Qt
from PySide6.QtGui import QIcon, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer

from kiosk.ui.resources import resource_path


@cache
def _svg(name: str) -> str:
    return resource_path("icons", f"{name}.svg").read_text(encoding="utf-8")


def pixmap(name: str, color: str, size: int = 32, ratio: float = 2.0) -> QPixmap:
    renderer = QSvgRenderer(QByteArray(_svg(name).replace("#000000", color).encode()))
    side = max(1, round(size * ratio))
    image = QPixmap(side, side)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    renderer.render(painter, QRectF(0, 0, side, side))
    painter.end()
    image.setDevicePixelRatio(ratio)
    return image


@cache
def icon(name: str, color: str, disabled_color: str | None = None) -> QIcon:
    result = QIcon()
    for size in (24, 32, 48):
        result.addPixmap(pixmap(name, color, size), QIcon.Mode.Normal)
        if disabled_color:
            result.addPixmap(pixmap(name, disabled_color, size), QIcon.Mode.Disabled)
    return result
