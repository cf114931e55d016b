"""The validation-code poller in virtual time: when it reads, when it waits, what it shows.

The tests drive ``CodePoller`` over a scripted source whose codes rotate on the
same virtual clock (``tests/core/counter/validation_code_fakes.py``). Through the real API
client and the simulator it runs in ``tests/ui/screens/code/test_code.py``.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import pytest

from kiosk.api.errors import ApiError, ErrorKind, Resource
from kiosk.core.counter.validation_code import (
    FAILURE_DELAYS,
    JITTER,
    REFRESH_GRACE,
    CodePhase,
    CodePoller,
    CodeSnapshot,
)
from tests.core.counter.validation_code_fakes import (
    START,
    WINDOW,
    ScriptedSource,
    VirtualClock,
    idle,
    qr,
    rate_limited,
    run_for,
    stop,
)
from tests.qt_async import until

T = TypeVar("T")


def arun(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 20))


def make(
    clock: VirtualClock, source: ScriptedSource, preferred: int | None = None, rand: float = 0.0
) -> CodePoller:
    return CodePoller(
        source, preferred_qr_id=preferred, clock=clock, sleep=clock.sleep, rand=lambda: rand
    )


@pytest.fixture
def warnings_ok(expect_log: Callable[[str], None]) -> None:
    expect_log(r"^(reading the validation code|listing the validation QRs) failed")


# -- reading on time ---------------------------------------------------------------


def test_first_read_shows_the_code_until_it_expires() -> None:
    async def scenario() -> None:
        clock = VirtualClock()
        source = ScriptedSource(clock)
        poller = make(clock, source)
        seen: list[CodeSnapshot] = []
        poller.changed.connect(seen.append)
        poller.start()
        await idle(clock)
        snap = poller.snapshot
        assert source.lists == 1
        assert source.read_times() == [START]
        assert snap.qr == qr(1)
        assert snap.code == source.code_at(1)
        assert snap.expires_at == START + WINDOW
        assert poller.phase() is CodePhase.LIVE
        assert snap.seconds_left(clock.now) == WINDOW
        assert any(s.reading and s.code is None for s in seen)  # LOADING was shown first
        await stop(poller)

    arun(scenario())


def test_reads_again_exactly_at_expiry_and_not_before() -> None:
    async def scenario() -> None:
        clock = VirtualClock()
        source = ScriptedSource(clock)
        poller = make(clock, source)
        poller.start()
        await idle(clock)
        first = poller.snapshot.code
        clock.advance(WINDOW - 1)
        await idle(clock)
        assert len(source.reads) == 1
        assert poller.phase() is CodePhase.LIVE
        clock.advance(1)  # exactly at expiry
        await until(lambda: len(source.reads) == 2)
        await idle(clock)
        assert source.read_times() == [START, START + WINDOW]
        assert poller.snapshot.code == source.code_at(1) != first
        assert poller.snapshot.expires_at == START + 2 * WINDOW
        await stop(poller)

    arun(scenario())


def test_a_code_read_mid_window_is_not_read_again_before_the_window() -> None:
    async def scenario() -> None:
        clock = VirtualClock(START + 40)  # 20 s left of this code
        source = ScriptedSource(clock)
        poller = make(clock, source)
        poller.start()
        await idle(clock)
        assert poller.snapshot.expires_at == START + WINDOW
        clock.advance(20)  # expired: the next read must wait for the QR's window
        await idle(clock)
        assert poller.phase() is CodePhase.WAITING
        assert poller.snapshot.next_read_in(clock.now) == 40
        clock.advance(39)
        await idle(clock)
        assert len(source.reads) == 1
        clock.advance(1)
        await until(lambda: len(source.reads) == 2)
        await idle(clock)
        assert source.read_times() == [START + 40, START + 40 + WINDOW]
        assert poller.phase() is CodePhase.LIVE
        await stop(poller)

    arun(scenario())


def test_no_reads_once_stopped_and_the_known_code_is_reused_on_restart() -> None:
    async def scenario() -> None:
        clock = VirtualClock()
        source = ScriptedSource(clock)
        poller = make(clock, source)
        poller.start()
        await idle(clock)
        await stop(poller)
        assert not poller.snapshot.reading
        clock.advance(10 * WINDOW)
        for _ in range(20):
            await asyncio.sleep(0)
        assert len(source.reads) == 1
        assert clock.sleeping == 0
        # Back within the window: the code is still valid, nothing is read.
        clock2 = VirtualClock()
        source2 = ScriptedSource(clock2)
        poller2 = make(clock2, source2)
        poller2.start()
        await idle(clock2)
        await stop(poller2)
        clock2.advance(30)
        poller2.start()
        await idle(clock2)
        assert len(source2.reads) == 1
        assert poller2.phase() is CodePhase.LIVE
        clock2.advance(30)
        await until(lambda: len(source2.reads) == 2)
        await stop(poller2)
        assert source2.lists == 1  # the QR list is read once

    arun(scenario())


# -- failures ----------------------------------------------------------------------


def test_429_waits_for_retry_after_without_a_storm(warnings_ok: None) -> None:
    async def scenario() -> None:
        clock = VirtualClock()
        source = ScriptedSource(clock)
        poller = make(clock, source, rand=0.5)
        poller.start()
        await idle(clock)
        source.fail_always = rate_limited(7.0)
        await run_for(clock, 10 * 60)
        times = source.read_times()
        gaps = [b - a for a, b in itertools.pairwise(times[1:])]  # after the read at expiry
        expected = [
            max(7.0, FAILURE_DELAYS[min(i, len(FAILURE_DELAYS) - 1)]) * (1 + JITTER * 0.5)
            for i in range(len(gaps))
        ]
        assert times[1] == START + WINDOW
        assert gaps == pytest.approx(expected)
        assert len(times) == 12  # the first, the one at expiry, 10 backed-off tries in 10 min
        for at in times:  # never more than the branch's 5 reads in any minute
            assert sum(1 for t in times if at <= t < at + 60) <= 5
        assert poller.phase() is CodePhase.UNAVAILABLE
        assert poller.snapshot.failure is source.fail_always
        await stop(poller)

    arun(scenario())


def test_429_honours_a_long_retry_after_and_without_one_waits_the_rate_window(
    warnings_ok: None,
) -> None:
    async def scenario() -> None:
        clock = VirtualClock()
        source = ScriptedSource(clock)
        poller = make(clock, source)
        source.errors = [rate_limited(45.0), rate_limited(None)]
        poller.start()
        await idle(clock)
        assert poller.phase() is CodePhase.UNAVAILABLE
        assert poller.snapshot.next_read_in(clock.now) == 45
        clock.advance(44)
        await idle(clock)
        assert len(source.reads) == 1
        clock.advance(1)
        await until(lambda: len(source.reads) == 2)
        await idle(clock)
        assert poller.snapshot.next_read_in(clock.now) == 60  # no Retry-After: a minute
        clock.advance(60)
        await until(lambda: len(source.reads) == 3)
        await idle(clock)
        assert poller.phase() is CodePhase.LIVE
        assert poller.snapshot.failure is None
        assert source.read_times() == [START, START + 45, START + 105]
        await stop(poller)

    arun(scenario())


def test_a_failed_read_keeps_the_last_code_greyed_then_says_unavailable(
    warnings_ok: None,
) -> None:
    async def scenario() -> None:
        clock = VirtualClock()
        source = ScriptedSource(clock)
        poller = make(clock, source)
        poller.start()
        await idle(clock)
        last = poller.snapshot.code
        source.gate = asyncio.Event()
        source.errors = [ApiError(ErrorKind.NETWORK, message="dropped")]
        clock.advance(WINDOW)  # the read at expiry hangs
        await until(lambda: poller.snapshot.reading)
        assert poller.phase() is CodePhase.REFRESHING
        assert poller.snapshot.code == last
        clock.advance(REFRESH_GRACE)
        assert poller.phase() is CodePhase.LOADING  # expired: no longer shown
        source.gate.set()
        await idle(clock)
        assert poller.phase() is CodePhase.UNAVAILABLE
        assert poller.snapshot.failure is not None
        assert poller.snapshot.failure.kind is ErrorKind.NETWORK
        assert poller.snapshot.next_read_in(clock.now) == FAILURE_DELAYS[0]
        source.gate = None
        clock.advance(FAILURE_DELAYS[0])
        await until(lambda: len(source.reads) == 3)
        await idle(clock)
        assert poller.phase() is CodePhase.LIVE
        assert poller.snapshot.code == source.code_at(1)
        await stop(poller)

    arun(scenario())


def test_an_unchanged_code_after_expiry_is_read_again_only_after_the_window() -> None:
    # The contract: "Poll no faster than validationWindowSeconds" (#22, item 13), even
    # when a lagging server gives the same code again after its expiry.
    async def scenario() -> None:
        clock = VirtualClock()
        source = ScriptedSource(clock)
        poller = make(clock, source)
        poller.start()
        await idle(clock)
        code = poller.snapshot.code
        assert code is not None
        source.frozen = (code, 1)
        await run_for(clock, 3 * WINDOW + 30)
        times = source.read_times()
        assert times == [START + n * WINDOW for n in range(4)]
        assert all(b - a >= WINDOW for a, b in itertools.pairwise(times))
        # Between the reads, the lagging code shows as waiting for the window.
        assert poller.phase() is CodePhase.WAITING
        # The server finally rotates: the next read (a window later) shows it.
        source.frozen = None
        await run_for(clock, WINDOW)
        assert source.read_times()[4] == times[-1] + WINDOW
        assert poller.snapshot.code == source.code_at(1) != code
        await stop(poller)

    arun(scenario())


def test_an_unknown_qr_lists_the_qrs_again(warnings_ok: None) -> None:
    async def scenario() -> None:
        clock = VirtualClock()
        source = ScriptedSource(clock, [qr(1), qr(2)])
        poller = make(clock, source)
        poller.start()
        await idle(clock)
        source.qrs = [qr(2)]
        source.errors = [ApiError(ErrorKind.NOT_FOUND, status=404, resource=Resource.QR)]
        clock.advance(WINDOW)
        await idle(clock)
        assert poller.phase() is CodePhase.UNAVAILABLE
        assert poller.snapshot.code is None
        clock.advance(FAILURE_DELAYS[0])
        await until(lambda: len(source.reads) == 3)
        await idle(clock)
        assert source.lists == 2
        assert poller.snapshot.qr == qr(2)
        assert poller.snapshot.code == source.code_at(2)
        await stop(poller)

    arun(scenario())


# -- which QR --------------------------------------------------------------------------


@pytest.mark.parametrize(("preferred", "shown"), [(None, 1), (2, 2), (99, 1)])
def test_the_configured_qr_is_shown_else_the_first(preferred: int | None, shown: int) -> None:
    async def scenario() -> None:
        clock = VirtualClock()
        source = ScriptedSource(clock, [qr(1), qr(2)])
        poller = make(clock, source, preferred=preferred)
        poller.start()
        await idle(clock)
        assert poller.snapshot.qrs == (qr(1), qr(2))
        assert poller.snapshot.qr == qr(shown)
        assert source.reads == [(shown, START)]
        await stop(poller)

    arun(scenario())


def test_choosing_another_qr_reads_it_and_a_known_code_is_not_read_again() -> None:
    async def scenario() -> None:
        clock = VirtualClock()
        source = ScriptedSource(clock, [qr(1), qr(2)])
        poller = make(clock, source)
        poller.start()
        await idle(clock)
        clock.advance(10)
        poller.select_qr(2)
        await until(lambda: len(source.reads) == 2)
        await idle(clock)
        assert poller.snapshot.qr == qr(2)
        assert poller.snapshot.code == source.code_at(2)
        clock.advance(10)
        poller.select_qr(1)  # still valid: shown at once, no read
        await idle(clock)
        assert source.reads == [(1, START), (2, START + 10)]
        assert poller.snapshot.code == source.code_at(1)
        assert poller.phase() is CodePhase.LIVE
        clock.advance(WINDOW - 20)  # QR 1 expires: read; QR 2 is not shown, not read
        await until(lambda: len(source.reads) == 3)
        await idle(clock)
        assert source.reads[-1] == (1, START + WINDOW)
        poller.reset()  # idle timeout: back to the configured (here the first) QR
        assert not poller.running
        assert poller.snapshot.qr == qr(1)

    arun(scenario())


def test_a_branch_without_qr_says_so_and_reads_nothing() -> None:
    async def scenario() -> None:
        clock = VirtualClock()
        source = ScriptedSource(clock, [])
        poller = make(clock, source)
        poller.start()
        await idle(clock)
        assert poller.phase() is CodePhase.NO_QR
        assert source.reads == []
        await stop(poller)

    arun(scenario())


def test_phase_of_a_snapshot() -> None:
    live = CodeSnapshot(qrs=(qr(1),), qr=qr(1), code="1234", expires_at=100.0)
    assert live.phase(99.0) is CodePhase.LIVE
    assert live.phase(100.0) is CodePhase.WAITING
    reading = CodeSnapshot(qrs=(qr(1),), qr=qr(1), code="1234", expires_at=100.0, reading=True)
    assert reading.phase(99.0) is CodePhase.REFRESHING
    assert reading.phase(100.0 + REFRESH_GRACE - 0.1) is CodePhase.REFRESHING
    assert reading.phase(100.0 + REFRESH_GRACE) is CodePhase.LOADING
    failed = CodeSnapshot(
        qrs=(qr(1),), qr=qr(1), code="1234", expires_at=100.0, failure=rate_limited(None)
    )
    assert failed.phase(99.0) is CodePhase.REFRESHING
    assert failed.phase(100.0) is CodePhase.UNAVAILABLE
    assert CodeSnapshot().phase(0.0) is CodePhase.LOADING
    assert CodeSnapshot(qrs=()).phase(0.0) is CodePhase.NO_QR
    assert CodeSnapshot(qr=qr(1, window=None)).window == 60.0
