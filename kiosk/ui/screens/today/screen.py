"""Today: every operation made on this kiosk today, newest first; cancel a credit from here.

The table is a model over the journal's rows (``kiosk.ui.screens.today.model``), fed
by ``JournalFeed``: the day's newest page when Today first opens (older pages as the
cashier scrolls), then only the rows whose ids the journal announces as changed
(``session.journal.changed``), shown or not, with the summary from one COUNT/SUM
query: opening Today only shows them, whatever the day's size.
"Cancel credit" on an active credit opens a confirmation sheet that says exactly
what will happen; confirming asks ``authorize_cancel`` and then runs
``kiosk.core.counter.cancel.cancel_credit`` (which journals the cancel and refreshes the
client at the counter when it is the credited one).

With the outbox (issue #5) the cancel goes through it (a never-sent credit is
voided with it), and a toggle "Today | Pending (N)" shows the Pending list
(``kiosk.ui.screens.today.pending``): waiting and dead-letter rows, "Retry now",
and "Discard" on a dead letter behind ``authorize_discard`` (the manager's PIN).
It is fed like the day's list (``PendingFeed``): its first page when first shown,
further pages as the manager scrolls, then only the rows whose ids the outbox
announces (``outbox.rows_changed``), at once while it is shown, else when it is
shown again; the tab's count follows ``session.pending_changed``.

Manager PIN (issue #6): ``authorize_cancel`` is the one hook. It is awaited with
the credit about to be canceled, after the cashier confirms and before anything
is sent; return False to refuse (the banner says so), None when the person went
back without deciding (the confirmation stays, no banner). It allows everything
until manager mode exists. The PIN sheet (``kiosk.ui.manager.authorize``) is placed
here (``show_pin_sheet``): the day's list steps aside while it shows, the question
stays above it, and the sheet's words say what the PIN is for.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from kiosk.core.amounts import format_points
from kiosk.core.counter.cancel import CancelOutcome, CancelReport, cancel_credit
from kiosk.core.journal import DayTotals, JournalEntry
from kiosk.core.outbox.listing import ListCounts
from kiosk.core.outbox.queue import OutboxStatus
from kiosk.core.session import CounterSession
from kiosk.ui.icons import icon
from kiosk.ui.screens.base import Screen
from kiosk.ui.screens.today.feed import JournalFeed
from kiosk.ui.screens.today.pending import PendingPanel
from kiosk.ui.screens.today.pending_feed import PendingFeed
from kiosk.ui.screens.today.table import JournalTable
from kiosk.ui.screens.today.text import cancel_texts
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.busy_button import BusyButton
from kiosk.ui.widgets.confirm_sheet import ConfirmSheet
from kiosk.ui.widgets.relayout import PageStack, one_relayout

if TYPE_CHECKING:  # manager mode is imported when Today is guarded, not at start-up
    from kiosk.ui.manager.authorize import PinSheet

# True: go on; False: refused; None: the person went back (nothing to say).
AuthorizeCancel = Callable[[JournalEntry], Awaitable[bool | None]]
AuthorizeDiscard = Callable[[int], Awaitable[bool | None]]


async def allow_cancel(entry: JournalEntry) -> bool | None:
    """Until manager mode (issue #6): every cashier may cancel a credit."""
    return True


async def allow_discard(row_id: int) -> bool | None:
    """Without manager mode (tests): every discard is allowed."""
    return True


class TodayScreen(Screen):
    key = "today"
    icon_name = "today"
    needs_client = False

    def __init__(self, session: CounterSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.authorize_cancel: AuthorizeCancel = allow_cancel
        self.authorize_discard: AuthorizeDiscard = allow_discard
        locale = session.config.locale
        heading = QLabel(self.tr("Today on this kiosk"))
        heading.setProperty("role", "heading")
        self.summary = QLabel()
        self.summary.setProperty("role", "muted")
        self.summary.setWordWrap(True)  # gives way to the tabs (Spanish, 1024 px)
        # The rows follow the journal by themselves: "Refresh" is the icon alone, which
        # leaves the heading and the tabs their room at 1024 px in Spanish.
        self.reload_button = BusyButton()
        self.reload_button.setIcon(icon("refresh", current_palette().accent))
        self.reload_button.setIconSize(QSize(24, 24))
        self.reload_button.setToolTip(self.tr("Refresh"))
        self.reload_button.setAccessibleName(self.tr("Refresh"))
        self.reload_button.setMinimumHeight(48)
        self.reload_button.clicked.connect(self.refresh)
        self.today_tab = QPushButton(self.tr("Today"))
        self.pending_tab = QPushButton()
        self.tabs = QButtonGroup(self)
        for tab in (self.today_tab, self.pending_tab):
            tab.setCheckable(True)
            tab.setMinimumHeight(48)
            self.tabs.addButton(tab)
        self.today_tab.setChecked(True)
        self.today_tab.clicked.connect(self.show_today)
        self.pending_tab.clicked.connect(self.show_pending)
        self.pending_panel = PendingPanel(amount_locale=session.config.locale)
        self.pending_panel.retry.clicked.connect(self.retry_now)
        self.pending_panel.table.discard_requested.connect(self.discard)
        self.pending_feed: PendingFeed | None = None
        if session.outbox is not None:
            self.pending_feed = PendingFeed(
                session.outbox, self.pending_panel.table.pending_model, self.run, self._listing
            )
            self.pending_feed.counts_changed.connect(self._show_counts)
        self._set_pending_count(0, 0)
        self.top_bar = QWidget()  # steps aside while a cancel's PIN is asked
        top = QHBoxLayout(self.top_bar)
        top.setContentsMargins(0, 0, 0, 0)
        top.setSpacing(16)
        titles = QVBoxLayout()
        titles.setSpacing(2)
        titles.addWidget(heading)
        titles.addWidget(self.summary)
        top.addLayout(titles, 1)
        if session.outbox is not None:
            top.addWidget(self.today_tab, 0, Qt.AlignmentFlag.AlignBottom)
            top.addWidget(self.pending_tab, 0, Qt.AlignmentFlag.AlignBottom)
        else:
            self.today_tab.hide()
            self.pending_tab.hide()
        top.addWidget(self.reload_button, 0, Qt.AlignmentFlag.AlignBottom)
        # The parts go into the screen, then their contents into them: each is styled
        # once as it joins (a finished tree put in a parent is styled again).
        self.body.addWidget(self.top_bar)
        self.stack = PageStack()
        self.body.addWidget(self.stack, 1)
        self.table = JournalTable(locale)
        self.table.queued = session.outbox is not None
        self.table.cancel_requested.connect(self.ask_cancel)
        self.feed = JournalFeed(session.journal, self.table.journal_model, self.run)
        self.feed.totals_changed.connect(self._show_totals)
        self.empty = QLabel(
            self.tr(
                "No operations on this kiosk today yet.\n"
                "Credits, exchanges, deliveries and cancels will appear here."
            )
        )
        self.empty.setProperty("role", "muted")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.table)
        self.stack.addWidget(self.pending_panel)
        # The list's least height is its header and a row, not the Pending page's (which
        # never shares the screen with the cancel's confirmation): the question keeps the
        # height its words need at 1024x768 with a client card.
        self.stack.setMinimumHeight(self.table.minimumSizeHint().height())
        self.sheet = ConfirmSheet(confirm_width=280)  # what cancelling a credit does
        self.sheet.confirmed.connect(self.confirm_cancel)
        self.room = QWidget()  # the list's room while a PIN is asked: the sheets stay low
        self.room.hide()
        self.body.addWidget(self.room, 1)
        self.body.addWidget(self.sheet)
        self._shown = False
        session.pending_changed.connect(self._pending_changed)

    def title(self) -> str:
        return self.tr("Today")

    # -- screen life -------------------------------------------------------------
    def entered(self) -> None:
        self._shown = True
        self.reload()

    async def preload(self) -> None:
        """Built ahead (the warm-up): the day's newest page read, the first tap shows it."""
        if not self.feed.opened:
            await self.feed.open()

    def left(self) -> None:
        self._shown = False
        self.sheet.dismiss()
        self.table.set_actions_enabled(True)

    def reset(self) -> None:
        with one_relayout(self):
            self.sheet.dismiss()
            self.banner.dismiss()
        self.table.set_actions_enabled(True)

    def _pending_changed(self, status: OutboxStatus) -> None:
        self._set_pending_count(status.pending, status.dead)

    def _listing(self) -> bool:
        """The Pending list is on screen: its feed reads changes at once."""
        return self._shown and self.pending_tab.isChecked()

    def _show_counts(self, counts: ListCounts) -> None:
        self._set_pending_count(counts.pending, counts.dead)
        self.pending_panel.show_counts(counts)

    def _set_pending_count(self, pending: int, dead: int) -> None:
        self.pending_tab.setText(self.tr("Pending (%1)").replace("%1", str(pending + dead)))
        alarm = current_palette().danger if dead else None
        self.pending_tab.setStyleSheet(f"color: {alarm}; font-weight: 700;" if alarm else "")

    # -- the Pending list ------------------------------------------------------------
    def show_today(self) -> None:
        self.today_tab.setChecked(True)
        self.reload()

    def show_pending(self) -> None:
        if self.session.outbox is None:
            return
        self.pending_tab.setChecked(True)
        self.sheet.dismiss()
        self.reload()

    def retry_now(self) -> None:
        outbox = self.session.outbox
        if outbox is not None:
            self.run("retry", self._retry(), buttons=[self.pending_panel.retry])

    async def _retry(self) -> None:
        outbox = self.session.outbox
        assert outbox is not None
        count = await outbox.retry_now()  # the list reads itself again (rows_changed)
        self.banner.show_info(self.tr("%n operation(s) will be sent again now.", "", count))

    def discard(self, row_id: int) -> None:
        entry = self.pending_panel.table.entry(row_id)
        if entry is None or self.tasks.running("discard"):
            return
        self.pending_panel.table.set_actions_enabled(False)
        self.run("discard", self._discard(row_id), buttons=[])

    async def _discard(self, row_id: int) -> None:
        outbox = self.session.outbox
        assert outbox is not None
        try:
            allowed = await self.authorize_discard(row_id)
            if allowed is None:  # went back: nothing to say
                return
            if not allowed:
                self.banner.show_error(self.tr("Not authorized. The operation stays in the list."))
                return
            await outbox.discard(row_id)
        finally:
            self.pending_panel.table.set_actions_enabled(True)
        self.banner.show_success(
            self.tr("Discarded: it will not be sent. Today's list shows it as failed.")
        )  # its row leaves the list by itself (rows_changed)

    # -- the table ---------------------------------------------------------------
    def reload(self) -> None:
        self.run("load", self._load(), buttons=[self.reload_button])

    def refresh(self) -> None:
        """ "Refresh": the day's newest page read again (the list, not the whole day)."""
        self.run("load", self._load(fresh=True), buttons=[self.reload_button])

    async def _load(self, *, fresh: bool = False) -> None:
        pending = self.pending_feed
        if pending is not None and self.pending_tab.isChecked():
            if fresh:
                await pending.open()  # "Refresh": the first page again
            else:
                await pending.show()
            self.stack.setCurrentWidget(self.pending_panel)
            return
        feed = self.feed
        if fresh or not feed.opened or feed.model.day != await self.session.journal.day():
            await feed.open()  # the first opening, a new day, "Refresh": the newest page
        else:
            await feed.catch_up()  # kept current meanwhile: only what is still waiting
            self._show_totals(feed.totals)

    def _show_totals(self, totals: DayTotals) -> None:
        """After each read: the summary, the list or "No operations", and the question
        of a cancel whose credit was canceled meanwhile (another screen, a resend)."""
        with one_relayout(self):
            if not self.pending_tab.isChecked() or self.session.outbox is None:
                shown = self.table if self.table.rowCount() else self.empty
                if self.stack.currentWidget() is not shown:
                    self.stack.setCurrentWidget(shown)
            self.summary.setText(self._summary(totals))
            pending = self.asked()
            if pending is not None:
                fresh = self.table.entry(pending.id)
                if fresh is None or fresh.canceled:
                    self.sheet.dismiss()

    def _summary(self, totals: DayTotals) -> str:
        """What the day counts (canceled credits do not count as credited)."""
        count = (
            self.tr("1 operation")
            if totals.operations == 1
            else self.tr("%1 operations").replace("%1", str(totals.operations))
        )
        points = self.tr("%1 points credited").replace(
            "%1", format_points(totals.points, self.session.config.locale)
        )
        return f"{count} · {points}"

    # -- cancelling a credit -------------------------------------------------------
    def ask_cancel(self, entry_id: int) -> None:
        entry = self.table.entry(entry_id)
        if entry is None or self.tasks.running("cancel"):
            return
        with one_relayout(self):  # the sheet in, a banner out: one layout
            self.banner.dismiss()
            question, consequence, confirm = cancel_texts(entry, self.session.config.locale)
            self.sheet.ask(question, consequence, confirm, action="cancel", subject=entry)

    def asked(self) -> JournalEntry | None:
        """The credit whose cancel the sheet asks about."""
        entry = self.sheet.subject
        return entry if isinstance(entry, JournalEntry) else None

    def confirm_cancel(self) -> None:
        entry = self.asked()
        if entry is None or self.tasks.running("cancel"):
            return
        # The sheet's CommitButton is busy since the tap (a second one is ignored).
        self.table.set_actions_enabled(False)
        self.sheet.set_running(True)
        self.run("cancel", self._cancel(entry))

    async def _cancel(self, entry: JournalEntry) -> None:
        try:
            allowed = await self.authorize_cancel(entry)
            if allowed is None:  # the manager's PIN sheet was left: back to the question
                return
            if not allowed:
                self.banner.show_error(self.tr("This cancel was not authorized. Nothing changed."))
                return
            report = await cancel_credit(self.session, entry)
        finally:
            self.table.set_actions_enabled(True)
            self.sheet.finish(rearm=True)  # the same cancel may be confirmed again
        with one_relayout(self):  # the sheet out, the banner in: one layout
            self._canceled(entry, report)

    # -- the manager's PIN (kiosk.ui.manager.authorize.PinHost) ----------------------
    def show_pin_sheet(self, sheet: PinSheet) -> None:
        """The PIN for a cancel goes under its question, the list and the tabs out of the
        way (the whole pad fits at 1024x768, long names and Spanish included); for a
        discard, under the Pending list."""
        with one_relayout(self):
            if self.sheet.isVisible():
                sheet.panel.set_purpose(self.tr("Enter the manager PIN to cancel this credit."))
                self.top_bar.hide()
                self.stack.hide()
                self.room.show()
                self.sheet.asking_pin(True)
            else:
                sheet.panel.set_purpose(self.tr("Enter the manager PIN to discard this operation."))
            self.body.addWidget(sheet)
            sheet.show()

    def hide_pin_sheet(self, sheet: PinSheet) -> None:
        with one_relayout(self):
            self.body.removeWidget(sheet)
            sheet.hide()
            self.room.hide()
            self.top_bar.show()
            self.stack.show()
            self.sheet.asking_pin(False)

    def _canceled(self, entry: JournalEntry, report: CancelReport) -> None:
        self.sheet.dismiss()
        if report.outcome is CancelOutcome.VOIDED:
            self.banner.show_success(
                self.tr("The credit had not been sent yet: it is voided. No points were given.")
            )
            return
        if report.outcome is CancelOutcome.PENDING:
            self.banner.show_info(
                self.tr("Cancel saved: it will be sent automatically (see Pending).")
            )
            return
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
