"""Operators: permission groups, body validation, branch assignments, record views.

Permission groups exist only in the panel; the simulator keeps them per merchant
in an extra table ``permission_groups`` (``{id, name}``; ids from one shared
sequence, so another merchant's group id is real and still refused). The table
is created on first use, so it travels in snapshots like the others.

Operator record (stored): the contract's fields including ``branches`` (each
``{branchId, branchName, permissionGroupId, permissionGroupName}``; the names are
refreshed on every read) + private ``_password_hash``. ``role`` is ``admin`` or
``operator``; the API creates only ``operator``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request

from kiosk.sim.catalog_common import branch_of_merchant
from kiosk.sim.http import Validator, not_found
from kiosk.sim.world import Merchant, Record, World

GROUPS = "permission_groups"
GROUP_NOT_FOUND = "Permission group not found"
OPERATOR_NOT_FOUND = "Operator not found"
CAP_REACHED = "Se alcanzó el límite de operadores de su plan."
EMAIL_TAKEN = "El email ya está en uso por otro operador."
ADMIN_ROLE = "admin"
OPERATOR_ROLE = "operator"
NAME_MAX = 100
PASSWORD_MIN = 8


def groups(merchant: Merchant) -> dict[int, Record]:
    return merchant.tables.setdefault(GROUPS, {})


def add_group(world: World, merchant: Merchant, name: str) -> Record:
    group: Record = {"id": world.next_id(GROUPS), "name": name}
    groups(merchant)[group["id"]] = group
    return group


def password_hash(password: str) -> str:
    return hashlib.sha256(password.encode()).hexdigest()


@dataclass
class Assignment:
    branch_id: int
    group_id: int | None


def _branches(v: Validator, raw: Any) -> list[Assignment] | None:
    if raw is None:
        return None
    if not isinstance(raw, list):
        v.fail("branches", "isArray", "branches must be an array", raw)
        return None
    found: list[Assignment] = []
    for index, item in enumerate(raw):
        field = f"branches.{index}"
        if not isinstance(item, dict):
            v.fail(field, "isObject", f"{field} must be an object", item)
            continue
        sub = Validator(item)
        branch_id = sub.int_field("branchId", required=True, minimum=1)
        group_id = sub.int_field("permissionGroupId", minimum=1)
        for failure in sub.items:
            for rule, text in failure["constraints"].items():
                v.fail(f"{field}.{failure['field']}", rule, f"{field}.{text}", failure["value"])
        if branch_id is not None and not sub.items:
            found.append(Assignment(branch_id, group_id))
    ids = [a.branch_id for a in found]
    if len(set(ids)) != len(ids):
        v.fail("branches", "uniqueBranch", "branches must not repeat a branchId", raw)
    return found


def _personal(v: Validator, *, required: bool) -> Record:
    fields: Record = {}
    first = v.str_field("firstName", required=required, max_length=NAME_MAX)
    last = v.str_field("lastName", required=required, max_length=NAME_MAX)
    phone = v.str_field("phone", max_length=40)
    birthday = v.date_field("birthday")
    for key, value in (
        ("firstName", first),
        ("lastName", last),
        ("phone", phone),
        ("birthday", birthday),
    ):
        if value is not None:
            fields[key] = value.strip()
    return fields


def parse_create(body: Record) -> tuple[Record, str | None, list[Assignment]]:
    """(personal fields incl. email/documentNumber, password, branches) of a create."""
    v = Validator(body)
    fields = _personal(v, required=True)
    email = v.email_field("email", required=True)
    document = v.str_field("documentNumber", max_length=40)
    password = v.str_field("password")
    if password is not None and len(password) < PASSWORD_MIN:
        v.fail(
            "password",
            "minLength",
            f"password must be longer than or equal to {PASSWORD_MIN} characters",
        )
        password = None
    assignments = _branches(v, body.get("branches"))
    v.check()
    fields["email"] = email
    fields["documentNumber"] = document.strip() if document else None
    return fields, password, assignments or []


def parse_update(body: Record, operator: Record) -> tuple[Record, list[Assignment] | None]:
    """Incremental personal data and, when sent, the new branch assignments.

    ``email`` and ``documentNumber`` may be echoed back unchanged; a different
    value, or any ``password``, is a 400 validation item ``isNotEditable``.
    """
    v = Validator(body)
    fields = _personal(v, required=False)
    email = v.email_field("email")
    if email is not None and email != operator.get("email"):
        v.fail("email", "isNotEditable", "email cannot be modified", body.get("email"))
    document = v.str_field("documentNumber")
    if document is not None and document.strip() != (operator.get("documentNumber") or ""):
        v.fail("documentNumber", "isNotEditable", "documentNumber cannot be modified", document)
    if "password" in body:
        v.fail("password", "isNotEditable", "password cannot be modified", None)
    assignments = _branches(v, body.get("branches"))
    v.check()
    return fields, assignments


def resolve_assignments(
    request: Request, merchant: Merchant, assignments: list[Assignment]
) -> list[Record]:
    """Stored assignments; an unknown branch is 404 ``Sucursal no encontrada``, a
    branch of another merchant 403 (as in a credit), an unknown or foreign group
    404 ``Permission group not found``."""
    resolved: list[Record] = []
    for a in assignments:
        branch = branch_of_merchant(request, merchant, a.branch_id, strict=True)
        group = None
        if a.group_id is not None:
            group = groups(merchant).get(a.group_id)
            if group is None:
                raise not_found(GROUP_NOT_FOUND)
        resolved.append(
            {
                "branchId": branch["id"],
                "branchName": branch["name"],
                "permissionGroupId": None if group is None else group["id"],
                "permissionGroupName": None if group is None else group["name"],
            }
        )
    return resolved


def operator_view(merchant: Merchant, operator: Record, *, with_branches: bool) -> Record:
    view = {k: v for k, v in operator.items() if not k.startswith("_") and k != "branches"}
    if with_branches:
        fresh = []
        for entry in operator.get("branches", []):
            branch = merchant.tables["branches"].get(entry["branchId"])
            group = groups(merchant).get(entry.get("permissionGroupId") or -1)
            fresh.append(
                {
                    "branchId": entry["branchId"],
                    "branchName": branch["name"] if branch else entry.get("branchName"),
                    "permissionGroupId": group["id"] if group else None,
                    "permissionGroupName": group["name"] if group else None,
                }
            )
        view["branches"] = fresh
    return view


def new_operator(
    world: World,
    merchant: Merchant,
    fields: Record,
    password: str | None,
    branches: list[Record],
    *,
    role: str = OPERATOR_ROLE,
) -> Record:
    now = world.now_iso()
    operator: Record = {
        "id": world.next_id("operators"),
        "role": role,
        "firstName": fields["firstName"],
        "lastName": fields["lastName"],
        "fullName": f"{fields['firstName']} {fields['lastName']}",
        "email": fields["email"],
        "documentNumber": fields.get("documentNumber"),
        "phone": fields.get("phone"),
        "birthday": fields.get("birthday"),
        "hasCompletedOnboarding": password is not None,
        "branches": branches,
        "createdAt": now,
        "updatedAt": now,
        "_password_hash": None if password is None else password_hash(password),
    }
    merchant.tables["operators"][operator["id"]] = operator
    return operator
