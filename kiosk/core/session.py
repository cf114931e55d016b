"""The counter session: who is at the counter, and what the kiosk is connected to.

Holds the active client (in memory only: it carries personal data and, for
unregistered clients, the ``register_url`` credential), the branch, and the
connection state that the status bar shows. Every network call of a screen goes
through ``call()``, which reports busy/idle and online/offline.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from kiosk.api.errors import OFFLINE_KINDS, ApiError
from kiosk.api.models.clients import Client
from kiosk.api.redact import mask_document, mask_email
from kiosk.core.amounts import AmountLocale
from kiosk.core.events import Event
from kiosk.core.journal import AsyncJournal
from kiosk.core.lazy import Lazy

if TYPE_CHECKING:
    from kiosk.api.client import LoyaltyClient
    from kiosk.core.outbox.queue import Outbox, OutboxStatus

T = TypeVar("T")

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BranchInfo:
    id: int | None
    name: str


@dataclass
class SessionConfig:
    environment: str  # production | qa | training
    branch: BranchInfo
    kiosk_id: str
    locale: AmountLocale = AmountLocale.ES_AR
    validation_qr_id: int | None = None
    point_item_ids: tuple[int, ...] = ()
    idle_timeout_seconds: int = 90
    extra: dict[str, object] = field(default_factory=dict)


class CounterSession:
    def __init__(
        self,
        api: LoyaltyClient | Callable[[], LoyaltyClient],
        journal: AsyncJournal,
        config: SessionConfig,
    ) -> None:
        # ``api`` may be a function that makes the client: it is then made at the first
        # call (the counter opens before httpx and the API's records are loaded).
        self._api = Lazy(api)
        self._following = False  # ``online`` follows each attempt of the API client
        self.journal = journal
        self.config = config
        self._client: Client | None = None
        self._busy = 0
        self.online = True
        self.client_changed: Event[Client | None] = Event()
        self.busy_changed: Event[bool] = Event()
        self.online_changed: Event[bool] = Event()
        self.journal_changed: Event[None] = Event()
        self.branch_changed: Event[BranchInfo] = Event()
        # The store-and-forward outbox (issue #5), when the counter has one: credits
        # and cancels go through it; ``pending_changed`` repeats its status.
        self.outbox: Outbox | None = None
        self.pending_changed: Event[OutboxStatus] = Event()
        self._retrying: asyncio.Future[int] | None = None
        self._publishing: set[asyncio.Task[object]] = set()  # held until done

    @property
    def api(self) -> LoyaltyClient:
        api = self._api.get()
        if not self._following:  # the status bar follows every attempt from now on
            self._following = True
            follow = getattr(api, "follow_reach", None)
            if follow is not None:
                follow(self._set_online)
        return api

    @property
    def api_made(self) -> bool:
        """Whether the API client exists yet (nothing to close otherwise)."""
        return self._api.made

    # -- the client at the counter -------------------------------------------
    @property
    def client(self) -> Client | None:
        return self._client

    def set_client(self, client: Client | None) -> bool:
        """``client`` is at the counter (``None``: nobody). Announced with
        ``client_changed`` unless it is the very record already there; says whether it was."""
        previous = self._client
        self._client = client
        if (previous.id if previous else None) != (client.id if client else None) or (
            previous is not client
        ):
            log.info(
                "client %s",
                f"#{client.id} {mask_email(client.email)} {mask_document(client.document_number)}"
                if client
                else "cleared",
            )
            self.client_changed.emit(client)
            return True
        return False

    def clear_client(self) -> None:
        self.set_client(None)

    async def refresh_client(self) -> Client | None:
        """Read the active client again (new balance after a credit or exchange).

        The API has no read by id, so the client is found again by the email or
        document it was identified with; a failure keeps the card as it was.
        """
        current = self._client
        if current is None:
            return None
        lookup = current.email or current.document_number
        if not lookup:
            return current
        try:
            fresh = await self.call(lambda: self.api.search_client(lookup))
        except ApiError:
            log.warning("could not refresh the client's balance", exc_info=False)
            return current
        if self._client is not None and self._client.id == fresh.id:
            self.set_client(fresh)
        return fresh

    # -- calls -----------------------------------------------------------------
    async def call(self, make: Callable[[], Awaitable[T]]) -> T:
        """Run one API call: busy while it runs; offline on network failure."""
        self._set_busy(+1)
        try:
            result = await make()
        except ApiError as error:
            self._set_online(error.kind not in OFFLINE_KINDS)
            raise
        finally:
            self._set_busy(-1)
        self._set_online(True)
        return result

    @property
    def busy(self) -> bool:
        return self._busy > 0

    def _set_busy(self, delta: int) -> None:
        was = self._busy > 0
        self._busy = max(0, self._busy + delta)
        if (self._busy > 0) != was:
            self.busy_changed.emit(self._busy > 0)

    def _set_online(self, online: bool) -> None:
        if online != self.online:
            self.online = online
            log.info("connection %s", "restored" if online else "lost")
            self.online_changed.emit(online)

    def set_branch(self, branch: BranchInfo) -> None:
        """The branch's name as the service confirmed it (after an offline start)."""
        self.config.branch = branch
        self.branch_changed.emit(branch)

    def notify_journal(self) -> None:
        """The journal was written: ``journal_changed`` now, and the rows written are
        announced on ``journal.changed`` (their ids) once read from the database."""
        self.journal_changed.emit(None)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop running (a test emitting by hand): read at the next
            return
        task = loop.create_task(self.journal.publish_changes())
        self._publishing.add(task)
        task.add_done_callback(self._published)

    def keep_going(self, work: Coroutine[object, object, object]) -> None:
        """Run ``work`` to its end whatever screen shows (a journal row to write);
        ``changes_announced`` waits for it too."""
        task: asyncio.Task[object] = asyncio.get_running_loop().create_task(work)
        self._publishing.add(task)
        task.add_done_callback(self._published)

    async def changes_announced(self) -> None:
        """Wait for the journal's announcements in flight (the counter stopping: the
        screens read those rows before they stop, never after the database closed)."""
        while self._publishing:
            await asyncio.gather(*self._publishing, return_exceptions=True)

    def _published(self, task: asyncio.Task[object]) -> None:
        self._publishing.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("journal: changes not announced", exc_info=task.exception())

    # -- the outbox ------------------------------------------------------------
    def attach_outbox(self, outbox: Outbox) -> None:
        """Credits and cancels go through ``outbox`` from now on. Its status is repeated
        as ``pending_changed``, a settled row refreshes the journal, and the connection
        coming back makes every pending row due now (``retry_now``)."""
        self.outbox = outbox
        outbox.status_changed.connect(self.pending_changed.emit)
        outbox.settled.connect(lambda _settlement: self.notify_journal())
        self.online_changed.connect(self._retry_when_online)

    def _retry_when_online(self, online: bool) -> None:
        outbox = self.outbox
        if not online or outbox is None:
            return
        if self._retrying is not None and not self._retrying.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop running (a test emitting by hand): nothing to wake
            return
        self._retrying = loop.create_task(outbox.retry_now())
        self._retrying.add_done_callback(_logged)

    def report_online(self, online: bool) -> None:
        """What a call made outside ``call()`` (the outbox's sender) learnt."""
        self._set_online(online)

    @contextmanager
    def working(self) -> Iterator[None]:
        """Busy (the status bar's "Working…") while waiting outside ``call()``."""
        self._set_busy(+1)
        try:
            yield
        finally:
            self._set_busy(-1)


def _logged(future: asyncio.Future[int]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("outbox: retry now failed", exc_info=future.exception())
