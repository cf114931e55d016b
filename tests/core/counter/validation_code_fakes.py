"""Fakes for the validation-code tests: a virtual monotonic clock and a scripted source.

``VirtualClock`` only moves when told (``advance``), waking the sleepers whose time
has come; ``ScriptedSource`` serves codes that rotate every ``WINDOW`` seconds of
that clock, with failures and stalled reads on demand.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Sequence

from kiosk.api.errors import ApiError, ErrorKind
from kiosk.api.models.validation import ValidationCode, ValidationQr
from kiosk.core.counter.validation_code import CodePoller
from tests.qt_async import until

WINDOW = 60
START = 960.0  # the start of a 60 s window of the scripted source


class VirtualClock:
    """A monotonic clock that only ``advance`` moves; ``sleep`` parks until then.

    ``also`` is called with every advance (to move the simulator's clock along).
    """

    def __init__(self, start: float = START, also: Callable[[float], None] | None = None) -> None:
        self.now = start
        self._also = also
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        entry = (self.now + seconds, asyncio.get_running_loop().create_future())
        self._sleepers.append(entry)
        try:
            await entry[1]
        finally:
            if entry in self._sleepers:
                self._sleepers.remove(entry)

    @property
    def sleeping(self) -> int:
        return sum(1 for _, future in self._sleepers if not future.done())

    @property
    def next_deadline(self) -> float | None:
        pending = [deadline for deadline, future in self._sleepers if not future.done()]
        return min(pending) if pending else None

    def advance(self, seconds: float) -> None:
        self.now += seconds
        if self._also is not None:
            self._also(seconds)
        for deadline, future in list(self._sleepers):
            if deadline <= self.now + 1e-9 and not future.done():
                future.set_result(None)

    def advance_to(self, at: float) -> None:
        self.advance(max(0.0, at - self.now))


def qr(qr_id: int, name: str = "Caja", window: int | None = WINDOW) -> ValidationQr:
    return ValidationQr(
        id=qr_id, branch_id=1, name=f"{name} {qr_id}", branch_name="Centro", window_seconds=window
    )


class ScriptedSource:
    """Codes that rotate every ``WINDOW`` seconds of ``clock``; failures and stalls on demand."""

    def __init__(self, clock: VirtualClock, qrs: Sequence[ValidationQr] = (qr(1),)) -> None:
        self.clock = clock
        self.qrs = list(qrs)
        self.reads: list[tuple[int, float]] = []
        self.lists = 0
        self.errors: list[ApiError] = []  # raised by the next reads, in order
        self.fail_always: ApiError | None = None
        self.gate: asyncio.Event | None = None  # a read waits for it (in flight)
        self.frozen: tuple[str, int] | None = None  # (code, expiresIn): a server that lags

    async def list_qrs(self) -> Sequence[ValidationQr]:
        self.lists += 1
        return list(self.qrs)

    async def read_code(self, qr: ValidationQr) -> ValidationCode:
        self.reads.append((qr.id, self.clock.now))
        if self.gate is not None:
            await self.gate.wait()
        if self.errors:
            raise self.errors.pop(0)
        if self.fail_always is not None:
            raise self.fail_always
        if self.frozen is not None:
            code, expires = self.frozen
            return ValidationCode(qr_id=qr.id, code=code, expires_in_seconds=expires)
        return ValidationCode(qr_id=qr.id, code=self.code_at(qr.id), expires_in_seconds=self.left())

    def code_at(self, qr_id: int, at: float | None = None) -> str:
        index = math.floor((self.clock.now if at is None else at) / WINDOW)
        return f"{(index * 37 + qr_id * 1000) % 10000:04d}"

    def left(self) -> int:
        return max(
            1, math.ceil((math.floor(self.clock.now / WINDOW) + 1) * WINDOW - self.clock.now)
        )

    def read_times(self) -> list[float]:
        return [at for _, at in self.reads]


def rate_limited(retry_after: float | None) -> ApiError:
    return ApiError(ErrorKind.RATE_LIMITED, status=429, retry_after=retry_after)


async def idle(clock: VirtualClock) -> None:
    """Until the poller waits on the clock again."""
    await until(lambda: clock.sleeping > 0, message="the poller never went back to sleep")


async def stop(poller: CodePoller) -> None:
    poller.stop()
    await until(lambda: not poller.running)


async def run_for(clock: VirtualClock, seconds: float) -> None:
    """Move through ``seconds`` of virtual time, waking every sleeper on the way."""
    end = clock.now + seconds
    while True:
        await idle(clock)
        deadline = clock.next_deadline
        assert deadline is not None
        if deadline > end:
            clock.advance_to(end)
            return
        clock.advance_to(deadline)
