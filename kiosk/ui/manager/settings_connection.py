"""Connection: the environment with its base URLs, and the API key.

The environment and the addresses are IT's (machine-wide file): shown read-only,
"Set by IT". Before a key is typed, the entry says the address it will be checked
at. The key is typed into a masked field, checked and stored by the screen, and the
field is emptied at once: after that the screen only says that a key is stored
and offers "Replace key". The key never reaches a label, a tooltip or the log.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from kiosk.core.admin.manager_settings import Draft, Field, KeyState, Problem
from kiosk.core.settings.layers import Environment
from kiosk.ui.manager.settings_fields import TOUCH, FieldRow, SectionCard
from kiosk.ui.manager.settings_text import ENVIRONMENT_NOTES, ENVIRONMENTS, PROBLEMS, text
from kiosk.ui.widgets.busy_button import BusyButton


class ConnectionSection(SectionCard):
    """``changed`` when the environment or an address changes; ``key_entered`` when the
    manager asks to check the typed key (the screen then calls ``take_key``)."""

    changed = Signal()
    key_entered = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            self.tr("Connection"),
            self.tr("Where this kiosk sends credits, and the key that opens the program."),
            parent,
        )
        self.environment_buttons: dict[Environment, QPushButton] = {}
        group = QButtonGroup(self)
        group.setExclusive(True)
        choices = QWidget()
        row = QHBoxLayout(choices)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(8)
        for environment in (Environment.PRODUCTION, Environment.QA, Environment.TRAINING):
            button = QPushButton(text(ENVIRONMENTS[environment]))
            button.setCheckable(True)
            button.setProperty("role", "tile")
            button.setMinimumHeight(TOUCH + 8)
            button.setStyleSheet("text-align: center; min-height: 40px;")
            button.clicked.connect(self.changed.emit)
            group.addButton(button)
            row.addWidget(button, 1)
            self.environment_buttons[environment] = button
        self.environment_note = QLabel()
        self.environment_note.setProperty("role", "muted")
        self.environment_note.setWordWrap(True)
        env_box = QWidget()
        env_layout = QVBoxLayout(env_box)
        env_layout.setContentsMargins(0, 0, 0, 0)
        env_layout.setSpacing(6)
        env_layout.addWidget(choices)
        env_layout.addWidget(self.environment_note)
        self.production_url = QLineEdit()
        self.production_url.setPlaceholderText("https://api.example.com")
        self.qa_url = QLineEdit()
        self.qa_url.setPlaceholderText("https://qa.example.com")
        for edit in (self.production_url, self.qa_url):
            edit.textEdited.connect(lambda _: self.changed.emit())
        self.rows_by_field = {
            Field.ENVIRONMENT: FieldRow(self.tr("Environment"), env_box),
            Field.PRODUCTION_URL: FieldRow(self.tr("Production address"), self.production_url),
            Field.QA_URL: FieldRow(self.tr("QA address"), self.qa_url),
            Field.API_KEY: FieldRow(self.tr("API key"), self._key_box()),
        }
        for field_row in self.rows_by_field.values():
            self.rows.addWidget(field_row)

    def _key_box(self) -> QWidget:
        self.key_status = QLabel()
        self.key_status.setWordWrap(True)
        self.replace_button = QPushButton()
        self.replace_button.setMinimumHeight(TOUCH)
        self.replace_button.clicked.connect(self.open_key_entry)
        status_row = QHBoxLayout()
        status_row.setSpacing(12)
        status_row.addWidget(self.key_status, 1)
        status_row.addWidget(self.replace_button, 0, Qt.AlignmentFlag.AlignTop)
        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_edit.setPlaceholderText(self.tr("Paste or type the API key"))
        self.key_edit.setContextMenuPolicy(Qt.ContextMenuPolicy.NoContextMenu)
        self.key_edit.setMinimumHeight(TOUCH)
        self.key_edit.returnPressed.connect(self._check)
        self.check_button = BusyButton(self.tr("Check and save key"), primary=True)
        self.check_button.setMinimumHeight(TOUCH + 8)
        self.check_button.clicked.connect(self._check)
        self.cancel_key = QPushButton(self.tr("Cancel"))
        self.cancel_key.setMinimumHeight(TOUCH)
        self.cancel_key.clicked.connect(self.close_key_entry)
        self.key_entry = QWidget()
        entry = QVBoxLayout(self.key_entry)
        entry.setContentsMargins(0, 0, 0, 0)
        entry.setSpacing(8)
        entry.addWidget(self._key_target_label())
        entry.addWidget(self.key_edit)
        buttons = QHBoxLayout()
        buttons.setSpacing(8)
        buttons.addWidget(self.check_button, 1)
        buttons.addWidget(self.cancel_key)
        entry.addLayout(buttons)
        self.key_entry.hide()
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(8)
        layout.addLayout(status_row)
        layout.addWidget(self.key_entry)
        return box

    # -- the draft ---------------------------------------------------------------
    def fill(self, draft: Draft, locked: set[Field]) -> None:
        self.environment_buttons[draft.environment].setChecked(True)
        self.production_url.setText(draft.production_url or "")
        self.qa_url.setText(draft.qa_url or "")
        for which, field_row in self.rows_by_field.items():
            field_row.set_locked(which in locked)
        self._note()

    def environment(self) -> Environment:
        for environment, button in self.environment_buttons.items():
            if button.isChecked():
                return environment
        return Environment.TRAINING

    def urls(self) -> tuple[str | None, str | None]:
        production = self.production_url.text().strip() or None
        qa = self.qa_url.text().strip() or None
        return production, qa

    def _note(self) -> None:
        self.environment_note.setText(text(ENVIRONMENT_NOTES[self.environment()]))

    # -- the key -----------------------------------------------------------------
    def set_key_state(self, state: KeyState) -> None:
        self._note()
        name = text(ENVIRONMENTS[self.environment()])
        self.replace_button.setVisible(state in (KeyState.STORED, KeyState.MISSING))
        self.replace_button.setText(
            self.tr("Replace key") if state is KeyState.STORED else self.tr("Enter key")
        )
        if state is KeyState.STORED:
            words = self.tr("A key is stored for %1 in this computer's keyring. It is never shown.")
        elif state is KeyState.MISSING:
            words = self.tr("No key is stored for %1 yet.")
        elif state is KeyState.NO_URL:
            words = self.tr("Enter the %1 address first.")
        elif state is KeyState.NO_KEYRING:
            words = text(PROBLEMS[Problem.NO_KEYRING])
        else:
            words = self.tr("Training needs no key.")
        self.key_status.setText(words.replace("%1", name))
        if state not in (KeyState.STORED, KeyState.MISSING):
            self.close_key_entry()

    def _key_target_label(self) -> QLabel:
        self.key_target = QLabel()
        self.key_target.setTextFormat(Qt.TextFormat.PlainText)
        self.key_target.setWordWrap(True)
        self.key_target.setProperty("role", "muted")
        return self.key_target

    def _show_key_target(self) -> None:
        """Where the key will be sent, before it is typed: IT's address for IT's
        environment (the fields above are read-only), never one the manager chose."""
        environment = self.environment()
        production, qa = self.urls()
        url = production if environment is Environment.PRODUCTION else qa
        words = self.tr("The key is checked at %1, the address IT set for %2.")
        self.key_target.setText(
            words.replace("%1", url or "?").replace("%2", text(ENVIRONMENTS[environment]))
        )

    def open_key_entry(self) -> None:
        self._show_key_target()
        self.key_entry.show()
        self.replace_button.setEnabled(False)
        self.rows_by_field[Field.API_KEY].set_error(None)
        self.key_edit.setFocus()

    def close_key_entry(self) -> None:
        self.key_edit.clear()
        self.key_entry.hide()
        self.check_button.set_busy(False)
        self.replace_button.setEnabled(True)

    def take_key(self) -> str:
        """The typed key; the field is emptied at once."""
        key = self.key_edit.text()
        self.key_edit.clear()
        return key

    def _check(self) -> None:
        if self.key_edit.text().strip() and not self.check_button.busy:
            self.key_entered.emit()
