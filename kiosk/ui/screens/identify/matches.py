"""No exact match: near matches to tap (masked), or enroll a new client.

Rows show the name, the email and document masked, the available points and
whether the client is suspended; nothing more of people who are not at the counter.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from kiosk.api.models.clients import Client
from kiosk.core.amounts import AmountLocale, format_points
from kiosk.core.counter.identify import display_name, masked_contact
from kiosk.ui.icons import icon, pixmap
from kiosk.ui.screens.identify.found import status_badge
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.elided import ElidedLabel


class MatchRow(QPushButton):
    """One tappable row: name (and a "Suspended" pill), masked contact, points."""

    def __init__(self, client: Client, locale: AmountLocale, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.client_id = client.id
        self.setProperty("role", "tile")
        self.setMinimumHeight(76)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        # Long names and emails give way with "…" (the whole in the row's tooltip).
        name = ElidedLabel(
            display_name(client) or self.tr("Client #%1").replace("%1", str(client.id))
        )
        name.setStyleSheet("font-weight: 600; font-size: 20px;")
        contact = ElidedLabel(masked_contact(client), mode=Qt.TextElideMode.ElideMiddle)
        contact.setProperty("role", "muted")
        points = QLabel(self.tr("%1 pts").replace("%1", format_points(client.balance, locale)))
        points.setStyleSheet("font-weight: 700; font-size: 20px;")
        badge = status_badge()
        badge.setText(self.tr("Suspended"))
        badge.setVisible(client.is_suspended)
        for label in (name, contact, points, badge):
            label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        text = QVBoxLayout()
        text.setSpacing(0)
        text.addWidget(name)
        text.addWidget(contact)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(16, 8, 16, 8)
        layout.setSpacing(16)
        layout.addLayout(text, 1)
        layout.addWidget(badge)
        layout.addWidget(points)
        # The accessible name says what a screen reader needs, never more than the row shows.
        self.setAccessibleName(f"{name.text()} {contact.text()} {points.text()}")
        self.setToolTip(f"{name.text()}\n{contact.text()}")


class MatchesPanel(QFrame):
    """``chosen(client_id)`` when a row is tapped; ``enroll_requested`` for a new client."""

    chosen = Signal(int)
    enroll_requested = Signal()

    def __init__(self, locale: AmountLocale, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "card")
        self.amount_locale = locale
        self.icon = QLabel()
        self.icon.setPixmap(pixmap("info", current_palette().accent, 32))
        self.heading = QLabel()
        self.heading.setProperty("role", "heading")
        self.heading.setWordWrap(True)
        self.hint = QLabel()
        self.hint.setProperty("role", "muted")
        self.hint.setWordWrap(True)
        self.rows_box = QVBoxLayout()
        self.rows_box.setSpacing(8)
        self.more = QLabel(self.tr("More clients match: type more of the email or document."))
        self.more.setProperty("role", "hint")
        self.enroll_button = QPushButton(self.tr("Enroll new client"))
        self.enroll_button.setProperty("role", "primary")
        self.enroll_button.setIcon(icon("enroll", current_palette().accent_text))
        self.enroll_button.setIconSize(QSize(28, 28))
        self.enroll_button.setMinimumHeight(64)
        self.enroll_button.clicked.connect(self.enroll_requested.emit)
        self.rows: list[MatchRow] = []
        top = QHBoxLayout()
        top.setSpacing(12)
        top.addWidget(self.icon, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.heading, 1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.enroll_button)
        bottom.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 20, 24, 20)
        layout.setSpacing(12)
        layout.addLayout(top)
        layout.addWidget(self.hint)
        layout.addLayout(self.rows_box)
        layout.addWidget(self.more)
        layout.addSpacing(4)
        layout.addLayout(bottom)
        layout.addStretch(1)

    def show_matches(self, matches: Sequence[Client], *, more: bool) -> None:
        self.clear()
        if matches:
            self.heading.setText(self.tr("No exact match"))
            self.hint.setText(
                self.tr("Tap the client if they are on this list, or enroll a new client.")
            )
        else:
            self.heading.setText(self.tr("No client with this email or document"))
            self.hint.setText(
                self.tr("Check it with the client, or enroll them now: it takes a minute.")
            )
        for client in matches:
            row = MatchRow(client, self.amount_locale)
            row.clicked.connect(lambda _=False, cid=client.id: self.chosen.emit(cid))
            self.rows_box.addWidget(row)
            self.rows.append(row)
        self.more.setVisible(more)

    def set_enabled_rows(self, enabled: bool) -> None:
        for row in self.rows:
            row.setEnabled(enabled)

    def clear(self) -> None:
        for row in self.rows:
            self.rows_box.removeWidget(row)
            row.deleteLater()
        self.rows.clear()
        self.more.hide()
