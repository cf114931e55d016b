"""The code poller against hostile server data (issue #17, item 5): a rotation window
of 10^9 seconds never reaches a timer unclamped, and a poller loop that dies on an
error is logged and started again."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from kiosk.api.models.validation import ValidationCode, ValidationQr
from kiosk.core.counter.validation_code import CodePoller, window_of
from kiosk.core.supervise import MAX_LOOP_WAIT, clamp_wait
from tests.core.counter.validation_code_fakes import ScriptedSource, VirtualClock, idle, qr, stop
from tests.qt_async import until

HUGE = 10**9


def test_waits_from_server_data_are_clamped() -> None:
    assert window_of(qr(1, window=HUGE)) == MAX_LOOP_WAIT
    assert clamp_wait(float("nan")) == 0.0
    assert clamp_wait(-5) == 0.0
    assert clamp_wait(1e300) == MAX_LOOP_WAIT


def test_a_window_of_a_billion_seconds_runs_on_qasync_s_timers(
    aloop: asyncio.AbstractEventLoop, expect_log: Callable[[str], None]
) -> None:
    """The real event loop (qasync) and the real sleep: before the clamp, the poller's
    sleep passed 2^31 ms to Qt's timer and its task died with OverflowError."""

    class Huge(ScriptedSource):
        async def read_code(self, qr: ValidationQr) -> ValidationCode:
            self.reads.append((qr.id, self.clock.now))
            return ValidationCode(qr_id=qr.id, code="1234", expires_in_seconds=HUGE)

    clock = VirtualClock()
    source = Huge(clock, qrs=(qr(1, window=HUGE),))
    poller = CodePoller(source, clock=clock)  # the real asyncio.sleep

    async def scenario() -> None:
        poller.start()
        await until(lambda: poller.snapshot.code == "1234")
        for _ in range(20):
            await asyncio.sleep(0.005)
        assert poller.running  # sleeping an hour at most, not dead
        assert poller.snapshot.expires_at == clock.now + MAX_LOOP_WAIT
        await stop(poller)

    aloop.run_until_complete(asyncio.wait_for(scenario(), 10))


def test_a_loop_that_dies_is_logged_and_started_again(
    expect_log: Callable[[str], None],
) -> None:
    expect_log(r"^validation code poller stopped on an error; started again in 1 s")

    class Broken(ScriptedSource):
        failures = 1

        async def read_code(self, qr: ValidationQr) -> ValidationCode:
            if self.failures:
                self.failures -= 1
                raise OverflowError("timer interval out of range")  # a bug, not an ApiError
            return await super().read_code(qr)

    async def scenario() -> None:
        clock = VirtualClock()
        source = Broken(clock)
        poller = CodePoller(source, clock=clock, sleep=clock.sleep, rand=lambda: 0.0)
        poller.start()
        await idle(clock)  # the supervisor's one-second wait
        assert poller.running
        clock.advance(1)
        await until(lambda: poller.snapshot.code is not None)
        assert poller.snapshot.code == source.code_at(1)
        await stop(poller)

    asyncio.run(asyncio.wait_for(scenario(), 10))


@pytest.mark.parametrize("seconds", [float("inf"), float(HUGE)])
def test_the_limiter_caps_a_spacing_from_the_server(seconds: float) -> None:
    from kiosk.api.classify import MAX_SERVER_WAIT
    from kiosk.api.ratelimit import CODE_READ, RateLimiter

    slept: list[float] = []

    async def sleep(s: float) -> None:
        slept.append(s)
        now[0] += s

    now = [0.0]
    limiter = RateLimiter(clock=lambda: now[0], sleep=sleep)

    async def scenario() -> None:
        await limiter.acquire(CODE_READ, "b", spacing=seconds, spacing_key="qr:1")
        await limiter.acquire(CODE_READ, "b", spacing=seconds, spacing_key="qr:1")

    asyncio.run(scenario())
    assert slept
    assert max(slept) <= MAX_SERVER_WAIT
