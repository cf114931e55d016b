"""Validation of the client create/update bodies (camelCase) into record changes.

``parse_client_body`` returns only the fields that were sent, under the record's
snake_case names (``branchId`` -> ``_branch_id``, ``tagIds`` -> ``_tag_ids``).
``null`` counts as not sent, except ``description`` (``null`` clears it).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from kiosk.sim.clock import iso, parse_iso
from kiosk.sim.http import Validator
from kiosk.sim.people_common import DOCUMENT_TYPES, document_problem, infer_document_type
from kiosk.sim.world import Merchant, Record, World

PHONE = re.compile(r"\+?[\d\s\-()]{6,30}")


def _birthday(v: Validator, world: World, merchant: Merchant) -> str | None:
    value = v.date_field("birthday")
    if value is None:
        return None
    born = datetime.fromtimestamp(parse_iso(value), tz=UTC).date()
    today = world.clock.now().date()
    if born > today:
        v.fail("birthday", "maxDate", "birthday must not be in the future", value)
        return None
    minimum = merchant.rules.minimum_age_years
    age = today.year - born.year - ((today.month, today.day) < (born.month, born.day))
    if minimum > 0 and age < minimum:
        v.fail(
            "birthday",
            "minAge",
            f"birthday must correspond to an age of at least {minimum} years",
            value,
        )
        return None
    return iso(parse_iso(value))


def _text(v: Validator, name: str, max_length: int) -> str | None:
    value = v.str_field(name, max_length=max_length)
    if value is None:
        return None
    if not value.strip():
        v.fail(name, "isNotEmpty", f"{name} should not be empty", value)
        return None
    return value.strip()


def _document(v: Validator, body: Record, current: Record | None, changes: Record) -> None:
    number = _text(v, "documentNumber", 20)
    doc_type = v.str_field("documentType", choices=DOCUMENT_TYPES)
    if number is not None:
        number = number.upper()
    if number is None and doc_type is None:
        return
    effective_number = number or (current or {}).get("document_number")
    if doc_type is None and number is not None:
        doc_type = infer_document_type(number)
    elif doc_type is None:
        return
    if effective_number:
        problem = document_problem(effective_number, doc_type)
        if problem:
            field = "documentNumber" if number is not None else "documentType"
            v.fail(field, "matches", problem, body.get(field))
            return
    if number is not None:
        changes["document_number"] = number
        changes["dni"] = number
    changes["document_type"] = doc_type


def parse_client_body(
    body: Record, world: World, merchant: Merchant, *, current: Record | None
) -> Record:
    """Validated changes; on create (``current`` is None) email or document is required."""
    v = Validator(body)
    changes: Record = {}
    for name, key in (("firstName", "first_name"), ("lastName", "last_name")):
        value = v.str_field(name, max_length=100)
        if value is not None:
            changes[key] = value.strip()
    email = v.email_field("email")
    if email is not None:
        changes["email"] = email
    _document(v, body, current, changes)
    if current is None and not v.present("email") and not v.present("documentNumber"):
        v.fail("email", "isNotEmpty", "email should not be empty when documentNumber is absent")
        v.fail(
            "documentNumber",
            "isNotEmpty",
            "documentNumber should not be empty when email is absent",
        )
    phone = _text(v, "phone", 30)
    if phone is not None:
        if PHONE.fullmatch(phone) and sum(ch.isdigit() for ch in phone) >= 6:
            changes["phone"] = phone
        else:
            v.fail("phone", "isPhoneNumber", "phone must be a valid phone number", phone)
    birthday = _birthday(v, world, merchant)
    if birthday is not None:
        changes["birthday"] = birthday
    gender = v.int_field("gender", minimum=0, maximum=3)
    if gender is not None:
        changes["gender"] = gender
    card = _text(v, "affiliateCard", 50)
    if card is not None:
        changes["affiliate_card"] = card
    if "description" in body:
        description = v.str_field("description", max_length=500)
        if description is not None or body["description"] is None:
            changes["description"] = description
    branch_id = v.int_field("branchId", minimum=1)
    if branch_id is not None:
        changes["_branch_id"] = branch_id
    tags = v.int_list_field("tagIds")
    if tags is not None:
        changes["_tag_ids"] = sorted(set(tags))
    v.check()
    return changes
