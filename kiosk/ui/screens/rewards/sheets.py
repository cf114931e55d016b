"""In-screen panels of the exchange and delivery flows (never a modal ``exec``).

``ConfirmSheet`` says exactly what will happen and waits for Confirm or Back. Its
Confirm is a ``CommitButton``: armed by ``ask`` and accepting a tap (or Enter, once
it has the focus) only when the sheet has been painted and the guard time passed,
then busy at once: a double tap on what opened the sheet, or Enter, Enter, never
commits unseen, and a second tap while the request runs sends nothing;
``ExchangeResult`` shows the pickup code large and as a QR, the points debited
and the new balance.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QFontDatabase, QIcon
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from kiosk.ui.icons import pixmap, set_pixmap
from kiosk.ui.theme import PRIMARY_PX, current_palette
from kiosk.ui.widgets.commit_button import CommitButton
from kiosk.ui.widgets.qr_view import QrView

CODE_FONT_PX = 72


class ConfirmSheet(QFrame):
    """A confirmation panel: heading, what will happen, Back and Confirm."""

    confirmed = Signal()
    back = Signal()

    def __init__(self, icon_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "card")
        self.art = QLabel()
        self._icon_name = ""
        self.set_icon(icon_name)
        self.heading = QLabel()
        self.heading.setProperty("role", "heading")
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setStyleSheet("font-size: 28px; font-weight: 600;")
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.detail.setStyleSheet("font-size: 20px;")
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.hint.setProperty("role", "hint")
        self.back_button = QPushButton(self.tr("Back"))
        self.back_button.setStyleSheet(f"min-width: 160px; min-height: {PRIMARY_PX - 20}px;")
        self.back_button.clicked.connect(self.back.emit)
        self.confirm = CommitButton(primary=True)
        self.confirm.setStyleSheet(f"min-width: 320px; min-height: {PRIMARY_PX - 16}px;")
        self.confirm.setAutoDefault(True)  # Enter on it commits (only once armed)
        self.confirm.committed.connect(self.confirmed.emit)
        head = QHBoxLayout()
        head.setSpacing(16)
        head.addWidget(self.art, 0, Qt.AlignmentFlag.AlignTop)
        head.addWidget(self.heading, 1)
        buttons = QHBoxLayout()
        buttons.setSpacing(16)
        buttons.addWidget(self.back_button)
        buttons.addStretch(1)
        buttons.addWidget(self.confirm)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(32, 20, 32, 20)
        layout.setSpacing(12)
        layout.addLayout(head)
        layout.addWidget(self.message)
        layout.addWidget(self.detail)
        layout.addWidget(self.hint)
        # The buttons right under what they confirm, not at the bottom: Confirm never
        # stands where the button that opened the sheet was (Redeem's Deliver).
        layout.addSpacing(8)
        layout.addLayout(buttons)
        layout.addStretch(1)

    def set_icon(self, icon_name: str) -> None:
        if icon_name != self._icon_name:  # (an SVG drawn: only when it changes)
            self._icon_name = icon_name
            self.art.setPixmap(pixmap(icon_name, current_palette().accent, 48))

    def ask(self, heading: str, message: str, detail: str, hint: str, confirm: str) -> None:
        self.heading.setText(heading)
        self.message.setText(message)
        self.detail.setText(detail)
        self.detail.setVisible(bool(detail))
        self.hint.setText(hint)
        self.hint.setVisible(bool(hint))
        self.confirm.setText(confirm)
        self.set_busy(False)
        self.confirm.arm()  # accepts a tap once this is painted and the guard passed
        self.confirm.setFocus()  # (given when shown) a second Enter lands here, unarmed

    def set_busy(self, busy: bool) -> None:
        """While the request runs neither Confirm nor Back can be tapped; when it ends
        Confirm is disarmed until the next ``ask``."""
        if busy:
            if not self.confirm.busy:
                self.confirm.set_busy(True)
        else:
            self.confirm.finish()
        self.back_button.setEnabled(not busy)


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
        f"QPushButton[segment='true'] {{ min-height: 40px; min-width: 150px; "
        f"border-radius: 24px; font-size: 18px; }}"
        f"QPushButton[segment='true']:checked {{ background: {p.accent}; "
        f"color: {p.accent_text}; border-color: {p.accent}; }}"
    )
