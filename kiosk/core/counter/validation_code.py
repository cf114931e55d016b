"""The branch's rotating validation code, read while the Code screen is shown.

``CodePoller`` lists the branch's validation QRs once, picks one (the configured
``validation_qr_id`` when the branch has it, else the first; ``select_qr`` for
another) and reads its current code, then reads again:

- when the code expires, timed from ``expiresInSeconds`` on the MONOTONIC clock
  (the kiosk's wall clock may be wrong: ``validUntil`` is never compared to it);
- never sooner than ``validationWindowSeconds`` after the previous read of that QR
  (measured from when that read started, so latency never adds up into drift; a
  code read in the middle of its window leaves a wait after it expires), the
  contract's "poll no faster than": also when the code comes back unchanged after
  its expiry (clocks that disagree), which then shows as "New code in ..." until the
  window has passed;
- after a failure, with growing waits (``FAILURE_DELAYS``, plus up to 20% jitter so
  the branch's kiosks do not come back together); a 429 waits at least its
  ``Retry-After`` or, without one, the rate limit's window.

Only while started (the screen is shown): ``stop()`` cancels the pending read or wait;
a code still valid is shown again at once on the next ``start()``. ``snapshot`` and
``changed`` tell what to show; ``CodeSnapshot.phase(now)`` names it (a code expires
without anything being read, so the screen asks again as time passes).

Who throttles what: this poller is the one place that spaces the reads of its QR
(it asks the API client for no spacing of its own, so the two never add up and the
skew re-read is not held back a whole window); the 5-reads-per-minute budget that
every kiosk of the branch shares stays with the client's rate limiter (reads are
sent as ``background`` so the cashier's own calls go first), and a 429 from the
server is retried by the client per ``Retry-After`` before it reaches us.

Clock, sleep and randomness are injectable: tests run it in virtual time.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Protocol

from kiosk.api.errors import ApiError, ErrorKind
from kiosk.api.models.validation import ValidationCode, ValidationQr
from kiosk.api.ratelimit import CODE_READ
from kiosk.core.events import Event
from kiosk.core.session import CounterSession
from kiosk.core.supervise import clamp_wait, supervised

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]

DEFAULT_WINDOW = 60.0  # when a QR does not say how often its code rotates
REFRESH_GRACE = 3.0  # after expiry the last code stays, greyed, while its successor is read
FAILURE_DELAYS = (5.0, 10.0, 20.0, 40.0, 60.0)  # after 1, 2, 3... failures in a row
JITTER = 0.2  # a wait after a failure is lengthened by up to this share
NO_QR_RECHECK = 300.0  # the branch has no QR: look again this often while shown


class CodePhase(StrEnum):
    LOADING = "loading"  # no code to show; a read is on its way
    LIVE = "live"  # the code is valid: show it with its countdown
    REFRESHING = "refreshing"  # the last code, greyed: its successor is being read
    WAITING = "waiting"  # expired; the next read waits for the QR's window
    UNAVAILABLE = "unavailable"  # expired and the last read failed: retry info
    NO_QR = "no_qr"  # the branch has no QR with a rotating code


class CodeSource(Protocol):
    """Where codes come from (the API through the session; a fake in tests)."""

    async def list_qrs(self) -> Sequence[ValidationQr]: ...

    async def read_code(self, qr: ValidationQr) -> ValidationCode: ...


class SessionCodeSource:
    """The branch's QRs and codes through ``session.call`` (busy and online state)."""

    def __init__(self, session: CounterSession) -> None:
        self._session = session

    async def list_qrs(self) -> Sequence[ValidationQr]:
        api, branch = self._session.api, self._session.config.branch.id
        return await self._session.call(
            lambda: api.list_validation_qrs(branch_id=branch, background=True)
        )

    async def read_code(self, qr: ValidationQr) -> ValidationCode:
        api = self._session.api
        # window_seconds=0: the poller spaces the reads of its QR (see the module doc).
        return await self._session.call(
            lambda: api.current_validation_code(qr.id, window_seconds=0.0, background=True)
        )


def window_of(qr: ValidationQr | None) -> float:
    """How often the QR's code rotates, within ``[1 s, MAX_LOOP_WAIT]``: a window of
    10^9 seconds from the server is read as an hour."""
    if qr is None or not qr.window_seconds or qr.window_seconds <= 0:
        return DEFAULT_WINDOW
    return max(1.0, clamp_wait(float(qr.window_seconds)))


@dataclass(frozen=True)
class CodeSnapshot:
    """What the screen shows; times are on the poller's monotonic clock."""

    qrs: tuple[ValidationQr, ...] | None = None  # None: not listed yet
    qr: ValidationQr | None = None
    code: str | None = field(default=None, repr=False)
    expires_at: float | None = None
    reading: bool = False
    failure: ApiError | None = None  # the last attempt's, until a read succeeds
    next_read_at: float | None = None

    @property
    def window(self) -> float:
        return window_of(self.qr)

    def phase(self, now: float) -> CodePhase:
        if self.qrs is not None and not self.qrs:
            return CodePhase.NO_QR
        if self.code is not None and self.expires_at is not None:
            if now < self.expires_at:
                stale = self.reading or self.failure is not None
                return CodePhase.REFRESHING if stale else CodePhase.LIVE
            if self.reading and self.failure is None and now < self.expires_at + REFRESH_GRACE:
                return CodePhase.REFRESHING
        if self.failure is not None:
            return CodePhase.UNAVAILABLE
        if self.reading or self.code is None:
            return CodePhase.LOADING
        return CodePhase.WAITING

    def seconds_left(self, now: float) -> float:
        """Of the code's validity (0 once expired)."""
        return 0.0 if self.expires_at is None else max(0.0, self.expires_at - now)

    def next_read_in(self, now: float) -> float | None:
        """Seconds to the next read (``None`` while one runs or none is planned)."""
        if self.reading or self.next_read_at is None:
            return None
        return max(0.0, self.next_read_at - now)


@dataclass
class _QrMemory:
    """The last code read of one QR and when to read it again."""

    code: str
    read_at: float  # when the read started
    expires_at: float
    next_at: float
    skews: int = 0


class CodePoller:
    def __init__(
        self,
        source: CodeSource,
        *,
        preferred_qr_id: int | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        rand: Callable[[], float] = random.random,
    ) -> None:
        self._source = source
        self._preferred = preferred_qr_id
        self._chosen: int | None = preferred_qr_id
        self._clock = clock
        self._sleep = sleep
        self._random = rand
        self._memory: dict[int, _QrMemory] = {}
        self._failures = 0
        self._retry_at: float | None = None
        self._task: asyncio.Task[None] | None = None
        self.snapshot = CodeSnapshot()
        self.changed: Event[CodeSnapshot] = Event()

    # -- control -----------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def now(self) -> float:
        return self._clock()

    def phase(self) -> CodePhase:
        return self.snapshot.phase(self._clock())

    def start(self) -> None:
        """Start reading (no-op when already started). Needs a running event loop."""
        if self.running:
            return
        self._show_memory()
        self._task = asyncio.get_event_loop().create_task(
            supervised(self._run, name="validation code poller", sleep=self._sleep),
            name="code-poller",
        )

    def stop(self) -> None:
        """Stop reading now: the read or wait under way is cancelled."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
        self._update(reading=False, next_read_at=None)

    def select_qr(self, qr_id: int) -> None:
        """Show another QR of the branch (read now unless its code is known and valid)."""
        if self.snapshot.qr is not None and self.snapshot.qr.id == qr_id:
            return
        self._chosen = qr_id
        self._failures, self._retry_at = 0, None
        was_running = self.running
        self.stop()
        self._update(qr=self._pick(self.snapshot.qrs), failure=None)
        self._show_memory()
        if was_running:
            self.start()

    def reset(self) -> None:
        """Back to the configured QR (idle timeout); stopped."""
        self.stop()
        self._chosen = self._preferred
        self._update(qr=self._pick(self.snapshot.qrs))
        self._show_memory()

    # -- the loop ----------------------------------------------------------------
    async def _run(self) -> None:
        while True:
            qr = await self._current_qr()
            if qr is None:
                await self._sleep(NO_QR_RECHECK)
                self._update(qrs=None)
                continue
            due = self._due(qr)
            wait = clamp_wait(due - self._clock())
            if wait > 0:
                self._update(next_read_at=due)
                await self._sleep(wait)
                continue
            await self._read(qr)

    async def _current_qr(self) -> ValidationQr | None:
        while self.snapshot.qrs is None:
            if self._retry_at is not None and self._clock() < self._retry_at:
                self._update(next_read_at=self._retry_at)
                await self._sleep(clamp_wait(self._retry_at - self._clock()))
                continue
            self._update(reading=True, next_read_at=None)
            try:
                qrs = tuple(await self._source.list_qrs())
            except ApiError as error:
                self._failed(error, "listing the validation QRs")
                continue
            self._failures, self._retry_at = 0, None
            qr = self._pick(qrs)
            self._update(qrs=qrs, qr=qr, reading=False, failure=None)
            self._show_memory()
        return self.snapshot.qr

    def _pick(self, qrs: tuple[ValidationQr, ...] | None) -> ValidationQr | None:
        if not qrs:
            return None
        for qr in qrs:
            if qr.id == self._chosen:
                return qr
        if self._chosen is not None:
            log.info(
                "validation QR %s is not among the branch's; showing %s", self._chosen, qrs[0].id
            )
        return qrs[0]

    def _due(self, qr: ValidationQr) -> float:
        if self._retry_at is not None:
            return self._retry_at
        memory = self._memory.get(qr.id)
        return self._clock() if memory is None else memory.next_at

    async def _read(self, qr: ValidationQr) -> None:
        started = self._clock()
        self._update(reading=True, next_read_at=None)
        try:
            answer = await self._source.read_code(qr)
        except ApiError as error:
            if error.kind is ErrorKind.NOT_FOUND:
                self._memory.pop(qr.id, None)
                self._update(qrs=None, code=None, expires_at=None)  # list the QRs again
            self._failed(error, "reading the validation code")
            return
        self._remember(qr, answer, started)

    def _remember(self, qr: ValidationQr, answer: ValidationCode, started: float) -> None:
        answered = self._clock()
        window = window_of(qr)
        expires_in = answer.expires_in_seconds
        expires_at = (
            answered + clamp_wait(float(expires_in)) if expires_in is not None else started + window
        )
        previous = self._memory.get(qr.id)
        skews = 0
        if previous is not None and previous.code == answer.code and started >= previous.expires_at:
            skews = previous.skews + 1  # unchanged after its expiry: the clocks disagree
        # The contract: poll no faster than the window, even when the code lags.
        next_at = max(expires_at, started + window)
        if skews:
            log.info("validation code of QR %s unchanged after its expiry (%d)", qr.id, skews)
        self._memory[qr.id] = _QrMemory(answer.code, started, expires_at, next_at, skews)
        self._failures, self._retry_at = 0, None
        self._update(
            code=answer.code,
            expires_at=expires_at,
            reading=False,
            failure=None,
            next_read_at=next_at,
        )

    def _failed(self, error: ApiError, doing: str) -> None:
        self._failures += 1
        delay = FAILURE_DELAYS[min(self._failures, len(FAILURE_DELAYS)) - 1]
        if error.kind is ErrorKind.RATE_LIMITED:
            delay = max(delay, clamp_wait(error.retry_after or CODE_READ.window))
        delay *= 1.0 + JITTER * self._random()
        self._retry_at = self._clock() + delay
        log.warning("%s failed (%s); next try in %.0f s", doing, error, delay)
        self._update(reading=False, failure=error, next_read_at=self._retry_at)

    # -- state -------------------------------------------------------------------
    def _show_memory(self) -> None:
        """Show what is known of the chosen QR's code (it may still be valid)."""
        qr = self.snapshot.qr
        memory = self._memory.get(qr.id) if qr is not None else None
        if memory is None:
            self._update(code=None, expires_at=None, next_read_at=None)
        else:
            self._update(
                code=memory.code, expires_at=memory.expires_at, next_read_at=memory.next_at
            )

    def _update(self, **changes: Any) -> None:
        fresh = replace(self.snapshot, **changes)
        if fresh != self.snapshot:
            self.snapshot = fresh
            self.changed.emit(fresh)


def session_poller(
    session: CounterSession,
    *,
    clock: Clock = time.monotonic,
    sleep: Sleep = asyncio.sleep,
    rand: Callable[[], float] = random.random,
) -> CodePoller:
    """The poller of the session's branch, preferring its configured QR."""
    return CodePoller(
        SessionCodeSource(session),
        preferred_qr_id=session.config.validation_qr_id,
        clock=clock,
        sleep=sleep,
        rand=rand,
    )
