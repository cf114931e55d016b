"""Validation QRs and codes, with the client-side limits on reads."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from kiosk.api import ErrorKind, LoyaltyClient, Resource
from kiosk.sim.control import SimControl
from tests.api.conftest import run
from tests.api.fakes import FakeClock
from tests.api.support import fails

Connect = Callable[..., LoyaltyClient]


def test_list_read_and_validate(connect: Connect, main_branches: list[int]) -> None:
    async def scenario() -> None:
        async with connect() as api:
            qrs = await api.list_validation_qrs()
            palermo = await api.list_validation_qrs(branch_id=main_branches[1])
            code = await api.current_validation_code(qrs[0].id)
            good = await api.validate_code(qrs[0].id, code.code)
            wrong = await api.validate_code(qrs[0].id, f"{(int(code.code) + 1) % 10000:04d}")
            missing = await fails(api.current_validation_code(999))
        assert [q.branch_id for q in qrs] == main_branches  # the inactive QR is not listed
        assert all(q.window_seconds == 60 for q in qrs)
        assert [q.branch_id for q in palermo] == [main_branches[1]]
        assert len(code.code) == 4
        assert code.code.isdigit()
        assert code.expires_in_seconds is not None
        assert 0 < code.expires_in_seconds <= 60
        assert good.valid
        assert not wrong.valid
        assert code.code not in repr(code)
        assert (missing.kind, missing.resource) == (ErrorKind.NOT_FOUND, Resource.QR)

    run(scenario())


def test_reads_of_one_qr_are_spaced_by_its_window(
    connect: Connect, fake_clock: FakeClock, control: SimControl
) -> None:
    async def scenario() -> None:
        async with connect() as api:
            qrs = await api.list_validation_qrs()
            await api.current_validation_code(qrs[0].id, background=True)
            start = fake_clock.time()
            await api.current_validation_code(qrs[0].id, background=True)
            assert fake_clock.time() - start == pytest.approx(60.0, abs=0.2)
            refused = await fails(api.current_validation_code(qrs[0].id, max_wait=5.0))
            assert refused.kind is ErrorKind.RATE_LIMITED
            assert refused.retry_after is not None
            assert refused.status is None  # our own limiter: nothing was sent
            other_qr = await api.current_validation_code(qrs[1].id)  # another QR, no wait
            assert other_qr.qr_id == qrs[1].id

    run(scenario())
    assert len(control.requests(path="/current$")) == 3
    assert not [r for r in control.requests() if r["status"] == 429]
