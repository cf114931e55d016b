"""The outbox: every credit and cancel is written here before its first attempt.

A sale is never lost and never doubled. The counter's credit flow calls
``Outbox.submit_credit`` instead of ``api.credit(...)``: the row (its fixed
``external_id`` and full body, never the API key) is committed to the kiosk's
SQLite file in the ``DatabaseWorker`` thread, and ``kiosk.core.outbox.sender.Sender``
sends it, in order, with retries, until the API settles it. The flow can wait
for that (``wait_settled``) and show a "pending" receipt when it takes longer::

    submitted = await outbox.submit_credit(request, journal=JournalNote(client=...), live=True)
    settlement = await outbox.wait_settled(submitted.row.id, within=20, until_retry=True)
    if settlement is None: ...  # still pending: the points will be credited later

Cancels go through the same rows (``submit_cancel``, same external id); a credit
that never reached the server is voided together with its cancel, no request.

Each row is bound to where it must go (``Binding``: environment, base URL, key
fingerprint, branch); ``check_switch`` refuses to change any of them while rows
are waiting or dead-lettered, and the sender sends only rows of its own binding.

For the screens: ``status()`` (pending, dead, oldest pending age, a warning past
24 h), ``pending()`` / ``dead()`` lists with age and last error, the Pending list's
reads (``page``, ``by_ids``, ``list_counts``: ``kiosk.core.outbox.listing``),
``retry_now()``, ``discard()`` (behind the manager PIN) and ``requeue()``;
``status_changed``, ``settled`` and ``rows_changed`` events (``rows_changed``: the
ids of the rows each write touched, so a list reads back only those). Rows are kept
until sent or discarded, never dropped.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from kiosk.api.models.common import DEFAULT_ORIGIN
from kiosk.core.db import DatabaseWorker
from kiosk.core.events import Event
from kiosk.core.outbox import listing
from kiosk.core.outbox.body import client_label, credit_body
from kiosk.core.outbox.external_ids import ExternalIdKind, external_id_kind
from kiosk.core.outbox.listing import PAGE_ROWS, ListCounts, Listed, ListKey, OutboxChange
from kiosk.core.outbox.store import OutboxStore
from kiosk.core.outbox.types import (
    STALE_AFTER,
    JournalNote,
    OutboxCounts,
    OutboxEntry,
    OutboxError,
    OutboxRow,
    OutboxStatus,
    Resolution,
    RowKind,
    RowState,
    Settlement,
    Submitted,
    SwitchRefused,
)
from kiosk.core.settings.binding import Binding

if TYPE_CHECKING:  # the API's point records load with the first credit, after "ready"
    from kiosk.api.models.points import CreditRequest

__all__ = [
    "STALE_AFTER",
    "Binding",
    "JournalNote",
    "ListCounts",
    "ListKey",
    "Outbox",
    "OutboxChange",
    "OutboxEntry",
    "OutboxError",
    "OutboxRow",
    "OutboxStatus",
    "Resolution",
    "RowKind",
    "RowState",
    "Settlement",
    "Submitted",
    "SwitchRefused",
]

T = TypeVar("T")
Clock = Callable[[], float]
log = logging.getLogger(__name__)


class Outbox:
    """The async face of ``OutboxStore`` (see the module doc). Loop thread only."""

    def __init__(
        self,
        worker: DatabaseWorker,
        binding: Binding,
        *,
        clock: Clock = time.time,
        stale_after: float = STALE_AFTER,
        origin: str = DEFAULT_ORIGIN,
    ) -> None:
        self._worker = worker
        self._binding = binding
        self._clock = clock
        self._stale_after = stale_after
        self._origin = origin
        self._live: set[int] = set()
        self._in_flight: set[int] = set()  # rows "sending" in an attempt of this process
        # Rows whose last attempt never opened a connection (memory only): the cashier
        # waiting for one is answered at once (``unreached``).
        self._unreached: set[int] = set()
        self._waiters: dict[int, list[tuple[asyncio.Future[Settlement | None], bool]]] = {}
        self._status: OutboxStatus | None = None
        self.status_changed: Event[OutboxStatus] = Event()
        self.settled: Event[Settlement] = Event()
        # The rows each write touched (None: any row, after "retry now" or a purge).
        self.rows_changed: Event[OutboxChange] = Event()
        # The sender listens; True: "retry now", the backoff starts again from 1 s.
        self.work_added: Event[bool] = Event()

    @property
    def binding(self) -> Binding:
        return self._binding

    def now(self) -> float:
        return self._clock()

    # -- the database thread --------------------------------------------------------
    async def _run(self, call: Callable[[OutboxStore], T], *, emit: bool = True) -> T:
        binding = self._binding

        def in_thread(conn: sqlite3.Connection) -> tuple[T, OutboxCounts | None]:
            store = OutboxStore(conn)
            result = call(store)
            return result, store.counts(binding) if emit else None

        result, counts = await self._worker.run(in_thread)
        if counts is not None:
            self._publish(counts)
        return result

    def _publish(self, counts: OutboxCounts) -> None:
        status = self._status_of(counts)
        if status != self._status:
            previous, self._status = self._status, status
            if previous is None or (status.pending, status.dead, status.stale, status.elsewhere) != (
                previous.pending, previous.dead, previous.stale, previous.elsewhere
            ):  # fmt: skip
                self.status_changed.emit(status)

    def _status_of(self, counts: OutboxCounts) -> OutboxStatus:
        age = None if counts.oldest_pending_at is None else self.now() - counts.oldest_pending_at
        stale = age is not None and age > self._stale_after
        return OutboxStatus(counts.pending, counts.dead, age, stale, counts.elsewhere)

    def _touched(self, *ids: int | None) -> None:
        """Announce the rows a write touched (``None`` among them: any row)."""
        if None in ids:
            self.rows_changed.emit(OutboxChange(None))
        elif ids:
            self.rows_changed.emit(OutboxChange(frozenset(i for i in ids if i is not None)))

    # -- binding ------------------------------------------------------------------------
    async def check_switch(self, new: Binding) -> None:
        """Raise ``SwitchRefused`` when rows waiting or dead-lettered are bound elsewhere
        than ``new`` (training credits must never reach production, nor the reverse)."""
        bound = await self._run(lambda store: store.unsettled_bindings(), emit=False)
        blocking = [(b, n) for b, n in bound if b != new]
        if not blocking:
            return
        waiting = sum(n for _, n in blocking)
        changes = sorted({d for b, _ in blocking for d in b.differences(new)})
        where = "; ".join(f"{n} for {b.describe()}" for b, n in blocking)
        raise SwitchRefused(
            f"{waiting} queued operation(s) must still be sent where they were made ({where}). "
            f"Changing the {', '.join(changes)} now would send them to the wrong place. "
            "Let them go out (or have a manager discard the dead letters) first.",
            waiting=waiting,
            bindings=tuple(b for b, _ in blocking),
        )

    async def switch(self, new: Binding) -> None:
        """Bind new rows to ``new`` (after ``check_switch``); restart the sender with it."""
        await self.check_switch(new)
        self._binding = new
        await self.status()

    # -- submitting -----------------------------------------------------------------------
    async def submit_credit(
        self,
        request: CreditRequest,
        *,
        journal: int | JournalNote | None = None,
        client: str | None = None,
        ticket_typed: bool | None = None,
        live: bool = False,
    ) -> Submitted:
        """Write the credit durably (``BodyError`` if it cannot be kept as it is).

        ``journal``: the journal row's id, or a ``JournalNote`` to write it (pending)
        in the same transaction. ``client``: the masked display of the client (default:
        from the body). ``ticket_typed``: the id is the cashier's ticket (default: read
        from the id). ``live``: the cashier is waiting: it goes before the backlog.
        An external id already in the outbox gives back that row (``created=False``).
        """
        body = credit_body(request, branch_id=self._binding.branch_id, origin=self._origin)
        external_id = str(body["external_id"])
        typed = (
            external_id_kind(external_id) is ExternalIdKind.TICKET
            if ticket_typed is None
            else ticket_typed
        )
        label = client if client is not None else client_label(body)
        binding, now = self._binding, self.now()
        row, created = await self._run(
            lambda store: store.add(
                RowKind.CREDIT, external_id, body, binding, now=now, ticket_typed=typed,
                journal=journal, client_label=label,
            )
        )  # fmt: skip
        if created:
            if live:
                self._live.add(row.id)
            log.info("outbox: credit %s queued (row %d)", external_id, row.id)
            self._touched(row.id)
            self.work_added.emit(False)
        return Submitted(row, created)

    async def submit_cancel(
        self,
        external_id: str,
        *,
        journal: int | JournalNote | None = None,
        client: str = "",
        live: bool = False,
    ) -> Submitted:
        """Queue the cancel of a credit (``OutboxError`` when there is nothing to cancel)."""
        binding, now = self._binding, self.now()
        row, created, voided = await self._run(
            lambda store: store.add_cancel(
                external_id, binding, now=now, journal=journal, client_label=client
            )
        )
        if created and voided is not None:
            log.info("outbox: credit %s canceled before it was sent (voided)", external_id)
            self._touched(row.id, voided.id)
            self._settled(voided)
            self._settled(row)
        elif created:
            if live:
                self._live.add(row.id)
            log.info("outbox: cancel of %s queued (row %d)", external_id, row.id)
            self._touched(row.id)
            self.work_added.emit(False)
        return Submitted(row, created, voided)

    # -- waiting for an outcome -------------------------------------------------------------
    async def wait_settled(
        self, row_id: int, within: float | None = None, *, until_retry: bool = False
    ) -> Settlement | None:
        """The row's settlement; ``None`` after ``within`` seconds or, with
        ``until_retry``, as soon as an attempt fails and the row waits for a retry."""
        future: asyncio.Future[Settlement | None] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(row_id, []).append((future, until_retry))
        try:
            row = await self.get(row_id)
            if row is None:
                raise OutboxError(f"no outbox row {row_id}")
            if row.resolution is not None and row.state is not RowState.PENDING:
                return Settlement.of(row)
            return await asyncio.wait_for(asyncio.shield(future), within)
        except TimeoutError:
            return None
        finally:
            waiters = self._waiters.get(row_id, [])
            self._waiters[row_id] = [w for w in waiters if w[0] is not future]
            if not self._waiters[row_id]:
                del self._waiters[row_id]
            future.cancel()

    def _settled(self, row: OutboxRow, client_id: int | None = None) -> Settlement:
        settlement = Settlement.of(row, client_id)
        self._live.discard(row.id)
        self._unreached.discard(row.id)
        for future, _ in self._waiters.pop(row.id, []):
            if not future.done():
                future.set_result(settlement)
        self.settled.emit(settlement)
        return settlement

    # -- what the screens show -------------------------------------------------------------
    async def get(self, row_id: int) -> OutboxRow | None:
        return await self._run(lambda store: store.get(row_id), emit=False)

    async def status(self) -> OutboxStatus:
        counts = await self._run(lambda store: store.counts(self._binding), emit=False)
        self._publish(counts)
        return self._status_of(counts)

    async def oldest_pending_age(self) -> float | None:
        return (await self.status()).oldest_pending_age

    async def pending(self) -> list[OutboxEntry]:
        """Every row waiting to be sent (tests, diagnostics: the list reads pages)."""
        rows = await self._run(
            lambda store: store.rows(RowState.PENDING, RowState.SENDING), emit=False
        )
        return [self._entry(row) for row in rows]

    async def dead(self) -> list[OutboxEntry]:
        rows = await self._run(lambda store: store.rows(RowState.DEAD), emit=False)
        return [self._entry(row) for row in rows]

    async def page(self, after: ListKey | None = None, limit: int = PAGE_ROWS) -> list[OutboxEntry]:
        """The Pending list's rows after the key ``after`` (dead letters first, then
        the waiting rows, oldest first); ``None``: its first page."""
        rows = await self._run(
            lambda store: listing.page(store.connection, after, limit), emit=False
        )
        return [self._entry(row) for row in rows]

    async def by_ids(self, ids: frozenset[int]) -> list[OutboxEntry]:
        """The rows with these ids that exist, in any state (settled ones too)."""
        rows = await self._run(lambda store: listing.by_ids(store.connection, ids), emit=False)
        return [self._entry(row) for row in rows]

    async def list_counts(self) -> ListCounts:
        """Waiting, dead and waiting past ``stale_after``: one COUNT query."""
        before = self.now() - self._stale_after
        return await self._run(
            lambda store: listing.list_counts(store.connection, before), emit=False
        )

    def _entry(self, row: Listed) -> OutboxEntry:
        return listing.entry_of(
            row, now=self.now(), stale_after=self._stale_after, binding=self._binding
        )

    # -- the manager's actions -------------------------------------------------------------
    async def retry_now(self) -> int:
        """Every pending row due now, the backoff from 1 s again (the manager's "retry
        now", or the connection came back: the counter's own calls went through). A row
        left "sending" by an attempt that is over (it broke) is pending again too."""
        now = self.now()
        in_flight = tuple(self._in_flight)
        count = await self._run(lambda store: store.retry_now(now, in_flight))
        self._touched(None)
        self.work_added.emit(True)
        return count

    async def unstick(self) -> int:
        """Rows left "sending" by an attempt that is over (a step broke and could not
        write the row back): pending again, flagged as maybe arrived (same id)."""
        in_flight = tuple(self._in_flight)
        ids = await self._run(lambda store: store.unstick(in_flight))
        if ids:
            log.info("outbox: %d row(s) left sending will be sent again with their id", len(ids))
            self._touched(*ids)
        return len(ids)

    async def discard(self, row_id: int) -> Settlement:
        """Give up a pending or dead-letter row (behind the manager's PIN in the UI), or
        one left "sending" by an attempt that broke (never one on its way now)."""
        now = self.now()
        in_flight = tuple(self._in_flight)
        row = await self._run(lambda store: store.discard(row_id, now, in_flight))
        log.warning("outbox: row %d (%s %s) discarded", row.id, row.kind, row.external_id)
        self._touched(row.id)
        return self._settled(row)

    async def requeue(self, row_id: int) -> OutboxRow:
        now = self.now()
        row = await self._run(lambda store: store.requeue(row_id, now))
        self._touched(row.id)
        self.work_added.emit(False)
        return row

    async def purge(self, settled_before: float) -> int:
        count = await self._run(lambda store: store.purge(settled_before), emit=False)
        if count:
            self._touched(None)
        return count

    # -- the sender's side -------------------------------------------------------------------
    async def resume(self) -> int:
        ids, count = await self._run(
            lambda store: (listing.sending_ids(store.connection), store.resume())
        )
        self._touched(*ids)
        if count:
            log.info("outbox: %d row(s) caught mid-send will be resent with their id", count)
        return count

    async def next_row(self, binding: Binding) -> OutboxRow | None:
        live = tuple(self._live)
        return await self._run(lambda store: store.next_row(binding, live), emit=False)

    def is_live(self, row_id: int) -> bool:
        """Whether the cashier waits for this row (without taking it: ``take_live``)."""
        return row_id in self._live

    def take_live(self, row_id: int) -> bool:
        """Whether the cashier waits for this row (true once: its first attempt)."""
        if row_id in self._live:
            self._live.discard(row_id)
            return True
        return False

    async def begin_attempt(self, row_id: int) -> OutboxRow | None:
        now = self.now()
        before = await self._run(lambda store: store.begin_attempt(row_id, now), emit=False)
        if before is not None:
            self._in_flight.add(row_id)
            self._touched(row_id)
        return before

    def attempt_over(self, row_id: int) -> None:
        """The sender is done with this row's attempt (settled, rescheduled, or broken:
        then "retry now", ``unstick`` or a manager's discard reach it)."""
        self._in_flight.discard(row_id)

    def unreached(self, row_id: int) -> bool:
        """Whether the row's last attempt found the service unreachable (no connection)."""
        return row_id in self._unreached

    async def reschedule(
        self,
        row_id: int,
        *,
        reached: bool,
        wait: float,
        error_kind: str,
        error: str,
        unreached: bool = False,
    ) -> None:
        if unreached:
            self._unreached.add(row_id)
        else:
            self._unreached.discard(row_id)
        at = self.now() + wait
        await self._run(
            lambda store: store.reschedule(
                row_id, reached=reached, next_attempt_at=at, error_kind=error_kind, error=error
            ),
            emit=False,
        )
        self._touched(row_id)
        for future, until_retry in self._waiters.get(row_id, []):
            if until_retry and not future.done():
                future.set_result(None)

    async def settle(
        self,
        row_id: int,
        state: RowState,
        resolution: Resolution,
        *,
        points: int | None = None,
        error_kind: str | None = None,
        error: str | None = None,
        client_id: int | None = None,
    ) -> Settlement:
        """``client_id``: the client the answer named (not kept: the waiting cashier's
        flow compares it with the client at the counter)."""
        now = self.now()
        row = await self._run(
            lambda store: store.settle(
                row_id, state, resolution, now=now, points=points, error_kind=error_kind,
                error=error,
            )
        )  # fmt: skip
        self._touched(row_id)
        return self._settled(row, client_id)
