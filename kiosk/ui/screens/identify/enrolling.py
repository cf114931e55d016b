"""Identify's enrollment steps: the form opened prefilled, sent, its answer shown
(created, already registered with a jump to that client, or per-field errors).

A mixin of ``IdentifyScreen`` (``kiosk.ui.screens.identify.screen``), apart to keep each
module readable; enrollment code loads with the first enrollment. What it uses of the
screen is the ``EnrollingScreen`` protocol below, so the mixin does not import the
screen that inherits it (no circle, issue #15)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QCoreApplication

from kiosk.core.amounts import format_points
from kiosk.core.counter import identify
from kiosk.ui.widgets.relayout import one_relayout

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from kiosk.api.models.clients import Client
    from kiosk.core.counter.enroll import EnrollForm, EnrollResult
    from kiosk.core.counter.scan import Identity
    from kiosk.core.session import CounterSession
    from kiosk.ui.screens.identify.enroll import EnrollPanel
    from kiosk.ui.screens.identify.matches import MatchesPanel
    from kiosk.ui.screens.identify.parts import EmptyPage
    from kiosk.ui.tasks import ScreenTasks
    from kiosk.ui.widgets.banner import Banner
    from kiosk.ui.widgets.busy_button import BusyButton
    from kiosk.ui.widgets.scan_field import ScanField

log = logging.getLogger(__name__)


class EnrollingScreen(Protocol):
    """What the enrollment steps use of the Identify screen."""

    session: CounterSession
    tasks: ScreenTasks
    banner: Banner
    field: ScanField
    empty: EmptyPage
    day_first: bool
    search_task: asyncio.Task[Any] | None
    _prefill: identify.Prefill
    _identity: Identity | None
    _existing: tuple[str, ...]

    @property
    def enroll(self) -> EnrollPanel: ...
    @property
    def matches(self) -> MatchesPanel: ...
    def _show_page(self, panel: QWidget) -> None: ...
    def _forget(self) -> None: ...
    def at_counter(self, client: Client) -> None: ...
    def _start(
        self, name: str, coro: Coroutine[Any, Any, Any], *, buttons: Sequence[BusyButton] = ()
    ) -> asyncio.Task[Any]: ...


class EnrollmentSteps:
    """Methods of ``IdentifyScreen`` about enrolling a new client."""

    def start_enrollment(self: EnrollingScreen) -> None:
        from kiosk.core.counter.enroll import form_from_prefill

        form = form_from_prefill(self._prefill, day_first=self.day_first)
        self.enroll.set_form(form)
        self.banner.dismiss()
        self._show_page(self.enroll)
        self.enroll.arm()  # takes a tap once the form is painted and the guard passed
        self.enroll.first_empty_field().setFocus()

    def _back_from_enrollment(self: EnrollingScreen) -> None:
        self.tasks.cancel("enroll")
        self.enroll.set_busy(False)
        self._show_page(self.matches if self._identity else self.empty)
        self.field.setFocus()

    def submit_enrollment(self: EnrollingScreen) -> None:
        """The commit button accepted a tap (it is busy already: a second tap or Enter
        is ignored until the answer)."""
        if self.tasks.running("enroll"):
            return
        self.enroll.clear_problems()
        self.enroll.show_already_registered(False)
        self.banner.dismiss()
        self.enroll.set_busy(True)  # now: a double tap sends nothing
        self._start("enroll", self._enroll(self.enroll.form()))

    async def _enroll(self: EnrollingScreen, form: EnrollForm) -> None:
        from kiosk.core.counter.enroll import EnrollOutcome, enroll

        try:
            result = await enroll(
                self.session.api,
                form,
                branch_id=self.session.config.branch.id,
                today=date.today(),
                call=self.session.call,
                test_domains=self.session.config.environment != "production",
            )
        except BaseException:
            self.enroll.set_busy(False)  # the same form may be sent again
            raise
        if result.outcome is EnrollOutcome.CREATED:
            self.enroll.done()
        else:
            self.enroll.set_busy(False)
        await self._enrolled(result)

    async def _enrolled(self: EnrollingScreen, result: EnrollResult) -> None:
        from kiosk.core.counter.enroll import EnrollOutcome, journal_enrollment

        if result.outcome is EnrollOutcome.CREATED and result.client is not None:
            client = result.client
            name = identify.display_name(client) or QCoreApplication.translate(
                "IdentifyScreen", "new client"
            )
            text = QCoreApplication.translate("IdentifyScreen", "Client enrolled: %1").replace(
                "%1", name
            )
            if client.balance > 0:
                points = format_points(client.balance, self.session.config.locale)
                text += " · " + QCoreApplication.translate(
                    "IdentifyScreen", "%1 welcome points"
                ).replace("%1", points)
            with one_relayout(self):  # form -> client card and banner: one layout pass
                self._forget()
                self.enroll.reset()
                self.at_counter(client)
                self.field.clear_input()
                self.banner.show_success(text)
            # The client exists whatever happens to the journal row: a disk error is logged.
            try:
                await journal_enrollment(self.session.journal, client)
            except Exception:
                log.exception("enroll: the journal row could not be written")
            else:
                self.session.notify_journal()
            return
        self.enroll.show_problems(result.problems)
        if result.outcome is EnrollOutcome.ALREADY_REGISTERED:
            self._existing = result.existing
            self.enroll.show_already_registered(True)
            self.banner.show_error(
                QCoreApplication.translate(
                    "IdentifyScreen", "This client is already registered. Go to the client instead."
                )
            )
        elif result.unknown_fields:
            self.banner.show_error(
                QCoreApplication.translate(
                    "IdentifyScreen", "The service refused some data (%1). Check it and try again."
                ).replace("%1", ", ".join(result.unknown_fields))
            )
        else:
            self.banner.show_error(
                QCoreApplication.translate(
                    "IdentifyScreen", "Some data is not valid. Check the marked fields."
                )
            )

    def _open_existing(self: EnrollingScreen) -> None:
        lookups = self._existing
        if not lookups:
            return
        self.search_task = self._start(
            "search", self._go_to_existing(lookups), buttons=[self.enroll.existing_button]
        )

    async def _go_to_existing(self: EnrollingScreen, lookups: tuple[str, ...]) -> None:
        client = await identify.find_first(self.session.api, lookups, call=self.session.call)
        self._forget()
        self.enroll.reset()
        self.banner.dismiss()
        self.at_counter(client)
