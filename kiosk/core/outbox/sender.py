"""The outbox's sender: one asyncio task that drains the outbox in order.

Per row (``kiosk.core.outbox.queue``), oldest first (a row the cashier is waiting for
goes before the backlog; a cancel never before its credit):

1. the row is marked ``sending`` and *may have reached the server*, durably, then
   sent with its fixed external id (``background=True`` unless the cashier waits:
   the shared limiter serves the counter's live calls first, 10 per second, and
   keeps places free for them while the cashier is active). A background row is
   begun only when its place in the limiter is near (``PLACE_LEAD``): until then the
   sender idles, so a live row queued meanwhile goes first and never waits behind a
   backlog row's place;
2. success: done, and its journal row settled, in one transaction; a credit's
   answer with points the contract forbids (negative, not whole, beyond any count) is
   an unreadable answer instead (rule 5), never settled with those figures;
3. a duplicate-external-id refusal (409) naming this row's id (a 409 naming another
   id is a refusal: rule 6) after an earlier attempt that may have
   reached the server: done, the points are ours (``CONFIRMED``); on the first
   reaching attempt of a cashier's typed ticket: done as ``ALREADY_CREDITED`` (that
   ticket was credited before: no new points); on a kiosk-made id: ours, with a
   warning (only a bug can reuse one);
4. a 404 on a cancel: ``ALREADY_CANCELED`` when an earlier attempt may have reached
   the server, else ``NOTHING_TO_CANCEL``;
5. 5xx, timeouts, network failures, unreadable answers: the same row again (same
   id) after 1, 2, 4 ... s capped at 60 s, +-20 % jitter, at least the
   ``Retry-After``; a 429: the limit is the fleet's, so the kiosk keeps to its share
   of the merchant's window from then on (``kiosk.core.outbox.share``) and the row
   waits the ``Retry-After`` (plus a spread growing to 2 s when the kiosk holds no
   place in the window: ``Backoff.crowded``); nothing behind it goes first;
6. any other 4xx: dead letter, with the API's reason, for a manager;
7. anything else a step raises once the row is ``sending`` (a bug, the settlement's
   own write refused): the row goes back to pending, same id, maybe arrived; if even
   that write fails, the next step puts back every row no attempt is sending
   (``Outbox.unstick``), and "retry now" or a manager's discard reach it too.

The API client's own retry loop is off for the sender (build its client with
``retry=NO_RETRY``, sharing the counter's limiter): one call is one attempt, so
every attempt is marked in the outbox before it leaves, a crash can always be
resumed with the same id, and the schedule runs on the injected clock and sleep.
A 401 (key) or a 404 for the route itself is not the row's fault: it waits and
retries like a network failure instead of dead-lettering the whole queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from kiosk.api.errors import OFFLINE_KINDS, ApiError, ErrorKind, MalformedResponse
from kiosk.core.events import Event
from kiosk.core.lazy import Lazy
from kiosk.core.outbox.attempts import (
    Backoff,
    contract_points,
    describe,
    may_have_reached,
    retried,
)
from kiosk.core.outbox.body import BodyError, credit_request
from kiosk.core.outbox.queue import Outbox, Settlement
from kiosk.core.outbox.share import Share
from kiosk.core.outbox.types import OutboxRow, Resolution, RowKind, RowState

if TYPE_CHECKING:  # the API's point records load with the first send, after "ready"
    from kiosk.api.models.points import CancelResult, CreditRequest, CreditResult

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]

# A background row's attempt begins this long before the limiter has its place: the
# row's marking (a durable write) and the request's start are done by then, so a
# backlog still drains at the window's full rate; a live credit that comes meanwhile
# waits behind it at most this long (plus that row's answer).
PLACE_LEAD = 0.05


class PointsApi(Protocol):
    """What the sender needs of ``LoyaltyClient``."""

    @property
    def base_url(self) -> str: ...

    @property
    def branch_id(self) -> int | None: ...

    async def credit(self, request: CreditRequest, *, background: bool = False) -> CreditResult: ...

    async def cancel_credit(
        self, external_id: str, *, background: bool = False
    ) -> CancelResult: ...

    def tags_wait(self) -> float:
        """Seconds until a background credit or cancel would find its place (never waits)."""
        ...

    def release_holds(self) -> int: ...


@dataclass
class SenderStats:
    attempts: int = 0
    settled: int = 0
    retried: int = 0
    dead: int = 0
    failures: Counter[str] | None = None

    def count(self, kind: str) -> None:
        if self.failures is None:
            self.failures = Counter()
        self.failures[kind] += 1


class Sender:
    def __init__(
        self,
        outbox: Outbox,
        api: PointsApi | Callable[[], PointsApi],
        *,
        clock: Clock | None = None,
        sleep: Sleep = asyncio.sleep,
        random: Callable[[], float] = random.random,
        backoff: Backoff | None = None,
        share: Share | None = None,
    ) -> None:
        self.outbox = outbox
        # A function that makes the client is called at the first row to send.
        self._api = Lazy(api)
        self._clock = clock or outbox.now  # the clock the rows' times are written with
        self._sleep = sleep
        self._random = random
        self.backoff = backoff or Backoff()
        self.share = share or Share()  # this kiosk's part of the merchant's 10/s
        self._streak = 0  # failures in a row (5xx, network, timeouts...)
        self._crowded = 0  # 429s in a row
        self._wake = asyncio.Event()
        # The wait for the next row that is due: kept across wakes (see ``_idle``).
        self._alarm: asyncio.Future[None] | None = None
        self._alarm_at = 0.0
        self._task: asyncio.Task[None] | None = None
        self._mismatch_logged = False
        self._unstick = False
        self.stats = SenderStats()
        # After each attempt: whether the service answered (any answer, even a refusal
        # or a 503) or could not be reached (network, timeout). The counter's connection
        # state follows it, so rows failing in the background show "Offline" too.
        self.reached: Event[bool] = Event()
        self._listening = False
        self._listen(True)

    @property
    def api(self) -> PointsApi:
        return self._api.get()

    @property
    def api_made(self) -> bool:
        return self._api.made

    # -- running ------------------------------------------------------------------
    def start(self, prepare: Awaitable[object] | None = None) -> asyncio.Task[None]:
        """Run the sender; ``prepare`` (the client's modules imported off the event
        loop) is awaited before its first step."""
        if self._task is not None and not self._task.done():
            raise RuntimeError("the sender is already running")
        self._listen(True)
        self._task = asyncio.create_task(self._prepared(prepare), name="outbox-sender")
        return self._task

    async def _prepared(self, prepare: Awaitable[object] | None) -> None:
        if prepare is not None:
            await prepare
        await self.run()

    async def stop(self) -> None:
        """Stop (a row caught mid-send is resent, same id, by the next ``run``)."""
        task, self._task = self._task, None
        self._listen(False)
        alarm, self._alarm = self._alarm, None
        if alarm is not None:
            alarm.cancel()
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    def _listen(self, on: bool) -> None:
        if on and not self._listening:
            self.outbox.work_added.connect(self._on_work)
        elif not on and self._listening:
            self.outbox.work_added.disconnect(self._on_work)
        self._listening = on

    def _on_work(self, retry_now: bool) -> None:
        if retry_now:
            self._streak = self._crowded = 0
            self.share.reset()
            if self.api_made:  # a server's hold (429) ends too: "retry now" means now
                held = self.api.release_holds()
                if held:
                    log.info("outbox: retry now ended the server's hold on %d lane(s)", held)
        self._wake.set()

    async def run(self) -> None:
        await self.outbox.resume()
        while True:
            self._wake.clear()
            try:
                if self._unstick:  # a row the last failure may have left "sending"
                    await self.outbox.unstick()
                    self._unstick = False
                wait = await self.step()
            except Exception:  # the file itself (disk full, locked...): keep trying
                log.exception("outbox sender: a step failed; trying again")
                self._unstick = True
                self._streak += 1
                wait = self.backoff.wait(self._streak, None, self._random())
            if wait is not None and wait <= 0:
                continue
            await self._idle(wait)

    async def _idle(self, wait: float | None) -> None:
        woken = asyncio.ensure_future(self._wake.wait())
        if wait is None:
            try:
                await woken
            finally:
                woken.cancel()
            return
        due = self._clock() + wait
        # One alarm for the next row due, kept when a credit wakes the sender (a busy
        # counter wakes it at every operation) unless it must ring sooner: the event
        # loop (qasync) holds a cancelled timer until its delay has passed, so a new
        # sleep per wake would pile up a timer per operation for that long.
        if self._alarm is None or self._alarm.done() or self._alarm_at > due:
            if self._alarm is not None:
                self._alarm.cancel()
            self._alarm, self._alarm_at = asyncio.ensure_future(self._sleep(wait)), due
        try:
            await asyncio.wait((woken, self._alarm), return_when=asyncio.FIRST_COMPLETED)
        finally:
            woken.cancel()

    async def drain(self, *, max_steps: int | None = None) -> int:
        """Send until nothing is due (waits included, on the injected sleep); for tests
        and benches. Returns the number of attempts made."""
        await self.outbox.resume()
        start = self.stats.attempts
        steps = 0
        while max_steps is None or steps < max_steps:
            steps += 1
            wait = await self.step()
            if wait is None:
                break
            if wait > 0:
                await self._sleep(wait)
        return self.stats.attempts - start

    # -- one row -------------------------------------------------------------------------
    async def step(self) -> float | None:
        """Send the next row if it is due. Returns 0 when a row was handled, the seconds
        until the next row is due, or ``None`` when nothing is left to send here."""
        binding = self.outbox.binding
        row = await self.outbox.next_row(binding)
        if row is None:
            return None
        if self.api.base_url.rstrip("/") != binding.base_url or (
            self.api.branch_id != binding.branch_id
        ):
            if not self._mismatch_logged:
                log.error("outbox sender: its client is not the outbox's binding; not sending")
                self._mismatch_logged = True
            return None
        now = self._clock()
        wait = max(row.next_attempt_at, self.share.due(now)) - now
        if wait > 0:
            return wait
        if not self.outbox.is_live(row.id):
            # A background row never blocks in the limiter: the sender idles until its
            # place is near (woken at once by a credit the cashier waits for, which
            # then goes first), and waits in the limiter at most ``PLACE_LEAD``.
            place = self.api.tags_wait()
            if place > PLACE_LEAD:
                return place - PLACE_LEAD
        before = await self.outbox.begin_attempt(row.id)
        if before is None:
            return 0.0  # voided or discarded meanwhile
        try:
            await self._attempt(before, live=self.outbox.take_live(row.id))
        except Exception as error:  # a step broke (settling included): never left sending
            log.exception("outbox: row %d: its attempt broke; it will be sent again", row.id)
            await self._retry(before, error)
        finally:
            self.outbox.attempt_over(row.id)
        return 0.0

    async def _attempt(self, row: OutboxRow, *, live: bool) -> None:
        self.stats.attempts += 1
        sent_at = self._clock()
        self.share.sending(sent_at)
        try:
            if row.kind is RowKind.CREDIT:
                request = credit_request(row.body)
                credited = await self.api.credit(request, background=not live)
            else:
                canceled = await self.api.cancel_credit(row.external_id, background=not live)
        except BodyError as error:
            await self._dead(row, "body", str(error))
            return
        except ApiError as error:
            self.reached.emit(error.kind not in OFFLINE_KINDS)
            if error.status is not None and error.kind is not ErrorKind.RATE_LIMITED:
                self.share.counted(sent_at)  # answered: the server's window counted it
            await self._failed(row, error)
            return
        except Exception as error:  # a bug below us: keep the row, try again later
            log.exception("outbox: sending row %d failed unexpectedly", row.id)
            await self._retry(row, error)
            return
        self.reached.emit(True)
        self.share.counted(sent_at)
        if row.kind is RowKind.CREDIT:
            await self._credited(row, credited)
        else:
            resolution = Resolution.ALREADY_CANCELED if canceled.already_canceled else None
            points = canceled.points.total if canceled.points is not None else None
            if points is not None and not contract_points(points):
                points = None  # a cancel's 2xx is the cancel, whatever its figures
            await self._done(row, resolution or Resolution.CANCELED, points)

    async def _credited(self, row: OutboxRow, result: CreditResult) -> None:
        if not result.already_credited:
            operation = result.operation
            points = operation.points.total if operation is not None else None
            if points is not None and not contract_points(points):
                # Applied, but with figures the contract does not allow (negative, not
                # whole, beyond any count): asked again with its id, the duplicate
                # answer settles it as ours without them.
                unreadable = MalformedResponse(
                    "a credit's points outside the contract (whole, not negative)"
                )
                await self._failed(row, unreadable)
                return
            client_id = operation.client_id if operation is not None else None
            await self._done(row, Resolution.CREDITED, points, client_id=client_id)
        elif row.may_have_reached_server or result.after_lost_answer:
            log.info("outbox: credit %s was applied by an earlier attempt", row.external_id)
            await self._done(row, Resolution.CONFIRMED)
        elif row.ticket_typed:
            log.info("outbox: ticket %s was already credited; no new points", row.external_id)
            await self._done(row, Resolution.ALREADY_CREDITED)
        else:
            log.warning(
                "outbox: credit %s refused as a duplicate on its first attempt (an id made "
                "by a kiosk cannot exist yet); counted as ours",
                row.external_id,
            )
            await self._done(row, Resolution.CONFIRMED)

    async def _failed(self, row: OutboxRow, error: ApiError) -> None:
        if row.kind is RowKind.CANCEL and error.kind is ErrorKind.NOT_FOUND and not retried(error):
            earlier = row.may_have_reached_server or error.after_lost_answer
            await self._done(
                row, Resolution.ALREADY_CANCELED if earlier else Resolution.NOTHING_TO_CANCEL
            )
        elif retried(error):
            await self._retry(row, error)
        else:
            kind, message = describe(error)
            await self._dead(row, kind, message)

    async def _retry(self, row: OutboxRow, error: BaseException) -> None:
        retry_after = error.retry_after if isinstance(error, ApiError) else None
        if isinstance(error, ApiError) and error.kind is ErrorKind.RATE_LIMITED:
            rand = self._random()
            # The server's 429 (not our limiter's): our share of the window is learnt
            # from it; a kiosk that still holds places waits only for the hold.
            if error.status == 429 and self.share.refused(self._clock(), rand):
                self._crowded = 0
                asked = self.backoff.base if retry_after is None else retry_after
                wait = max(0.0, min(asked, self.backoff.max_held))
            else:
                self._crowded += 1
                wait = self.backoff.crowded(self._crowded, retry_after, rand)
        else:
            self._streak += 1
            unreached = isinstance(error, ApiError) and error.unconnected
            wait = self.backoff.wait(self._streak, retry_after, self._random(), unreached=unreached)
        kind, message = describe(error)
        reached = row.may_have_reached_server or may_have_reached(error)
        self.stats.retried += 1
        self.stats.count(kind)
        log.info(
            "outbox: %s %s: %s; again in %.1f s (same id)", row.kind, row.external_id, kind, wait
        )
        await self.outbox.reschedule(
            row.id,
            reached=reached,
            wait=wait,
            error_kind=kind,
            error=message,
            unreached=isinstance(error, ApiError) and error.unconnected,
        )

    async def _done(
        self,
        row: OutboxRow,
        resolution: Resolution,
        points: int | None = None,
        *,
        client_id: int | None = None,
    ) -> Settlement:
        self._streak = self._crowded = 0
        self.stats.settled += 1
        return await self.outbox.settle(
            row.id, RowState.DONE, resolution, points=points, client_id=client_id
        )

    async def _dead(self, row: OutboxRow, kind: str, message: str) -> Settlement:
        self._streak = self._crowded = 0
        self.stats.dead += 1
        self.stats.count(kind)
        log.warning(
            "outbox: %s %s refused (%s: %s): dead letter", row.kind, row.external_id, kind, message
        )
        return await self.outbox.settle(
            row.id, RowState.DEAD, Resolution.REJECTED, error_kind=kind, error=message
        )
