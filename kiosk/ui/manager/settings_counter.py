"""The counter's behaviour and look: idle times, language and theme."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from kiosk.core.admin.manager_settings import IDLE_RANGE, MANAGER_IDLE_RANGE, Draft, Field
from kiosk.core.settings.layers import Language, Theme
from kiosk.ui.manager.settings_fields import FieldRow, SectionCard, Stepper, TouchCombo
from kiosk.ui.manager.settings_text import LANGUAGES, THEMES, text


class CounterSection(SectionCard):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            self.tr("Counter"),
            self.tr(
                "A new language or theme applies as soon as it is saved: the counter "
                "starts again with it, and manager mode locks."
            ),
            parent,
        )
        self.idle = Stepper(*IDLE_RANGE, 15, self.tr("seconds"))
        self.manager_idle = Stepper(*MANAGER_IDLE_RANGE, 60, self.tr("seconds"))
        self.language = TouchCombo()
        for language in Language:
            self.language.addItem(text(LANGUAGES[language]), language.value)
        self.theme = TouchCombo()
        for theme in Theme:
            self.theme.addItem(text(THEMES[theme]), theme.value)
        self.rows_by_field = {
            Field.IDLE_TIMEOUT: FieldRow(self.tr("Counter idle time"), self.idle),
            Field.MANAGER_IDLE_TIMEOUT: FieldRow(
                self.tr("Manager mode locks after"), self.manager_idle
            ),
            Field.LANGUAGE: FieldRow(self.tr("Language"), self.language),
            Field.THEME: FieldRow(self.tr("Theme"), self.theme),
        }
        hints = {
            Field.IDLE_TIMEOUT: self.tr(
                "Without a touch for this long, the counter clears "
                "the client and goes back to Identify."
            ),
            Field.MANAGER_IDLE_TIMEOUT: self.tr(
                "Without a touch for this long, manager mode locks again."
            ),
        }
        for which, field_row in self.rows_by_field.items():
            if which in hints:
                field_row.control.setToolTip(hints[which])
            self.rows.addWidget(field_row)

    def fill(self, draft: Draft, locked: set[Field]) -> None:
        self.idle.setValue(draft.idle_timeout_seconds)
        self.manager_idle.setValue(draft.manager_idle_timeout_seconds)
        self.language.setCurrentIndex(self.language.findData(draft.language.value))
        self.theme.setCurrentIndex(self.theme.findData(draft.theme.value))
        for which, field_row in self.rows_by_field.items():
            field_row.set_locked(which in locked)

    def values(self) -> dict[str, object]:
        return {
            Field.IDLE_TIMEOUT.value: self.idle.value(),
            Field.MANAGER_IDLE_TIMEOUT.value: self.manager_idle.value(),
            Field.LANGUAGE.value: Language(self.language.currentData()),
            Field.THEME.value: Theme(self.theme.currentData()),
        }
