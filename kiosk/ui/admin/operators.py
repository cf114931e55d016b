"""Operators (the merchant's staff): list (administrators first; sort by name, email,
role, date; search by name, email, document), the detail with branches and
permission groups (read one by one), create with or without a password, edit
personal data and branches, delete (confirmed).

Emails are masked in the list; the detail and the forms show them in full (the
manager is behind the PIN and needs them). The plan's operator cap is explained in
the banner.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtWidgets import QWidget

from kiosk.api.errors import ApiError
from kiosk.api.models.common import Page
from kiosk.api.models.staff import Branch, Operator
from kiosk.api.redact import mask_document, mask_email
from kiosk.core.admin.operators import (
    OperatorForm,
    explain_operator,
    is_cap_reached,
    new_operator,
    new_operator_form,
    operator_changes,
    operator_form,
    problems_of_clearing,
    validate_operator,
)
from kiosk.core.admin.paging import ListState
from kiosk.core.session import CounterSession
from kiosk.ui.admin.list_view import AdminList, Column
from kiosk.ui.admin.operators_form import OperatorDetail, OperatorFormPanel
from kiosk.ui.admin.section import AdminSection, date_text
from kiosk.ui.messages import error_text

log = logging.getLogger(__name__)

ADMIN = "admin"


class OperatorsSection(AdminSection):
    key = "admin-operators"
    icon_name = "store"

    def __init__(self, session: CounterSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.branches: tuple[Branch, ...] = ()
        self.form: OperatorFormPanel | None = None
        self.original: OperatorForm | None = None
        locale = self.amount_locale
        self.list = AdminList(
            self,
            self._fetch,
            [
                Column(self.tr("Name"), lambda o: o.full_name or "", "fullName", stretch=True),
                Column(self.tr("Email"), lambda o: mask_email(o.email), "email", optional=True),
                Column(self.tr("Role"), self.role_text, "role"),
                Column(
                    self.tr("Created"),
                    lambda o: date_text(o.created_at, locale),
                    "createdAt",
                    optional=True,
                ),
            ],
            sorts=[
                (None, self.tr("Administrators first")),
                ("fullName", self.tr("Name")),
                ("email", self.tr("Email")),
                ("role", self.tr("Role")),
                ("createdAt", self.tr("Date created")),
            ],
            new_text=self.tr("New operator"),
            search_hint=self.tr("Search by name, email or document"),
            empty_text=self.tr("No operators yet. Tap “New operator” to add one."),
        )
        self.list.activated.connect(self.open_row)
        self.list.new_requested.connect(self.open_new)
        self.detail = OperatorDetail()
        self.detail.back.connect(self.back_to_list)
        self.detail.edit.connect(self.open_edit)
        self.detail.delete.connect(self.ask_delete)
        self.add_page(self.list)
        self.add_page(self.detail)

    def title(self) -> str:
        return self.tr("Operators")

    def role_text(self, operator: Operator) -> str:
        if operator.role == ADMIN:
            return self.tr("Administrator")
        if operator.role == "operator":
            return self.tr("Operator")
        return operator.role or ""

    async def _fetch(self, state: ListState) -> Page[Any]:
        return await self.session.call(
            lambda: self.session.api.list_operators(
                page=state.page,
                limit=state.limit,
                query=state.query or None,
                order=state.sent_order,
                direction=state.sent_direction,
            )
        )

    async def _branches(self) -> tuple[Branch, ...]:
        if not self.branches:
            self.branches = await self.session.call(self.session.api.list_branches)
        return self.branches

    # -- the detail -----------------------------------------------------------------------------
    def open_row(self, row: int) -> None:
        operator = self.list.item(row)
        if operator is not None:
            self.run("detail", self._open_detail(operator.id), buttons=[self.list.refresh_button])

    async def _open_detail(self, operator_id: int) -> None:
        operator = await self.session.call(lambda: self.session.api.get_operator(operator_id))
        self.show_detail(operator)

    def show_detail(self, operator: Operator) -> None:
        if operator.has_completed_onboarding:
            access = self.tr("Has access to the merchant panel.")
        else:
            access = self.tr("Has not set a password yet (an email was sent to set one).")
        facts = [
            (self.tr("Email"), operator.email or ""),
            (self.tr("Phone"), operator.phone or "—"),
            (self.tr("Document"), mask_document(operator.document_number) or "—"),
            (self.tr("Created"), date_text(operator.created_at, self.amount_locale)),
        ]
        self.detail.show_operator(operator, f"{self.role_text(operator)} · {access}", facts)
        self.show_page(self.detail)

    # -- the forms --------------------------------------------------------------------------------
    def _show_form(self, panel: OperatorFormPanel) -> None:
        old = self.form
        panel.submitted.connect(self.save)
        panel.cancelled.connect(self._form_back)
        self.form = panel
        self.add_page(panel)
        self.show_page(panel)
        self.drop_page(old)

    def _form_back(self) -> None:
        if self.form is not None and not self.form.creating and self.detail.operator:
            self.show_page(self.detail)
        else:
            self.back_to_list()

    def open_new(self) -> None:
        self.run("branches", self._open_new(), buttons=[self.list.refresh_button])

    async def _open_new(self) -> None:
        form = new_operator_form(await self._branches())
        self.original = None
        self.detail.clear()
        self._show_form(OperatorFormPanel(form, creating=True, heading=self.tr("New operator")))
        assert self.form is not None
        self.form.first_name.setFocus()

    def open_edit(self) -> None:
        if self.detail.operator is not None:
            self.run("branches", self._open_edit(self.detail.operator))

    async def _open_edit(self, operator: Operator) -> None:
        form = operator_form(operator, await self._branches())
        self.original = form
        heading = self.tr("Edit operator “%1”").replace("%1", operator.full_name or "")
        self._show_form(OperatorFormPanel(form, creating=False, heading=heading))

    def forget(self) -> None:
        self.detail.clear()
        self.original = None
        self.drop_page(self.form)
        self.form = None

    # -- saving and deleting ----------------------------------------------------------------------
    def save(self) -> None:
        panel = self.form
        if panel is None or self.tasks.running("save"):
            return
        form = panel.read()
        problems = validate_operator(form, creating=panel.creating)
        if not panel.creating and self.original is not None:
            problems.update(problems_of_clearing(self.original, form))
        if problems:
            panel.show_problems(problems)
            return
        self.run("save", self._save(panel, form), buttons=[panel.save_button])

    def refusal_text(self, error: ApiError) -> str:
        if is_cap_reached(error):
            return self.tr(
                "The plan's limit of operators was reached: no operator was created. Delete "
                "an operator who no longer works here, or ask for a larger plan."
            )
        return error_text(error)

    async def _save(self, panel: OperatorFormPanel, form: OperatorForm) -> None:
        api = self.session.api

        def explain(error: ApiError) -> Any:
            return explain_operator(error, form)

        operator = self.detail.operator
        if panel.creating:
            draft = new_operator(form)
            saved = await self.submit(panel, lambda: api.create_operator(draft), explain)
        else:
            assert operator is not None
            assert self.original is not None
            changes = operator_changes(self.original, form)
            if changes is None:
                self.banner.show_info(self.tr("Nothing changed."))
                self.show_page(self.detail)
                return
            saved = await self.submit(
                panel, lambda: api.update_operator(operator.id, changes), explain
            )
        if saved is None:
            return
        log.info("operator #%d %s", saved.id, "created" if panel.creating else "updated")
        text = (
            self.tr("Operator saved: %1.")
            if not panel.creating
            else self.tr("Operator created: %1.")
        )
        self.banner.show_success(text.replace("%1", saved.full_name or ""))
        self.list.reload()
        self.show_detail(saved)

    def ask_delete(self) -> None:
        operator = self.detail.operator
        if operator is None:
            return
        self.ask(
            "delete",
            self.tr("Delete the operator %1?").replace("%1", operator.full_name or ""),
            self.tr(
                "They lose access to the merchant panel at once. The operations they "
                "registered stay as they are. This cannot be undone."
            ),
            self.tr("Delete operator"),
            subject=operator,
        )

    def confirm(self, action: str, subject: object) -> None:
        if action == "delete" and isinstance(subject, Operator):
            self.run("delete", self._delete(subject), buttons=[self.sheet.confirm])

    async def _delete(self, operator: Operator) -> None:
        done = await self.confirmed_write(lambda: self.session.api.delete_operator(operator.id))
        self.detail.clear()
        self.back_to_list()
        self.list.reload()
        if done:
            log.info("operator #%d deleted", operator.id)
            self.banner.show_success(
                self.tr("Operator deleted: %1.").replace("%1", operator.full_name or "")
            )
