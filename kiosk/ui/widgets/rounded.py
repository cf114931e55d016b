"""Rounded cards drawn once and blitted: for grids of many tiles (issue #4).

A style sheet's ``border-radius`` is drawn by Qt's style-sheet style with a clip path
for the background and four stroked arcs for the border, every paint of every tile:
the ten reward tiles' rounded, dashed borders were about half of the Rewards
screen's repaint (~5.5 ms). A tile that paints ``rounded_card(...)`` draws the same
card once per size, colours and state, then copies pixels.
"""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPixmap


@lru_cache(maxsize=128)
def rounded_card(
    width: int,
    height: int,
    fill: str,
    border: str,
    border_px: float,
    radius: float,
    *,
    dashed: bool = False,
    ratio: float = 1.0,
) -> QPixmap:
    """A ``width`` x ``height`` card (logical px at ``ratio``): ``fill`` inside a
    ``border_px`` border of colour ``border`` (dashed or solid), corners of ``radius``,
    as a style sheet's ``background``/``border``/``border-radius`` would draw it."""
    image = QPixmap(max(1, round(width * ratio)), max(1, round(height * ratio)))
    image.setDevicePixelRatio(ratio)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    pen = QPen(QColor(border), border_px)
    pen.setStyle(Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine)
    painter.setPen(pen if border_px > 0 else Qt.PenStyle.NoPen)
    painter.setBrush(QColor(fill))
    inset = border_px / 2
    painter.drawRoundedRect(
        QRectF(inset, inset, width - border_px, height - border_px),
        max(0.0, radius - inset),
        max(0.0, radius - inset),
    )
    painter.end()
    return image
