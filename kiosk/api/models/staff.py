"""Branches (read only) and operators (the merchant's staff)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from kiosk.api.models._read import Obj
from kiosk.api.models.common import drop_none


class OperatorOrder(StrEnum):
    FULL_NAME = "fullName"
    EMAIL = "email"
    ROLE = "role"
    CREATED_AT = "createdAt"


@dataclass(frozen=True)
class Branch:
    id: int
    name: str | None = None
    is_enabled: bool | None = None
    branch_type: str | None = None
    email: str | None = None
    phone: str | None = None
    address: str | None = None  # ubication
    website_url: str | None = None
    map_url: str | None = None  # ubicationUrl
    register_qr_url: str | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None

    @classmethod
    def from_json(cls, data: Any) -> Branch:
        o = Obj(data, "branch")
        return cls(
            id=o.req_int("id"),
            name=o.opt_str("name"),
            is_enabled=o.opt_bool("isEnabled"),
            branch_type=o.opt_str("branchType", exact=True),
            email=o.opt_str("emailOfBranch", exact=True),
            phone=o.opt_str("phoneOfBranch", exact=True),
            address=o.opt_str("ubication"),
            website_url=o.opt_str("websiteUrl", exact=True),
            map_url=o.opt_str("ubicationUrl", exact=True),
            register_qr_url=o.opt_str("registerQrUrl", exact=True),
            created_at=o.opt_datetime("createdAt"),
            updated_at=o.opt_datetime("updatedAt"),
        )


@dataclass(frozen=True)
class OperatorBranch:
    branch_id: int
    branch_name: str | None = None
    permission_group_id: int | None = None
    permission_group_name: str | None = None

    @classmethod
    def from_json(cls, data: Any) -> OperatorBranch:
        o = Obj(data, "operator branch")
        return cls(
            branch_id=o.req_int("branchId"),
            branch_name=o.opt_str("branchName"),
            permission_group_id=o.opt_int("permissionGroupId"),
            permission_group_name=o.opt_str("permissionGroupName"),
        )


@dataclass(frozen=True)
class Operator:
    id: int
    role: str | None = None
    first_name: str | None = None
    last_name: str | None = None
    full_name: str | None = None
    email: str | None = field(default=None, repr=False)
    document_number: str | None = field(default=None, repr=False)
    phone: str | None = field(default=None, repr=False)
    birthday: datetime | None = field(default=None, repr=False)
    has_completed_onboarding: bool | None = None
    branches: tuple[OperatorBranch, ...] = ()  # only on the single read
    created_at: datetime | None = None
    updated_at: datetime | None = None

    @classmethod
    def from_json(cls, data: Any) -> Operator:
        o = Obj(data, "operator")
        return cls(
            id=o.req_int("id"),
            role=o.opt_str("role", exact=True),
            first_name=o.opt_str("firstName"),
            last_name=o.opt_str("lastName"),
            full_name=o.opt_str("fullName"),
            email=o.opt_str("email", exact=True),
            document_number=o.opt_str("documentNumber", exact=True),
            phone=o.opt_str("phone", exact=True),
            birthday=o.opt_datetime("birthday"),
            has_completed_onboarding=o.opt_bool("hasCompletedOnboarding"),
            branches=o.list_of("branches", OperatorBranch.from_json),
            created_at=o.opt_datetime("createdAt"),
            updated_at=o.opt_datetime("updatedAt"),
        )


@dataclass(frozen=True)
class BranchAssignment:
    """An operator's branch; without a permission group the operator can do nothing
    there until one is assigned in the merchant panel."""

    branch_id: int
    permission_group_id: int | None = None

    def to_json(self) -> dict[str, Any]:
        return drop_none(
            {"branchId": self.branch_id, "permissionGroupId": self.permission_group_id}
        )


@dataclass(frozen=True)
class NewOperator:
    """Body of ``POST /external/operators``; without ``password`` the operator gets an
    email to define one."""

    first_name: str
    last_name: str
    email: str = field(repr=False)
    branches: Sequence[BranchAssignment] = ()
    password: str | None = field(default=None, repr=False)
    phone: str | None = field(default=None, repr=False)
    document_number: str | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        return drop_none(
            {
                "firstName": self.first_name,
                "lastName": self.last_name,
                "email": self.email,
                "password": self.password,
                "phone": self.phone,
                "documentNumber": self.document_number,
                "branches": [b.to_json() for b in self.branches],
            }
        )


@dataclass(frozen=True)
class OperatorChanges:
    """Body of ``PUT /external/operators/{id}``: personal data is incremental;
    ``branches``, when set, replaces every assignment. Email, password and document
    cannot be edited."""

    first_name: str | None = None
    last_name: str | None = None
    phone: str | None = field(default=None, repr=False)
    birthday: str | None = field(default=None, repr=False)
    branches: Sequence[BranchAssignment] | None = None

    def to_json(self) -> dict[str, Any]:
        return drop_none(
            {
                "firstName": self.first_name,
                "lastName": self.last_name,
                "phone": self.phone,
                "birthday": self.birthday,
                "branches": [b.to_json() for b in self.branches]
                if self.branches is not None
                else None,
            }
        )
