"""What every counter screen shares: its session, its tasks, its banner, busy buttons.

A screen never builds a URL or parses JSON: it calls ``kiosk.core`` (or the session's
API client through ``session.call``) and shows the result. ``run()`` starts a task
whose failure ends in the screen's banner as a sentence for the cashier, with the
details in the log.

A hidden screen hears of a new client in the next turn of the event loop, after the
window's paint (``catch_up``), or as it is shown if that comes first: the answer that
identified the client changes and paints only what the cashier sees (issue #4).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

from kiosk.api.errors import ApiError
from kiosk.api.models.clients import Client
from kiosk.core.amounts import AmountError
from kiosk.core.session import CounterSession
from kiosk.core.storage import is_disk_full
from kiosk.ui.messages import error_text
from kiosk.ui.tasks import ScreenTasks
from kiosk.ui.widgets.banner import Banner, BannerSlot
from kiosk.ui.widgets.busy_button import BusyButton

log = logging.getLogger(__name__)


class Screen(QWidget):
    """Base of the rail's screens. Subclasses set ``key``, ``icon_name`` and
    ``needs_client`` and implement ``title()``; they build into ``self.body``."""

    key = "screen"
    icon_name = "info"
    needs_client = False
    # Ask the window to show another screen (by key), e.g. after enrolling.
    navigate = Signal(str)

    def __init__(self, session: CounterSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.tasks = ScreenTasks(self._task_failed)
        self.banner = Banner(self)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(24, 16, 24, 16)
        outer.setSpacing(12)
        # The banner's room is kept, and the banner drawn over it: showing one never
        # moves what the cashier is about to tap (kiosk/ui/widgets/banner.py).
        self.banner_slot = BannerSlot(self.banner, self)
        outer.addWidget(self.banner_slot)
        self.body = QVBoxLayout()
        self.body.setSpacing(16)
        outer.addLayout(self.body, 1)
        self._missed: list[Client | None] = []  # client changes not seen yet (hidden)
        # A zero timer, not QTimer.singleShot(0, ...): that one is a posted event, run
        # in the next pass before the paint (UpdateRequest is posted at a lower
        # priority), so the catch-up would still sit between the answer and its paint.
        # A zero timer is due in the next pass's timers: after the paint.
        self._catch_up_timer = QTimer(self)
        self._catch_up_timer.setSingleShot(True)
        self._catch_up_timer.setInterval(0)
        self._catch_up_timer.timeout.connect(self.catch_up)
        session.client_changed.connect(self._client_changed)

    def say_in(self, host: Screen) -> None:
        """Inside ``host`` (manager mode's sections): this screen's banner is the host's,
        in the room the host keeps at its top, and this screen keeps no room of its own
        (two rooms, one under the other, took two rows of a manager's list)."""
        if self.banner is host.banner:
            return
        self.banner.dismiss()
        self.banner_slot.hide()
        self.banner = host.banner

    # -- to override -------------------------------------------------------------
    def title(self) -> str:
        return self.key

    def entered(self) -> None:
        """The screen became visible."""

    async def preload(self) -> None:
        """Fetch what the screen needs before the counter is "ready" (start-up)."""

    def left(self) -> None:
        """The screen was hidden: its tasks are already cancelled."""

    def warm_steps(self) -> list[Callable[[], object]]:
        """Parts built on first use that the warm-up after "ready" builds ahead, one
        per event-loop turn, so the cashier's first use does not pay for them."""
        return []

    def client_changed(self, client: Client | None) -> None:
        """The active client changed (``None``: cleared). Forget what belonged to the old one."""

    def reset(self) -> None:
        """Back to the empty state (idle timeout, change of client)."""

    def unfinished(self) -> bool:
        """Half-done work that idle must not clear without a warning (a sale begun)."""
        return False

    def abandon(self) -> None:
        """Idle clears the counter all the same: note what goes (before ``reset``)."""

    # -- helpers -----------------------------------------------------------------
    def run(
        self,
        name: str,
        coro: Coroutine[Any, Any, Any],
        *,
        buttons: Sequence[BusyButton] = (),
    ) -> asyncio.Task[Any]:
        """Start ``coro`` as the screen's task ``name`` (a newer one replaces it);
        ``buttons`` show busy and refuse taps until it ends."""
        for button in buttons:
            button.set_busy(True)

        this: list[asyncio.Task[Any]] = []

        async def wrapped() -> Any:
            try:
                return await coro
            finally:
                # A newer task of the same name owns the buttons now: leave them busy.
                mine = self.tasks.current(name) in (None, *this)
                if mine:
                    for button in buttons:
                        button.set_busy(False)

        task = self.tasks.start(name, wrapped())
        this.append(task)
        task.add_done_callback(lambda _: coro.close())  # replaced before it ever ran
        return task

    def show_error(self, error: BaseException) -> None:
        if isinstance(error, ApiError):
            log.warning("%s: %s", self.key, error)
        elif is_disk_full(error):  # the cashier reads "Disk full"; IT frees space
            log.error("%s: disk full, nothing saved: %s", self.key, error)
        elif not isinstance(error, AmountError):
            log.error("%s: unexpected failure", self.key, exc_info=error)
        self.banner.show_error(error_text(error))

    def _task_failed(self, error: BaseException) -> None:
        self.show_error(error)

    def _client_changed(self, client: Client | None) -> None:
        if self.isVisible():
            self.catch_up()
            self.client_changed(client)
            return
        self._missed.append(client)
        self._catch_up_timer.start()

    def catch_up(self) -> None:
        """Tell ``client_changed`` of every client change it missed while hidden, in
        order (a client and back is not "no change": the first client's sale is gone)."""
        self._catch_up_timer.stop()
        missed, self._missed = self._missed, []
        for client in missed:
            self.client_changed(client)

    def move_banner(self, slot: BannerSlot) -> None:
        """Keep the banner's room in ``slot`` (in this screen's layout, holding what the
        banner may cover) instead of at the top: for a screen that has no room to spare
        at its top at 1024x768 (Redeem)."""
        self.banner.dismiss()
        self.banner_slot.hide()
        self.banner_slot = slot

    def showEvent(self, event: Any) -> None:
        self.catch_up()  # before the cashier sees it (and before ``entered``)
        super().showEvent(event)

    def leave(self) -> None:
        self.tasks.cancel_all()
        self.left()

    def closeEvent(self, event: Any) -> None:
        self.tasks.cancel_all()
        super().closeEvent(event)
