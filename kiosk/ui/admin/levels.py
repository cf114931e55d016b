"""Levels: the ladder of the program. List (lowest first unless sorted by name or
date), create, edit (total replacement), delete (confirmed).

The service relocates clients and the rewards' prices in the background after a
level is created, changed or deleted: for a few seconds lists may show the old
levels. Each screen says so. A ``minPoints`` already used by another level is
shown on that field; the multiplier is at least 1; colours are three hex fields
with a swatch.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLineEdit, QWidget

from kiosk.api.models.catalog import Level
from kiosk.api.models.common import Page
from kiosk.core.admin.forms import Problem
from kiosk.core.admin.levels import (
    COLOR_FIELDS,
    LIMITS,
    LevelField,
    LevelForm,
    explain_level,
    level_draft,
    level_form,
    multiplier_text,
    normalize_color,
    validate_level,
)
from kiosk.core.admin.paging import ListState
from kiosk.core.amounts import format_points
from kiosk.core.session import CounterSession
from kiosk.ui.admin.form import FIELD_PX, FormPanel, line
from kiosk.ui.admin.list_view import AdminList, Column
from kiosk.ui.admin.section import AdminSection, date_text
from kiosk.ui.theme import current_palette

log = logging.getLogger(__name__)


class ColorField(QWidget):
    """A hex colour field with a swatch that follows what is typed."""

    def __init__(self) -> None:
        super().__init__()
        self.edit = line("#1d4ed8")
        self.edit.setMaxLength(7)
        self.swatch = QFrame()
        self.swatch.setFixedSize(FIELD_PX, FIELD_PX)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(8)
        layout.addWidget(self.swatch)
        layout.addWidget(self.edit, 1)
        self.edit.textChanged.connect(self._paint)
        self._paint(self.edit.text())

    def _paint(self, text: str) -> None:
        colour = normalize_color(text)
        p = current_palette()
        if colour is None or not QColor.isValidColorName(colour):
            style = f"background: {p.surface_alt}; border: 2px dashed {p.border};"
        else:
            style = f"background: {colour}; border: 2px solid {p.border};"
        self.swatch.setStyleSheet(f"QFrame {{ {style} border-radius: 10px; }}")


class LevelsSection(AdminSection):
    key = "admin-levels"
    icon_name = "points"

    def __init__(self, session: CounterSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.editing: Level | None = None
        locale = self.amount_locale
        columns = [
            Column(self.tr("Name"), lambda v: v.name or "", order="name", stretch=True),
            Column(
                self.tr("From points"),
                lambda v: format_points(v.min_points, locale),
                order="minPoints",
                right=True,
            ),
            Column(self.tr("Multiplier"), self._multiplier_text, right=True),
            Column(
                self.tr("Colour"),
                lambda v: v.colors.primary or "" if v.colors else "",
                swatch=lambda v: v.colors.primary if v.colors else None,
            ),
            Column(
                self.tr("Created"),
                lambda v: date_text(v.created_at, locale),
                order="createdAt",
                optional=True,
            ),
        ]
        self.list = AdminList(
            self,
            self._fetch,
            columns,
            sorts=[
                (None, self.tr("Lowest points first")),
                ("name", self.tr("Name")),
                ("minPoints", self.tr("Points to reach it")),
                ("createdAt", self.tr("Date created")),
            ],
            new_text=self.tr("New level"),
            search_hint=self.tr("Search levels by name"),
            empty_text=self.tr(
                "The program has no levels: every client is without level. "
                "Tap “New level” to create the first one."
            ),
        )
        self.list.activated.connect(self.open_row)
        self.list.new_requested.connect(self.open_new)
        self.form = self._build_form()
        self.add_page(self.list)
        self.add_page(self.form)

    def title(self) -> str:
        return self.tr("Levels")

    def _multiplier_text(self, level: Level) -> str:
        text = multiplier_text(level.points_multiplier)
        if self.amount_locale.decimal_separator != ".":
            text = text.replace(".", self.amount_locale.decimal_separator)
        return "×" + text

    async def _fetch(self, state: ListState) -> Page[Any]:
        return await self.session.call(
            lambda: self.session.api.list_levels(
                page=state.page,
                limit=state.limit,
                query=state.query or None,
                order=state.sent_order,
                direction=state.sent_direction,
            )
        )

    # -- the form ----------------------------------------------------------------------------
    def _build_form(self) -> FormPanel:
        form = FormPanel(save_text=self.tr("Save level"), danger_text=self.tr("Delete level"))
        form.limits(LIMITS)
        self.relocation_note = form.add_note(
            self.tr(
                "After saving, the service moves clients to their new level and updates the "
                "rewards' prices in the background: it may take a few seconds."
            ),
            warning=True,
        )
        self.replace_note = form.add_note(
            self.tr("Saving replaces the whole level with what this form shows."), warning=True
        )
        self.name_edit = line(self.tr("Like Gold"))
        self.min_points_edit = line(self.tr("Like 5.000"))
        self.multiplier_edit = line("1")
        self.description_edit = line()
        self.colors = {which: ColorField() for which in COLOR_FIELDS}
        form.add_field(LevelField.NAME, self.tr("Name"), self.name_edit)
        form.add_field(
            LevelField.MIN_POINTS,
            self.tr("Accumulated points to reach it"),
            self.min_points_edit,
            hint=self.tr("Each level starts at a different number of points."),
        )
        form.add_field(
            LevelField.MULTIPLIER,
            self.tr("Points multiplier"),
            self.multiplier_edit,
            hint=self.tr("1 = no bonus; 1,5 = 50% more points on every purchase."),
        )
        form.add_field(LevelField.DESCRIPTION, self.tr("Description"), self.description_edit)
        labels = {
            LevelField.PRIMARY: self.tr("Main colour"),
            LevelField.SECONDARY: self.tr("Second colour"),
            LevelField.BORDER: self.tr("Border colour"),
        }
        for which, field in self.colors.items():
            form.add_field(which, labels[which], field, focus=field.edit)
            field.edit.returnPressed.connect(form.submitted.emit)
        form.word(
            LevelField.MIN_POINTS,
            Problem.TAKEN,
            self.tr("Another level already starts at these points. Choose another number."),
        )
        form.submitted.connect(self.save)
        form.cancelled.connect(self.back_to_list)
        form.delete_requested.connect(self.ask_delete)
        return form

    def color_edit(self, which: LevelField) -> QLineEdit:
        return self.colors[which].edit

    def read_form(self) -> LevelForm:
        return LevelForm(
            name=self.name_edit.text(),
            min_points=self.min_points_edit.text(),
            multiplier=self.multiplier_edit.text(),
            primary=self.color_edit(LevelField.PRIMARY).text(),
            secondary=self.color_edit(LevelField.SECONDARY).text(),
            border=self.color_edit(LevelField.BORDER).text(),
            description=self.description_edit.text(),
        )

    def fill_form(self, form: LevelForm) -> None:
        self.form.clear_problems()
        self.name_edit.setText(form.name)
        self.min_points_edit.setText(form.min_points)
        multiplier = form.multiplier
        if self.amount_locale.decimal_separator != ".":
            multiplier = multiplier.replace(".", self.amount_locale.decimal_separator)
        self.multiplier_edit.setText(multiplier)
        for which in COLOR_FIELDS:
            self.color_edit(which).setText(form.color(which))
        self.description_edit.setText(form.description)

    def open_new(self) -> None:
        self.editing = None
        self.form.heading.setText(self.tr("New level"))
        self.replace_note.hide()
        self.form.danger_button.hide()
        self.fill_form(LevelForm())
        self.show_page(self.form)
        self.form.to_top()
        self.name_edit.setFocus()

    def open_row(self, row: int) -> None:
        level = self.list.item(row)
        if level is None:
            return
        self.editing = level
        self.form.heading.setText(self.tr("Edit level “%1”").replace("%1", level.name or ""))
        self.replace_note.show()
        self.form.danger_button.show()
        self.fill_form(level_form(level))
        self.show_page(self.form)
        self.form.to_top()

    def forget(self) -> None:
        self.editing = None
        self.fill_form(LevelForm())

    # -- saving and deleting -----------------------------------------------------------------
    def save(self) -> None:
        if self.tasks.running("save"):
            return
        form = self.read_form()
        problems = validate_level(form)
        if problems:
            self.form.show_problems(problems)
            return
        self.run("save", self._save(form, self.editing), buttons=[self.form.save_button])

    async def _save(self, form: LevelForm, editing: Level | None) -> None:
        draft = level_draft(form)
        api = self.session.api
        if editing is None:
            saved = await self.submit(self.form, lambda: api.create_level(draft), explain_level)
        else:
            saved = await self.submit(
                self.form, lambda: api.update_level(editing.id, draft), explain_level
            )
        if saved is None:
            return
        log.info("level #%d %s", saved.id, "created" if editing is None else "replaced")
        text = self.tr("Level saved: %1.") if editing else self.tr("Level created: %1.")
        self.banner.show_success(
            text.replace("%1", saved.name or draft.name)
            + " "
            + self.tr("Clients and prices are being relocated: it may take a few seconds.")
        )
        self.back_to_list()
        self.list.reload()

    def ask_delete(self) -> None:
        level = self.editing
        if level is None:
            return
        self.ask(
            "delete",
            self.tr("Delete the level “%1”?").replace("%1", level.name or ""),
            self.tr(
                "Its clients move to the level their points reach (or to no level), and every "
                "reward price for this level is deleted. The service does this in the "
                "background: it may take a few seconds. This cannot be undone."
            ),
            self.tr("Delete level"),
            subject=level,
        )

    def confirm(self, action: str, subject: object) -> None:
        if action == "delete" and isinstance(subject, Level):
            self.run("delete", self._delete(subject), buttons=[self.sheet.confirm])

    async def _delete(self, level: Level) -> None:
        done = await self.confirmed_write(lambda: self.session.api.delete_level(level.id))
        self.back_to_list()
        self.list.reload()
        if done:
            log.info("level #%d deleted", level.id)
            self.banner.show_success(
                self.tr("Level deleted: %1.").replace("%1", level.name or "")
                + " "
                + self.tr("Clients and prices are being relocated: it may take a few seconds.")
            )
