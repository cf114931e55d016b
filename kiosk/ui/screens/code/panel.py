"""The Code screen's centre: the 4-digit code, its countdown and one line of status.

``CodePanel.show_snapshot(snapshot, now)`` draws one instant of a ``CodeSnapshot``; the
screen calls it on every change of the poller and a few times a second (the
phase moves with time: a code expires without anything being read).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

from kiosk.api.errors import ApiError, ErrorKind
from kiosk.core.counter.validation_code import CodePhase, CodeSnapshot
from kiosk.ui.messages import error_text
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.countdown import CountdownBar

NO_CODE = "––––"  # drawn where no valid code can be shown


def clock_text(seconds: float) -> str:
    """``0:42``, ``1:05``: whole seconds, rounded up (never shows 0:00 while valid)."""
    whole = max(0, math.ceil(seconds - 1e-9))
    return f"{whole // 60}:{whole % 60:02d}"


def faded(color: str, alpha: float = 0.4) -> str:
    """``color`` half see-through: a greyed-out code stays readable but clearly stale."""
    c = QColor(color)
    return f"rgba({c.red()}, {c.green()}, {c.blue()}, {alpha})"


PANEL_TEXT_PX = 520  # the code, its countdown and its texts: one column at least this wide
STATUS_PX = 26  # the status line's font ("Changes in 0:42")


class CodePanel(QFrame):
    def __init__(self, clock: Callable[[], float], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "card")
        self.code = QLabel(NO_CODE)
        self.code.setProperty("role", "code")
        self.code.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.code.setMinimumHeight(200)
        self.countdown = CountdownBar(clock=clock)
        self.countdown.setFixedHeight(14)
        self.status = QLabel()
        self.status.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.detail = QLabel()
        self.detail.setProperty("role", "muted")
        self.detail.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.detail.setWordWrap(True)
        for label in (self.code, self.status, self.detail):
            label.setTextFormat(Qt.TextFormat.PlainText)  # never rich text, whatever comes
        layout = QVBoxLayout(self)
        layout.setContentsMargins(32, 24, 32, 32)
        layout.setSpacing(16)
        layout.addWidget(self.code, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addWidget(self.countdown, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addWidget(self.status, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addWidget(self.detail, 0, Qt.AlignmentFlag.AlignHCenter)
        self._fix_sizes()
        self._bar_for: tuple[str | None, float | None] = (None, None)
        self._ink = ""
        self._status_ink = ""
        self.phase: CodePhase | None = None

    def _fix_sizes(self) -> None:
        """Fixed sizes for the texts that change while the screen is shown (the status
        every second, the code and its ink at each rotation). A widget whose size can
        change makes Qt lay out every layout up to the window's (the whole counter,
        10-14 ms) each time its text or style changes; a fixed-size one stops there."""
        self.code.ensurePolished()
        # As wide as four of the widest digits in the code's font, whatever its size
        # (text scaled up for accessibility shows all four digits).
        metrics = self.code.fontMetrics()
        digits = metrics.horizontalAdvance("8888") + 4 * metrics.averageCharWidth() // 2
        width = max(PANEL_TEXT_PX, digits)
        self.code.setFixedSize(width, max(200, self.code.sizeHint().height()))
        self.countdown.setFixedWidth(width)
        self.status.setFixedSize(width, round(STATUS_PX * 1.6))  # one line of its font
        self.detail.ensurePolished()
        self.detail.setFixedSize(width, self.detail.fontMetrics().lineSpacing() * 3 + 4)

    def shown_code(self) -> str:
        """The digits on screen, or "" when no valid code is shown."""
        text = self.code.text()
        return "" if text == NO_CODE else text

    def show_snapshot(self, snap: CodeSnapshot, now: float) -> None:
        phase = snap.phase(now)
        self.phase = phase
        p = current_palette()
        if phase in (CodePhase.LIVE, CodePhase.REFRESHING) and snap.code:
            self.code.setText(snap.code)
            self._set_ink(p.text if phase is CodePhase.LIVE else faded(p.muted))
        else:
            self.code.setText(NO_CODE)
            self._set_ink(p.border)
        if phase is CodePhase.LIVE and snap.expires_at is not None:
            key = (snap.code, snap.expires_at)
            if key != self._bar_for:
                self._bar_for = key
                self.countdown.start(snap.expires_at - now, total=snap.window)
        elif self._bar_for != (None, None):
            self._bar_for = (None, None)
            self.countdown.stop()
        status, detail, warn = self._texts(phase, snap, now)
        self.status.setText(status)
        self.detail.setText(detail)
        self._set_status_ink(p.danger if warn else p.text)

    def _texts(self, phase: CodePhase, snap: CodeSnapshot, now: float) -> tuple[str, str, bool]:
        wait = snap.next_read_in(now)
        if phase is CodePhase.LIVE:
            left = clock_text(snap.seconds_left(now))
            return self.tr("Changes in %1").replace("%1", left), "", False
        if phase is CodePhase.REFRESHING:
            return self.tr("Refreshing…"), self.tr("Getting the new code."), False
        if phase is CodePhase.LOADING:
            return self.tr("Reading the code…"), "", False
        if phase is CodePhase.WAITING:
            detail = self.tr("The service lets the kiosk read the code once every %1 s.").replace(
                "%1", str(round(snap.window))
            )
            text = self.tr("New code in %1").replace("%1", clock_text(wait or 0.0))
            return text, detail, False
        if phase is CodePhase.NO_QR:
            return (
                self.tr("This branch has no validation QR"),
                self.tr("Ask a manager to enable the rotating code on a QR of this branch."),
                True,
            )
        retry = (
            self.tr("Trying again now…")
            if wait is None
            else self.tr("The kiosk tries again by itself in %1.").replace("%1", clock_text(wait))
        )
        return self.tr("Code unavailable"), f"{self._reason(snap.failure)} {retry}".strip(), True

    def _reason(self, failure: ApiError | None) -> str:
        """Why, in words that do not ask the cashier to retry (the kiosk does)."""
        if failure is None:
            return ""
        if failure.kind is ErrorKind.RATE_LIMITED:
            return self.tr(
                "The branch's kiosks read the code too often; the service asked to wait."
            )
        if failure.kind in (ErrorKind.NETWORK, ErrorKind.TIMEOUT):
            return self.tr("No connection to the service.")
        if failure.kind in (ErrorKind.SERVER, ErrorKind.UNAVAILABLE, ErrorKind.MALFORMED):
            return self.tr("The service did not give the code.")
        return error_text(failure)  # a setting to fix: the sentence says who to call

    def _set_ink(self, color: str) -> None:
        if color != self._ink:
            self._ink = color
            self.code.setStyleSheet(f"color: {color};")

    def _set_status_ink(self, color: str) -> None:
        if color != self._status_ink:
            self._status_ink = color
            self.status.setStyleSheet(
                f"color: {color}; font-size: {STATUS_PX}px; font-weight: 600;"
            )
