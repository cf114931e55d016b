"""A merchant's fleet back from an outage, at the suite's size (issue #28, fleet at scale).

``tests/bench/fleet_scale.py`` with 40 kiosks and a quarter-hour outage, seeded, on
its virtual clock (``tests/bench/fleet_clock.py``; the simulator's 10/s merchant limit
on the same clock; each kiosk's real outbox file, client, limiter, share and sender):
every credit exactly once and the drain within 1.2x the minimum the limit allows. The
bench at 200 kiosks, with the live credits' waits and the 429s: docs/benchmarks.md
("Fleet").
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.bench.fleet_clock import run_virtual
from tests.bench.fleet_scale import Run, fleet


@pytest.fixture(autouse=True)
def _expected_logs(expect_log: Callable[[str], None]) -> None:
    expect_log(r"^(POST|PUT) /external/tags/")  # the client's refused attempts
    expect_log(r"^outbox")  # the rows' retries


def back_from_outage(folder: Path, seed: int) -> Run:
    args = argparse.Namespace(
        kiosks=40, outage=900.0, sale_gap=(30.0, 300.0), latency=0.015, wall_limit=120.0
    )
    run: Run = run_virtual(lambda: fleet(args, folder, seed))
    return run


def test_forty_kiosks_back_from_an_outage_send_every_credit_once_near_the_limit(
    tmp_path: Path,
) -> None:
    run = back_from_outage(tmp_path, seed=1)
    assert run.finished
    assert run.doubled == 0
    assert run.lost == 0
    assert run.backlog > 300  # outboxes of 1 to 30-odd credits
    assert run.backlog_sizes[0] < 5 < 20 < run.backlog_sizes[-1]
    assert run.ratio <= 1.2
    assert run.refused > 0  # the shared limit was met (and absorbed)
