"""Validation QRs: the list, the rotating code, validating a code.

Reads (list and current code) share 5 per minute per branch, and a QR's code is
read no faster than its ``validationWindowSeconds``; validations 10 per minute.
The client remembers each listed QR's branch and window to apply both.
"""

from __future__ import annotations

from kiosk.api.endpoints._base import EndpointBase, segment
from kiosk.api.errors import ApiError, ErrorKind, Reason, Resource
from kiosk.api.models._read import list_of
from kiosk.api.models.validation import (
    CodeCheck,
    ValidationCode,
    ValidationQr,
    qr_filters,
    validate_body,
)
from kiosk.api.ratelimit import CODE_READ, VALIDATE
from kiosk.api.retry import Resend
from kiosk.api.session import MAX_LIST_BODY, Call

_CODES = "/external/validation-code"


def _branch_key(branch_id: int | None) -> str:
    return f"branch:{branch_id}" if branch_id is not None else "branch:-"


class ValidationEndpoints(EndpointBase):
    _qrs_seen: dict[int, ValidationQr]

    async def list_validation_qrs(
        self,
        *,
        branch_id: int | None = None,
        background: bool = False,
        max_wait: float | None = None,
    ) -> tuple[ValidationQr, ...]:
        """Active QRs with the rotating code, optionally of one branch."""
        call = Call(
            "GET",
            f"{_CODES}/qrs",
            name="list_validation_qrs",
            params=qr_filters(branch_id),
            resource=Resource.QR,
            rule=CODE_READ,
            rule_key=_branch_key(branch_id),
            background=background,
            max_wait=max_wait,
            max_body=MAX_LIST_BODY,
        )
        qrs = self._data(
            await self._send(call),
            "validation qrs",
            lambda d: list_of(d, "validation qrs", ValidationQr.from_json),
        )
        for qr in qrs:
            self._qrs_seen[qr.id] = qr
        return qrs

    async def current_validation_code(
        self,
        qr_id: int,
        *,
        window_seconds: float | None = None,
        background: bool = False,
        max_wait: float | None = None,
    ) -> ValidationCode:
        """The QR's current 4-digit code. Spaced by ``window_seconds`` (default: the
        QR's ``validationWindowSeconds`` from the last list) and counted against the
        QR's branch (from the last list, else the kiosk's branch)."""
        known = self._qrs_seen.get(qr_id)
        branch = known.branch_id if known and known.branch_id is not None else self._branch_id
        spacing = window_seconds
        if spacing is None and known is not None and known.window_seconds:
            spacing = float(known.window_seconds)
        call = Call(
            "GET",
            f"{_CODES}/{segment(qr_id)}/current",
            name="current_validation_code",
            resource=Resource.QR,
            rule=CODE_READ,
            rule_key=_branch_key(branch),
            spacing=spacing or 0.0,
            spacing_key=f"qr:{qr_id}",
            background=background,
            max_wait=max_wait,
        )
        return self._data(await self._send(call), "validation code", ValidationCode.from_json)

    async def validate_code(
        self, qr_id: int, code: str, *, max_wait: float | None = None
    ) -> CodeCheck:
        """Check a code shown by a client: a wrong or expired code is ``valid=False``."""
        call = Call(
            "POST",
            f"{_CODES}/{segment(qr_id)}/validate",
            name="validate_code",
            body=validate_body(code),
            resource=Resource.QR,
            resend=Resend.ALWAYS,
            rule=VALIDATE,
            max_wait=max_wait,
        )
        try:
            answer = await self._send(call)
        except ApiError as error:
            if error.kind is ErrorKind.BAD_REQUEST and error.reason is Reason.WRONG_CODE:
                return CodeCheck(qr_id=qr_id, valid=False)
            raise
        # Any 2xx is the check (its shape is not shown); a body that is not JSON at
        # all (a proxy's page) stays MALFORMED, as for the cancel.
        return CodeCheck.from_answer(self._any_shape(answer), qr_id)
