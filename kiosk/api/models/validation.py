"""Validation QRs and their rotating 4-digit codes."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from kiosk.api.errors import MalformedResponse
from kiosk.api.models._read import Obj

CODE_DIGITS = 4  # the contract: "code (4 digits, string)"


def is_code(text: str) -> bool:
    """Exactly ``CODE_DIGITS`` ASCII digits (``str.isdigit`` takes full-width ones too)."""
    return len(text) == CODE_DIGITS and all("0" <= c <= "9" for c in text)


@dataclass(frozen=True)
class ValidationQr:
    id: int
    branch_id: int | None = None
    name: str | None = None
    branch_name: str | None = None
    window_seconds: int | None = None  # validationWindowSeconds: how often the code rotates

    @classmethod
    def from_json(cls, data: Any) -> ValidationQr:
        o = Obj(data, "validation qr")
        return cls(
            id=o.req_int("qrId"),
            branch_id=o.opt_int("branchId"),
            name=o.opt_str("qrName"),
            branch_name=o.opt_str("branchName"),
            window_seconds=o.opt_int("validationWindowSeconds"),
        )


@dataclass(frozen=True)
class ValidationCode:
    qr_id: int
    code: str = field(repr=False)
    expires_in_seconds: int | None = None
    valid_until: datetime | None = None

    @classmethod
    def from_json(cls, data: Any) -> ValidationCode:
        o = Obj(data, "validation code")
        code = o.req_str("code")
        if not is_code(code):
            # "12345", "12AB", full-width digits, a direction override, markup: the
            # contract's code is 4 digits; anything else is no code to show.
            raise MalformedResponse(f"validation code.code: expected {CODE_DIGITS} digits 0-9")
        return cls(
            qr_id=o.req_int("qrId"),
            code=code,
            expires_in_seconds=o.opt_int("expiresInSeconds"),
            valid_until=o.opt_datetime("validUntil"),
        )


@dataclass(frozen=True)
class CodeCheck:
    """Result of a validation: a wrong or expired code is ``valid=False``, not an error."""

    qr_id: int
    valid: bool

    @classmethod
    def from_answer(cls, body: Any, qr_id: int) -> CodeCheck:
        """The check a 2xx confirms, whatever its shape (the contract does not show it):
        a validated code, unless its ``data`` says ``"valid": false`` in so many words
        (the wrong code's documented answer is a 400). ``body``: parsed JSON, or
        ``None`` for an empty one."""
        data = body.get("data") if isinstance(body, dict) else None
        if isinstance(data, dict) and data.get("valid") is False:
            return cls(qr_id=qr_id, valid=False)
        return cls(qr_id=qr_id, valid=True)


def qr_filters(branch_id: int | None) -> dict[str, str] | None:
    """The branch filter of the QR list (its name is not documented: ``branchId``)."""
    return {"branchId": str(branch_id)} if branch_id is not None else None


def validate_body(code: str) -> dict[str, Any]:
    """Body of ``POST /external/validation-code/{qrId}/validate`` (docs/simulator.md C13)."""
    return {"code": code}
