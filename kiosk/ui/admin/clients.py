"""Clients in manager mode: list with filters (level, search, sort by name, points,
last operation or date joined, both directions), emails and documents masked; edit
(only what changed is sent; the email locked once the client entered the platform),
suspend (confirmed: stops accumulation) and schedule removal (confirmed, with its
reasons; 30 days' grace, restorable only in the merchant panel).
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtWidgets import QHBoxLayout, QWidget

from kiosk.api.errors import ApiError
from kiosk.api.models.catalog import Level
from kiosk.api.models.clients import Client
from kiosk.api.models.common import Page
from kiosk.api.redact import mask_document, mask_email
from kiosk.core.admin.clients import (
    GRACE_DAYS,
    REASONS_FIELD,
    changed_fields,
    client_changes,
    client_form,
    explain_client,
    removal_problems,
    removal_reasons,
    validate_client,
)
from kiosk.core.admin.paging import ListState
from kiosk.core.amounts import format_points
from kiosk.core.counter.credit_level import all_levels
from kiosk.core.session import CounterSession
from kiosk.ui.admin.chips import ChoiceChips
from kiosk.ui.admin.clients_form import ClientPanel, RemovalReasons
from kiosk.ui.admin.form import problem_text
from kiosk.ui.admin.list_view import AdminList, Column
from kiosk.ui.admin.section import AdminSection, date_text

log = logging.getLogger(__name__)


class ClientsSection(AdminSection):
    key = "admin-clients"
    icon_name = "enroll"

    def __init__(self, session: CounterSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.levels: tuple[Level, ...] = ()
        locale = self.amount_locale
        self.list = AdminList(
            self,
            self._fetch,
            [
                Column(
                    self.tr("Name"),
                    lambda c: c.name or "",
                    "fullName",
                    stretch=True,
                    dim=lambda c: c.is_suspended,
                ),
                Column(self.tr("Email"), lambda c: mask_email(c.email), optional=True),
                Column(
                    self.tr("Document"), lambda c: mask_document(c.document_number), optional=True
                ),
                Column(self.tr("Level"), lambda c: c.level.name or "" if c.level else "—"),
                Column(
                    self.tr("Points"),
                    lambda c: format_points(c.balance, locale),
                    "currentPoints",
                    right=True,
                ),
                Column(
                    self.tr("Last operation"),
                    lambda c: date_text(c.last_transaction, locale),
                    "lastOperation",
                    optional=True,
                ),
                Column(self.tr("State"), self._state_text),
            ],
            sorts=[
                (None, self.tr("Most points first")),
                ("fullName", self.tr("Name")),
                ("currentPoints", self.tr("Points")),
                ("lastOperation", self.tr("Last operation")),
                ("createdAt", self.tr("Date joined")),
            ],
            search_hint=self.tr("Search by name, email, document, phone or card"),
            empty_text=self.tr("No clients yet. Clients join at the counter or on the platform."),
        )
        self.level_chips: ChoiceChips | None = None
        self.level_box = QWidget()
        self.level_row = QHBoxLayout(self.level_box)
        self.level_row.setContentsMargins(0, 0, 0, 0)
        self.list.add_filter(self.level_box)
        self.list.activated.connect(self.open_row)
        for button in (self.list.refresh_button, self.list.retry_button):
            button.clicked.disconnect()
            button.clicked.connect(self.refresh)  # the levels may have changed too
        self.panel = ClientPanel()
        self.panel.submitted.connect(self.save)
        self.panel.cancelled.connect(self.back_to_list)
        self.panel.suspend_button.clicked.connect(self.ask_suspend)
        self.panel.delete_requested.connect(self.ask_removal)
        self.reasons = RemovalReasons()
        self.reasons.hide()
        for button in self.reasons.buttons.values():
            button.toggled.connect(lambda _: self.sheet.show_problem(""))
        self.add_page(self.list)
        self.add_page(self.panel)

    def title(self) -> str:
        return self.tr("Clients")

    def _state_text(self, client: Client) -> str:
        if client.is_suspended:
            return self.tr("Suspended")
        return self.tr("Active")

    # -- the list ------------------------------------------------------------------------------
    def refresh(self) -> None:
        self.run("levels", self._load_levels())

    async def _load_levels(self) -> None:
        try:
            levels = await self.session.call(lambda: all_levels(self.session.api))
        except ApiError:
            self.list.reload()  # shows its own state (the error panel when offline)
            raise
        if levels != self.levels or self.level_chips is None:
            self.levels = levels
            self._build_level_filter()
        self.list.reload()

    def _build_level_filter(self) -> None:
        chosen = self.list.state.filter("levelId")
        if self.level_chips is not None:
            self.level_row.removeWidget(self.level_chips)
            self.level_chips.deleteLater()
        choices: list[tuple[Any, str]] = [(None, self.tr("All levels"))]
        choices += [(level.id, level.name or str(level.id)) for level in self.levels]
        self.level_chips = ChoiceChips(self.tr("Level"), choices)
        if chosen in [c[0] for c in choices]:
            self.level_chips.set_value(chosen)
        else:
            self.list.state = self.list.state.filtered("levelId", None)
        self.level_chips.chosen.connect(lambda value: self.list.set_filter("levelId", value))
        self.level_row.addWidget(self.level_chips)

    async def _fetch(self, state: ListState) -> Page[Any]:
        level = state.filter("levelId")
        return await self.session.call(
            lambda: self.session.api.list_clients(
                page=state.page,
                limit=state.limit,
                query=state.query or None,
                order=state.sent_order,
                direction=state.sent_direction,
                level_id=level if isinstance(level, int) else None,
            )
        )

    # -- editing ------------------------------------------------------------------------------
    def open_row(self, row: int) -> None:
        client = self.list.item(row)
        if client is None:
            return
        self.panel.show_client(client, client_form(client))
        self.show_page(self.panel)
        self.run("registered", self._check_registered(client))

    async def _check_registered(self, client: Client) -> None:
        """Whether the client entered the platform (then the email cannot change):
        only the search answer says it. Its registration link is not kept."""
        lookup = client.email or client.document_number
        if not lookup:
            return
        try:
            found = await self.session.call(lambda: self.session.api.search_client(lookup))
        except ApiError as error:
            log.info("clients: could not tell whether #%d registered (%s)", client.id, error.kind)
            return
        if self.panel.client is not None and self.panel.client.id == found.id:
            self.panel.set_email_locked(bool(found.registered))

    def forget(self) -> None:
        self.panel.forget()
        self.reasons.clear()
        self.list.clear()

    def save(self) -> None:
        client = self.panel.client
        if client is None or self.tasks.running("save"):
            return
        form = self.panel.read()
        locked = self.panel.email_locked
        problems = validate_client(self.panel.original, form, email_locked=locked)
        if problems:
            self.panel.show_problems(problems)
            return
        changes = client_changes(self.panel.original, form, email_locked=locked)
        if changes is None:
            self.banner.show_info(self.tr("Nothing changed."))
            return
        self.run("save", self._save(client, changes), buttons=[self.panel.save_button])

    async def _save(self, client: Client, changes: Any) -> None:
        api = self.session.api
        saved = await self.submit(
            self.panel, lambda: api.update_client(client.id, changes), explain_client
        )
        if saved is None:
            return
        log.info("client #%d updated: %s", client.id, ", ".join(changed_fields(changes)))
        self.banner.show_success(self.tr("Client saved: %1.").replace("%1", saved.name or ""))
        self.back_to_list()
        self.list.reload()

    # -- suspend and removal ----------------------------------------------------------------------
    def ask_suspend(self) -> None:
        client = self.panel.client
        if client is None:
            return
        self.ask(
            "suspend",
            self.tr("Suspend %1?").replace("%1", client.name or ""),
            self.tr(
                "The client stops earning points: credits for them are refused at every "
                "counter. Their points and exchanges stay. The kiosk cannot reactivate a "
                "client (the merchant panel can)."
            ),
            self.tr("Suspend client"),
            subject=client,
            icon_name="error",
        )

    def ask_removal(self) -> None:
        client = self.panel.client
        if client is None:
            return
        self.reasons.clear()
        self.ask(
            "remove",
            self.tr("Schedule the removal of %1?").replace("%1", client.name or ""),
            self.tr(
                "The client stops appearing at once. After %1 days their personal data is "
                "erased for good. Until then only the merchant panel can restore them; the "
                "kiosk cannot. Choose at least one reason:"
            ).replace("%1", str(GRACE_DAYS)),
            self.tr("Schedule removal"),
            subject=client,
            extra=self.reasons,
        )

    def confirm(self, action: str, subject: object) -> None:
        if not isinstance(subject, Client):
            return
        if action == "suspend":
            self.run("suspend", self._suspend(subject), buttons=[self.sheet.confirm])
        elif action == "remove":
            chosen = self.reasons.chosen()
            problems = removal_problems(chosen)
            if problems:
                self.sheet.show_problem(problem_text(problems[REASONS_FIELD]))
                return
            reasons = removal_reasons(chosen)
            self.run("remove", self._remove(subject, reasons), buttons=[self.sheet.confirm])

    async def _suspend(self, client: Client) -> None:
        api = self.session.api
        if await self.confirmed_write(lambda: api.suspend_client(client.id)):
            log.info("client #%d suspended", client.id)
            self.banner.show_success(
                self.tr("%1 is suspended: no more points until reactivated in the panel.").replace(
                    "%1", client.name or ""
                )
            )
            self.back_to_list()
            self.list.reload()

    async def _remove(self, client: Client, reasons: Any) -> None:
        api = self.session.api
        if await self.confirmed_write(lambda: api.delete_client(client.id, reasons)):
            log.info("client #%d removal scheduled (%s)", client.id, ", ".join(reasons))
            self.panel.forget()
            self.banner.show_success(
                self.tr(
                    "Removal of %1 scheduled: out of the lists now, personal data erased in "
                    "%2 days."
                )
                .replace("%1", client.name or "")
                .replace("%2", str(GRACE_DAYS))
            )
            self.back_to_list()
            self.list.reload()
