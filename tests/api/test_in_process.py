"""Training mode: the same client over the in-process simulator (no socket)."""

from __future__ import annotations

import httpx
import pytest
from starlette.types import ASGIApp

from kiosk.api import ErrorKind, LoyaltyClient
from kiosk.api.models import CreditClient, CreditRequest
from kiosk.sim.control import SimControl
from kiosk.sim.transport import SimTransport
from tests.api.conftest import run
from tests.api.fakes import FakeClock
from tests.api.support import JUAN_DNI, fails
from tests.conftest import MAIN_KEY


@pytest.mark.parametrize("kind", ["asgi", "sim"])
def test_client_over_an_in_process_transport(
    sim_app: ASGIApp, fake_clock: FakeClock, kind: str
) -> None:
    transport: httpx.AsyncBaseTransport = (
        httpx.ASGITransport(app=sim_app) if kind == "asgi" else SimTransport(sim_app)
    )

    async def scenario() -> None:
        async with LoyaltyClient(
            "http://sim.test",
            MAIN_KEY,
            branch_id=1,
            transport=transport,
            clock=fake_clock.time,
            sleep=fake_clock.sleep,
        ) as api:
            assert await api.check_key()
            client = await api.search_client(JUAN_DNI)
            result = await api.credit(
                CreditRequest("TRAIN-1", CreditClient(document=JUAN_DNI), amount=1000)
            )
            assert result.operation is not None
            assert result.operation.client_id == client.id

    run(scenario())


def test_dropped_connection_in_process_reaches_the_client_as_a_network_failure(
    sim_app: ASGIApp, sim_world: object, fake_clock: FakeClock, client_warnings: None
) -> None:
    control = SimControl(sim_world)  # type: ignore[arg-type]
    control.add_fault("drop", "^/external/branch$", count=None)

    async def scenario() -> None:
        async with LoyaltyClient(
            "http://sim.test",
            MAIN_KEY,
            transport=SimTransport(sim_app),
            clock=fake_clock.time,
            sleep=fake_clock.sleep,
        ) as api:
            error = await fails(api.list_branches())
        assert error.kind is ErrorKind.NETWORK

    run(scenario())
    assert len(fake_clock.sleeps) == 3


def test_clients_of_one_merchant_share_one_limiter(sim_url: str) -> None:
    async def scenario() -> None:
        async with (
            LoyaltyClient(sim_url, MAIN_KEY) as a,
            LoyaltyClient(sim_url + "/", MAIN_KEY) as b,
            LoyaltyClient(sim_url, "another-key-1234") as c,
        ):
            assert a.limiter is b.limiter
            assert a.limiter is not c.limiter
            assert MAIN_KEY not in repr(a)
            assert "sha:" in repr(a)

    run(scenario())
