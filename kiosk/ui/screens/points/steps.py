"""The Points screen's steps that talk to the service: the preview, the credit (from
the armed credit button) and the level's re-read after it (``kiosk.core.counter.credit_level``).
A mixin of ``PointsScreen``, which owns the widgets and the sale."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from kiosk.api.errors import ApiError
from kiosk.api.models.clients import Client
from kiosk.core.amounts import AmountError
from kiosk.core.counter.credit_level import follow_level
from kiosk.core.counter.credit_outbox import OutboxSender
from kiosk.core.counter.sale import CreditOutcome, CreditStatus, Sale, SaleError, SaleState
from kiosk.core.counter.tickets import TicketError
from kiosk.ui.messages import amount_text, error_text
from kiosk.ui.screens.points.text import (
    credit_failed_text,
    sale_problem_text,
    ticket_problem_text,
)

if TYPE_CHECKING:
    from PySide6.QtCore import QTimer

    from kiosk.core.counter.credit import CreditFlow
    from kiosk.core.counter.credit_level import Sleep
    from kiosk.ui.screens.base import Screen
    from kiosk.ui.screens.points.bar import ModeBar
    from kiosk.ui.screens.points.panels import AmountPad, CreditResultView
    from kiosk.ui.widgets.busy_button import BusyButton
    from kiosk.ui.widgets.commit_button import CommitButton

    _Base = Screen
else:
    _Base = object

log = logging.getLogger("kiosk.ui.screens.points.screen")


class CreditSteps(_Base):
    """What ``PointsScreen`` gives these steps."""

    if TYPE_CHECKING:
        flow: CreditFlow
        bar: ModeBar
        pad: AmountPad
        result: CreditResultView
        result_timer: QTimer
        preview_button: BusyButton
        credit_button: CommitButton
        level_sleep: Sleep
        _working: bool

        @property
        def sale(self) -> Sale: ...
        def _set_working(self, working: bool) -> None: ...
        def _render(self) -> None: ...

    def _start_preview(self) -> None:
        if self._working:
            return
        self.banner.dismiss()
        self._set_working(True)
        self.preview_button.set_busy(True)
        self.run("preview", self._preview())

    async def _preview(self) -> None:
        try:
            await self.flow.preview()
        except (AmountError, TicketError, SaleError, ApiError) as error:
            self._problem(error)
        finally:
            self.preview_button.set_busy(False)
            self._set_working(False)
            self._render()
        if self.sale.state is SaleState.PREVIEWED:
            self.credit_button.arm()  # shown now: accepts a tap once painted + the guard

    def _start_credit(self) -> None:
        """The armed credit button was tapped (it is busy already)."""
        if self._working or self.sale.state not in (SaleState.PREVIEWED, SaleState.FAILED):
            self.credit_button.finish()
            return
        self.banner.dismiss()
        before = self.session.client
        try:
            attempt = self.flow.begin_credit()
        except (TicketError, SaleError) as error:
            self.credit_button.finish(rearm=True)
            self._problem(error)
            self._render()
            return
        except ValueError as error:  # a misconfigured kiosk (its id): for the log and IT
            self.credit_button.finish(rearm=True)
            self.show_error(error)
            return
        self._follow(attempt.sale, self.flow.start_credit(attempt), before)

    def _follow(
        self, sale: Sale, running: asyncio.Task[CreditOutcome], before: Client | None = None
    ) -> None:
        """Show the credit running in ``running`` until it ends (the credit itself goes
        on even if this screen's task is cancelled)."""
        self._set_working(True)
        self.credit_button.set_busy(True)
        self._render()
        self.run("credit", self._credit(sale, running, before))

    async def _credit(
        self, sale: Sale, running: asyncio.Task[CreditOutcome], before: Client | None
    ) -> None:
        outcome: CreditOutcome | None = None
        try:
            outcome = await asyncio.shield(running)
        except ApiError as error:
            if sale is self.sale:
                self._credit_failed(sale, error)
        finally:
            self.credit_button.finish(rearm=sale is self.sale and sale.state is SaleState.FAILED)
            self._set_working(False)
            self._render()
        if outcome is None or sale is not self.sale:
            return
        self.result_timer.start()
        if outcome.status is CreditStatus.CREDITED and before is not None:
            self.run("level", self._level(outcome, before))

    async def _level(self, outcome: CreditOutcome, before: Client) -> None:
        """Read the client again until a promotion shows (the card follows the session)."""
        change = await follow_level(self.session, before, sleep=self.level_sleep)
        if change is not None and self.sale.outcome is outcome:
            self.result.show_level(change.after)

    def _credit_failed(self, sale: Sale, error: ApiError) -> None:
        log.warning("points: credit failed: %s", error)
        outbox = isinstance(self.flow.sender, OutboxSender)
        self.banner.show_error(
            credit_failed_text(error_text(error), outbox=outbox, maybe_applied=sale.maybe_applied)
        )

    def _problem(self, error: BaseException) -> None:
        if isinstance(error, AmountError):
            self.pad.show_problem(amount_text(error))
        elif isinstance(error, TicketError):
            self.bar.show_ticket_problem(ticket_problem_text())
        elif isinstance(error, SaleError):
            self.banner.show_error(sale_problem_text(error.problem))
        else:
            self.show_error(error)
