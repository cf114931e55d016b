"""Operators (the merchant's staff): the create and edit forms, checks and bodies.

- Create: names and email are needed; a password is optional (without one the
  operator receives an email to set it); each chosen branch may carry a permission
  group id (groups exist only in the merchant panel; without one the operator can
  do nothing there until a group is assigned). The plan's operator cap is a 400
  for the banner.
- Edit: personal data is incremental (only what changed is sent); the branches,
  when changed, replace every assignment. Email, password and document cannot be
  edited through the API: the form shows them read-only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from kiosk.api.classify import resource_for
from kiosk.api.errors import ApiError, ErrorKind, Reason
from kiosk.api.models.staff import (
    Branch,
    BranchAssignment,
    NewOperator,
    Operator,
    OperatorChanges,
)
from kiosk.core.admin.forms import (
    Problem,
    Problems,
    Refusal,
    Resolver,
    clean_text,
    explain,
    is_email,
    whole_problem,
)

NAME_MAX = 100  # the simulator's limits (G12); the contract shows none
PASSWORD_MIN = 8
PHONE_DIGITS = (6, 15)

FIRST_NAME = "first_name"
LAST_NAME = "last_name"
EMAIL = "email"
PASSWORD = "password"  # noqa: S105 - a field name
PHONE = "phone"
DOCUMENT = "document"
BRANCHES = "branches"
# The most characters of each field with a limit (said in the field's "Too long").
LIMITS = {FIRST_NAME: NAME_MAX, LAST_NAME: NAME_MAX}


def group_key(branch_id: int) -> str:
    return f"group:{branch_id}"


@dataclass(frozen=True)
class BranchChoice:
    branch_id: int
    branch_name: str
    chosen: bool = False
    group: str = ""  # permission group id as typed; empty: none yet


@dataclass(frozen=True)
class OperatorForm:
    first_name: str = ""
    last_name: str = ""
    email: str = field(default="", repr=False)
    password: str = field(default="", repr=False)
    phone: str = field(default="", repr=False)
    document: str = field(default="", repr=False)
    branches: tuple[BranchChoice, ...] = ()

    def chosen(self) -> tuple[BranchChoice, ...]:
        return tuple(b for b in self.branches if b.chosen)


def new_operator_form(branches: Sequence[Branch]) -> OperatorForm:
    return OperatorForm(branches=tuple(BranchChoice(b.id, b.name or "") for b in branches))


def operator_form(operator: Operator, branches: Sequence[Branch]) -> OperatorForm:
    """The edit form of an operator read with its branches (``get_operator``)."""
    assigned = {a.branch_id: a for a in operator.branches}
    choices = []
    for branch in branches:
        a = assigned.pop(branch.id, None)
        group = "" if a is None or a.permission_group_id is None else str(a.permission_group_id)
        choices.append(BranchChoice(branch.id, branch.name or "", a is not None, group))
    for a in assigned.values():  # a branch the list did not show (disabled...): keep it
        group = "" if a.permission_group_id is None else str(a.permission_group_id)
        choices.append(BranchChoice(a.branch_id, a.branch_name or "", True, group))
    return OperatorForm(
        first_name=operator.first_name or "",
        last_name=operator.last_name or "",
        email=operator.email or "",
        phone=operator.phone or "",
        document=operator.document_number or "",
        branches=tuple(choices),
    )


def with_branch(form: OperatorForm, branch_id: int, *, chosen: bool, group: str) -> OperatorForm:
    branches = tuple(
        replace(b, chosen=chosen, group=group) if b.branch_id == branch_id else b
        for b in form.branches
    )
    return replace(form, branches=branches)


def _phone_ok(text: str) -> bool:
    digits = sum(ch.isdigit() for ch in text)
    low, high = PHONE_DIGITS
    return all(ch.isdigit() or ch in " +-()" for ch in text) and low <= digits <= high


def validate_operator(form: OperatorForm, *, creating: bool) -> Problems:
    problems: Problems = {}
    for key, text in ((FIRST_NAME, form.first_name), (LAST_NAME, form.last_name)):
        name = clean_text(text)
        if not name:
            problems[key] = Problem.REQUIRED
        elif len(name) > NAME_MAX:
            problems[key] = Problem.TOO_LONG
    if creating:
        email = form.email.strip()
        if not email:
            problems[EMAIL] = Problem.REQUIRED
        elif not is_email(email):
            problems[EMAIL] = Problem.EMAIL_FORMAT
        if form.password and len(form.password) < PASSWORD_MIN:
            problems[PASSWORD] = Problem.PASSWORD_SHORT
    phone = form.phone.strip()
    if phone and not _phone_ok(phone):
        problems[PHONE] = Problem.PHONE_FORMAT
    if creating and not form.chosen():
        # Without a branch the operator cannot work anywhere (issue #14): refused here,
        # though the API would take it.
        problems[BRANCHES] = Problem.NO_BRANCH
    for choice in form.chosen():
        _, problem = whole_problem(choice.group, minimum=1, required=False)
        if problem is not None:
            problems[group_key(choice.branch_id)] = problem
    return problems


def _assignments(form: OperatorForm) -> list[BranchAssignment]:
    found = []
    for choice in form.chosen():
        group, _ = whole_problem(choice.group, minimum=1, required=False)
        found.append(BranchAssignment(choice.branch_id, group))
    return found


def new_operator(form: OperatorForm) -> NewOperator:
    """The body of a validated create form (``ValueError`` when it is not valid)."""
    if validate_operator(form, creating=True):
        raise ValueError("the form has problems")
    return NewOperator(
        first_name=clean_text(form.first_name),
        last_name=clean_text(form.last_name),
        email=form.email.strip().lower(),
        branches=_assignments(form),
        password=form.password or None,
        phone=form.phone.strip() or None,
        document_number=form.document.strip() or None,
    )


def operator_changes(original: OperatorForm, form: OperatorForm) -> OperatorChanges | None:
    """Only what changed (``None``: nothing did). ``ValueError`` when not valid, or when
    the phone was emptied (the API keeps a value not sent)."""
    if validate_operator(form, creating=False) or problems_of_clearing(original, form):
        raise ValueError("the form has problems")

    def changed(old: str, new: str) -> str | None:
        return clean_text(new) if clean_text(new) != clean_text(old) else None

    branches = _assignments(form)
    branches_changed = branches != _assignments(original)
    changes = OperatorChanges(
        first_name=changed(original.first_name, form.first_name),
        last_name=changed(original.last_name, form.last_name),
        phone=changed(original.phone, form.phone),
        branches=branches if branches_changed else None,
    )
    return changes if changes.to_json() else None


def problems_of_clearing(original: OperatorForm, form: OperatorForm) -> Problems:
    problems: Problems = {}
    if original.phone.strip() and not form.phone.strip():
        problems[PHONE] = Problem.CANNOT_CLEAR
    if original.chosen() and not form.chosen():
        problems[BRANCHES] = Problem.NO_BRANCH  # every branch taken away: refused too
    return problems


def resolver(form: OperatorForm) -> Resolver:
    sent = [c.branch_id for c in form.chosen()]
    table = {
        "firstName": FIRST_NAME,
        "lastName": LAST_NAME,
        "email": EMAIL,
        "password": PASSWORD,
        "phone": PHONE,
        "documentNumber": DOCUMENT,
        "branches": BRANCHES,
    }

    def resolve(name: str) -> str | None:
        parts = name.split(".")
        if parts[0] == "branches" and len(parts) > 2 and parts[1].isdigit():
            index = int(parts[1])
            if parts[2] == "permissionGroupId" and index < len(sent):
                return group_key(sent[index])
            return BRANCHES
        return table.get(name) or table.get(parts[0])

    return resolve


def explain_operator(error: ApiError, form: OperatorForm) -> Refusal | None:
    """Field problems of a refused create or edit; the plan's cap is not a field's."""
    if error.kind is ErrorKind.NOT_FOUND and resource_for(error.message) is None:
        # "Permission group not found": the only other record a body refers to.
        grouped = [c for c in form.chosen() if c.group.strip()]
        if grouped:
            return Refusal({group_key(c.branch_id): Problem.UNKNOWN_GROUP for c in grouped})
    return explain(
        error,
        resolver(form),
        reasons={Reason.EMAIL_TAKEN: (EMAIL, Problem.TAKEN)},
        min_problems={group_key(c.branch_id): Problem.NOT_POSITIVE for c in form.branches},
    )


def is_cap_reached(error: ApiError) -> bool:
    return error.reason is Reason.OPERATOR_CAP
