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
