"""The kiosk's share of its merchant's window (``kiosk.core.outbox.share``).

The rules on plain numbers, then the sender with them over the in-process simulator
on the virtual clock (a 429 comes from a fault rule; nothing here waits for real).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from starlette.types import ASGIApp

from kiosk.core.outbox.queue import RowState
from kiosk.core.outbox.share import Share
from kiosk.sim.world import World
from tests.core.outbox.harness import Kiosk, client_emails, run_kiosk

CREDIT = r"^/external/tags/add$"
T0 = 1000.0


@pytest.fixture(autouse=True)
def _expected_logs(expect_log: Callable[[str], None]) -> None:
    expect_log(r"^(POST|PUT) /external/tags/")  # the client's refused attempts


def holding(places: int, *, gap: float = 2.0) -> Share:
    """A share that took ``places`` requests at T0 and then met a 429 (rand 0.5)."""
    share = Share(probe_gap=gap)
    for n in range(places):
        share.sending(T0 + n * 0.01)
        share.counted(T0 + n * 0.01)
    share.sending(T0 + 0.1)
    assert share.refused(T0 + 0.1, 0.5) is True
    return share


# -- the rules ----------------------------------------------------------------------------


def test_alone_a_kiosk_is_never_paced() -> None:
    share = Share()
    for n in range(30):
        now = T0 + n * 0.01
        assert share.due(now) == now
        share.sending(now)
        share.counted(now)
    assert share.places is None


def test_after_a_429_a_kiosk_keeps_the_places_it_holds_and_no_more() -> None:
    share = holding(3)
    assert share.places == 3
    # Its fourth request waits for the first place it frees: one window (+ margin) on.
    assert share.due(T0 + 0.2) == pytest.approx(T0 + share.period)
    assert share.due(T0 + 0.5) == pytest.approx(T0 + share.period)
    # Then it takes its places again, one by one, each a window after the last time.
    now = T0 + share.period
    share.sending(now)
    share.counted(now)
    assert share.due(now) == pytest.approx(T0 + 0.01 + share.period)
    assert share.places == 3  # no probe: it is not yet time


def test_a_429_without_a_place_of_its_own_says_so() -> None:
    share = Share()
    share.sending(T0)
    assert share.refused(T0, 0.5) is False  # the sender waits Retry-After + spread
    assert share.places == 1  # the first place it wins, it keeps
    assert share.due(T0 + 1.5) == T0 + 1.5


def test_probes_grow_the_share_back_to_the_whole_window() -> None:
    share = holding(2, gap=2.0)  # the next probe 2 s x (0.5 + 0.5) after the 429: T0 + 2.1

    def turn(start: float) -> float:  # its two places again, one window on
        now = start
        for _ in range(2):
            assert share.due(now) <= now
            share.sending(now)
            share.counted(now)
            now += 0.01
        return now

    now = turn(T0 + share.period)
    assert share.due(now) == pytest.approx(T0 + 2 * share.period)  # no probe yet
    now = turn(T0 + 2 * share.period)
    assert share.due(now) == pytest.approx(T0 + 3 * share.period)  # still not its time
    now = turn(T0 + 3 * share.period)
    # Right after its own requests, past the probe's time: one more goes at once.
    grown = 2
    while share.places is not None:
        assert share.due(now) == now
        share.sending(now)
        share.counted(now)  # answered: one place more, and the next probe at once
        grown += 1
        assert share.places in (grown, None)
        now += 0.01
    assert grown == share.limit  # at the limit: alone again


def test_a_refused_probe_keeps_the_places_and_waits_longer() -> None:
    share = holding(1, gap=2.0)
    now = T0 + 0.1 + 2.0  # the probe's time, right after its request
    share.sending(now - 0.01)
    share.counted(now - 0.01)
    assert share.due(now) == now
    share.sending(now)
    assert share.refused(now, 0.5) is True
    assert share.places == 1
    assert share.due(now + 0.05) == pytest.approx(now - 0.01 + share.period)  # its turn
    # The next probe waits longer: 2 s doubled, at most probe_cap (x 0.5 + 0.5).
    longer = min(4.0, share.probe_cap)
    assert longer > 2.0
    later = now + longer - 0.1
    share.sending(later)
    share.counted(later)
    assert share.due(later + 0.01) > later + 0.01  # not yet
    assert share.places == 1
    later = now + longer
    share.sending(later)
    share.counted(later)
    assert share.due(later + 0.01) == later + 0.01  # now


def test_quiet_or_retry_now_makes_a_kiosk_alone_again() -> None:
    share = holding(2)
    assert share.due(T0 + 0.1 + share.quiet + 1) == T0 + 0.1 + share.quiet + 1
    assert share.places is None
    share = holding(2)
    share.reset()
    assert share.due(T0 + 0.2) == T0 + 0.2


def test_a_clock_that_goes_back_never_holds_a_row_longer_than_a_window() -> None:
    share = holding(2)
    back = T0 - 3600.0
    assert back <= share.due(back) <= back + share.period


# -- the sender ---------------------------------------------------------------------------


def test_a_kiosk_refused_once_waits_its_turn_then_takes_the_window_back(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    """Two requests counted, the third refused (another kiosk filled the window): the
    sender waits the Retry-After and its turn, keeps to two per window, probes (the
    window is free: each probe is answered) and is alone again; no second 429, every
    credit once."""

    async def scenario(k: Kiosk) -> None:
        share = k.sender.share = Recording(probe_gap=4.0)  # no probe within 2 s of the 429
        rows = []
        for address in client_emails(sim_world, 26):
            submitted, _ = await k.sale(k.request(k.kiosk_id(), email=address))
            rows.append(submitted.row)
        k.control.add_fault("status", CREDIT, status=429, count=1, skip=2)
        assert await k.sender.step() == 0
        assert await k.sender.step() == 0
        refused_at = k.time.now
        assert await k.sender.step() == 0  # the 429 (Retry-After: 1)
        third = await k.outbox.get(rows[2].id)
        assert third is not None
        # It holds two places: only the server's hold, no spread on top.
        assert third.next_attempt_at - refused_at == pytest.approx(1.0)
        assert share.places == 2
        await k.sender.drain()
        paced = [t for t in share.sent if t > refused_at]
        # Its turn: a window (+ margin) after its first place, past the 1 s hold.
        assert paced[0] == pytest.approx(refused_at + share.period)
        before_probes = [t for t in paced if t < refused_at + 2.0]
        assert len(before_probes) == 2  # two places, two requests a window
        assert paced[2] >= paced[0] + share.period
        assert share.places is None  # then the probes were answered: alone again
        statuses = [r["status"] for r in k.control.requests()]
        assert statuses.count(429) == 1
        assert len(statuses) == 27
        for row in rows:
            settled = await k.outbox.get(row.id)
            assert settled is not None
            assert settled.state is RowState.DONE
            assert len(k.ops(row.external_id)) == 1

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


def test_a_kiosk_refused_with_no_place_waits_the_retry_after_and_a_spread(
    sim_app: ASGIApp, sim_world: World, tmp_path: Path
) -> None:
    async def scenario(k: Kiosk) -> None:
        submitted, _ = await k.sale(k.request(k.kiosk_id(), email=client_emails(sim_world, 1)[0]))
        k.control.add_fault("status", CREDIT, status=429, count=1)
        refused_at = k.time.now
        assert await k.sender.step() == 0
        row = await k.outbox.get(submitted.row.id)
        assert row is not None
        wait = row.next_attempt_at - refused_at
        assert 1.0 <= wait <= 1.0 + k.sender.backoff.retry_after_spread  # Backoff.crowded
        await k.sender.drain()
        assert len(k.ops(row.external_id)) == 1

    run_kiosk(sim_app, sim_world, tmp_path, scenario)


class Recording(Share):
    """A share that keeps the times of the requests the server counted."""

    def __init__(self, probe_gap: float) -> None:
        super().__init__(probe_gap=probe_gap)
        self.sent: list[float] = []

    def counted(self, sent_at: float) -> None:
        self.sent.append(sent_at)
        super().counted(sent_at)
