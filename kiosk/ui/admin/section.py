"""What every administration section shares: its pages (the list, a form, a detail),
the confirmation sheet of destructive actions, and how a write's refusal is shown.

A section is a ``Screen`` (banner, tasks that are replaced by name and cancelled
when it is left). The manager view shows it; its list loads the first time it is
shown (or on ``entered()``) and again on each ``entered()``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from datetime import datetime
from typing import Any, TypeVar

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QWidget

from kiosk.api.errors import AmbiguousOutcome, ApiError, ErrorKind
from kiosk.core.admin.forms import Refusal
from kiosk.core.amounts import AmountLocale
from kiosk.core.session import CounterSession
from kiosk.ui.admin.form import FormPanel
from kiosk.ui.admin.list_view import AdminList
from kiosk.ui.messages import error_text
from kiosk.ui.screens.base import Screen
from kiosk.ui.widgets.busy_button import BusyButton
from kiosk.ui.widgets.confirm_sheet import ConfirmSheet
from kiosk.ui.widgets.relayout import PageStack
from kiosk.ui.widgets.touch_keyboard import TouchKeyboard, TouchKeyboardController

log = logging.getLogger(__name__)

T = TypeVar("T")
Explain = Callable[[ApiError], Refusal | None]

# Refusals that are the manager's to fix (plain words in the banner, no alarm in the log).
REFUSALS = frozenset(
    {ErrorKind.VALIDATION, ErrorKind.BAD_REQUEST, ErrorKind.CONFLICT, ErrorKind.NOT_FOUND}
)


def date_text(value: datetime | None, locale: AmountLocale) -> str:
    if value is None:
        return ""
    local = value.astimezone()
    if locale is AmountLocale.EN_US:
        return local.strftime("%m/%d/%Y")
    return local.strftime("%d/%m/%Y")


class AdminSection(Screen):
    """Subclasses build ``self.list`` and their forms, then call ``add_page``."""

    key = "admin"
    icon_name = "manager"
    needs_client = False
    list: AdminList

    def __init__(self, session: CounterSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.amount_locale = session.config.locale
        self.pages = PageStack()
        self.sheet = ConfirmSheet(scroll=True)  # in the place of the page that asked
        self.sheet.confirmed.connect(self._sheet_confirmed)
        self.sheet.dismissed.connect(self._sheet_dismissed)
        # The kiosk's own keyboard for touch screens without one (as on Identify).
        self.keyboard = TouchKeyboard()
        self.keyboard.setStyleSheet(
            "QPushButton { min-width: 40px; min-height: 36px; padding: 4px; }"
        )
        mode = str(session.config.extra.get("on_screen_keyboard", "auto"))
        self.keyboard_controller = TouchKeyboardController(self.keyboard, mode, owner=self)
        self.body.addWidget(self.pages, 1)
        self.body.addWidget(self.sheet)
        self.body.addWidget(self.keyboard)
        self._started = False
        # What the error banner says went wrong: a task's name (gone when that task next
        # ends well) or a form (gone when its fields with problems were all edited).
        self._banner_cause: object = None

    def say_in(self, host: Screen) -> None:
        """Inside manager mode (``host``): its banner, and its margins too (the host keeps
        them; twice took 48 px of a form's width and 32 of its height at 1024x768)."""
        super().say_in(host)
        layout = self.layout()
        if layout is not None:
            layout.setContentsMargins(0, 0, 0, 0)

    # -- pages -------------------------------------------------------------------------------
    def add_page(self, page: QWidget) -> None:
        self.pages.addWidget(page)
        if isinstance(page, FormPanel):
            page.problems_cleared.connect(lambda form=page: self._cause_gone(form))

    def drop_page(self, page: QWidget | None) -> None:
        """A page built for one use (a form) is left for good: out of the stack, deleted."""
        if page is not None:
            self.pages.removeWidget(page)
            page.deleteLater()

    def show_page(self, page: QWidget) -> None:
        self.sheet.dismiss()
        self.keyboard.hide()
        self.pages.setCurrentWidget(page)

    def back_to_list(self) -> None:
        self.show_page(self.list)

    # -- the error banner's cause ---------------------------------------------------------
    def run(
        self,
        name: str,
        coro: Coroutine[Any, Any, Any],
        *,
        buttons: Sequence[BusyButton] = (),
    ) -> asyncio.Task[Any]:
        """``Screen.run``; a task that fails is the banner's cause, and the banner goes
        when a task of that name next ends well (the list loads again, say)."""

        async def watched() -> Any:
            try:
                result = await coro
            except Exception:
                self._banner_cause = name  # the screen shows it in the banner
                raise
            self._cause_gone(name)
            return result

        task = super().run(name, watched(), buttons=buttons)
        task.add_done_callback(lambda _: coro.close())  # replaced before it ever ran
        return task

    def say_error(self, text: str, cause: object = None) -> None:
        """The banner says ``text``; it goes when ``cause`` is gone (see ``run``)."""
        self._banner_cause = cause
        self.banner.show_error(text)

    def _cause_gone(self, cause: object) -> None:
        if (cause is not None and cause is self._banner_cause) or cause == self._banner_cause:
            self._banner_cause = None
            if self.banner.kind == "error":
                self.banner.dismiss()

    # -- life --------------------------------------------------------------------------------
    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._started:
            self.entered()

    def entered(self) -> None:
        self._started = True
        self.refresh()

    def refresh(self) -> None:
        """What the section needs when shown: the list (and its choices)."""
        self.list.reload()

    def left(self) -> None:
        self.sheet.dismiss()
        self.keyboard.hide()

    def reset(self) -> None:
        """Back to the list, forms emptied (they may hold personal data)."""
        self.tasks.cancel_all()
        self.sheet.dismiss()
        self.banner.dismiss()
        self.back_to_list()
        self.forget()
        self.keyboard.hide()  # last: clearing the forms moves the focus, which may show it

    def forget(self) -> None:
        """Subclasses empty their forms and details here."""

    # -- writes ------------------------------------------------------------------------------
    async def submit(
        self, panel: FormPanel, make: Callable[[], Awaitable[T]], explain: Explain | None
    ) -> T | None:
        """Send one write of ``panel``; ``None`` when the API refused it (shown on the
        fields and in the banner). Other failures raise (the banner, via ``run``)."""
        panel.clear_problems()
        panel.set_busy(True)
        try:
            return await self.session.call(make)
        except AmbiguousOutcome:
            # The answer was lost: the list shows whether it happened before a retry.
            self.list.reload()
            raise
        except ApiError as error:
            if self.refused(error, panel, explain):
                return None
            raise
        finally:
            panel.set_busy(False)

    def refused(self, error: ApiError, panel: FormPanel | None, explain: Explain | None) -> bool:
        """Show a refusal the manager can fix; False when ``error`` is something else."""
        refusal = explain(error) if explain is not None else None
        if refusal is not None and panel is not None:
            panel.show_problems(refusal.problems, refusal.unknown)
            self.say_error(self.refusal_text(error), panel)
            log.info("%s: refused on %s", self.key, ", ".join(sorted(refusal.problems)))
            return True
        if error.kind in REFUSALS:
            self.say_error(self.refusal_text(error))
            log.info("%s: refused: %s", self.key, error)
            return True
        return False

    def refusal_text(self, error: ApiError) -> str:
        return error_text(error)

    async def confirmed_write(self, make: Callable[[], Awaitable[Any]]) -> bool:
        """Run the write the sheet confirmed; True when it happened."""
        self.sheet.set_running(True)
        try:
            await self.session.call(make)
        except AmbiguousOutcome:
            self.sheet.dismiss()
            self.list.reload()
            raise
        except ApiError as error:
            if self.refused(error, None, None):
                self.sheet.dismiss()
                return False
            raise
        finally:
            self.sheet.set_running(False)
        self.sheet.dismiss()
        return True

    def ask(
        self,
        action: str,
        question: str,
        consequence: str,
        confirm_text: str,
        *,
        subject: object = None,
        extra: QWidget | None = None,
        danger: bool = True,
        icon_name: str = "trash",
    ) -> None:
        """Show the confirmation sheet; the page under it waits for the answer."""
        self.banner.dismiss()
        self.sheet.ask(
            question,
            consequence,
            confirm_text,
            extra=extra,
            icon_name=icon_name,
            danger=danger,
            action=action,
            subject=subject,
        )
        # The sheet takes the page's place: all the height for what will happen.
        self.pages.setEnabled(False)
        self.pages.hide()

    def _sheet_dismissed(self) -> None:
        self.pages.setEnabled(True)
        self.pages.show()

    def _sheet_confirmed(self) -> None:
        action = self.sheet.action
        if action and not self.tasks.running(action):
            self.confirm(action, self.sheet.subject)
        if self.sheet.asking and not self.tasks.running(action):
            self.sheet.confirm.set_busy(False)  # nothing sent (a reason missing): tap again

    def confirm(self, action: str, subject: object) -> None:
        """The sheet's action was confirmed (subclasses start the write)."""
