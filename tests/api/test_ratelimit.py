"""The client-side limiter, in virtual time (nothing here waits for real)."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from kiosk.api.errors import ApiError, ErrorKind
from kiosk.api.ratelimit import (
    CODE_READ,
    TAGS,
    VALIDATE,
    RateLimiter,
    Rule,
    key_fingerprint,
    shared_limiter,
)
from tests.api.fakes import VirtualTime


def max_in_window(times: list[float], window: float) -> int:
    return max((sum(1 for u in times if t <= u < t + window) for t in times), default=0)


def test_never_more_than_ten_tag_calls_in_any_second() -> None:
    vt = VirtualTime()
    limiter = RateLimiter(clock=vt.time, sleep=vt.sleep)
    taken: list[float] = []

    async def one() -> None:
        await limiter.acquire(TAGS)
        taken.append(vt.time())

    async def burst() -> None:
        await asyncio.gather(*(one() for _ in range(50)))

    vt.run(burst())
    assert len(taken) == 50
    assert max_in_window(taken, 1.0) == 10
    assert taken[:10] == [1000.0] * 10  # the first ten go at once
    assert taken[-1] - taken[0] == pytest.approx(4 * (1.0 + limiter.margin))  # and no slower


def test_interactive_calls_go_before_waiting_background_work() -> None:
    vt = VirtualTime()
    limiter = RateLimiter(clock=vt.time, sleep=vt.sleep)
    order: list[str] = []

    async def call(name: str, background: bool) -> None:
        await limiter.acquire(TAGS, background=background)
        order.append(name)

    async def scenario() -> None:
        backlog = [asyncio.ensure_future(call(f"bg{i}", True)) for i in range(15)]
        await asyncio.sleep(0)
        await vt.sleep(0.2)  # the outbox is already waiting when the cashier acts
        await call("cashier", False)
        await asyncio.gather(*backlog)

    vt.run(scenario())
    assert order[:10] == [f"bg{i}" for i in range(10)]
    assert order[10] == "cashier"
    assert order[11:] == [f"bg{i}" for i in range(10, 15)]


def test_code_reads_are_per_branch_and_spaced_per_qr() -> None:
    vt = VirtualTime()
    limiter = RateLimiter(clock=vt.time, sleep=vt.sleep, margin=0.0)
    reads: dict[str, list[float]] = {"qr:1": [], "qr:2": []}

    async def read(qr: str, branch: str) -> None:
        await limiter.acquire(CODE_READ, branch, spacing=20, spacing_key=qr, background=True)
        reads[qr].append(vt.time())

    async def scenario() -> None:
        for _ in range(4):
            await asyncio.gather(read("qr:1", "branch:1"), read("qr:2", "branch:1"))

    vt.run(scenario())
    for times in reads.values():
        gaps = [b - a for a, b in itertools.pairwise(times)]
        assert len(times) == 4
        assert min(gaps) >= 20.0
    assert reads["qr:1"][:2] == [1000.0, 1020.0]
    every = sorted(reads["qr:1"] + reads["qr:2"])
    assert max_in_window(every, 60.0) == 5  # both QRs share the branch's 5 per minute
    # Another branch has its own window.
    vt2 = VirtualTime()
    other = RateLimiter(clock=vt2.time, sleep=vt2.sleep)

    async def two_branches() -> list[float]:
        waits = []
        for branch in ("branch:1", "branch:1", "branch:1", "branch:1", "branch:1", "branch:2"):
            waits.append(await other.acquire(CODE_READ, branch))
        return waits

    assert vt2.run(two_branches()) == [0.0] * 6


def test_validate_allows_ten_per_minute() -> None:
    vt = VirtualTime()
    limiter = RateLimiter(clock=vt.time, sleep=vt.sleep)

    async def eleven() -> list[float]:
        return [await limiter.acquire(VALIDATE) for _ in range(11)]

    waits = vt.run(eleven())
    assert waits[:10] == [0.0] * 10
    assert waits[10] == pytest.approx(60.0 + limiter.margin)


def test_hold_off_after_a_429_blocks_every_caller_of_the_merchant() -> None:
    vt = VirtualTime()
    limiter = RateLimiter(clock=vt.time, sleep=vt.sleep)

    async def scenario() -> float:
        await limiter.acquire(TAGS)
        limiter.hold_off(TAGS, "merchant", 3.0)
        return await limiter.acquire(TAGS)

    assert vt.run(scenario()) == pytest.approx(3.0)


def test_max_wait_refuses_instead_of_waiting() -> None:
    vt = VirtualTime()
    limiter = RateLimiter(clock=vt.time, sleep=vt.sleep)
    rule = Rule("tiny", 1, 10.0)

    async def scenario() -> ApiError:
        await limiter.acquire(rule)
        with pytest.raises(ApiError) as caught:
            await limiter.acquire(rule, max_wait=2.0)
        return caught.value

    error = vt.run(scenario())
    assert error.kind is ErrorKind.RATE_LIMITED
    assert error.retry_after == pytest.approx(10.0 + limiter.margin)
    assert limiter.waiting(rule) == 0


def test_a_cancelled_waiter_leaves_the_queue_and_lets_others_through() -> None:
    vt = VirtualTime()
    limiter = RateLimiter(clock=vt.time, sleep=vt.sleep)
    rule = Rule("one", 1, 5.0)

    async def scenario() -> float:
        await limiter.acquire(rule)
        first = asyncio.ensure_future(limiter.acquire(rule))
        second = asyncio.ensure_future(limiter.acquire(rule, background=True))
        await asyncio.sleep(0)
        assert limiter.waiting(rule) == 2
        first.cancel()
        await asyncio.gather(first, return_exceptions=True)
        return await second

    assert vt.run(scenario()) == pytest.approx(5.0 + limiter.margin)
    assert limiter.waiting(rule) == 0


def test_one_limiter_per_merchant_keyed_by_a_fingerprint_not_the_key() -> None:
    a = shared_limiter("https://api.example.test/", "key-aaaaaaaa")
    b = shared_limiter("https://API.example.test", "key-aaaaaaaa")
    c = shared_limiter("https://api.example.test", "key-bbbbbbbb")
    assert a is b
    assert a is not c
    assert "key-aaaaaaaa" not in key_fingerprint("key-aaaaaaaa")
    assert len(key_fingerprint("key-aaaaaaaa")) == 12
    from kiosk.api import ratelimit

    assert not any("key-aaaaaaaa" in str(k) for k in ratelimit._REGISTRY)


# -- the cashier's reserve: background leaves places free while the cashier is active ------
def test_background_leaves_the_reserve_free_while_the_cashier_is_active() -> None:
    vt = VirtualTime()
    limiter = RateLimiter(clock=vt.time, sleep=vt.sleep, margin=0.0)
    taken: list[float] = []

    async def drain(count: int) -> None:  # the outbox: serial background takes
        for _ in range(count):
            await limiter.acquire(TAGS, background=True)
            taken.append(vt.time())

    async def scenario() -> None:
        await limiter.acquire(TAGS)  # a preview: the cashier is active for 30 s
        await drain(40)

    vt.run(scenario())
    assert TAGS.reserve == 2
    assert limiter.cashier_active == 30.0
    # 7 beside the preview, then 8 a second: 2 places of the window stay free.
    assert taken[:7] == [1000.0] * 7
    assert taken[7:15] == [1001.0] * 8
    assert max_in_window(taken, 1.0) == 8
    assert taken[-1] == pytest.approx(1005.0)  # 40 at 8/s: still drained, never stopped


def test_background_uses_the_whole_window_when_no_cashier_is_active() -> None:
    vt = VirtualTime()
    limiter = RateLimiter(clock=vt.time, sleep=vt.sleep, margin=0.0)
    taken: list[float] = []

    async def scenario() -> None:
        await limiter.acquire(TAGS)  # the cashier's last call...
        await vt.sleep(31.0)  # ...more than 30 s ago
        for _ in range(30):
            await limiter.acquire(TAGS, background=True)
            taken.append(vt.time())

    vt.run(scenario())
    assert taken[:10] == [1031.0] * 10
    assert max_in_window(taken, 1.0) == 10
    assert taken[-1] == pytest.approx(1033.0)  # the full 10/s


def test_the_reserve_ends_when_the_cashier_goes_while_background_waits() -> None:
    vt = VirtualTime()
    limiter = RateLimiter(clock=vt.time, sleep=vt.sleep, margin=0.0, cashier_active=0.5)
    taken: list[float] = []

    async def scenario() -> None:
        await limiter.acquire(TAGS)
        for _ in range(10):
            await limiter.acquire(TAGS, background=True)
            taken.append(vt.time())

    vt.run(scenario())
    # 7 beside the preview (2 kept free); those 2 once the cashier is no longer active
    # (0.5 s), not a whole window later; the last when the preview's place frees.
    assert taken[:7] == [1000.0] * 7
    assert taken[7:9] == pytest.approx([1000.5] * 2)
    assert taken[9] == pytest.approx(1001.0)


def test_an_interactive_take_right_after_a_background_burst_gets_a_place_at_once() -> None:
    vt = VirtualTime()
    limiter = RateLimiter(clock=vt.time, sleep=vt.sleep)
    waits: dict[str, float] = {}
    burst_done = asyncio.Event()

    async def outbox() -> None:
        for _ in range(30):  # a backlog: the sender takes every place it may have
            await limiter.acquire(TAGS, background=True)
            if limiter.waiting(TAGS) == 0 and vt.time() > 1001.0:
                burst_done.set()

    async def scenario() -> None:
        waits["first preview"] = await limiter.acquire(TAGS)
        backlog = asyncio.ensure_future(outbox())
        await burst_done.wait()  # mid-backlog: background is waiting for the window
        waits["preview"] = await limiter.acquire(TAGS)
        waits["credit"] = await limiter.acquire(TAGS)
        await backlog

    vt.run(scenario())
    assert waits == {"first preview": 0.0, "preview": 0.0, "credit": 0.0}


def test_background_wait_tells_how_long_without_taking_a_place() -> None:
    vt = VirtualTime()
    limiter = RateLimiter(clock=vt.time, sleep=vt.sleep, margin=0.0)

    async def scenario() -> list[float]:
        told = [limiter.background_wait(TAGS)]
        for _ in range(10):
            await limiter.acquire(TAGS, background=True)
        told.append(limiter.background_wait(TAGS))  # the window is full
        await vt.sleep(0.25)
        told.append(limiter.background_wait(TAGS))
        limiter.hold_off(TAGS, "merchant", 3.0)  # a server's hold: acquire's to wait out
        told.append(limiter.background_wait(TAGS))
        return told

    assert vt.run(scenario()) == pytest.approx([0.0, 1.0, 0.75, 0.75])
    assert limiter.waiting(TAGS) == 0


def test_any_interactive_call_starts_the_reserve_before_the_preview() -> None:
    """Identifying a client is no limited call, but the cashier is there: the outbox's
    drain leaves the reserve free from then on, so the preview that follows a few
    seconds later finds a place at once."""
    vt = VirtualTime()
    limiter = RateLimiter(clock=vt.time, sleep=vt.sleep, margin=0.0)
    taken: list[float] = []
    waited: list[float] = []

    async def scenario() -> None:
        limiter.cashier_seen()  # a search by DNI (no rule of its own)
        for _ in range(20):
            await limiter.acquire(TAGS, background=True)
            taken.append(vt.time())
        waited.append(await limiter.acquire(TAGS))  # the preview

    vt.run(scenario())
    assert max_in_window(taken, 1.0) == 8  # the reserve kept from the search on
    assert waited == [0.0]
