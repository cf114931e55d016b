"""Identify offline: the client cannot be checked, continue without checking.

``OfflinePanel`` has two faces:

- the offer (after a search that could not reach the service): what happened, what
  "Continue without checking" means, and "Try again";
- the form: the client's email or document typed twice (the two entries must say
  the same), or their DNI barcode scanned once into either field.

``accepted(client)`` carries the unverified client (``kiosk.core.counter.offline_client``);
the screen makes it the session's client. ``OfflineStrip`` is the line shown above
the empty page while the counter is offline, with the same way in.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QSize, Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from kiosk.api.models.clients import Client
from kiosk.core.counter.offline_client import (
    EntryProblem,
    OfflineEntry,
    confirm_typed,
    from_scan,
    unverified_client,
)
from kiosk.core.counter.scan import Identity, IdentityKind
from kiosk.ui.icons import icon, pixmap
from kiosk.ui.screens.identify.parts import PROBLEM_HINTS
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.scan_field import ScanField

ENTRY_TEXT = {
    EntryProblem.EMPTY: QT_TRANSLATE_NOOP(
        "OfflinePanel", "Type the client's email or document, or scan their DNI."
    ),
    EntryProblem.CONFIRM_EMPTY: QT_TRANSLATE_NOOP(
        "OfflinePanel", "Type it again in the second field to confirm it."
    ),
    EntryProblem.MISMATCH: QT_TRANSLATE_NOOP(
        "OfflinePanel", "The two entries are not the same. Check both with the client."
    ),
}


def _label(role: str, text: str = "") -> QLabel:
    label = QLabel(text)
    label.setProperty("role", role)
    label.setWordWrap(True)
    return label


class OfflinePanel(QFrame):
    """``accepted(client)``: an unverified client; ``retry_requested``: search again."""

    accepted = Signal(object)
    retry_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "card")
        self._identity: Identity | None = None
        p = current_palette()
        self.icon = QLabel()
        self.icon.setPixmap(pixmap("offline", p.warning, 36))
        self.heading = _label("heading", self.tr("The client cannot be checked: no connection"))
        self.explain = _label(
            "muted",
            self.tr(
                "You can continue without checking: the points of the sale are credited "
                "when the connection returns. Rewards need the connection."
            ),
        )
        # The offer.
        self.continue_button = self._button(self.tr("Continue without checking"), primary=True)
        self.continue_button.clicked.connect(self.continue_without_checking)
        self.retry_button = self._button(self.tr("Try again"), icon_name="refresh")
        self.retry_button.clicked.connect(self.retry_requested.emit)
        self.offer = QWidget()
        offer_row = QHBoxLayout(self.offer)
        offer_row.setContentsMargins(0, 8, 0, 0)
        offer_row.setSpacing(12)
        offer_row.addWidget(self.continue_button)
        offer_row.addWidget(self.retry_button)
        offer_row.addStretch(1)
        # The form.
        self.first = ScanField()
        self.first.setPlaceholderText(self.tr("Client's email or document"))
        self.first.setAccessibleName(self.tr("Client's email or document"))
        self.second = ScanField()
        self.second.setPlaceholderText(self.tr("Type it again to confirm"))
        self.second.setAccessibleName(self.tr("Client's email or document, again"))
        for field in (self.first, self.second):
            field.setMinimumHeight(64)
            field.scan_icon.hide()
            field.setTextMargins(8, 0, 0, 0)
            field.textEdited.connect(lambda _text: self.show_problem(None))
        self.first.submitted.connect(lambda text, scanned: self._entered(text, scanned, True))
        self.second.submitted.connect(lambda text, scanned: self._entered(text, scanned, False))
        self.problem = _label("field-error")
        self.problem.hide()
        self.use_button = self._button(self.tr("Use this client"), primary=True)
        self.use_button.clicked.connect(self.submit)
        self.cancel_button = self._button(self.tr("Back"))
        self.cancel_button.clicked.connect(lambda: self.show_offer())
        scan_hint = _label("hint", self.tr("A scanned DNI is enough: scan it into either field."))
        self.form = QWidget()
        form = QVBoxLayout(self.form)
        form.setContentsMargins(0, 8, 0, 0)
        form.setSpacing(8)
        form.addWidget(self.first)
        form.addWidget(self.second)
        form.addWidget(self.problem)
        form.addWidget(scan_hint)
        actions = QHBoxLayout()
        actions.setSpacing(12)
        actions.addWidget(self.use_button)
        actions.addWidget(self.cancel_button)
        actions.addStretch(1)
        form.addLayout(actions)
        self.form.hide()

        title = QHBoxLayout()
        title.setSpacing(12)
        title.addWidget(self.icon, 0, Qt.AlignmentFlag.AlignTop)
        title.addWidget(self.heading, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 20, 24, 20)
        layout.setSpacing(8)
        layout.addLayout(title)
        layout.addWidget(self.explain)
        layout.addWidget(self.offer)
        layout.addWidget(self.form)

    @staticmethod
    def _button(text: str, *, primary: bool = False, icon_name: str | None = None) -> QPushButton:
        button = QPushButton(text)
        button.setMinimumHeight(64)
        if primary:
            button.setProperty("role", "primary")
        if icon_name:
            button.setIcon(icon(icon_name, current_palette().text))
            button.setIconSize(QSize(24, 24))
        return button

    # -- the two faces -------------------------------------------------------------
    def show_offer(self, identity: Identity | None = None) -> None:
        """After a failed search (``identity``: what was searched), or Back from the form."""
        if identity is not None:
            self._identity = identity
        self.heading.setText(self.tr("The client cannot be checked: no connection"))
        self.show_problem(None)
        self.form.hide()
        self.offer.show()
        self.continue_button.setFocus()

    def continue_without_checking(self) -> None:
        identity = self._identity
        if identity is not None and identity.kind is IdentityKind.DNI_BARCODE:
            # The DNI was scanned into the search field: one scan suffices.
            self.accepted.emit(self._client_of(from_scan_identity(identity)))
            return
        self.show_form(identity.query if identity is not None else "")

    def show_form(self, typed: str = "") -> None:
        """The typed-twice form; ``typed``: what the search field held (the first entry)."""
        self.heading.setText(self.tr("Continue without checking"))
        self.offer.hide()
        self.form.show()
        self.show_problem(None)
        self.first.setText(typed)
        self.second.clear_input()
        (self.second if typed else self.first).setFocus()

    def clear(self) -> None:
        """Forget what was typed (idle, a new client)."""
        self._identity = None
        self.first.clear_input()
        self.second.clear_input()
        self.show_problem(None)
        self.form.hide()
        self.offer.show()

    # -- the entry -----------------------------------------------------------------
    def _entered(self, text: str, scanned: bool, first: bool) -> None:
        if scanned:
            entry = from_scan(text)
            if entry.ok:
                self.accepted.emit(self._client_of(entry))
                return
            # A scan of something else: it must be typed twice like any entry.
        if first and not self.second.text().strip():
            self.second.setFocus()
            return
        self.submit()

    def submit(self) -> None:
        entry = confirm_typed(self.first.text(), self.second.text())
        if not entry.ok:
            self._refuse(entry)
            return
        self.accepted.emit(self._client_of(entry))

    @staticmethod
    def _client_of(entry: OfflineEntry) -> Client:
        assert entry.client is not None
        return entry.client

    def _refuse(self, entry: OfflineEntry) -> None:
        if entry.problem is EntryProblem.NOT_VALID and entry.scan_problem is not None:
            text = QCoreApplication.translate(
                "IdentifyScreen", str(PROBLEM_HINTS[entry.scan_problem])
            )
        else:
            problem = entry.problem or EntryProblem.EMPTY
            text = QCoreApplication.translate("OfflinePanel", str(ENTRY_TEXT[problem]))
        self.show_problem(text)
        if entry.problem in (EntryProblem.CONFIRM_EMPTY, EntryProblem.MISMATCH):
            self.second.setFocus()
            self.second.selectAll()
        else:
            self.first.setFocus()

    def show_problem(self, text: str | None) -> None:
        self.problem.setText(text or "")
        self.problem.setVisible(bool(text))


def from_scan_identity(identity: Identity) -> OfflineEntry:
    """The entry of a DNI barcode already read by the search field."""
    return OfflineEntry(unverified_client(identity), scanned=True)


class OfflineStrip(QFrame):
    """While offline, above the empty page: clients cannot be checked; the way in."""

    continue_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        p = current_palette()
        self.setStyleSheet(
            f"OfflineStrip {{ border: 2px solid {p.warning}; border-radius: 12px; }}"
        )
        art = QLabel()
        art.setPixmap(pixmap("offline", p.warning, 28))
        self.text = _label(
            "", self.tr("No connection: clients cannot be checked until it returns.")
        )
        self.text.setStyleSheet("font-weight: 600;")
        self.button = QPushButton(self.tr("Continue without checking"))
        self.button.setMinimumHeight(56)
        self.button.clicked.connect(self.continue_requested.emit)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(16, 8, 8, 8)
        layout.setSpacing(12)
        layout.addWidget(art)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.button)
        self.hide()
