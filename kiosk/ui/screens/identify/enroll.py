"""The enrollment form, shown inside the identify screen when nothing matches.

Prefilled from what was typed or scanned; each field has its own error line for
the form's checks and for the API's per-field validation errors. A 409 (already
registered) shows a note with a jump to that client. The screen owns the
requests: this panel only emits ``submitted``, ``cancelled`` and ``open_existing``.

"Enroll client" is a ``CommitButton``: armed once the form is on screen (``arm()``),
one tap (or Enter in a field) enrolls once, a second tap or Enter while the request
runs is ignored.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QSize, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from kiosk.api.models.clients import Gender
from kiosk.core.counter.enroll import EnrollForm, FieldProblem, FormField
from kiosk.core.counter.scan import DocumentType
from kiosk.ui.icons import icon
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.busy_button import BusyButton
from kiosk.ui.widgets.commit_button import CommitButton
from kiosk.ui.widgets.field_box import FieldBox

CONTEXT = "EnrollPanel"

PROBLEM_TEXT = {
    FieldProblem.EMAIL_OR_DOCUMENT: QT_TRANSLATE_NOOP(
        "EnrollPanel", "Type an email or a document number."
    ),
    FieldProblem.EMAIL_FORMAT: QT_TRANSLATE_NOOP(
        "EnrollPanel", "Not a valid email (like name@example.com)."
    ),
    FieldProblem.EMAIL_TOO_LONG: QT_TRANSLATE_NOOP(
        "EnrollPanel",
        "This email is too long: at most 64 characters before the @ and 254 in all.",
    ),
    FieldProblem.DNI_DIGITS: QT_TRANSLATE_NOOP(
        "EnrollPanel", "A DNI has 7 or 8 digits, without dots."
    ),
    FieldProblem.PASSPORT_FORMAT: QT_TRANSLATE_NOOP(
        "EnrollPanel", "A passport has 6 to 9 letters and digits."
    ),
    FieldProblem.DOCUMENT_FORMAT: QT_TRANSLATE_NOOP(
        "EnrollPanel", "The service does not accept this document. Check it and its type."
    ),
    FieldProblem.BIRTHDAY_FORMAT: QT_TRANSLATE_NOOP("EnrollPanel", "Not a date. Type it like %1."),
    FieldProblem.BIRTHDAY_FUTURE: QT_TRANSLATE_NOOP(
        "EnrollPanel", "The birthday cannot be in the future."
    ),
    FieldProblem.BIRTHDAY_MIN_AGE: QT_TRANSLATE_NOOP(
        "EnrollPanel", "The client is younger than the program's minimum age."
    ),
    FieldProblem.PHONE_FORMAT: QT_TRANSLATE_NOOP(
        "EnrollPanel", "A phone number has 6 to 15 digits."
    ),
    FieldProblem.TOO_LONG: QT_TRANSLATE_NOOP("EnrollPanel", "Too long. Shorten it."),
    FieldProblem.REQUIRED: QT_TRANSLATE_NOOP("EnrollPanel", "This field is needed."),
    FieldProblem.TAKEN: QT_TRANSLATE_NOOP("EnrollPanel", "Already registered to a client."),
    FieldProblem.INVALID: QT_TRANSLATE_NOOP(
        "EnrollPanel", "The service did not accept this. Check it."
    ),
}

GENDERS = (
    (Gender.MALE, QT_TRANSLATE_NOOP("EnrollPanel", "Male")),
    (Gender.FEMALE, QT_TRANSLATE_NOOP("EnrollPanel", "Female")),
    (Gender.OTHER, QT_TRANSLATE_NOOP("EnrollPanel", "Other")),
    (Gender.NO_DATA, QT_TRANSLATE_NOOP("EnrollPanel", "Prefer not to say")),
)


def _t(text: object) -> str:
    # QT_TRANSLATE_NOOP is typed as returning ``object``; it returns the text.
    return QCoreApplication.translate(CONTEXT, str(text))


class GenderChoice(QWidget):
    """Four touch buttons; tapping the chosen one again clears it (not given)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.buttons: dict[Gender, QPushButton] = {}
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(8)
        for value, text in GENDERS:
            button = QPushButton(_t(text))
            button.setProperty("role", "tile")
            button.setCheckable(True)
            button.setStyleSheet("QPushButton { min-height: 36px; padding: 8px 14px; }")
            button.clicked.connect(lambda checked, v=value: self._clicked(v, checked))
            layout.addWidget(button)
            self.buttons[value] = button
        layout.addStretch(1)

    def _clicked(self, value: Gender, checked: bool) -> None:
        self.set_value(value if checked else None)

    def value(self) -> Gender | None:
        return next((v for v, b in self.buttons.items() if b.isChecked()), None)

    def set_value(self, value: Gender | None) -> None:
        for v, button in self.buttons.items():
            button.setChecked(v is value)


def _line(placeholder: str = "") -> QLineEdit:
    edit = QLineEdit()
    edit.setPlaceholderText(placeholder)
    edit.setMinimumHeight(52)
    return edit


class EnrollPanel(QFrame):
    submitted = Signal()
    cancelled = Signal()
    open_existing = Signal()

    def __init__(self, *, day_first: bool = True, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "card")
        self.day_first = day_first
        self.date_hint = self.tr("DD/MM/YYYY") if day_first else self.tr("MM/DD/YYYY")
        p = current_palette()
        self.heading = QLabel(self.tr("Enroll new client"))
        self.heading.setProperty("role", "heading")
        self.hint = QLabel(
            self.tr("An email or a document is needed; everything else is optional.")
        )
        self.hint.setProperty("role", "muted")
        self.email = _line(self.tr("name@example.com"))
        self.document = _line()
        self.dni_button = self._toggle(self.tr("DNI"))
        self.passport_button = self._toggle(self.tr("Passport"))
        self.dni_button.setChecked(True)
        self.document_group = QButtonGroup(self)
        self.document_group.addButton(self.dni_button)
        self.document_group.addButton(self.passport_button)
        self.first_name = _line()
        self.last_name = _line()
        self.phone = _line(self.tr("11 4321 5678"))
        self.birthday = _line(self.date_hint)
        self.gender = GenderChoice()
        document_row = QWidget()
        row = QHBoxLayout(document_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(8)
        row.addWidget(self.dni_button)
        row.addWidget(self.passport_button)
        row.addWidget(self.document, 1)
        self.boxes: dict[FormField, FieldBox] = {
            FormField.EMAIL: FieldBox(self.tr("Email"), self.email),
            FormField.DOCUMENT_NUMBER: FieldBox(self.tr("Document"), document_row, self.document),
            FormField.FIRST_NAME: FieldBox(self.tr("First names"), self.first_name),
            FormField.LAST_NAME: FieldBox(self.tr("Last names"), self.last_name),
            FormField.PHONE: FieldBox(self.tr("Phone"), self.phone),
            FormField.BIRTHDAY: FieldBox(self.tr("Birthday"), self.birthday),
            FormField.GENDER: FieldBox(self.tr("Gender"), self.gender),
        }
        # The document type has no box of its own: its errors show under the document.
        self.boxes[FormField.DOCUMENT_TYPE] = self.boxes[FormField.DOCUMENT_NUMBER]
        grid = QGridLayout()
        grid.setHorizontalSpacing(24)
        grid.setVerticalSpacing(4)
        order = (
            (FormField.EMAIL, FormField.DOCUMENT_NUMBER),
            (FormField.FIRST_NAME, FormField.LAST_NAME),
            (FormField.PHONE, FormField.BIRTHDAY),
        )
        for r, pair in enumerate(order):
            for c, name in enumerate(pair):
                grid.addWidget(self.boxes[name], r, c)
        grid.addWidget(self.boxes[FormField.GENDER], len(order), 0, 1, 2)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)

        # Shown after a 409: the banner says why; this jumps to the client who holds it.
        self.existing_button = BusyButton(self.tr("Go to the registered client"))
        self.existing_button.setIcon(icon("identify", p.accent))
        self.existing_button.setIconSize(QSize(28, 28))
        self.existing_button.setStyleSheet("QPushButton { min-height: 44px; }")
        self.existing_button.clicked.connect(self.open_existing.emit)
        self.existing_button.hide()

        self.back_button = QPushButton(self.tr("Back"))
        self.back_button.setStyleSheet("QPushButton { min-height: 44px; min-width: 120px; }")
        self.back_button.clicked.connect(self.cancelled.emit)
        self.enroll_button = CommitButton(self.tr("Enroll client"), primary=True)
        self.enroll_button.setIcon(icon("enroll", p.accent_text))
        self.enroll_button.setIconSize(QSize(28, 28))
        self.enroll_button.setMinimumHeight(64)
        self.enroll_button.committed.connect(self.submitted.emit)
        buttons = QHBoxLayout()
        buttons.addWidget(self.back_button)
        buttons.addStretch(1)
        buttons.addWidget(self.existing_button)
        buttons.addSpacing(12)
        buttons.addWidget(self.enroll_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 16, 24, 16)
        layout.setSpacing(8)
        layout.addWidget(self.heading)
        layout.addWidget(self.hint)
        layout.addLayout(grid)
        layout.addLayout(buttons)
        for edit in (
            self.email,
            self.document,
            self.first_name,
            self.last_name,
            self.phone,
            self.birthday,
        ):
            # Enter is a tap on the button: the same guard, the same single request.
            edit.returnPressed.connect(self.enroll_button.click)

    def _toggle(self, text: str) -> QPushButton:
        button = QPushButton(text)
        button.setProperty("role", "tile")
        button.setCheckable(True)
        button.setMinimumHeight(52)
        button.setStyleSheet("QPushButton { min-height: 36px; padding: 8px 14px; }")
        return button

    # -- the form ----------------------------------------------------------------------
    def form(self) -> EnrollForm:
        return EnrollForm(
            email=self.email.text(),
            document_type=DocumentType.PASSPORT
            if self.passport_button.isChecked()
            else DocumentType.DNI,
            document_number=self.document.text(),
            first_name=self.first_name.text(),
            last_name=self.last_name.text(),
            phone=self.phone.text(),
            birthday=self.birthday.text(),
            gender=self.gender.value(),
            day_first=self.day_first,
        )

    def set_form(self, form: EnrollForm) -> None:
        self.clear_problems()
        self.existing_button.hide()
        self.email.setText(form.email)
        self.document.setText(form.document_number)
        (
            self.passport_button if form.document_type is DocumentType.PASSPORT else self.dni_button
        ).setChecked(True)
        self.first_name.setText(form.first_name)
        self.last_name.setText(form.last_name)
        self.phone.setText(form.phone)
        self.birthday.setText(form.birthday)
        self.gender.set_value(form.gender)

    def first_empty_field(self) -> QWidget:
        """Where the cashier types next: the first key field left empty."""
        for edit in (self.email, self.document, self.first_name, self.last_name):
            if not edit.text():
                return edit
        return self.phone

    # -- problems ----------------------------------------------------------------------
    def problem_text(self, problem: FieldProblem) -> str:
        return _t(PROBLEM_TEXT[problem]).replace("%1", self.date_hint)

    def show_problems(self, problems: dict[FormField, FieldProblem]) -> None:
        self.clear_problems()
        for name, problem in problems.items():
            box = self.boxes.get(name)
            if box is not None and not box.error.text():
                box.set_error(self.problem_text(problem))
        first = next((self.boxes[n] for n in FormField if n in problems and n in self.boxes), None)
        if first is not None:
            first.focus_target.setFocus()

    def error_of(self, name: FormField) -> str:
        return self.boxes[name].error.text()

    def clear_problems(self) -> None:
        for box in set(self.boxes.values()):
            box.set_error("")

    def show_already_registered(self, shown: bool) -> None:
        self.existing_button.setVisible(shown)

    def arm(self) -> None:
        """The form is on screen: "Enroll client" takes a tap once it is painted."""
        self.enroll_button.arm()

    def set_busy(self, busy: bool) -> None:
        """Busy while the request runs; not busy: the same form may be sent again."""
        if busy:
            self.enroll_button.set_busy(True)
        else:
            self.enroll_button.finish(rearm=True)
        self.back_button.setEnabled(not busy)

    def done(self) -> None:
        """The client was enrolled: this form commits nothing any more."""
        self.enroll_button.finish(rearm=False)
        self.back_button.setEnabled(True)

    def reset(self) -> None:
        self.set_form(EnrollForm(day_first=self.day_first))
