"""The kiosk's icon set: SVG line icons from ``resources/icons``, tinted to the theme."""

from __future__ import annotations

from functools import cache, lru_cache

import shiboken6
from PySide6.QtCore import QByteArray, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QGuiApplication, QIcon, QIconEngine, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QLabel

from kiosk.ui.resources import resource_path


@cache
def _svg(name: str) -> str:
    return resource_path("icons", f"{name}.svg").read_text(encoding="utf-8")


@lru_cache(maxsize=256)
def pixmap(name: str, color: str, size: int = 32, ratio: float = 2.0) -> QPixmap:
    """The icon ``name`` in ``color``, ``size`` px at ``ratio``: drawn once, then the same
    pixmap (implicitly shared: ``setPixmap`` and ``addPixmap`` copy it, none paints on
    it). A label given the pixmap it shows already does nothing; each new drawing was
    an SVG parse and render (~0.3 ms) and a relayout of the label's screen, inside
    answers that set a status icon every time (found client, banner, status bar)."""
    renderer = QSvgRenderer(QByteArray(_svg(name).replace("#000000", color).encode()))
    side = max(1, round(size * ratio))
    image = QPixmap(side, side)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    renderer.render(painter, QRectF(0, 0, side, side))
    painter.end()
    image.setDevicePixelRatio(ratio)
    return image


def set_pixmap(label: QLabel, image: QPixmap) -> None:
    """``label.setPixmap(image)`` unless it shows that pixmap already: ``setPixmap`` lays
    the label's screen out again even for the same pixmap. (``QLabel.pixmap()`` is
    drawn again from an icon, with another cache key: the label remembers the key.)"""
    key = str(image.cacheKey())
    if label.property("pixmapKey") != key:
        label.setPixmap(image)
        label.setProperty("pixmapKey", key)


class TintedIcon(QIconEngine):
    """Draws an icon when Qt first asks for it, at the size and mode asked (a button
    shows one size in one or two modes; rendering every size and mode up front cost
    the counter's start ~20 ms of SVG work for icons not yet on screen)."""

    def __init__(self, name: str, color: str, disabled_color: str | None) -> None:
        super().__init__()
        self.name = name
        self.color = color
        self.disabled_color = disabled_color
        self._drawn: dict[tuple[int, int, bool], QPixmap] = {}
        _UNDRAWN.append(self)

    def draw_ahead(self, scale: float) -> None:
        """Draw the usual sizes now (the warm-up after ready), not at a first paint."""
        for side in AHEAD_SIDES:
            size = QSize(side, side)
            self.scaledPixmap(size, QIcon.Mode.Normal, QIcon.State.Off, scale)
            if self.disabled_color:
                self.scaledPixmap(size, QIcon.Mode.Disabled, QIcon.State.Off, scale)

    def _color(self, mode: QIcon.Mode) -> str:
        if mode == QIcon.Mode.Disabled and self.disabled_color:
            return self.disabled_color
        return self.color

    def scaledPixmap(
        self, size: QSize, mode: QIcon.Mode, state: QIcon.State, scale: float
    ) -> QPixmap:
        side = max(1, min(size.width(), size.height()))
        key = (side, round(scale * 100), mode == QIcon.Mode.Disabled)
        drawn = self._drawn.get(key)
        if drawn is None:
            drawn = self._drawn[key] = pixmap(self.name, self._color(mode), side, max(scale, 1.0))
        return drawn

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        return self.scaledPixmap(size, mode, state, 1.0)

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        scale = painter.device().devicePixelRatioF() if painter.device() else 1.0
        painter.drawPixmap(rect, self.scaledPixmap(rect.size(), mode, state, scale))

    def clone(self) -> QIconEngine:
        return TintedIcon(self.name, self.color, self.disabled_color)


AHEAD_SIDES = (24, 32)  # the icon sizes of the counter's buttons, tabs and rail
_UNDRAWN: list[TintedIcon] = []


def draw_icons_ahead() -> int:
    """Draw the icons made since the last call at the usual sizes (called by the
    warm-up after each screen it builds, so the first paint of a page does not render
    SVGs inside a cashier's interaction). Returns how many icons were drawn."""
    screen = QGuiApplication.primaryScreen()
    scale = screen.devicePixelRatio() if screen is not None else 1.0
    count = len(_UNDRAWN)
    while _UNDRAWN:
        engine = _UNDRAWN.pop()
        if shiboken6.isValid(engine):  # (a copy Qt made and dropped since)
            engine.draw_ahead(scale)
    return count


@cache
def icon(name: str, color: str, disabled_color: str | None = None) -> QIcon:
    return QIcon(TintedIcon(name, color, disabled_color))
