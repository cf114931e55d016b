"""Clients: the record, the creation and update bodies, removal reasons."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from enum import IntEnum, StrEnum
from typing import Any

from kiosk.api.models._read import Obj
from kiosk.api.models.common import Named, SecretUrl, drop_none, iso_datetime


class Gender(IntEnum):
    MALE = 0
    FEMALE = 1
    OTHER = 2
    NO_DATA = 3


class RemovalReason(StrEnum):
    REQUESTED_BY_CLIENT = "REQUESTED_BY_CLIENT"
    DUPLICATE_CLIENT = "DUPLICATE_CLIENT"
    INCORRECT_EMAIL = "INCORRECT_EMAIL"
    OTHER = "OTHER"


class ClientOrder(StrEnum):
    FULL_NAME = "fullName"
    CURRENT_POINTS = "currentPoints"
    LAST_OPERATION = "lastOperation"
    CREATED_AT = "createdAt"


ACTIVE = "ACTIVE"
SUSPENDED = "SUSPENDED"  # the simulator's value; the contract shows only ACTIVE


def _gender(value: int | None) -> int | None:
    if value is None:
        return None
    try:
        return Gender(value)
    except ValueError:
        return value


@dataclass(frozen=True)
class Client:
    """A client record. ``register_url`` (search only) is a credential: it never
    shows in ``repr`` and cannot be persisted (see ``SecretUrl``)."""

    id: int
    balance: int  # score: available points
    name: str | None = None
    first_name: str | None = None
    last_name: str | None = None
    email: str | None = field(default=None, repr=False)
    document_number: str | None = field(default=None, repr=False)
    document_type: str | None = None
    phone: str | None = field(default=None, repr=False)
    gender: int | None = None
    affiliate_card: str | None = field(default=None, repr=False)
    accumulated_points: int | None = None  # total_score
    description: str | None = field(default=None, repr=False)
    birthday: datetime | None = field(default=None, repr=False)
    status: str | None = None
    created_at: datetime | None = None
    last_transaction: datetime | None = None
    purchases_counter: int | None = None
    reads_counter: int | None = None
    level: Named | None = None
    registered: bool | None = None  # search only
    register_url: SecretUrl | None = field(default=None, repr=False, compare=False)

    @classmethod
    def from_json(cls, data: Any) -> Client:
        o = Obj(data, "client")
        url = o.opt_str("register_url", exact=True)
        return cls(
            id=o.req_int("id"),
            balance=o.req_int("score"),
            name=o.opt_str("name"),
            first_name=o.opt_str("first_name"),
            last_name=o.opt_str("last_name"),
            email=o.opt_str("email", exact=True),
            document_number=o.opt_str("document_number", exact=True)
            or o.opt_str("dni", exact=True),
            document_type=o.opt_str("document_type", exact=True),
            phone=o.opt_str("phone", exact=True),
            gender=_gender(o.opt_int("gender")),
            affiliate_card=o.opt_str("affiliate_card", exact=True),
            accumulated_points=o.opt_int("total_score"),
            description=o.opt_str("description"),
            birthday=o.opt_datetime("birthday"),
            status=o.opt_str("status", exact=True),
            created_at=o.opt_datetime("created_at"),
            last_transaction=o.opt_datetime("last_transaction"),
            purchases_counter=o.opt_int("purchases_counter"),
            reads_counter=o.opt_int("reads_counter"),
            level=o.opt_obj("level", Named.from_json),
            registered=o.opt_bool("registered"),
            register_url=SecretUrl(url) if url else None,
        )

    @property
    def is_suspended(self) -> bool:
        return self.status is not None and self.status.upper().startswith("SUSPEND")


@dataclass(frozen=True)
class NewClient:
    """Body of ``POST /external/clients``: ``email`` or ``document_number`` is needed."""

    first_name: str | None = None
    last_name: str | None = None
    email: str | None = field(default=None, repr=False)
    document_number: str | None = field(default=None, repr=False)
    document_type: str | None = None
    phone: str | None = field(default=None, repr=False)
    birthday: date | None = field(default=None, repr=False)
    gender: Gender | None = None
    affiliate_card: str | None = field(default=None, repr=False)
    description: str | None = field(default=None, repr=False)
    branch_id: int | None = None
    tag_ids: Sequence[int] | None = None

    def __post_init__(self) -> None:
        if not self.email and not self.document_number:
            raise ValueError("a client needs an email or a document number")

    def to_json(self) -> dict[str, Any]:
        body = _person_body(self)
        body.update(drop_none({"branchId": self.branch_id}))
        return body

    @property
    def lookup(self) -> str:
        """What finds this client once created (exact email, else document)."""
        return self.email or self.document_number or ""


@dataclass(frozen=True)
class ClientChanges:
    """Body of ``PUT /external/clients/{id}``: incremental, unset fields stay as they are."""

    first_name: str | None = None
    last_name: str | None = None
    email: str | None = field(default=None, repr=False)
    document_number: str | None = field(default=None, repr=False)
    document_type: str | None = None
    phone: str | None = field(default=None, repr=False)
    birthday: date | None = field(default=None, repr=False)
    gender: Gender | None = None
    affiliate_card: str | None = field(default=None, repr=False)
    description: str | None = field(default=None, repr=False)
    tag_ids: Sequence[int] | None = None

    def to_json(self) -> dict[str, Any]:
        return _person_body(self)


def _person_body(person: NewClient | ClientChanges) -> dict[str, Any]:
    return drop_none(
        {
            "firstName": person.first_name,
            "lastName": person.last_name,
            "email": person.email,
            "documentNumber": person.document_number,
            "documentType": person.document_type,
            "phone": person.phone,
            "birthday": iso_datetime(person.birthday) if person.birthday else None,
            "gender": int(person.gender) if person.gender is not None else None,
            "affiliateCard": person.affiliate_card,
            "description": person.description,
            "tagIds": list(person.tag_ids) if person.tag_ids is not None else None,
        }
    )


def client_filters(level_id: int | None) -> dict[str, str | int | bool]:
    """Documented filters of ``GET /external/clients`` (others go by their API names)."""
    return drop_none({"levelId": level_id})


def suspend_body() -> dict[str, Any]:
    """Body of ``PUT /external/clients/{id}/status`` (docs/simulator.md C15)."""
    return {"status": "SUSPEND"}


def removal_body(reasons: Sequence[RemovalReason]) -> dict[str, Any]:
    if not reasons:
        raise ValueError("a removal needs at least one reason")
    return {"reasons": [RemovalReason(r).value for r in reasons]}
