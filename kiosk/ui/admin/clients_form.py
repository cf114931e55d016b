"""The client panel of manager mode: the edit form (only changed fields are sent),
with Suspend and Schedule removal, and the removal reasons for the confirmation.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtWidgets import QPushButton, QWidget

from kiosk.api.models.clients import Client, RemovalReason
from kiosk.core.admin.clients import (
    CARD,
    DESCRIPTION,
    DOCUMENT,
    EMAIL,
    FIRST_NAME,
    LAST_NAME,
    LIMITS,
    PHONE,
    REMOVAL_REASONS,
    ClientForm,
)
from kiosk.ui.admin.chips import FlowLayout
from kiosk.ui.admin.form import FormPanel, line, set_read_only
from kiosk.ui.icons import icon
from kiosk.ui.theme import current_palette

REASON_TEXT = {
    RemovalReason.REQUESTED_BY_CLIENT: QT_TRANSLATE_NOOP("ClientPanel", "The client asked for it"),
    RemovalReason.DUPLICATE_CLIENT: QT_TRANSLATE_NOOP("ClientPanel", "Duplicate client"),
    RemovalReason.INCORRECT_EMAIL: QT_TRANSLATE_NOOP("ClientPanel", "Wrong email"),
    RemovalReason.OTHER: QT_TRANSLATE_NOOP("ClientPanel", "Another reason"),
}


def reason_text(reason: RemovalReason) -> str:
    return QCoreApplication.translate("ClientPanel", str(REASON_TEXT[reason]))


class RemovalReasons(QWidget):
    """The reasons of a removal, as touch toggles (at least one is needed)."""

    def __init__(self) -> None:
        super().__init__()
        self.buttons: dict[RemovalReason, QPushButton] = {}
        # They wrap onto more lines rather than overlap (Spanish, 1024 px).
        flow = FlowLayout(self, spacing=8)
        for reason in REMOVAL_REASONS:
            button = QPushButton(reason_text(reason))
            button.setCheckable(True)
            button.setProperty("role", "tile")
            button.setStyleSheet("QPushButton { min-height: 28px; padding: 8px 16px; }")
            button.setMinimumHeight(48)
            flow.addWidget(button)
            self.buttons[reason] = button

    def chosen(self) -> tuple[RemovalReason, ...]:
        return tuple(r for r, b in self.buttons.items() if b.isChecked())

    def clear(self) -> None:
        for button in self.buttons.values():
            button.setChecked(False)


class ClientPanel(FormPanel):
    def __init__(self) -> None:
        super().__init__(save_text=self.tr("Save changes"), danger_text=self.tr("Schedule removal"))
        self.limits(LIMITS)
        p = current_palette()
        self.client: Client | None = None
        self.original = ClientForm()
        self.email_locked = False
        # Two one-line notes above the fields rather than a boxed note and a three-line
        # hint under the email: the form keeps its rows at 1024x768 (issue #21, item 9).
        self.add_note(self.tr("Only the fields you change are sent."))
        self.lock_note = self.add_note(
            self.tr("Email locked: the client already entered the platform.")
        )
        self.lock_note.hide()
        self.first_name = line()
        self.last_name = line()
        self.email = line(self.tr("name@example.com"))
        self.document = line()
        self.phone = line()
        self.card = line()
        self.description = line(self.tr("Internal notes, never shown to the client"))
        self.add_field(FIRST_NAME, self.tr("First names"), self.first_name)
        self.add_field(LAST_NAME, self.tr("Last names"), self.last_name)
        self.add_field(EMAIL, self.tr("Email"), self.email)
        self.add_field(DOCUMENT, self.tr("Document"), self.document)
        self.add_field(PHONE, self.tr("Phone"), self.phone)
        self.add_field(CARD, self.tr("Affiliate card"), self.card)
        self.add_field(DESCRIPTION, self.tr("Notes"), self.description, wide=True)
        self.suspend_button = QPushButton(self.tr("Suspend"))
        self.suspend_button.setIcon(icon("error", p.danger))
        # What is done to the client stands beside their name; the footer keeps Back and
        # Save on one row, and the form its rows, at 1024x768 (issue #21, item 9).
        self.add_heading_button(self.suspend_button)
        self.danger_beside_heading()

    def set_busy(self, busy: bool) -> None:
        super().set_busy(busy)
        if self.client is not None and not self.client.is_suspended:
            self.suspend_button.setEnabled(not busy)

    def show_client(self, client: Client, form: ClientForm) -> None:
        self.client = client
        self.original = form
        self.heading.setText(client.name or self.tr("Client #%1").replace("%1", str(client.id)))
        self.set_email_locked(False)
        self.fill(form)
        suspended = client.is_suspended
        self.suspend_button.setEnabled(not suspended)
        self.suspend_button.setText(self.tr("Suspended") if suspended else self.tr("Suspend"))
        self.suspend_button.setMinimumWidth(0)  # never squeezed below its text
        self.suspend_button.setMinimumWidth(self.suspend_button.sizeHint().width())

    def set_email_locked(self, locked: bool) -> None:
        self.email_locked = locked
        set_read_only(self.email, locked)
        self.lock_note.setVisible(locked)

    def fill(self, form: ClientForm) -> None:
        self.clear_problems()
        self.first_name.setText(form.first_name)
        self.last_name.setText(form.last_name)
        self.email.setText(form.email)
        self.document.setText(form.document)
        self.phone.setText(form.phone)
        self.card.setText(form.affiliate_card)
        self.description.setText(form.description)
        self.rewind()

    def read(self) -> ClientForm:
        return ClientForm(
            first_name=self.first_name.text(),
            last_name=self.last_name.text(),
            email=self.email.text(),
            document=self.document.text(),
            phone=self.phone.text(),
            affiliate_card=self.card.text(),
            description=self.description.text(),
        )

    def forget(self) -> None:
        """Empty the panel (personal data) after an idle reset or a removal."""
        self.client = None
        self.original = ClientForm()
        self.heading.setText("")
        self.set_email_locked(False)
        self.fill(ClientForm())
