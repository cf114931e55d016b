"""Point operations: credit, preview, cancel."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from kiosk.api.errors import MalformedResponse
from kiosk.api.models._read import Obj
from kiosk.api.models.clients import Gender
from kiosk.api.models.common import drop_none, iso_datetime

MAX_POINT_ITEMS = 100


@dataclass(frozen=True)
class CreditClient:
    """Who is credited: ``email`` or ``document`` (sent as ``dni``) is needed."""

    email: str | None = field(default=None, repr=False)
    document: str | None = field(default=None, repr=False)
    first_name: str | None = None
    last_name: str | None = None
    phone: str | None = field(default=None, repr=False)
    birthday: date | None = field(default=None, repr=False)
    gender: Gender | None = None

    def __post_init__(self) -> None:
        if not self.email and not self.document:
            raise ValueError("a credit needs the client's email or document")

    def to_json(self) -> dict[str, Any]:
        return drop_none(
            {
                "email": self.email,
                "dni": self.document,
                "first_name": self.first_name,
                "last_name": self.last_name,
                "phone": self.phone,
                "birthday": iso_datetime(self.birthday) if self.birthday else None,
                "gender": int(self.gender) if self.gender is not None else None,
            }
        )


@dataclass(frozen=True)
class GiftCard:
    """One ``giftCards`` item (shape only: its behaviour is not documented)."""

    client_email: str = field(repr=False)
    reward_type: str | None = None
    amount: float | None = None
    point_item_ids: Sequence[int] | None = None
    points: int | None = None
    reason: str | None = None
    apply_level_bonus: bool | None = None
    apply_rules_bonus: bool | None = None

    def to_json(self) -> dict[str, Any]:
        points = drop_none(
            {
                "selectedRewardType": self.reward_type,
                "amount": self.amount,
                "pointItemsIds": list(self.point_item_ids) if self.point_item_ids else None,
                "pointsToGive": self.points,
                "reason": self.reason,
            }
        )
        bonus = drop_none(
            {
                "applyLevelPointsBonus": self.apply_level_bonus,
                "applyPointRulesBonus": self.apply_rules_bonus,
            }
        )
        return drop_none(
            {"clientMail": self.client_email, "points": points, "applyBonus": bonus or None}
        )


@dataclass(frozen=True)
class CreditRequest:
    """One credit. ``external_id`` (invoice or ticket id) makes it safe to resend: a
    second credit with it is refused and reported as already credited. ``point_items``
    repeats an id once per unit; when sent, ``amount`` is ignored by the API."""

    external_id: str | None
    client: CreditClient
    amount: float | None = None
    point_items: Sequence[int] | None = None
    branch_id: int | None = None
    reason: str | None = None
    ignore_create_client: bool | None = None
    extra_data: Sequence[Mapping[str, Any]] | None = None
    gift_cards: Sequence[GiftCard] | None = None

    def __post_init__(self) -> None:
        if self.amount is None and not self.point_items:
            raise ValueError("a credit needs an amount or point items")
        if self.point_items is not None and not (
            1 <= len(self.point_items) <= MAX_POINT_ITEMS and all(i > 0 for i in self.point_items)
        ):
            raise ValueError(f"point items: 1 to {MAX_POINT_ITEMS} positive ids")

    def to_json(self, *, origin: str, branch_id: int | None) -> dict[str, Any]:
        branch = self.branch_id if self.branch_id is not None else branch_id
        return drop_none(
            {
                "client": self.client.to_json(),
                "amount": self.amount,
                "pointItems": list(self.point_items) if self.point_items else None,
                "branch_id": branch,
                "external_id": self.external_id,
                "reason": self.reason,
                "giftCards": [g.to_json() for g in self.gift_cards] if self.gift_cards else None,
                "ignoreCreateClient": self.ignore_create_client,
                "origin": origin,
                "extra_data": json.dumps(list(self.extra_data)) if self.extra_data else None,
            }
        )


@dataclass(frozen=True)
class CreditPoints:
    total: int  # totalPointsToGive, bonuses included
    initial: int | None = None  # initialPointsToGive, before bonuses
    amount: float | None = None
    reward_type: str | None = None  # selectedRewardType: amount, items, points

    @classmethod
    def from_json(cls, data: Any) -> CreditPoints:
        o = Obj(data, "points")
        return cls(
            total=o.req_int("totalPointsToGive"),
            initial=o.opt_int("initialPointsToGive"),
            amount=o.opt_number("amount"),
            reward_type=o.opt_str("selectedRewardType", exact=True),
        )


@dataclass(frozen=True)
class PointOperation:
    """The result of an applied credit."""

    id: int
    client_id: int
    points: CreditPoints
    external_id: str | None = None

    @classmethod
    def from_json(cls, data: Any) -> PointOperation:
        o = Obj(data, "point operation")
        return cls(
            id=o.req_int("pointOperationId"),
            client_id=o.req_int("clientId"),
            points=o.req_obj("points", CreditPoints.from_json),
            external_id=o.opt_str("externalId", exact=True),
        )


@dataclass(frozen=True)
class CreditResult:
    """A credit that happened. ``already_credited``: the API refused the external id
    as a duplicate, so an earlier attempt was applied (``operation`` is then ``None``)."""

    external_id: str | None
    operation: PointOperation | None
    already_credited: bool = False
    # The duplicate refusal came after an attempt of this same call whose answer was
    # lost (it may have been applied): the points are then most likely our own.
    after_lost_answer: bool = False


@dataclass(frozen=True)
class ItemQuantity:
    """A point item and its units, for a preview."""

    id: int
    quantity: int = 1

    def to_json(self) -> dict[str, int]:
        return {"id": self.id, "quantity": self.quantity}


def preview_body(
    *,
    client_id: int,
    amount: float | None,
    point_items: Sequence[ItemQuantity] | None,
    points: int | None,
    branch_id: int | None,
) -> dict[str, Any]:
    modes = sum(x is not None for x in (amount, point_items, points))
    if modes != 1:
        raise ValueError("a preview takes exactly one of amount, point_items, points")
    return drop_none(
        {
            "clientId": client_id,
            "amount": amount,
            "pointItems": [i.to_json() for i in point_items] if point_items is not None else None,
            "initialPointsToGive": points,
            "branch_id": branch_id,
        }
    )


@dataclass(frozen=True)
class PreviewLevel:
    id: int
    name: str | None = None
    points_multiplier: float | None = None

    @classmethod
    def from_json(cls, data: Any) -> PreviewLevel:
        o = Obj(data, "level")
        return cls(
            id=o.req_int("id"),
            name=o.opt_str("name"),
            points_multiplier=o.opt_number("pointsMultiplier"),
        )


@dataclass(frozen=True)
class PreviewPoints:
    total: int
    initial: int | None = None
    level_bonus: int | None = None
    rules_bonus: int | None = None
    amount: float | None = None
    reward_type: str | None = None

    @classmethod
    def from_json(cls, data: Any) -> PreviewPoints:
        o = Obj(data, "points")
        return cls(
            total=o.req_int("totalPointsToGive"),
            initial=o.opt_int("initialPointsToGive"),
            level_bonus=o.opt_int("levelBonusPoints"),
            rules_bonus=o.opt_int("rulesBonusPoints"),
            amount=o.opt_number("amount"),
            reward_type=o.opt_str("selectedRewardType", exact=True),
        )


@dataclass(frozen=True)
class Preview:
    """What a credit would give (docs/simulator.md C9)."""

    points: PreviewPoints
    client_id: int | None = None
    branch_id: int | None = None
    level: PreviewLevel | None = None

    @classmethod
    def from_json(cls, data: Any) -> Preview:
        o = Obj(data, "preview")
        return cls(
            points=o.req_obj("points", PreviewPoints.from_json),
            client_id=o.opt_int("clientId"),
            branch_id=o.opt_int("branchId"),
            level=o.opt_obj("level", PreviewLevel.from_json),
        )


@dataclass(frozen=True)
class PreviewUnavailable:
    """A 2xx answer to a preview without the figures the kiosk reads (the contract does
    not show the preview's shape: docs/design/api.md). Not an error: the sale goes on
    without figures and the credit gives what the service computes then.

    ``reason``: what was missing or unreadable, in the kiosk's words (field names, never
    a value from the body), for the log."""

    status: int
    reason: str


def read_preview(body: Any, status: int) -> Preview | PreviewUnavailable:
    """The preview in a 2xx body of any shape (``body``: parsed JSON, ``None`` for an
    empty one): the simulator's figures (docs/simulator.md C9) when they are there and
    readable, else ``PreviewUnavailable``."""
    if not isinstance(body, dict):
        return PreviewUnavailable(status, "no envelope object")
    try:
        return Preview.from_json(body.get("data"))
    except MalformedResponse as missing:
        return PreviewUnavailable(status, missing.message)


@dataclass(frozen=True)
class CancelResult:
    """A reverted credit (docs/simulator.md C11; every field optional for the real API).

    Any 2xx answer to a cancel is a cancel, whatever its ``data`` (``true``, ``null``,
    ``{}``, no body at all): ``from_answer`` reads the simulator's fields when they are
    there and readable, and gives a bare result otherwise.

    ``already_canceled``: an earlier attempt's answer was lost and the retry found no
    active operation: the credit is not active any more.
    """

    external_id: str
    operation_id: int | None = None
    client_id: int | None = None
    status: str | None = None
    points: CreditPoints | None = None
    already_canceled: bool = False

    @classmethod
    def from_answer(cls, body: Any, external_id: str) -> CancelResult:
        """The cancel a 2xx body of any shape confirms (``body``: parsed JSON, or
        ``None`` for an empty one)."""
        data = body.get("data") if isinstance(body, dict) else None
        if isinstance(data, dict):
            try:
                return cls.from_json(data, external_id)
            except MalformedResponse:
                pass  # fields of other types than the simulator's: still a cancel
        return cls(external_id=external_id)

    @classmethod
    def from_json(cls, data: Any, external_id: str) -> CancelResult:
        if data is None:
            return cls(external_id=external_id)
        o = Obj(data, "cancel")
        return cls(
            external_id=o.opt_str("externalId", exact=True) or external_id,
            operation_id=o.opt_int("pointOperationId"),
            client_id=o.opt_int("clientId"),
            status=o.opt_str("status", exact=True),
            points=o.opt_obj("points", CreditPoints.from_json),
        )
