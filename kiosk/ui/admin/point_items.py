"""Point items: list (sort by name, points, amount, date), create (fixed points OR a
purchase amount), edit (total replacement), delete (confirmed).

The list is read with the kiosk's branch, so it shows the merchant's items and the
ones limited to this branch in the merchant panel (those keep their branch when
edited). Past credits keep the points they gave, whatever happens to an item.
"""

from __future__ import annotations

import logging
from decimal import Decimal
from typing import Any

from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QPushButton, QWidget

from kiosk.api.models.catalog import PointItem
from kiosk.api.models.common import Page
from kiosk.core.admin.items import (
    LIMITS,
    ItemField,
    ItemKind,
    PointItemForm,
    explain_item,
    item_draft,
    item_form,
    validate_item,
)
from kiosk.core.admin.paging import ListState
from kiosk.core.amounts import format_amount, format_points
from kiosk.core.counter.catalogue import catalogue_changes
from kiosk.core.session import CounterSession
from kiosk.ui.admin.form import FormPanel, line
from kiosk.ui.admin.list_view import AdminList, Column
from kiosk.ui.admin.section import AdminSection, date_text

log = logging.getLogger(__name__)


class PointItemsSection(AdminSection):
    key = "admin-point-items"
    icon_name = "coins"

    def __init__(self, session: CounterSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.editing: PointItem | None = None
        locale = self.amount_locale
        columns = [
            Column(self.tr("Name"), lambda i: i.name or "", order="name", stretch=True),
            Column(
                self.tr("Points"),
                lambda i: format_points(i.points, locale) if i.points is not None else "",
                order="points",
                right=True,
            ),
            Column(
                self.tr("Amount"),
                lambda i: (
                    format_amount(Decimal(str(i.amount)), locale) if i.amount is not None else ""
                ),
                order="amount",
                right=True,
            ),
            Column(self.tr("Applies to"), self._scope_text),
            Column(
                self.tr("Created"),
                lambda i: date_text(i.created_at, locale),
                order="createdAt",
                optional=True,
            ),
        ]
        self.list = AdminList(
            self,
            self._fetch,
            columns,
            sorts=[
                (None, self.tr("Default order")),
                ("name", self.tr("Name")),
                ("points", self.tr("Points")),
                ("amount", self.tr("Amount")),
                ("createdAt", self.tr("Date created")),
            ],
            new_text=self.tr("New point item"),
            search_hint=self.tr("Search point items by name"),
            empty_text=self.tr(
                "No point items yet. Tap “New point item” to create one: the counter "
                "credits it with one tap instead of typing an amount."
            ),
        )
        self.list.activated.connect(self.open_row)
        self.list.new_requested.connect(self.open_new)
        self.form = self._build_form()
        self.add_page(self.list)
        self.add_page(self.form)

    def title(self) -> str:
        return self.tr("Point items")

    def _scope_text(self, item: PointItem) -> str:
        if item.branch_id is None:
            return self.tr("All branches")
        return self.tr("This branch only")

    async def _fetch(self, state: ListState) -> Page[Any]:
        return await self.session.call(
            lambda: self.session.api.list_point_items(
                page=state.page,
                limit=state.limit,
                query=state.query or None,
                order=state.sent_order,
                direction=state.sent_direction,
                branch_id=self.session.config.branch.id,
            )
        )

    # -- the form ----------------------------------------------------------------------------
    def _build_form(self) -> FormPanel:
        form = FormPanel(save_text=self.tr("Save item"), danger_text=self.tr("Delete item"))
        form.limits(LIMITS)
        self.replace_note = form.add_note(
            self.tr(
                "Saving replaces the whole item. Credits already made keep the points they gave."
            ),
            warning=True,
        )
        self.name_edit = line(self.tr("Like “Coffee” or “Weekly special”"))
        form.add_field(
            ItemField.NAME, self.tr("Name shown on the counter button"), self.name_edit, wide=True
        )
        self.points_button = QPushButton(self.tr("Fixed points"))
        self.amount_button = QPushButton(self.tr("Purchase amount"))
        group = QButtonGroup(self)
        row = QWidget()
        buttons = QHBoxLayout(row)
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.setSpacing(8)
        for button in (self.points_button, self.amount_button):
            button.setCheckable(True)
            button.setProperty("role", "tile")
            button.setStyleSheet("QPushButton { min-height: 32px; padding: 8px 16px; }")
            group.addButton(button)
            buttons.addWidget(button)
        buttons.addStretch(1)
        self.points_button.setChecked(True)
        form.add_field(
            "kind", self.tr("What the item gives"), row, wide=True, focus=self.points_button
        )
        self.value_edit = line()
        self.value_box = form.add_field(ItemField.VALUE, "", self.value_edit, wide=True)
        self.points_button.toggled.connect(self._kind_changed)
        form.submitted.connect(self.save)
        form.cancelled.connect(self.back_to_list)
        form.delete_requested.connect(self.ask_delete)
        self._kind_changed()
        return form

    def _kind_changed(self, *_: object) -> None:
        if self.amount_button.isChecked():
            self.value_box.label.setText(self.tr("Purchase amount"))
            self.value_box.hint.setText(
                self.tr(
                    "Converted to points by the program's rule, like a purchase of this amount."
                )
            )
            self.value_edit.setPlaceholderText(self.tr("Like 1.500"))
        else:
            self.value_box.label.setText(self.tr("Points"))
            self.value_box.hint.setText(self.tr("Given as they are, whatever the price."))
            self.value_edit.setPlaceholderText(self.tr("Like 50"))
        self.value_box.hint.show()

    def read_form(self) -> PointItemForm:
        kind = ItemKind.AMOUNT if self.amount_button.isChecked() else ItemKind.POINTS
        return PointItemForm(self.name_edit.text(), kind, self.value_edit.text())

    def fill_form(self, form: PointItemForm) -> None:
        self.form.clear_problems()
        self.name_edit.setText(form.name)
        (self.amount_button if form.kind is ItemKind.AMOUNT else self.points_button).setChecked(
            True
        )
        self.value_edit.setText(form.value)

    def open_new(self) -> None:
        self.editing = None
        self.form.heading.setText(self.tr("New point item"))
        self.replace_note.hide()
        self.form.danger_button.hide()
        self.fill_form(PointItemForm())
        self.show_page(self.form)
        self.form.to_top()
        self.name_edit.setFocus()

    def open_row(self, row: int) -> None:
        item = self.list.item(row)
        if item is None:
            return
        self.editing = item
        self.form.heading.setText(self.tr("Edit “%1”").replace("%1", item.name or ""))
        self.replace_note.show()
        self.form.danger_button.show()
        self.fill_form(item_form(item, self.amount_locale))
        self.show_page(self.form)
        self.form.to_top()

    def forget(self) -> None:
        self.editing = None
        self.fill_form(PointItemForm())

    # -- saving and deleting -----------------------------------------------------------------
    def save(self) -> None:
        if self.tasks.running("save"):
            return
        form = self.read_form()
        problems = validate_item(form, self.amount_locale)
        if problems:
            self.form.show_problems(problems)
            return
        self.run("save", self._save(form, self.editing), buttons=[self.form.save_button])

    async def _save(self, form: PointItemForm, editing: PointItem | None) -> None:
        draft = item_draft(form, self.amount_locale)
        api = self.session.api
        if editing is None:
            saved = await self.submit(self.form, lambda: api.create_point_item(draft), explain_item)
        else:
            saved = await self.submit(
                self.form, lambda: api.update_point_item(editing.id, draft), explain_item
            )
        if saved is None:
            return
        log.info("point item #%d %s", saved.id, "created" if editing is None else "replaced")
        catalogue_changes(self.session).point_items.emit(None)  # to the counter's buttons
        text = self.tr("Point item saved: %1.") if editing else self.tr("Point item created: %1.")
        self.banner.show_success(text.replace("%1", saved.name or draft.name or ""))
        self.back_to_list()
        self.list.reload()

    def ask_delete(self) -> None:
        item = self.editing
        if item is None:
            return
        self.ask(
            "delete",
            self.tr("Delete the point item “%1”?").replace("%1", item.name or ""),
            self.tr(
                "It disappears from the counter buttons of every branch. Credits already "
                "made keep the points they gave. This cannot be undone."
            ),
            self.tr("Delete item"),
            subject=item,
        )

    def confirm(self, action: str, subject: object) -> None:
        if action == "delete" and isinstance(subject, PointItem):
            self.run("delete", self._delete(subject), buttons=[self.sheet.confirm])

    async def _delete(self, item: PointItem) -> None:
        done = await self.confirmed_write(lambda: self.session.api.delete_point_item(item.id))
        self.back_to_list()
        self.list.reload()
        if done:
            log.info("point item #%d deleted", item.id)
            catalogue_changes(self.session).point_items.emit(None)
            self.banner.show_success(
                self.tr("Point item deleted: %1.").replace("%1", item.name or "")
            )
