"""The operator forms: create (with or without a password) and edit (personal data
and branches; email, password and document read-only), and the operator's detail.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from kiosk.api.models.staff import Operator
from kiosk.core.admin.operators import (
    BRANCHES,
    DOCUMENT,
    EMAIL,
    FIRST_NAME,
    LAST_NAME,
    LIMITS,
    PASSWORD,
    PHONE,
    BranchChoice,
    OperatorForm,
    group_key,
)
from kiosk.ui.admin.chips import FlowLayout
from kiosk.ui.admin.form import TALL, FormPanel, line
from kiosk.ui.icons import icon
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.busy_button import BusyButton
from kiosk.ui.widgets.elided import ElidedLabel
from kiosk.ui.widgets.field_box import FieldBox
from kiosk.ui.widgets.layouts import text_scroll


class BranchRow(QWidget):
    """One branch: a toggle (assigned or not) and its permission group number."""

    def __init__(self, choice: BranchChoice, group_hint: str) -> None:
        super().__init__()
        self.choice = choice
        self.toggle = QPushButton(choice.branch_name or str(choice.branch_id))
        self.toggle.setCheckable(True)
        self.toggle.setProperty("role", "tile")
        self.toggle.setStyleSheet(
            "QPushButton { min-height: 28px; padding: 8px 16px; min-width: 240px;"
            " max-width: 240px; }"
        )
        self.toggle.setMinimumHeight(48)
        self.group = line(group_hint)
        editor = QWidget()
        row = QHBoxLayout(editor)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(16)
        row.addWidget(self.toggle)
        row.addWidget(self.group, 1)
        self.box = FieldBox("", editor, focus=self.group)
        self.box.label.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.box)
        self.toggle.toggled.connect(self.group.setEnabled)
        self.set_choice(choice)

    def set_choice(self, choice: BranchChoice) -> None:
        self.toggle.setChecked(choice.chosen)
        self.group.setText(choice.group)
        self.group.setEnabled(choice.chosen)

    def read(self) -> BranchChoice:
        return BranchChoice(
            self.choice.branch_id,
            self.choice.branch_name,
            self.toggle.isChecked(),
            self.group.text(),
        )


class OperatorFormPanel(FormPanel):
    def __init__(self, form: OperatorForm, *, creating: bool, heading: str) -> None:
        super().__init__(heading, save_text=self.tr("Save operator"))
        self.limits(LIMITS)
        self.creating = creating
        if creating:
            self.access_note = self.add_note(
                self.tr(
                    "Without a password the operator receives an email to set one. With a "
                    "password they can log in at once."
                ),
                warning=True,
            )
        else:
            self.access_note = self.add_note(
                self.tr(
                    "Email, password and document cannot be changed from the kiosk. "
                    "Branches, when changed, replace all the operator's assignments."
                ),
                warning=True,
            )
        self.first_name = line()
        self.last_name = line()
        self.email = line(self.tr("name@example.com"), read_only=not creating)
        self.password = line(self.tr("Leave empty to send an email"))
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.phone = line()
        self.document = line(read_only=not creating)
        self.add_field(FIRST_NAME, self.tr("First names"), self.first_name)
        self.add_field(LAST_NAME, self.tr("Last names"), self.last_name)
        self.add_field(EMAIL, self.tr("Email"), self.email)
        if creating:
            self.add_field(
                PASSWORD,
                self.tr("Password (optional)"),
                self.password,
                hint=self.tr("At least 8 characters."),
            )
        self.add_field(PHONE, self.tr("Phone (optional)"), self.phone)
        self.add_field(DOCUMENT, self.tr("Document (optional)"), self.document)
        self.add_heading(self.tr("Branches"))
        self.branches_hint = QLabel(
            self.tr(
                "Tap the branches where the operator works. Permission groups are numbered in "
                "the merchant panel; without one the operator can do nothing in that branch "
                "until a group is assigned there."
            )
        )
        self.branches_hint.setProperty("role", "hint")
        self.branches_hint.setWordWrap(True)
        self.add_widget(self.branches_hint)
        spacer = QWidget()
        spacer.setFixedHeight(0)
        self.branches_box = FieldBox("", spacer)  # problems of the branches as a whole
        self.branches_box.label.hide()
        self.boxes[BRANCHES] = self.branches_box
        self.rows: list[BranchRow] = []
        for choice in form.branches:
            row = BranchRow(choice, self.tr("Permission group number (optional)"))
            self.rows.append(row)
            self.boxes[group_key(choice.branch_id)] = row.box
            self.add_widget(row)
        self.add_widget(self.branches_box)
        self.fill(form)

    def fill(self, form: OperatorForm) -> None:
        self.clear_problems()
        self.first_name.setText(form.first_name)
        self.last_name.setText(form.last_name)
        self.email.setText(form.email)
        self.password.clear()
        self.phone.setText(form.phone)
        self.document.setText(form.document)
        for row, choice in zip(self.rows, form.branches, strict=True):
            row.set_choice(choice)
        self.rewind()

    def read(self) -> OperatorForm:
        return OperatorForm(
            first_name=self.first_name.text(),
            last_name=self.last_name.text(),
            email=self.email.text(),
            password=self.password.text() if self.creating else "",
            phone=self.phone.text(),
            document=self.document.text(),
            branches=tuple(row.read() for row in self.rows),
        )

    def row_for(self, branch_id: int) -> BranchRow:
        return next(r for r in self.rows if r.choice.branch_id == branch_id)


class OperatorDetail(QFrame):
    """One operator as read with ``get_operator``: data, branches and permission groups."""

    back = Signal()
    edit = Signal()
    delete = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.setProperty("role", "card")
        self.operator: Operator | None = None
        self.heading = ElidedLabel()  # a long name: cut with "…", whole in the tooltip
        self.heading.setProperty("role", "heading")
        self.summary = QLabel()
        self.summary.setProperty("role", "muted")
        self.summary.setWordWrap(True)
        self.facts = QGridLayout()
        self.facts.setHorizontalSpacing(24)
        self.facts.setVerticalSpacing(8)
        self.branches = QGridLayout()
        self.branches.setHorizontalSpacing(24)
        self.branches.setVerticalSpacing(8)
        branches_heading = QLabel(self.tr("Branches and permission groups"))
        branches_heading.setStyleSheet("QLabel { font-size: 20px; font-weight: 600; }")
        self.back_button = QPushButton(self.tr("Back"))
        self.edit_button = BusyButton(self.tr("Edit operator"), primary=True)
        self.delete_button = BusyButton(self.tr("Delete operator"))
        self.delete_button.setProperty("role", "danger")
        self.delete_button.setIcon(icon("trash", "#ffffff"))
        for button in (self.back_button, self.delete_button):
            button.setStyleSheet(TALL)
        for button in (self.back_button, self.edit_button, self.delete_button):
            button.setMinimumHeight(64)
        self.back_button.clicked.connect(self.back.emit)
        self.edit_button.clicked.connect(self.edit.emit)
        self.delete_button.clicked.connect(self.delete.emit)
        footer = FlowLayout(spacing=12)  # wraps rather than cut a word (Spanish, 1024 px)
        footer.addWidget(self.back_button)
        footer.addWidget(self.delete_button)
        footer.addWidget(self.edit_button)
        # The facts scroll; the heading and the buttons stay in place.
        content = QWidget()
        inner = QVBoxLayout(content)
        inner.setContentsMargins(0, 0, 12, 0)
        inner.setSpacing(12)
        inner.addWidget(self.summary)
        inner.addLayout(self.facts)
        inner.addWidget(branches_heading)
        inner.addLayout(self.branches)
        inner.addStretch(1)
        scroller = text_scroll(content, "detailContent")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 16, 24, 16)
        layout.setSpacing(12)
        layout.addWidget(self.heading)
        layout.addWidget(scroller, 1)
        layout.addLayout(footer)

    def _clear(self, grid: QGridLayout) -> None:
        while grid.count():
            item = grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()

    def _pair(self, grid: QGridLayout, row: int, name: str, value: str) -> None:
        label = QLabel(name)
        label.setProperty("role", "muted")
        text = QLabel(value)
        text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        text.setWordWrap(True)  # a long email or branch name wraps instead of widening
        grid.addWidget(label, row, 0)
        grid.addWidget(text, row, 1)
        label.show()  # at once, not at the next turn (the page may already be shown)
        text.show()

    def show_operator(
        self, operator: Operator, role_text: str, facts: list[tuple[str, str]]
    ) -> None:
        self.operator = operator
        self.heading.setText(operator.full_name or f"{operator.first_name} {operator.last_name}")
        self.summary.setText(role_text)
        self._clear(self.facts)
        for row, (name, value) in enumerate(facts):
            self._pair(self.facts, row, name, value)
        self.facts.setColumnStretch(1, 1)
        self._clear(self.branches)
        if not operator.branches:
            none = QLabel(self.tr("No branch assigned."))
            none.setProperty("role", "muted")
            self.branches.addWidget(none, 0, 0)
        muted = current_palette().muted
        for row, branch in enumerate(operator.branches):
            group = branch.permission_group_name or (
                self.tr("Group %1").replace("%1", str(branch.permission_group_id))
                if branch.permission_group_id is not None
                else self.tr("No permission group: can do nothing here yet")
            )
            self._pair(self.branches, row, branch.branch_name or str(branch.branch_id), group)
            if branch.permission_group_id is None:
                slot = self.branches.itemAtPosition(row, 1)
                widget = slot.widget() if slot is not None else None
                if widget is not None:
                    widget.setStyleSheet(f"QLabel {{ color: {muted}; }}")
        self.branches.setColumnStretch(1, 1)

    def clear(self) -> None:
        self.operator = None
        self.heading.setText("")
        self.summary.clear()
        self._clear(self.facts)
        self._clear(self.branches)
