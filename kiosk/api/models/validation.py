"""Validation QRs and their rotating 4-digit codes."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from kiosk.api.models._read import Obj


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
        return cls(
            qr_id=o.req_int("qrId"),
            code=o.req_str("code"),
            expires_in_seconds=o.opt_int("expiresInSeconds"),
            valid_until=o.opt_datetime("validUntil"),
        )


@dataclass(frozen=True)
class CodeCheck:
    """Result of a validation: a wrong or expired code is ``valid=False``, not an error."""

    qr_id: int
    valid: bool

    @classmethod
    def from_json(cls, data: Any, qr_id: int) -> CodeCheck:
        if data is None:
            return cls(qr_id=qr_id, valid=True)
        o = Obj(data, "validation")
        valid = o.opt_bool("valid")
        return cls(qr_id=o.opt_int("qrId") or qr_id, valid=True if valid is None else valid)


def qr_filters(branch_id: int | None) -> dict[str, str] | None:
    """The branch filter of the QR list (its name is not documented: ``branchId``)."""
    return {"branchId": str(branch_id)} if branch_id is not None else None


def validate_body(code: str) -> dict[str, Any]:
    """Body of ``POST /external/validation-code/{qrId}/validate`` (docs/simulator.md C13)."""
    return {"code": code}
