"""Inline banners: an error with the next step, a success with what changed, or a note.

A banner never moves what the cashier is about to tap (issue #14: a banner pushed the
form 76 px down and back, and the next tap landed on the wrong button). A screen
places it with a ``BannerSlot``: the slot keeps the room of a one-line banner in the
screen's layout whether a banner shows or not, and the banner is drawn over the slot
(an overlay, not an item of the layout) and not beyond it: a banner never covers what
the cashier taps (issue #21: it covered Redeem's code field and Look up, the Rewards
tabs and Refresh, the top of the Amount tab). Its text takes the lines the room holds
(two), in a smaller font when it must (down to ``MIN_TEXT_PX``); a text longer still
is cut with "…", whole in its tooltip and accessible name. Showing, changing or
dismissing it lays nothing out, and nothing moves.

A banner placed in a layout without a slot (``Banner`` alone) still works as an item
of that layout, shown with the next pass of the event loop (``show_deferred``, #4).

The banner paints its own rounded card (``rounded_card``: drawn once per size and
colours, then copied) in the colours of its kind. A style-sheet role per kind made
every change of kind re-polish the banner against the application's whole style
sheet, about 1 ms inside the answer that showed it, and drew the rounded border with
four anti-aliased arcs at each paint.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontMetrics, QMoveEvent, QPainter, QResizeEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

from kiosk.ui.icons import pixmap
from kiosk.ui.theme import BASE_PX, Palette, current_palette
from kiosk.ui.widgets.elided import elide_lines
from kiosk.ui.widgets.relayout import show_deferred

RADIUS_PX = 10
BORDER_PX = 1
MIN_TEXT_PX = 15


def kind_colors(kind: str, p: Palette) -> tuple[str, str, str]:
    """The (fill, border, icon) colours of a banner of ``kind`` in palette ``p``."""
    if kind == "error":
        return p.danger_bg, p.danger, p.danger
    if kind == "success":
        return p.success_bg, p.success, p.success
    return p.info_bg, p.accent, p.accent


class Banner(QFrame):
    """Hidden until told to show; a success hides itself after ``success_seconds``."""

    dismissed = Signal()

    def __init__(self, parent: QWidget | None = None, *, success_seconds: float = 6.0) -> None:
        super().__init__(parent)
        self.kind = ""
        self._full = ""  # the whole text (what is drawn may be smaller or cut)
        self._text_px = BASE_PX
        self._look: tuple[str, str, str] | None = None  # (fill, border, icon) being shown
        self._icon = QLabel()
        self._text = QLabel()
        self._text.setWordWrap(True)
        self._text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._close = QToolButton()
        self._close.setAutoRaise(True)
        self._close.setMinimumSize(48, 48)
        self._close.clicked.connect(self.dismiss)
        self._row = layout = QHBoxLayout(self)
        layout.setContentsMargins(16, 8, 8, 8)
        layout.setSpacing(12)
        layout.addWidget(self._icon, 0, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self._text, 1)
        layout.addWidget(self._close, 0, Qt.AlignmentFlag.AlignTop)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.dismiss)
        self._success_ms = int(success_seconds * 1000)
        self._slot: BannerSlot | None = None
        self.hide()

    def one_line_height(self) -> int:
        """How tall the banner is with one line of text (what a slot keeps)."""
        self.ensurePolished()
        self._text.ensurePolished()
        margins = self._row.contentsMargins()
        line = self._text.fontMetrics().lineSpacing()
        inner = max(line, 28, self._close.minimumHeight())
        return inner + margins.top() + margins.bottom()

    def place(self) -> None:
        """Over its slot, exactly (overlay), its text fitted into it."""
        slot = self._slot
        if slot is None:
            return
        width = slot.width()
        height = max(slot.height(), self.one_line_height())
        self._fit(width, height)
        host = self.parentWidget()
        corner = slot.mapTo(host, QPoint(0, 0)) if host is not None else slot.pos()
        geometry = QRect(corner, QSize(width, height))
        if self.geometry() != geometry:
            self.setGeometry(geometry)
        self.raise_()  # above the widgets of the screen made after it

    def _fit(self, width: int, height: int) -> None:
        """The whole text in the room of a ``width`` x ``height`` banner: in the base
        font if it fits, else a smaller one, else cut on its last line."""
        margins = self._row.contentsMargins()
        spacing = self._row.spacing()
        room_w = width - margins.left() - margins.right() - 2 * spacing - 28
        room_w -= self._close.minimumWidth()
        room_h = height - margins.top() - margins.bottom()
        if room_w <= 0 or not self._full:
            return
        flags = Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignLeft
        shown, px = self._full, BASE_PX
        while True:
            font = QFont(self._text.font())
            font.setPixelSize(px)
            metrics = QFontMetrics(font)
            need = metrics.boundingRect(QRect(0, 0, room_w, 100_000), flags, self._full)
            if need.height() <= room_h:
                break
            if px <= MIN_TEXT_PX:
                lines = max(1, room_h // metrics.lineSpacing())
                shown = elide_lines(self._full, metrics, room_w, lines)
                break
            px -= 1
        if px != self._text_px:
            self._text_px = px
            sheet = f"font-size: {px}px;" if px != BASE_PX else ""
            self._text.setStyleSheet(sheet)
        if self._text.text() != shown:
            self._text.setText(shown)
        cut = shown.replace("\n", " ") != " ".join(self._full.split()) and shown != self._full
        self._text.setToolTip(self._full if cut else "")

    def text(self) -> str:
        """The whole text of the banner shown ("" when none is)."""
        return self._full if self.isVisibleTo(self.parentWidget()) or not self.isHidden() else ""

    def show_error(self, text: str) -> None:
        self._show("error", text)

    def show_success(self, text: str) -> None:
        self._show("success", text)
        self._timer.start(self._success_ms)

    def show_info(self, text: str) -> None:
        self._show("info", text)

    def _show(self, kind: str, text: str) -> None:
        self._timer.stop()
        self.kind = kind
        self._restyle()
        self._full = text
        self._text.setText(text)
        self._text.setAccessibleName(text)
        if self._slot is not None:
            self.place()
            if self.isHidden():
                self.show()  # not in a layout: nothing is laid out again
        elif self.isHidden():
            show_deferred(self)

    def prepare(self) -> None:
        """What a first banner would do inside the answer that shows it, done ahead
        (the warm-up): each kind's icon drawn, the banner and its parts polished."""
        p = current_palette()
        for kind in ("error", "success", "info"):
            pixmap(kind, kind_colors(kind, p)[2], 28)
        self._close_icon()
        self.ensurePolished()

    def _restyle(self) -> None:
        look = kind_colors(self.kind, current_palette())
        if self._look != look:  # new colours only when the kind (or the theme) changes
            self._look = look
            self._icon.setPixmap(pixmap(self.kind, look[2], 28))
            self._close.setIcon(self._close_icon())
            self.update()

    def changeEvent(self, event: QEvent) -> None:
        # A new theme (the application's style sheet set again) while shown.
        if event.type() == QEvent.Type.StyleChange and self.kind:
            self._restyle()
        super().changeEvent(event)

    def _close_icon(self):  # type: ignore[no-untyped-def]
        from kiosk.ui.icons import icon

        return icon("close", current_palette().muted)

    def paintEvent(self, event: Any) -> None:
        if self._look is None:
            return
        from kiosk.ui.widgets.rounded import rounded_card  # (not on the start-up path)

        fill, border, _ = self._look
        card = rounded_card(
            self.width(),
            self.height(),
            fill,
            border,
            BORDER_PX,
            RADIUS_PX,
            ratio=self.devicePixelRatioF(),
        )
        painter = QPainter(self)
        painter.drawPixmap(0, 0, card)
        painter.end()

    def dismiss(self) -> None:
        self._timer.stop()
        self.kind = ""
        self._full = ""
        self._text.setText("")
        self.hide()
        self.dismissed.emit()


class BannerSlot(QWidget):
    """The room a screen keeps for its ``banner``, in its layout, shown or not; the
    banner is drawn over it, and only over it. Its minimum height is 0: a screen that
    cannot lay its content out in the room left (the layout audit finds it) would
    otherwise cut its content; there the banner overlays the content's top."""

    def __init__(
        self, banner: Banner, parent: QWidget | None = None, *, host: QWidget | None = None
    ) -> None:
        """``host``: the widget the banner is drawn in, when the slot stands deeper in
        it (a screen's row: the banner then covers what the slot holds, a hint)."""
        super().__init__(parent)
        self.banner = banner
        banner._slot = self
        owner = host if host is not None else parent
        if banner.parentWidget() is not None and banner.parentWidget() is not owner:
            banner.setParent(owner)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)

    def adopt(self) -> None:
        """The banner is drawn over this slot from now on (a screen may move its banner's
        room: manager mode keeps it under its header while unlocked)."""
        self.banner._slot = self
        if not self.banner.isHidden():
            self.banner.place()

    def sizeHint(self) -> QSize:
        return QSize(0, self.banner.one_line_height())

    def minimumSizeHint(self) -> QSize:
        return QSize(0, 0)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if not self.banner.isHidden():
            self.banner.place()

    def moveEvent(self, event: QMoveEvent) -> None:
        super().moveEvent(event)
        if not self.banner.isHidden():
            self.banner.place()
