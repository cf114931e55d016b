"""In-screen panels of the exchange flow (never a modal ``exec``), and the looks the
Rewards and Redeem screens share.

``ExchangeResult`` shows the pickup code large and as a QR, the points debited and the
new balance; ``code_style`` is how a purchase code is written; ``segment_button`` and
``segment_style`` make the "Rewards | Money" toggle. (The confirmation before an
exchange is ``kiosk.ui.widgets.confirm_sheet.ConfirmSheet``.)
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QFontDatabase, QIcon
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from kiosk.ui.icons import pixmap, set_pixmap
from kiosk.ui.theme import PRIMARY_PX, current_palette
from kiosk.ui.widgets.qr_view import QrView

CODE_FONT_PX = 72


def code_style(size_px: int = CODE_FONT_PX, color: str | None = None) -> str:
    """A purchase code: monospaced (``0``/``O`` told apart), large, spaced out.
    (A style sheet, since the application's sheet would override ``setFont``.)"""
    family = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).family()
    ink = f" color: {color};" if color else ""
    return (
        f"font-family: '{family}', monospace; font-size: {size_px}px; font-weight: 700;"
        f" letter-spacing: {max(2, size_px // 12)}px;{ink}"
    )


class ExchangeResult(QFrame):
    """What an exchange did: the pickup code (text and QR), points and balance."""

    done = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "card")
        p = current_palette()
        self.art = QLabel()
        set_pixmap(self.art, pixmap("success", p.success, 40))
        self.heading = QLabel()
        self.heading.setProperty("role", "heading")
        self.heading.setWordWrap(True)
        self.caption = QLabel(self.tr("Pickup code"))
        self.caption.setProperty("role", "muted")
        self.code = QLabel()
        self.code.setStyleSheet(code_style(CODE_FONT_PX, p.text))
        self.code.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.points = QLabel()
        self.points.setStyleSheet("font-size: 26px; font-weight: 700;")
        self.balance = QLabel()
        self.balance.setStyleSheet("font-size: 22px;")
        self.hint = QLabel(
            self.tr("The client shows this code or the QR to collect it at any branch.")
        )
        self.hint.setWordWrap(True)
        self.hint.setProperty("role", "hint")
        self.qr = QrView(280)
        self.done_button = QPushButton(self.tr("Done"))
        self.done_button.setStyleSheet(f"min-width: 220px; min-height: {PRIMARY_PX - 20}px;")
        self.done_button.clicked.connect(self.done.emit)
        head = QHBoxLayout()
        head.setSpacing(12)
        head.addWidget(self.art, 0, Qt.AlignmentFlag.AlignVCenter)
        head.addWidget(self.heading, 1)
        left = QVBoxLayout()
        left.setSpacing(8)
        left.addLayout(head)
        left.addSpacing(8)
        left.addWidget(self.caption)
        left.addWidget(self.code)
        left.addSpacing(8)
        left.addWidget(self.points)
        left.addWidget(self.balance)
        left.addWidget(self.hint)
        left.addStretch(1)
        left.addWidget(self.done_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(32, 28, 32, 28)
        layout.setSpacing(32)
        layout.addLayout(left, 1)
        layout.addWidget(self.qr, 0, Qt.AlignmentFlag.AlignTop)

    def show_result(self, heading: str, code: str, points: str, balance: str) -> None:
        self.heading.setText(heading)
        self.code.setText(code)
        self.qr.set_data(code)
        self.points.setText(points)
        self.balance.setText(balance)

    def set_balance(self, text: str) -> None:
        self.balance.setText(text)

    def clear(self) -> None:
        self.heading.setText("")
        self.code.setText("")
        self.points.setText("")
        self.balance.setText("")
        self.qr.clear()


def segment_button(text: str, icon_name: str) -> QPushButton:
    """One half of a two-way toggle (style: ``segment_style``)."""
    button = QPushButton(text)
    button.setCheckable(True)
    button.setProperty("segment", "true")
    p = current_palette()
    both = QIcon()
    for size in (24, 48):
        both.addPixmap(pixmap(icon_name, p.text, size), QIcon.Mode.Normal, QIcon.State.Off)
        both.addPixmap(pixmap(icon_name, p.accent_text, size), QIcon.Mode.Normal, QIcon.State.On)
    button.setIcon(both)
    button.setIconSize(QSize(24, 24))
    return button


def segment_style() -> str:
    p = current_palette()
    return (
        f"QPushButton[segment='true'] {{ min-height: 36px; min-width: 150px; "
        f"border-radius: 24px; font-size: 18px; }}"
        f"QPushButton[segment='true']:checked {{ background: {p.accent}; "
        f"color: {p.accent_text}; border-color: {p.accent}; }}"
    )
