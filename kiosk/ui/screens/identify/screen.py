"""Identify: who is at the counter. One big field (typed, or a keyboard-wedge scanner),
then the client, a list of near matches, or enrollment.

- Exact search first; a found client becomes the session's client (the window's
  card shows it) with quick jumps to Points and Rewards, and for a client who has
  not registered, the registration QR (drawn in memory, cleared when the client
  changes, on idle and when the screen is left).
- No exact match: near matches (masked) to tap, and "Enroll new client" prefilled
  from what was typed or scanned (a DNI barcode gives the names too).
- Latest wins: a new search, or typing again, cancels the running one.
- Offline (the search cannot reach the service): "Continue without checking" with
  the email or document typed twice, or a DNI scanned once: an unverified client
  (``kiosk.core.counter.offline_client``; see ``identify_offline``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from functools import cached_property, partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QSize, Qt
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QWidget,
)

from kiosk.api.models.clients import Client
from kiosk.core.amounts import AmountLocale
from kiosk.core.counter import identify
from kiosk.core.counter.identify import Prefill, SearchOutcome, SearchResult
from kiosk.core.counter.offline_client import cannot_check
from kiosk.core.counter.scan import Identity, IdentityKind, ScanProblem, scanned_client
from kiosk.core.session import CounterSession
from kiosk.ui.screens.base import Screen
from kiosk.ui.screens.identify.enrolling import EnrollmentSteps
from kiosk.ui.screens.identify.offline import OfflineStrip
from kiosk.ui.screens.identify.parts import PROBLEM_HINTS, EmptyPage, Pages
from kiosk.ui.widgets.busy_button import BusyButton
from kiosk.ui.widgets.relayout import lay_out_ahead, one_relayout
from kiosk.ui.widgets.scan_field import ScanField
from kiosk.ui.widgets.touch_keyboard import TouchKeyboard, TouchKeyboardController

if TYPE_CHECKING:  # the pages and enrollment are imported when first used
    from kiosk.ui.screens.identify.enroll import EnrollPanel
    from kiosk.ui.screens.identify.found import FoundPanel
    from kiosk.ui.screens.identify.matches import MatchesPanel
    from kiosk.ui.screens.identify.offline import OfflinePanel

log = logging.getLogger(__name__)


class IdentifyScreen(Screen, EnrollmentSteps):
    key = "identify"
    icon_name = "identify"
    needs_client = False

    def __init__(self, session: CounterSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        locale = session.config.locale
        self.day_first = locale is not AmountLocale.EN_US
        self._identity: Identity | None = None
        self._prefill = Prefill()
        self._matches: tuple[Client, ...] = ()
        self._existing: tuple[str, ...] = ()
        self._search_id = 0
        self.search_task: asyncio.Task[Any] | None = None

        self.field = ScanField()
        self.field.setPlaceholderText(self.tr("Scan or type the client's email or DNI"))
        self.field.setAccessibleName(self.tr("Client's email or document"))
        self.field.submitted.connect(self._submitted)
        self.field.textEdited.connect(self._edited)
        self.search_button = BusyButton(self.tr("Search"), primary=True)
        self.search_button.setMinimumSize(180, 72)
        self.search_button.clicked.connect(lambda: self.search(self.field.text()))
        self.field_hint = QLabel()
        self.field_hint.setProperty("role", "field-error")
        self.field_hint.setWordWrap(True)
        self.field_hint.hide()
        self.search_row = QWidget()
        top = QHBoxLayout(self.search_row)
        top.setContentsMargins(0, 0, 0, 0)
        top.setSpacing(12)
        top.addWidget(self.field, 1)
        top.addWidget(self.search_button)

        self.empty = EmptyPage()
        self.offline_strip = OfflineStrip()
        self.offline_strip.continue_requested.connect(self._continue_offline)
        self.pages = Pages()
        self.pages.add_page(self.empty)  # the other pages are built when first shown
        self.scroller = QScrollArea()
        self.scroller.setWidgetResizable(True)
        self.scroller.setFrameShape(QScrollArea.Shape.NoFrame)
        self.scroller.setWidget(self.pages)
        self.scroller.setStyleSheet(
            "QScrollArea, QScrollArea > QWidget > QWidget { background: transparent; }"
        )

        self.scroller.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        mode = str(session.config.extra.get("on_screen_keyboard", "auto"))
        self.keyboard_controller = TouchKeyboardController(self._make_keyboard, mode, owner=self)

        self.body.addWidget(self.search_row)
        self.body.addWidget(self.field_hint)
        self.body.addWidget(self.offline_strip)
        self.body.addWidget(self.scroller, 1)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._focus_changed)
        session.online_changed.connect(lambda _online: self._update_strip())
        self.client_changed(session.client)

    def title(self) -> str:
        return self.tr("Identify")

    @property
    def keyboard(self) -> TouchKeyboard:
        return self.keyboard_controller.keyboard

    def _make_keyboard(self) -> TouchKeyboard:
        keyboard = TouchKeyboard()
        # Eleven keys a row must fit beside the rail at 1280 px.
        keyboard.setStyleSheet("QPushButton { min-width: 40px; min-height: 36px; padding: 4px; }")
        self.body.addWidget(keyboard)  # under the pages, as the last part of the screen
        return keyboard

    # -- pages, built on first use (the counter's start builds only the empty one) ---
    @cached_property
    def found(self) -> FoundPanel:
        from kiosk.ui.screens.identify.found import FoundPanel

        panel = FoundPanel()
        panel.navigate.connect(self.navigate.emit)
        self.pages.add_page(panel)
        return panel

    @cached_property
    def matches(self) -> MatchesPanel:
        from kiosk.ui.screens.identify.matches import MatchesPanel

        panel = MatchesPanel(self.session.config.locale)
        panel.chosen.connect(self._chosen)
        panel.enroll_requested.connect(self.start_enrollment)
        self.pages.add_page(panel)
        return panel

    @cached_property
    def enroll(self) -> EnrollPanel:
        from kiosk.ui.screens.identify.enroll import EnrollPanel

        panel = EnrollPanel(day_first=self.day_first)
        panel.submitted.connect(self.submit_enrollment)
        panel.cancelled.connect(self._back_from_enrollment)
        panel.open_existing.connect(self._open_existing)
        self.pages.add_page(panel)
        return panel

    @cached_property
    def offline(self) -> OfflinePanel:
        from kiosk.ui.screens.identify.offline import OfflinePanel

        panel = OfflinePanel()
        panel.accepted.connect(self.accept_unverified)
        panel.retry_requested.connect(lambda: self.search(self.field.text()))
        self.pages.add_page(panel)
        return panel

    def warm_steps(self) -> list[Callable[[], object]]:
        steps: list[Callable[[], object]] = []
        for name in ("found", "matches", "enroll", "offline"):  # built, then laid out
            steps += [partial(getattr, self, name), partial(self._lay_out_named, name)]
        if self.keyboard_controller.wanted():  # a touch screen (or the setting): it will show
            steps.append(lambda: self.keyboard)
        return steps

    def _lay_out_named(self, name: str) -> None:
        self._lay_out_page(getattr(self, name))

    def _lay_out_page(self, page: QWidget) -> None:
        """Built, and laid out at the width it will have (``Pages`` gives a page its
        height for that width): its first show only moves it into place."""
        width = self.pages.width()
        height = page.heightForWidth(width) if page.hasHeightForWidth() else -1
        lay_out_ahead(page, QSize(width, max(height, page.sizeHint().height())))

    def built(self, name: str) -> Any:
        """The page ``name`` if it was built, else None (without building it)."""
        return self.__dict__.get(name)

    # -- life cycle ------------------------------------------------------------------
    def entered(self) -> None:
        self.take_focus()

    def take_focus(self) -> None:
        """The field has the focus whenever Identify is shown (not while enrolling: the
        form's fields have it)."""
        if self.pages.currentWidget() is not self.built("enroll"):
            self.field.setFocus()

    def escape(self) -> bool:
        """Escape on the enrollment form: back to the search (nothing is sent), unless
        the enrollment is on its way."""
        if self.pages.currentWidget() is not self.built("enroll") or self.tasks.running("enroll"):
            return False
        self._back_from_enrollment()
        return True

    def take_scan(self, text: str) -> bool:
        """A scan on Identify (wherever the focus was): it identifies, as in the field
        (on the enrollment form, only a DNI barcode: other text goes into its field)."""
        scanned = scanned_client(text)
        barcode = scanned is not None and scanned.kind is IdentityKind.DNI_BARCODE
        if self.pages.currentWidget() is self.built("enroll") and not barcode:
            return False
        self.field.clear_input()
        self.field.setText(" ".join(text.split()))
        self.field.setFocus()
        self.search(text, scanned=True)
        return True

    def left(self) -> None:
        self._searching(False)
        if (enroll := self.built("enroll")) is not None:
            enroll.set_busy(False)
        if (found := self.built("found")) is not None:
            found.clear_qr()
        self.keyboard_controller.hide()

    def reset(self) -> None:
        """Idle or change of client: forget everything personal."""
        self.tasks.cancel_all()
        self._searching(False)
        self.field.clear_input()
        self._show_hint(None)
        self._forget()
        if (enroll := self.built("enroll")) is not None:
            enroll.set_busy(False)
            enroll.existing_button.set_busy(False)
            enroll.reset()
        if (offline := self.built("offline")) is not None:
            offline.clear()
        if (found := self.built("found")) is not None:
            found.clear()
        self.banner.dismiss()
        self._show_page(self.empty)
        self.keyboard_controller.hide()  # last: hiding the form moves the focus, which may show it

    def _forget(self) -> None:
        self._identity = None
        self._prefill = Prefill()
        self._matches = ()
        self._existing = ()
        if (matches := self.built("matches")) is not None:
            matches.clear()

    def client_changed(self, client: Client | None) -> None:
        if client is None:
            if (found := self.built("found")) is not None:
                if self.pages.currentWidget() is found:
                    self._show_page(self.empty)
                    self.field.clear_input()
                found.clear()
            return
        self.found.show_client(client)  # a new client clears the QR of the previous one
        self._show_page(self.found)

    def at_counter(self, client: Client) -> None:
        """``client`` is at the counter: shown here through the session's announcement
        (``client_changed``), or directly when it is the very record already there."""
        if not self.session.set_client(client):
            self.client_changed(client)

    def _show_page(self, panel: QWidget) -> None:
        # The form needs the room: while enrolling the search row steps aside.
        enrolling = panel is self.built("enroll")
        with one_relayout(self), one_relayout(self.pages):  # one layout for the switch
            self.search_row.setVisible(not enrolling)
            if enrolling:
                self.field_hint.hide()
            self.pages.setCurrentWidget(panel)
            self._update_strip()
        self.scroller.verticalScrollBar().setValue(0)

    def _update_strip(self) -> None:
        """Offline, the empty page says so and offers the way in."""
        shown = not self.session.online and self.pages.currentWidget() is self.empty
        self.offline_strip.setVisible(shown)

    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if new is not None and self.scroller.isAncestorOf(new):
            self.scroller.ensureWidgetVisible(new)

    def _start(
        self, name: str, coro: Coroutine[Any, Any, Any], *, buttons: Sequence[BusyButton] = ()
    ) -> asyncio.Task[Any]:
        """``run()``, and a task replaced before its first step does not leave ``coro``
        never awaited (a scanner's Enter and a tap can land in the same loop turn)."""
        task = self.run(name, coro, buttons=buttons)
        task.add_done_callback(lambda _task: coro.close())
        return task

    # -- searching -------------------------------------------------------------------
    def _edited(self, _text: str) -> None:
        # Latest wins: a new keystroke cancels the search that was running.
        if self.tasks.running("search"):
            self.tasks.cancel("search")
            self._searching(False)
        self._show_hint(None)

    def _submitted(self, text: str, scanned: bool) -> None:
        self.search(text, scanned=scanned)

    def search(self, text: str, *, scanned: bool = False) -> None:
        identity = identify.classify(text)
        if identity.kind is IdentityKind.DNI_BARCODE:
            # The field shows the document, not the whole barcode (names, dates...).
            self.field.setText(identity.query)
        if not identity.is_valid:
            if identity.problem in (ScanProblem.BARCODE_UNREADABLE, ScanProblem.TOO_LONG):
                self.field.clear_input()  # a broken scan: start afresh (and hold no names)
            self._show_hint(identity.problem or ScanProblem.NOT_RECOGNIZED)
            self.tasks.cancel("search")
            self._searching(False)
            return
        self._show_hint(None)
        self.banner.dismiss()
        self._identity = identity
        log.info("identify: %s search%s", identity.kind.value, " (scanned)" if scanned else "")
        self._search_id += 1
        self._searching(True)  # now, not at the task's first step: a double tap is refused
        self.search_task = self._start("search", self._search(identity, self._search_id))

    async def _search(self, identity: Identity, search_id: int) -> None:
        try:
            result = await identify.search(self.session.api, identity, call=self.session.call)
        except Exception as error:
            if search_id == self._search_id and (cannot_check(error) or not self.session.online):
                self.offline.show_offer(identity)
                self._show_page(self.offline)
            raise
        finally:
            if search_id == self._search_id:
                self._searching(False)
        self._show_result(result)

    def _show_result(self, result: SearchResult) -> None:
        self._prefill = result.prefill
        if result.outcome is SearchOutcome.FOUND and result.client is not None:
            self.at_counter(result.client)
            return
        self._matches = result.matches
        self.matches.show_matches(result.matches, more=result.more_matches)
        self._show_page(self.matches)
        # Whoever is at the counter now is not the client identified before.
        self.session.clear_client()

    def _searching(self, busy: bool) -> None:
        self.search_button.set_busy(busy)
        if (matches := self.built("matches")) is not None:
            matches.set_enabled_rows(not busy)

    def _show_hint(self, problem: ScanProblem | None) -> None:
        invalid = problem is not None
        if problem is None:
            if not self.field_hint.isHidden():
                self.field_hint.hide()
                self.field_hint.setText("")
        else:
            self.field_hint.setText(
                QCoreApplication.translate("IdentifyScreen", str(PROBLEM_HINTS[problem]))
            )
            self.field_hint.show()
        if bool(self.field.property("invalid")) != invalid:  # re-styled only when it flips
            self.field.setProperty("invalid", invalid)
            self.field.style().unpolish(self.field)
            self.field.style().polish(self.field)

    def _chosen(self, client_id: int) -> None:
        row = next((c for c in self._matches if c.id == client_id), None)
        if row is None:
            return
        self._search_id += 1
        self._searching(True)
        self.search_task = self._start("search", self._select(row, self._search_id))

    async def _select(self, row: Client, search_id: int) -> None:
        try:
            client = await identify.reread(self.session.api, row, call=self.session.call)
        finally:
            if search_id == self._search_id:
                self._searching(False)
        self.at_counter(client)

    # -- offline -----------------------------------------------------------------------
    def _continue_offline(self) -> None:
        self.banner.dismiss()
        self.offline.clear()
        self.offline.show_form(self.field.text().strip())
        self._show_page(self.offline)

    def accept_unverified(self, client: Client) -> None:
        """The client given offline, unchecked: points go through the outbox."""
        self._forget()
        self.offline.clear()
        self.field.clear_input()
        self.at_counter(client)
        self.banner.show_info(
            self.tr("Client not verified: their points are credited when the connection returns.")
        )
