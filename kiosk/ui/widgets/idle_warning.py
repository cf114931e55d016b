"""The "Still there?" card idle shows before it clears a half-done sale.

Idle clears the client at the counter. A sale the cashier began (an amount typed, a
preview on screen, not credited) would go with it without a word; instead the
counter covers itself with this card for ``GRACE_SECONDS``, counting down: "Keep the
sale" (or any tap or key: the person is there) keeps everything as it was, and the
count running out clears the counter as idle does (``expired``).
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QApplication, QFrame, QLabel, QPushButton, QVBoxLayout, QWidget

from kiosk.ui.theme import PRIMARY_PX
from kiosk.ui.widgets.idle import UserInput

GRACE_SECONDS = 15
TICK_MS = 1000


class IdleWarning(QWidget):
    """Covers its parent while it counts down; ``kept`` or ``expired`` ends it."""

    kept = Signal()
    expired = Signal()

    def __init__(self, parent: QWidget, seconds: int = GRACE_SECONDS) -> None:
        super().__init__(parent)
        self.setObjectName("idleWarning")
        self.seconds = seconds
        self.remaining = 0
        self._focus: QWidget | None = None  # where the keyboard was: back after Keep
        self.timer = QTimer(self)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self._tick)
        card = QFrame(self)
        card.setProperty("role", "card")
        card.setMaximumWidth(560)
        self.heading = QLabel(self.tr("Still there?"))
        self.heading.setProperty("role", "heading")
        self.heading.setWordWrap(True)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setStyleSheet("font-size: 20px;")
        self.keep = QPushButton(self.tr("Keep the sale"))
        self.keep.setProperty("role", "primary")
        self.keep.setMinimumHeight(PRIMARY_PX)
        self.keep.clicked.connect(self.keep_sale)
        inner = QVBoxLayout(card)
        inner.setContentsMargins(32, 24, 32, 24)
        inner.setSpacing(16)
        inner.addWidget(self.heading)
        inner.addWidget(self.message)
        inner.addWidget(self.keep)
        outer = QVBoxLayout(self)
        outer.addWidget(card, 0, Qt.AlignmentFlag.AlignCenter)
        parent.installEventFilter(self)
        self._listener = UserInput.of()
        if self._listener is not None:
            self._listener.input.connect(self._input)
        self.hide()

    @property
    def counting(self) -> bool:
        return self.timer.isActive()

    def start(self) -> None:
        """Show the card and count ``seconds`` down."""
        self.remaining = self.seconds
        self._say()
        parent = self.parentWidget()
        if parent is not None:
            self.setGeometry(parent.rect())
        self._focus = QApplication.focusWidget()
        self.show()
        self.raise_()
        self.keep.setFocus()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()
        self.hide()

    def detach(self) -> None:
        self.stop()
        if self._listener is not None:
            self._listener.input.disconnect(self._input)
            self._listener = None

    @Slot()
    def keep_sale(self) -> None:
        if self.counting:
            self.stop()
            focused, self._focus = self._focus, None
            if focused is not None and shiboken6.isValid(focused) and focused.isVisible():
                focused.setFocus()  # the amount takes the keyboard again
            self.kept.emit()

    @Slot()
    def _input(self) -> None:
        if self.counting:  # a tap or a key anywhere: the person is there
            self.keep_sale()

    def _tick(self) -> None:
        self.remaining -= 1
        if self.remaining <= 0:
            self.stop()
            self.expired.emit()
            return
        self._say()

    def _say(self) -> None:
        self.message.setText(self.tr("The sale will be cleared in %n s.", "", self.remaining))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and self.isVisible():
            parent = self.parentWidget()
            if parent is not None:
                self.setGeometry(parent.rect())
        return False

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor(0, 0, 0, 110))
