"""Validation of the point-operation bodies (credit and preview) into typed requests.

Every field problem goes into one 400 ``Error de validación`` (class-validator
style items); nested client fields are reported as ``client.<field>``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from kiosk.sim.http import ApiError, Validator
from kiosk.sim.people_common import document_problem, infer_document_type
from kiosk.sim.world import Record

PREVIEW_MODES = ("amount", "pointItems", "initialPointsToGive")
PREVIEW_MODES_MESSAGE = "Debe enviar exactamente uno de: amount, pointItems, initialPointsToGive."
MAX_UNITS = 100


@dataclass
class CreditRequest:
    email: str | None
    dni: str | None
    client_data: Record  # record fields for an implicit creation
    amount: int | float | None
    item_ids: list[int] | None
    branch_id: int | None
    external_id: str | None
    reason: str | None
    origin: str | None
    extra_data: str | None
    ignore_create: bool
    gift_cards: list[Record] | None = field(default=None)


@dataclass
class PreviewRequest:
    client_id: int
    branch_id: int | None
    mode: str
    amount: int | float | None = None
    item_ids: list[int] | None = None
    initial: int | None = None


def _client_part(v: Validator, raw: Any) -> tuple[str | None, str | None, Record]:
    if raw is None:
        v.fail("client", "isNotEmpty", "client should not be empty")
        return None, None, {}
    if not isinstance(raw, dict):
        v.fail("client", "isObject", "client must be an object", raw)
        return None, None, {}
    cv = Validator(raw)
    email = cv.email_field("email")
    dni = cv.str_field("dni", max_length=20)
    if dni is not None:
        dni = dni.strip().upper()
        problem = (
            document_problem(dni, infer_document_type(dni)) if dni else "dni should not be empty"
        )
        if problem:
            cv.fail("dni", "matches", problem, raw.get("dni"))
            dni = None
    if not cv.present("email") and not cv.present("dni"):
        cv.fail("email", "isNotEmpty", "email or dni should not be empty")
    data: Record = {
        "first_name": (cv.str_field("first_name", max_length=100) or "").strip(),
        "last_name": (cv.str_field("last_name", max_length=100) or "").strip(),
        "phone": cv.str_field("phone", max_length=30),
        "birthday": cv.date_field("birthday"),
        "gender": cv.int_field("gender", minimum=0, maximum=3),
    }
    if data["gender"] is None:
        data["gender"] = 3
    for item in cv.items:
        item["field"] = f"client.{item['field']}"
        v.items.append(item)
    return email, dni, data


def _optional_text(v: Validator, name: str, max_length: int) -> str | None:
    value = v.str_field(name, max_length=max_length)
    if value is not None and not value.strip():
        v.fail(name, "isNotEmpty", f"{name} should not be empty", value)
        return None
    return value


def parse_credit(body: Record) -> CreditRequest:
    v = Validator(body)
    email, dni, data = _client_part(v, body.get("client"))
    item_ids = v.int_list_field("pointItems", min_size=1, max_size=MAX_UNITS)
    amount: int | float | None = None
    if not v.present("pointItems"):
        # "amount ... ignored when pointItems is sent": validated only without items.
        if not v.present("amount"):
            v.fail("amount", "isNotEmpty", "amount should not be empty when pointItems is not sent")
        elif v.number_field("amount", minimum=0) is not None:
            amount = body["amount"]
    branch_id = v.int_field("branch_id", minimum=1)
    external_id = _optional_text(v, "external_id", 100)
    reason = v.str_field("reason", max_length=500)
    origin = v.str_field("origin", max_length=100)
    extra_data = v.str_field("extra_data")
    if extra_data is not None:
        try:
            json.loads(extra_data)
        except ValueError:
            v.fail("extra_data", "isJSON", "extra_data must be a json string", extra_data)
    ignore = v.bool_field("ignoreCreateClient")
    gift_cards = body.get("giftCards")
    if gift_cards is not None and (
        not isinstance(gift_cards, list) or not all(isinstance(g, dict) for g in gift_cards)
    ):
        v.fail("giftCards", "isArray", "giftCards must be an array of objects", gift_cards)
        gift_cards = None
    v.check()
    return CreditRequest(
        email=email,
        dni=dni,
        client_data=data,
        amount=amount,
        item_ids=item_ids,
        branch_id=branch_id,
        external_id=external_id,
        reason=reason,
        origin=origin,
        extra_data=extra_data,
        ignore_create=bool(ignore),
        gift_cards=gift_cards,
    )


def _preview_items(v: Validator, raw: Any) -> list[int] | None:
    if not isinstance(raw, list):
        v.fail("pointItems", "isArray", "pointItems must be an array", raw)
        return None
    if not 1 <= len(raw) <= MAX_UNITS:
        v.fail("pointItems", "arraySize", f"pointItems must contain 1 to {MAX_UNITS} elements", raw)
        return None
    ids: list[int] = []
    for index, entry in enumerate(raw):
        if not isinstance(entry, dict):
            v.fail(
                f"pointItems.{index}",
                "isObject",
                "each item must be an object {id, quantity}",
                entry,
            )
            continue
        ev = Validator(entry)
        item_id = ev.int_field("id", required=True, minimum=1)
        quantity = ev.int_field("quantity", required=True, minimum=1, maximum=MAX_UNITS)
        for item in ev.items:
            item["field"] = f"pointItems.{index}.{item['field']}"
            v.items.append(item)
        if item_id is not None and quantity is not None:
            ids.extend([item_id] * quantity)
    if len(ids) > MAX_UNITS:
        v.fail(
            "pointItems", "maxUnits", f"pointItems must add up to at most {MAX_UNITS} units", raw
        )
        return None
    return ids


def parse_preview(body: Record) -> PreviewRequest:
    modes = [name for name in PREVIEW_MODES if body.get(name) is not None]
    if len(modes) != 1:
        raise ApiError(400, PREVIEW_MODES_MESSAGE)
    mode = modes[0]
    v = Validator(body)
    client_id = v.int_field("clientId", required=True, minimum=1)
    branch_id = v.int_field("branch_id", minimum=1)
    request = PreviewRequest(client_id=client_id or 0, branch_id=branch_id, mode=mode)
    if mode == "amount":
        if v.number_field("amount", minimum=0) is not None:
            request.amount = body["amount"]
    elif mode == "pointItems":
        request.item_ids = _preview_items(v, body["pointItems"])
    else:
        request.initial = v.int_field("initialPointsToGive", minimum=0)
    v.check()
    return request
