"""The sheet a client's scan opens outside Identify: "Scanned: switch to this client?"

A DNI scanned while another screen is shown (Points with the previous client's sale,
Rewards, Today...) is never typed anywhere (``kiosk.ui.scan_watch``): the counter
shows this card over the top of the screen, with what was scanned (the document's last
digits, masked as on the client card, and from a barcode the name) and two taps: switch to that client (Identify searches the
scan) or keep what is on screen. Only a tap switches: Enter does nothing here, Escape
keeps. The card overlays the screen (nothing under it moves) and its texts are plain.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from kiosk.api.redact import mask_document, mask_email
from kiosk.core.counter.scan import Identity, IdentityKind
from kiosk.ui.theme import PRIMARY_PX, current_palette

MARGIN_PX = 16
NAME_MAX = 80  # characters of a scanned name shown (a garbled scan can be long)


class ScanOffer(QFrame):
    """Hidden until ``offer``; ``accepted(text)`` with the scanned text, ``declined``."""

    accepted = Signal(str)
    declined = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("scanOffer")
        palette = current_palette()
        self.setStyleSheet(
            f"#scanOffer {{ background: {palette.surface}; border: 2px solid {palette.accent};"
            " border-radius: 12px; }"
        )
        self._text = ""
        self.heading = QLabel()
        self.heading.setProperty("role", "heading")
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.heading.setWordWrap(True)
        self.detail = QLabel()
        self.detail.setTextFormat(Qt.TextFormat.PlainText)
        self.detail.setWordWrap(True)
        self.switch_button = QPushButton(self.tr("Switch to this client"))
        self.switch_button.setProperty("role", "primary")
        self.switch_button.setMinimumHeight(PRIMARY_PX)
        self.switch_button.setAutoDefault(False)
        self.switch_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # a tap, never a key
        self.switch_button.clicked.connect(self._accept)
        self.keep_button = QPushButton(self.tr("Keep the current screen"))
        self.keep_button.setMinimumHeight(PRIMARY_PX)
        self.keep_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.keep_button.clicked.connect(self.decline)
        texts = QVBoxLayout()
        texts.setSpacing(4)
        texts.addWidget(self.heading)
        texts.addWidget(self.detail)
        buttons = QHBoxLayout()
        buttons.setSpacing(12)
        buttons.addStretch(1)
        buttons.addWidget(self.keep_button)
        buttons.addWidget(self.switch_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 16)
        layout.setSpacing(12)
        layout.addLayout(texts)
        layout.addLayout(buttons)
        self.hide()

    @property
    def scanned_text(self) -> str:
        """What the scanner read, while the card is shown ("" when hidden)."""
        return self._text

    def offer(self, text: str, identity: Identity, *, has_client: bool) -> None:
        self._text = text
        # Masked as the client card shows them (the person hands the card over: the
        # cashier matches the name and the last digits).
        if identity.kind is IdentityKind.EMAIL:
            self.heading.setText(self.tr("Scanned: %1").replace("%1", mask_email(identity.query)))
        else:
            masked = mask_document(identity.query)
            self.heading.setText(self.tr("Scanned: DNI %1").replace("%1", masked))
        name = identity.barcode.display_name if identity.barcode is not None else ""
        question = (
            self.tr("Switch to this client? The sale on screen is not credited.")
            if has_client
            else self.tr("Identify this client?")
        )
        self.detail.setText(f"{name[:NAME_MAX]}\n{question}" if name else question)
        self.show()
        self.raise_()

    def place(self, area: QRect) -> None:
        """Over the top of ``area`` (the active screen, in the parent's coordinates)."""
        width = area.width() - 2 * MARGIN_PX
        height = self.heightForWidth(width) if self.hasHeightForWidth() else -1
        height = max(height, self.sizeHint().height())
        self.setGeometry(area.x() + MARGIN_PX, area.y() + MARGIN_PX, width, height)

    def decline(self) -> None:
        if self.isVisible():
            self._text = ""
            self.hide()
            self.declined.emit()

    def withdraw(self) -> None:
        """Gone without an answer (idle, the window closing)."""
        self._text = ""
        self.hide()

    def _accept(self) -> None:
        text = self._text
        self._text = ""
        self.hide()
        if text:
            self.accepted.emit(text)
