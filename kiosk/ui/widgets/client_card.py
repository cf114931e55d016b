"""The active client, always on top: name, level, points, masked email and document.

Every text of the card may be long (a 60-character name, a long email, a level named
by the merchant, a big balance in Spanish): each is an ``ElidedLabel`` that gives way
with "…" and its whole text in a tooltip, and "Change client" keeps the room its
text needs (issue #14: it was cut to "nge cli" by a long email).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from kiosk.api.models.clients import Client
from kiosk.api.redact import mask_document, mask_email
from kiosk.core.amounts import AmountLocale, format_points
from kiosk.core.counter.offline_client import is_unverified
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.elided import ElidedLabel
from kiosk.ui.widgets.plain_text import clip
from kiosk.ui.widgets.relayout import FixedFill
from kiosk.ui.widgets.whole_button import WholeButton

LEVEL_CHECK_MS = 3000  # a client shown without a level is read again after this...
LEVEL_CHECKS = 3  # ...at most this many times (the service assigns a new one shortly)
DOCUMENT_KIND_CHARS = 8  # the service's document type ("DNI", "CUIT", "PAS"), bounded


class ClientCard(QFrame):
    change_requested = Signal()
    # The client shows no level: read it again (a new client's level is assigned by the
    # service shortly after its enrollment or first credit).
    level_wanted = Signal()

    def __init__(self, locale: AmountLocale, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "card")
        self.locale = locale
        self.name = ElidedLabel(keep_chars=12)
        self.name.setProperty("role", "heading")
        self.level = ElidedLabel(keep_chars=10)
        self.level.setProperty("role", "muted")
        # A suspended client: a red pill beside the name (they cannot earn or use points).
        self.suspended = QLabel(self.tr("Suspended"))
        p = current_palette()
        self.suspended.setStyleSheet(
            f"background: {p.danger_bg}; color: {p.danger}; border: 1px solid {p.danger};"
            " border-radius: 8px; padding: 2px 10px; font-weight: 700; font-size: 16px;"
        )
        self.suspended.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.suspended.hide()
        self.points = ElidedLabel(keep_chars=14)  # the balance: whole unless huge
        self.points.setStyleSheet("font-size: 26px; font-weight: 700;")
        self.total = ElidedLabel(keep_chars=14)
        self.total.setProperty("role", "muted")
        # The masked email is cut in the middle (both ends stay readable); the masked
        # document beside it is short and always whole.
        self.identity = ElidedLabel(mode=Qt.TextElideMode.ElideMiddle, keep_chars=16)
        self.identity.setProperty("role", "muted")
        self.document = QLabel()
        self.document.setProperty("role", "muted")
        self.document.setTextFormat(Qt.TextFormat.PlainText)
        self.document.setSizePolicy(QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Fixed)
        self.change = WholeButton(self.tr("Change client"))
        self.change.setMinimumHeight(56)
        # Never narrower than its text: the labels beside it give way instead.
        self.change.setSizePolicy(QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Fixed)
        self.change.clicked.connect(self.change_requested.emit)
        self.level_check = QTimer(self)
        self.level_check.setSingleShot(True)
        self.level_check.setInterval(LEVEL_CHECK_MS)
        self.level_check.timeout.connect(self._want_level)
        self._level_checks: tuple[int | None, int] = (None, 0)  # (client id, checks made)
        left = QVBoxLayout()
        left.setSpacing(2)
        top = QHBoxLayout()
        top.addWidget(self.name)
        top.addSpacing(12)
        top.addWidget(self.level)
        top.addSpacing(12)
        top.addWidget(self.suspended)
        top.addStretch(1)
        left.addLayout(top)
        ids = QHBoxLayout()
        ids.setSpacing(16)
        ids.addWidget(self.identity, 1)
        ids.addWidget(self.document)
        left.addLayout(ids)
        middle = QVBoxLayout()
        middle.setSpacing(2)
        middle.addWidget(self.points)
        middle.addWidget(self.total)
        # The card's texts change with every client and balance: its layout lives on a
        # fixed-size filler, so they do not lay the whole window out again
        # (kiosk/ui/widgets/relayout.py); the card's height is fixed to its content's.
        content = FixedFill(self)
        layout = QHBoxLayout(content)
        layout.setContentsMargins(20, 12, 16, 12)
        layout.addLayout(left, 1)
        layout.addSpacing(16)
        layout.addLayout(middle)
        layout.addSpacing(24)
        layout.addWidget(self.change)
        self._fix_height(content)
        self.hide()

    def _fix_height(self, content: QWidget) -> None:
        labels = (self.name, self.level, self.points, self.total, self.identity, self.document)
        for widget in (*labels, self.change):
            widget.ensurePolished()
        for label in labels:
            label.setText("Ág")  # the tallest line each can show
        self.setFixedHeight(content.sizeHint().height())
        for label in labels:
            label.setText("")

    def _follow_level(self, client: Client | None) -> None:
        """Ask for the client again while it shows no level (a few times, spaced)."""
        if client is None or client.level is not None or is_unverified(client):
            self.level_check.stop()
            return
        checked_id, made = self._level_checks
        if checked_id != client.id:
            self._level_checks = (client.id, 0)
            made = 0
        if made < LEVEL_CHECKS and not self.level_check.isActive():
            self.level_check.start()

    def _want_level(self) -> None:
        checked_id, made = self._level_checks
        self._level_checks = (checked_id, made + 1)
        self.level_wanted.emit()

    def show_client(self, client: Client | None) -> None:
        self.suspended.setVisible(client is not None and client.is_suspended)
        self._follow_level(client)
        if client is None:
            self.name.setText("")
            self.level.setText("")
            self.points.setText("")
            self.total.setText("")
            self.identity.setText("")
            self.document.setText("")
            self.hide()
            return
        display = client.name or " ".join(p for p in (client.first_name, client.last_name) if p)
        self.name.setText(display or self.tr("Client #%1").replace("%1", str(client.id)))
        self.level.setText(
            client.level.name if client.level and client.level.name else self.tr("No level")
        )
        self.points.setText(
            self.tr("%1 pts available").replace("%1", format_points(client.balance, self.locale))
        )
        if is_unverified(client):
            # Accepted offline: the balance is unknown, never shown as 0.
            self.name.setText(display or self.tr("Unverified client"))
            self.level.setText("")
            self.points.setText(self.tr("Not verified (offline)"))
            self.total.setText(self.tr("Points are credited when the connection returns"))
        elif client.accumulated_points is not None:
            self.total.setText(
                self.tr("%1 accumulated").replace(
                    "%1", format_points(client.accumulated_points, self.locale)
                )
            )
        else:
            self.total.setText("")
        self.identity.setText(mask_email(client.email) if client.email else "")
        document = ""
        if client.document_number:
            kind = clip(client.document_type or "DNI", DOCUMENT_KIND_CHARS)
            document = f"{kind} {mask_document(client.document_number)}"
        self.document.setText(document)
        self.document.setVisible(bool(document))
        self.show()
