"""Answers the contract leaves open (issue #17, item 14): the preview's and the cancel's
bodies are "not shown", so a 2xx of another shape than the simulator's is not an error.

Against a small hostile server of our own on loopback that answers every request with
one scripted body: a cancel's 2xx is the cancel whatever its ``data``; a preview without
the figures the kiosk reads is ``PreviewUnavailable``; a body that is not JSON at all (a
proxy's HTML page) stays ``MALFORMED``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from kiosk.api import LoyaltyClient
from kiosk.api.errors import ErrorKind, MalformedResponse
from kiosk.api.models.points import CancelResult, Preview, PreviewUnavailable
from kiosk.api.retry import NO_RETRY
from tests.api.conftest import run
from tests.api.hostile_server import HostileServer, fixed
from tests.api.support import fails
from tests.conftest import MAIN_KEY

OK: dict[str, Any] = {"success": True, "status": 200, "message": "OK"}
# The simulator's preview (docs/simulator.md C9), with fields it never sends.
SIM_PREVIEW: dict[str, Any] = {
    "clientId": 7,
    "branchId": 1,
    "level": {"id": 2, "name": "Plata", "pointsMultiplier": 1.5},
    "points": {
        "amount": 1500,
        "initialPointsToGive": 150,
        "levelBonusPoints": 75,
        "rulesBonusPoints": 0,
        "totalPointsToGive": 225,
        "selectedRewardType": "amount",
    },
}


def envelope(data: Any) -> bytes:
    return json.dumps({**OK, "data": data}).encode()


def client_of(server: HostileServer) -> LoyaltyClient:
    return LoyaltyClient(server.base_url, MAIN_KEY, branch_id=1, retry=NO_RETRY)


async def cancel_answered(body: bytes, status: int = 200) -> CancelResult:
    with HostileServer(fixed(body, status)) as server:
        api = client_of(server)
        try:
            return await api.cancel_credit("K-0a1b2c3d-1")
        finally:
            await api.aclose()


async def preview_answered(body: bytes, status: int = 200) -> Preview | PreviewUnavailable:
    with HostileServer(fixed(body, status)) as server:
        api = client_of(server)
        try:
            return await api.preview(7, amount=1500)
        finally:
            await api.aclose()


CANCEL_BODIES = {
    "data-true": (envelope(True), 200),
    "data-null": (envelope(None), 200),
    "data-empty-object": (envelope({}), 200),
    "data-string": (envelope("canceled"), 200),
    "data-of-other-types": (envelope({"pointOperationId": "uno", "points": "diez"}), 200),
    "no-envelope": (b"[]", 200),
    "empty-200": (b"", 200),
    "empty-204": (b"", 204),
    "whitespace-200": (b" \r\n", 200),
}


@pytest.mark.parametrize(("body", "status"), CANCEL_BODIES.values(), ids=CANCEL_BODIES.keys())
def test_a_cancels_2xx_is_a_cancel_whatever_its_data(body: bytes, status: int) -> None:
    result = run(cancel_answered(body, status))
    assert result == CancelResult(external_id="K-0a1b2c3d-1")
    assert not result.already_canceled


def test_a_cancel_in_the_simulators_shape_is_read_whole() -> None:
    data = {
        "pointOperationId": 41,
        "externalId": "K-0a1b2c3d-1",
        "clientId": 7,
        "status": "canceled",
        "points": {"amount": 1500, "initialPointsToGive": 150, "totalPointsToGive": 225},
    }
    result = run(cancel_answered(envelope(data)))
    assert result.operation_id == 41
    assert result.status == "canceled"
    assert result.points is not None
    assert result.points.total == 225


def test_a_cancel_answered_with_an_html_page_is_still_malformed(client_warnings: None) -> None:
    async def scenario() -> MalformedResponse:
        with HostileServer(fixed(b"<html><body>Welcome to the hotel wifi</body></html>")) as srv:
            api = client_of(srv)
            try:
                error = await fails(api.cancel_credit("K-0a1b2c3d-1"))
                assert isinstance(error, MalformedResponse)
                return error
            finally:
                await api.aclose()

    error = run(scenario())
    assert error.kind is ErrorKind.MALFORMED
    assert error.status == 200


PREVIEW_BODIES = {
    "data-empty-object": envelope({}),
    "data-null": envelope(None),
    "data-true": envelope(True),
    "unexpected-fields": envelope({"puntos": 225, "bonus": [1, 2], "ok": True}),
    "figures-of-other-types": envelope({"points": {"totalPointsToGive": "225"}}),
    "no-envelope": b'"225"',
    "empty": b"",
}


@pytest.mark.parametrize("body", PREVIEW_BODIES.values(), ids=PREVIEW_BODIES.keys())
def test_a_preview_without_the_figures_is_unavailable_not_an_error(
    body: bytes, client_warnings: None, caplog: pytest.LogCaptureFixture
) -> None:
    preview = run(preview_answered(body))
    assert isinstance(preview, PreviewUnavailable)
    assert preview.status == 200
    assert preview.reason
    [line] = [r.getMessage() for r in caplog.records if "preview unavailable" in r.getMessage()]
    assert line.startswith("POST /external/tags/add/preview -> 200 without the preview's figures")
    assert "225" not in line  # the reason names what is missing, never a value of the body


def test_a_preview_answered_204_is_unavailable(client_warnings: None) -> None:
    preview = run(preview_answered(b"", 204))
    assert preview == PreviewUnavailable(204, "no envelope object")


def test_a_preview_with_unexpected_fields_beside_the_figures_shows_the_figures() -> None:
    body = envelope({**SIM_PREVIEW, "campaign": {"id": 9}, "expiresAt": "tomorrow"})
    preview = run(preview_answered(json.dumps({**json.loads(body), "trace": "x"}).encode()))
    assert isinstance(preview, Preview)
    assert preview.points.total == 225
    assert preview.level is not None
    assert preview.level.name == "Plata"


def test_a_preview_answered_with_an_html_page_is_still_malformed(client_warnings: None) -> None:
    async def scenario() -> MalformedResponse:
        with HostileServer(fixed(b"<html>captive portal</html>")) as server:
            api = client_of(server)
            try:
                error = await fails(api.preview(7, amount=1500))
                assert isinstance(error, MalformedResponse)
                return error
            finally:
                await api.aclose()

    assert run(scenario()).kind is ErrorKind.MALFORMED
