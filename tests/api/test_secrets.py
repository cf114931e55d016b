"""A full run with every log record captured: no key, no register_url, anywhere.

Also: no ``repr``/``str`` of the client, results or errors shows them, no error's
traceback or exception chain holds an ``httpx`` request (whose headers carry the
key), and through the redacting handler no email or document number is written.
"""

from __future__ import annotations

import io
import logging
import pickle
import traceback
from typing import Any

import pytest

from kiosk.api import ApiError, LoyaltyClient, logsafety
from kiosk.api.models import CreditClient, CreditRequest, ItemQuantity
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from tests.api.conftest import SHORT, run
from tests.api.fakes import FakeClock
from tests.api.support import CAMILA_DNI, JUAN_DNI, JUAN_EMAIL, client_record
from tests.conftest import MAIN_KEY

pytestmark = pytest.mark.usefixtures("client_warnings")


def chain(error: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def test_full_run_leaks_neither_key_nor_register_url(
    sim_url: str,
    sim_world: World,
    control: SimControl,
    fake_clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
    main_branches: list[int],
) -> None:
    caplog.set_level(logging.DEBUG)
    for name in ("kiosk", "httpx", "httpcore"):
        caplog.set_level(logging.DEBUG, logger=name)
    stream = io.StringIO()
    handler = logsafety.install(logging.StreamHandler(stream))
    handler.setLevel(logging.DEBUG)
    logging.getLogger().addHandler(handler)
    shown: list[str] = []
    errors: list[ApiError] = []
    register_urls: list[str] = []
    juan_id = client_record(sim_world, JUAN_DNI)["id"]

    def keep(value: Any) -> None:
        shown.append(repr(value))
        shown.append(str(value))

    async def expect_error(call: Any) -> None:
        try:
            await call
        except ApiError as error:
            errors.append(error)
        else:
            raise AssertionError("an error was expected")

    async def scenario() -> None:
        async with (
            LoyaltyClient(
                sim_url,
                MAIN_KEY,
                branch_id=main_branches[0],
                clock=fake_clock.time,
                sleep=fake_clock.sleep,
                timeouts=SHORT,
            ) as api,
            LoyaltyClient(
                sim_url, "wrong-key-0000", clock=fake_clock.time, sleep=fake_clock.sleep
            ) as bad,
        ):
            keep(api)
            camila = await api.search_client(CAMILA_DNI)
            assert camila.register_url is not None
            register_urls.append(camila.register_url.reveal())
            logging.getLogger("kiosk.test").info("shown to the client: %s", camila.register_url)
            keep(camila)
            keep(await api.search_client(JUAN_EMAIL))
            keep(await api.preview(juan_id, point_items=[ItemQuantity(1, 2)]))
            keep(
                await api.credit(CreditRequest("L-1", CreditClient(email=JUAN_EMAIL), amount=1000))
            )
            control.add_fault("drop", "^/external/tags/add$")
            keep(
                await api.credit(CreditRequest("L-2", CreditClient(document=JUAN_DNI), amount=1000))
            )
            control.add_fault("drop", "^/external/exchange/product$")
            keep(await api.exchange_product(3, juan_id, lookup=JUAN_DNI))
            control.add_fault("timeout", "^/external/exchange/product$")
            await expect_error(api.exchange_product(3, juan_id))
            control.add_fault("malformed", "^/external/clients/search$", variant="truncated")
            await expect_error(api.search_client(CAMILA_DNI))
            await expect_error(api.search_client("nadie@example.com"))
            await expect_error(bad.list_branches())
            await expect_error(
                api.credit(CreditRequest("L-3", CreditClient(document="34111000"), amount=1000))
            )
            keep(bad)

    try:
        run(scenario())
    finally:
        logging.getLogger().removeHandler(handler)

    assert len(errors) == 5
    assert register_urls
    for error in errors:
        keep(error)
        shown.append("".join(traceback.format_exception(error)))
        assert not any(type(e).__module__.startswith("httpx") for e in chain(error))
        shown.append(repr(pickle.loads(pickle.dumps(error))))
    raw = "\n".join(
        [r.getMessage() for r in caplog.records]
        + [caplog.text]
        + [repr(r.args) for r in caplog.records]
    )
    assert any(r.name.startswith("httpcore") for r in caplog.records)  # DEBUG really captured
    assert any(r.name == "kiosk.api.session" for r in caplog.records)
    everything = raw + "\n".join(shown)
    token = register_urls[0].rsplit("/", 1)[-1]
    for secret in (MAIN_KEY, "wrong-key-0000", register_urls[0], token):
        assert secret not in everything, secret
    written = stream.getvalue()
    assert "SecretUrl(***)" in written
    # Had anything logged the revealed link, the handler would have masked it.
    assert logsafety.redact(f"see {register_urls[0]}.") == f"see {logsafety.URL_MASK}."
    for secret in (MAIN_KEY, register_urls[0], token, JUAN_EMAIL, JUAN_DNI, CAMILA_DNI):
        assert secret not in written, secret
