"""The validation code's answers (issue #22, item 13; issue #30, item 3).

Against a small hostile server on loopback. The contract's code is "4 digits, string":
"12345", "12AB", full-width digits, a right-to-left override or markup is a malformed
answer (the Code screen says "Code unavailable"), never a code shown. The validate
answer's shape is "not shown": any 2xx is a validated code whatever its ``data``
(``true``, ``null``, a string, no body), unless it says ``"valid": false`` in so many
words; a body that is not JSON at all stays ``MALFORMED``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from kiosk.api import LoyaltyClient
from kiosk.api.errors import ErrorKind
from kiosk.api.models.validation import CodeCheck, ValidationCode
from kiosk.api.retry import NO_RETRY
from tests.api.conftest import run
from tests.api.hostile_server import HostileServer, fixed
from tests.api.support import fails
from tests.conftest import MAIN_KEY

OK: dict[str, Any] = {"success": True, "status": 200, "message": "OK"}


def code_answer(code: Any) -> bytes:
    data = {"qrId": 3, "code": code, "expiresInSeconds": 40}
    return json.dumps({**OK, "data": data}, ensure_ascii=False).encode()


async def _read_code(server: HostileServer) -> ValidationCode:
    api = LoyaltyClient(server.base_url, MAIN_KEY, branch_id=1, retry=NO_RETRY)
    try:
        return await api.current_validation_code(3)
    finally:
        await api.aclose()


async def _validate(server: HostileServer) -> CodeCheck:
    api = LoyaltyClient(server.base_url, MAIN_KEY, branch_id=1, retry=NO_RETRY)
    try:
        return await api.validate_code(3, "1234")
    finally:
        await api.aclose()


@pytest.mark.parametrize(
    "code",
    ["12345", "12AB", "１２３４", "\u202e1234", "12\u202e34", "<b>12</b>", "123", "", " 123", 1234],
    ids=[
        "five-digits",
        "letters",
        "full-width",
        "rtl-override",
        "rtl-inside",
        "markup",
        "three",
        "empty",
        "space",
        "a-number",
    ],
)
def test_a_code_that_is_not_4_digits_is_malformed(code: Any, client_warnings: None) -> None:
    with HostileServer(fixed(code_answer(code))) as server:

        async def scenario() -> None:
            error = await fails(_read_code(server))
            assert error.kind is ErrorKind.MALFORMED

        run(scenario())


def test_a_code_of_4_digits_is_read_as_it_is() -> None:
    with HostileServer(fixed(code_answer("0042"))) as server:
        code = run(_read_code(server))
    assert (code.qr_id, code.code, code.expires_in_seconds) == (3, "0042", 40)


VALIDATE_2XX = {
    "data-true": (json.dumps({**OK, "data": True}).encode(), 200),
    "data-null": (json.dumps({**OK, "data": None}).encode(), 200),
    "data-string": (json.dumps({**OK, "data": "validated"}).encode(), 200),
    "data-empty-object": (json.dumps({**OK, "data": {}}).encode(), 201),
    "data-of-other-types": (json.dumps({**OK, "data": {"qrId": "tres", "valid": 1}}).encode(), 200),
    "no-envelope": (b"true", 200),
    "empty-200": (b"", 200),
    "empty-204": (b"", 204),
}


@pytest.mark.parametrize(("body", "status"), list(VALIDATE_2XX.values()), ids=list(VALIDATE_2XX))
def test_a_validate_2xx_is_a_validated_code_whatever_its_data(body: bytes, status: int) -> None:
    with HostileServer(fixed(body, status)) as server:
        check = run(_validate(server))
    assert check == CodeCheck(qr_id=3, valid=True)


def test_a_validate_2xx_that_says_not_valid_is_not_valid() -> None:
    body = json.dumps({**OK, "data": {"qrId": 3, "code": "1234", "valid": False}}).encode()
    with HostileServer(fixed(body)) as server:
        check = run(_validate(server))
    assert check == CodeCheck(qr_id=3, valid=False)


def test_a_validate_answered_with_an_html_page_is_still_malformed(client_warnings: None) -> None:
    with HostileServer(fixed(b"<html><body>Portal</body></html>")) as server:

        async def scenario() -> None:
            error = await fails(_validate(server))
            assert error.kind is ErrorKind.MALFORMED

        run(scenario())
