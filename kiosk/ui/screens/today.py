"""Today: every operation made on this kiosk today, newest first; cancel a credit from here.

The table is read from the journal (``session.journal.today()``) when the screen
is shown and whenever the journal changes (``session.journal_changed``) while it
is. "Cancel credit" on an active credit opens a confirmation sheet that says
exactly what will happen; confirming asks ``authorize_cancel`` and then runs
``kiosk.core.cancel.cancel_credit`` (which journals the cancel and refreshes the
client at the counter when it is the credited one).

Manager PIN (issue #6): ``authorize_cancel`` is the one hook. It is awaited with
the credit about to be canceled, after the cashier confirms and before anything
is sent; return False to refuse. It allows everything until manager mode exists.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QStackedWidget, QVBoxLayout, QWidget

from kiosk.core.amounts import format_points
from kiosk.core.cancel import CancelOutcome, cancel_credit
from kiosk.core.journal import JournalEntry, OperationKind, Outcome
from kiosk.core.session import CounterSession
from kiosk.ui.icons import icon
from kiosk.ui.screens.base import Screen
from kiosk.ui.screens.today_sheet import CancelSheet
from kiosk.ui.screens.today_table import JournalTable
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.busy_button import BusyButton

AuthorizeCancel = Callable[[JournalEntry], Awaitable[bool]]


async def allow_cancel(entry: JournalEntry) -> bool:
    """Until manager mode (issue #6): every cashier may cancel a credit."""
    return True


class TodayScreen(Screen):
    key = "today"
    icon_name = "today"
    needs_client = False

    def __init__(self, session: CounterSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.authorize_cancel: AuthorizeCancel = allow_cancel
        locale = session.config.locale
        heading = QLabel(self.tr("Today on this kiosk"))
        heading.setProperty("role", "heading")
        self.summary = QLabel()
        self.summary.setProperty("role", "muted")
        self.reload_button = BusyButton(self.tr("Refresh"))
        self.reload_button.setIcon(icon("refresh", current_palette().accent))
        self.reload_button.setMinimumHeight(48)
        self.reload_button.clicked.connect(self.reload)
        top = QHBoxLayout()
        top.setSpacing(16)
        titles = QVBoxLayout()
        titles.setSpacing(2)
        titles.addWidget(heading)
        titles.addWidget(self.summary)
        top.addLayout(titles, 1)
        top.addWidget(self.reload_button, 0, Qt.AlignmentFlag.AlignBottom)
        self.table = JournalTable(locale)
        self.table.cancel_requested.connect(self.ask_cancel)
        self.empty = QLabel(
            self.tr(
                "No operations on this kiosk today yet.\n"
                "Credits, exchanges, deliveries and cancels will appear here."
            )
        )
        self.empty.setProperty("role", "muted")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.table)
        self.sheet = CancelSheet(locale)
        self.sheet.confirmed.connect(self.confirm_cancel)
        self.body.addLayout(top)
        self.body.addWidget(self.stack, 1)
        self.body.addWidget(self.sheet)
        self._shown = False
        session.journal_changed.connect(self._journal_changed)

    def title(self) -> str:
        return self.tr("Today")

    # -- screen life -------------------------------------------------------------
    def entered(self) -> None:
        self._shown = True
        self.reload()

    def left(self) -> None:
        self._shown = False
        self.sheet.dismiss()
        self.table.set_actions_enabled(True)

    def reset(self) -> None:
        self.sheet.dismiss()
        self.banner.dismiss()
        self.table.set_actions_enabled(True)
        if not self._shown:
            self.table.show_entries([])  # read again when shown

    def _journal_changed(self, _: None) -> None:
        if self._shown:
            self.reload()

    # -- the table ---------------------------------------------------------------
    def reload(self) -> None:
        self.run("load", self._load(), buttons=[self.reload_button])

    async def _load(self) -> None:
        entries = await self.session.journal.today()
        self.table.show_entries(entries)
        self.stack.setCurrentWidget(self.table if entries else self.empty)
        self.summary.setText(self._summary(entries))
        pending = self.sheet.entry
        if pending is not None:
            fresh = self.table.entry(pending.id)
            if fresh is None or fresh.canceled:
                self.sheet.dismiss()  # canceled meanwhile (another screen, a resend)

    def _summary(self, entries: list[JournalEntry]) -> str:
        given = sum(  # what stays credited: canceled credits do not count
            e.points or 0
            for e in entries
            if e.kind is OperationKind.CREDIT and e.outcome is Outcome.OK and not e.canceled
        )
        count = (
            self.tr("1 operation")
            if len(entries) == 1
            else self.tr("%1 operations").replace("%1", str(len(entries)))
        )
        points = self.tr("%1 points credited").replace(
            "%1", format_points(given, self.session.config.locale)
        )
        return f"{count} · {points}"

    # -- cancelling a credit -------------------------------------------------------
    def ask_cancel(self, entry_id: int) -> None:
        entry = self.table.entry(entry_id)
        if entry is None or self.tasks.running("cancel"):
            return
        self.banner.dismiss()
        self.sheet.ask(entry)

    def confirm_cancel(self) -> None:
        entry = self.sheet.entry
        if entry is None or self.tasks.running("cancel"):
            return
        self.table.set_actions_enabled(False)
        self.sheet.set_running(True)
        self.run("cancel", self._cancel(entry), buttons=[self.sheet.confirm])

    async def _cancel(self, entry: JournalEntry) -> None:
        try:
            if not await self.authorize_cancel(entry):
                self.banner.show_error(self.tr("This cancel was not authorized. Nothing changed."))
                return
            report = await cancel_credit(self.session, entry)
        finally:
            self.table.set_actions_enabled(True)
            self.sheet.set_running(False)
        self.sheet.dismiss()
        if report.outcome is CancelOutcome.NOT_FOUND:
            self.banner.show_info(
                self.tr("This credit was already canceled or does not exist. Nothing was changed.")
            )
            return
        points = format_points(report.points or 0, self.session.config.locale)
        client = entry.client or self.tr("the client")
        self.banner.show_success(
            self.tr("Credit canceled: %1 points taken back from %2.")
            .replace("%1", points)
            .replace("%2", client)
        )
