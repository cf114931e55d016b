"""The identified client on the identify screen: who it is, quick jumps, registration QR.

The registration link (``register_url``) works as a password: it is revealed only
to draw the QR, in memory, and never kept as text, put in a tooltip or an
accessible name, or logged. ``clear_qr()`` forgets the picture.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from kiosk.api.models.clients import Client
from kiosk.core.counter.identify import needs_registration, registration_qr
from kiosk.core.counter.offline_client import is_unverified
from kiosk.ui.icons import icon, pixmap, set_pixmap
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.qr_view import QrView


def status_badge(parent: QWidget | None = None) -> QLabel:
    """A red "Suspended" pill (hidden until used)."""
    badge = QLabel(parent)
    p = current_palette()
    badge.setStyleSheet(
        f"background: {p.danger_bg}; color: {p.danger}; border: 1px solid {p.danger};"
        " border-radius: 8px; padding: 2px 10px; font-weight: 700; font-size: 16px;"
    )
    badge.hide()
    return badge


class FoundPanel(QFrame):
    """``navigate(key)`` asks for another screen; the QR button toggles the QR."""

    navigate = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "card")
        self._client: Client | None = None
        p = current_palette()
        self.check = QLabel()
        self.check.setPixmap(pixmap("success", p.success, 36))
        self.name = QLabel()
        self.name.setProperty("role", "heading")
        self.name.setWordWrap(True)
        self.badge = status_badge()
        self.badge.setText(self.tr("Suspended"))
        self.suspended_note = QLabel(
            self.tr("This client is suspended: they cannot earn or use points.")
        )
        self.suspended_note.setProperty("role", "field-error")
        self.suspended_note.setWordWrap(True)
        self.suspended_note.hide()
        self.level = QLabel()
        self.level.setProperty("role", "muted")
        self.level.setWordWrap(True)
        self.registration = QLabel(
            self.tr("Not registered yet: show them the QR to finish registering on their phone.")
        )
        self.registration.setProperty("role", "muted")
        self.registration.setWordWrap(True)
        self.points_button = self._jump(self.tr("Credit points"), "points", "points")
        self.rewards_button = self._jump(self.tr("Rewards"), "rewards", "rewards")
        self.qr_button = QPushButton(self.tr("Show registration QR"))
        self.qr_button.setIcon(icon("scan", p.accent))
        self.qr_button.setMinimumHeight(64)
        self.qr_button.setIconSize(QSize(28, 28))
        self.qr_button.clicked.connect(self.toggle_qr)
        self.qr = QrView(260)
        self.qr_caption = QLabel(
            self.tr("Ask the client to scan this code with their phone to finish registering.")
        )
        self.qr_caption.setWordWrap(True)
        self.qr_caption.setProperty("role", "hint")
        self.qr_caption.setMaximumWidth(280)
        self.qr_box = QWidget()
        qr_layout = QVBoxLayout(self.qr_box)
        qr_layout.setContentsMargins(0, 0, 0, 0)
        qr_layout.addWidget(self.qr, 0, Qt.AlignmentFlag.AlignHCenter)
        qr_layout.addWidget(self.qr_caption)
        self.qr_box.hide()

        title = QHBoxLayout()
        title.setSpacing(12)
        title.addWidget(self.check)
        title.addWidget(self.name, 1)
        title.addWidget(self.badge, 0, Qt.AlignmentFlag.AlignVCenter)
        actions = QHBoxLayout()
        actions.setSpacing(12)
        actions.addWidget(self.points_button)
        actions.addWidget(self.rewards_button)
        actions.addWidget(self.qr_button)
        actions.addStretch(1)
        info = QVBoxLayout()
        info.setSpacing(6)
        info.addLayout(title)
        info.addWidget(self.suspended_note)
        info.addWidget(self.level)
        info.addWidget(self.registration)
        info.addSpacing(12)
        info.addLayout(actions)
        info.addStretch(1)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(24, 20, 24, 20)
        layout.setSpacing(24)
        layout.addLayout(info, 1)
        layout.addWidget(self.qr_box, 0, Qt.AlignmentFlag.AlignTop)

    def _jump(self, text: str, key: str, icon_name: str) -> QPushButton:
        button = QPushButton(text)
        button.setProperty("role", "primary")
        button.setIcon(icon(icon_name, current_palette().accent_text))
        button.setIconSize(QSize(28, 28))
        button.setMinimumHeight(64)
        button.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        button.clicked.connect(lambda: self.navigate.emit(key))
        return button

    # -- the client ------------------------------------------------------------------
    @property
    def client(self) -> Client | None:
        return self._client

    def show_client(self, client: Client) -> None:
        if self._client is None or self._client.id != client.id:
            self.clear_qr()
        self._client = client
        self.name.setText(self.tr("Client identified"))
        suspended = client.is_suspended
        self.badge.setVisible(suspended)
        self.suspended_note.setVisible(suspended)
        self.points_button.setEnabled(not suspended)
        self.rewards_button.setEnabled(not suspended)
        set_pixmap(
            self.check,
            pixmap("error" if suspended else "success", self._status_color(suspended), 36),
        )
        # The window's card shows name, points and level; here only what needs a word.
        no_level = client.level is None or not client.level.name
        self.level.setText(
            self.tr("No level yet: the service assigns it in a few seconds.") if no_level else ""
        )
        self.level.setVisible(no_level)
        self.registration.setVisible(needs_registration(client))
        self.qr_button.setVisible(needs_registration(client))
        if not needs_registration(client):
            self.clear_qr()
        if is_unverified(client):
            self._show_unverified()

    def _show_unverified(self) -> None:
        """Accepted offline: no balance, no level, no rewards until checked."""
        self.name.setText(self.tr("Client not verified (offline)"))
        set_pixmap(self.check, pixmap("offline", current_palette().warning, 36))
        self.level.setText(
            self.tr(
                "The service checks this client when the connection returns: the points of a "
                "sale are credited then. Rewards need the client identified online."
            )
        )
        self.level.show()
        self.rewards_button.setEnabled(False)

    @staticmethod
    def _status_color(suspended: bool) -> str:
        p = current_palette()
        return p.danger if suspended else p.success

    def clear(self) -> None:
        """Forget the client (and the QR)."""
        self.clear_qr()
        self._client = None
        self.name.setText("")
        self.level.setText("")
        self.badge.hide()
        self.registration.hide()
        self.suspended_note.hide()
        self.qr_button.hide()

    # -- the registration QR ---------------------------------------------------------
    @property
    def qr_shown(self) -> bool:
        return self.qr.has_code

    def toggle_qr(self) -> None:
        if self.qr.has_code:
            self.clear_qr()
        else:
            self.show_qr()

    def show_qr(self) -> None:
        link = registration_qr(self._client)  # https with a host only; logged by client id
        if link is None:
            return
        self.qr.set_data(link)
        self.qr_box.show()
        self.qr_button.setText(self.tr("Hide registration QR"))

    def clear_qr(self) -> None:
        self.qr.clear()
        self.qr_box.hide()
        self.qr_button.setText(self.tr("Show registration QR"))
