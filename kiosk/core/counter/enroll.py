"""Enroll a client at the counter: the form, its checks, the API's answer.

``EnrollForm`` is what the cashier typed (text as typed; ``birthday`` in the
store's day order). ``validate`` finds what the API would refuse before anything
is sent: an email or a document is required; the email checked by
``email-validator`` (syntax and lengths only, never its network check: 64
characters before the @, 254 in all); a DNI has 7 or 8
digits, a passport 6 to 9 letters and digits; a birthday is a real date and not
in the future; a phone has 6 to 15 digits. ``enroll`` sends the client with the
kiosk's branch and reads the answer:

- created: the new client, read again by exact search when possible (that
  answer says whether it registered and carries the registration link);
- the API's validation errors mapped to the form's fields (``map_field_errors``;
  fields the form does not have are returned by their API names);
- 409, already registered: the lookups that find the existing client.

Level assignment is asynchronous: a new client's ``level`` is often ``None``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from typing import Protocol

from email_validator import EmailNotValidError, validate_email

from kiosk.api.errors import ApiError, ErrorKind, FieldError, Reason
from kiosk.api.models.clients import Client, Gender, NewClient
from kiosk.api.models.purchases import Applied
from kiosk.core.counter.identify import Caller, Prefill, direct, display_name
from kiosk.core.counter.scan import DocumentType
from kiosk.core.journal import AsyncJournal, JournalEntry, OperationKind, Outcome, client_display

log = logging.getLogger(__name__)

MAX_NAME = 100
MAX_EMAIL = 254  # RFC 5321's limits, as email-validator applies them
MAX_EMAIL_LOCAL = 64
MAX_DOMAIN_LABEL = 63
DNI_DIGITS = (7, 8)
PASSPORT_LENGTH = (6, 9)
PHONE_DIGITS = (6, 15)
_PHONE = re.compile(r"\+?[\d\s\-()]+")
_DATE = re.compile(r"(\d{1,4})[/\-. ](\d{1,2})[/\-. ](\d{1,4})")


class FormField(StrEnum):
    EMAIL = "email"
    DOCUMENT_TYPE = "document_type"
    DOCUMENT_NUMBER = "document_number"
    FIRST_NAME = "first_name"
    LAST_NAME = "last_name"
    PHONE = "phone"
    BIRTHDAY = "birthday"
    GENDER = "gender"


class FieldProblem(StrEnum):
    EMAIL_OR_DOCUMENT = "email_or_document"  # neither was given
    EMAIL_FORMAT = "email_format"
    EMAIL_TOO_LONG = "email_too_long"  # over 64 characters before the @ or 254 in all
    DNI_DIGITS = "dni_digits"
    PASSPORT_FORMAT = "passport_format"
    DOCUMENT_FORMAT = "document_format"  # the API refused the document (its own rule)
    BIRTHDAY_FORMAT = "birthday_format"
    BIRTHDAY_FUTURE = "birthday_future"
    BIRTHDAY_MIN_AGE = "birthday_min_age"  # the merchant's minimum age (API only)
    PHONE_FORMAT = "phone_format"
    TOO_LONG = "too_long"
    REQUIRED = "required"
    TAKEN = "taken"  # belongs to a client already registered (409)
    INVALID = "invalid"  # any other rule the API names


# The API's field names (camelCase in bodies; snake_case and ``dni`` seen in records).
API_FIELDS: dict[str, FormField] = {
    "email": FormField.EMAIL,
    "documentNumber": FormField.DOCUMENT_NUMBER,
    "document_number": FormField.DOCUMENT_NUMBER,
    "dni": FormField.DOCUMENT_NUMBER,
    "documentType": FormField.DOCUMENT_TYPE,
    "document_type": FormField.DOCUMENT_TYPE,
    "firstName": FormField.FIRST_NAME,
    "first_name": FormField.FIRST_NAME,
    "lastName": FormField.LAST_NAME,
    "last_name": FormField.LAST_NAME,
    "phone": FormField.PHONE,
    "birthday": FormField.BIRTHDAY,
    "gender": FormField.GENDER,
}

# Rule names of the API's validation errors (class-validator style) -> problem.
RULE_PROBLEMS: dict[str, FieldProblem] = {
    "isEmail": FieldProblem.EMAIL_FORMAT,
    "maxDate": FieldProblem.BIRTHDAY_FUTURE,
    "minAge": FieldProblem.BIRTHDAY_MIN_AGE,
    "isDateString": FieldProblem.BIRTHDAY_FORMAT,
    "isISO8601": FieldProblem.BIRTHDAY_FORMAT,
    "isPhoneNumber": FieldProblem.PHONE_FORMAT,
    "isNotEmpty": FieldProblem.REQUIRED,
    "maxLength": FieldProblem.TOO_LONG,
    "matches": FieldProblem.DOCUMENT_FORMAT,
}

ALREADY_REGISTERED = frozenset({Reason.CLIENT_EXISTS, Reason.EMAIL_TAKEN, Reason.DOCUMENT_TAKEN})


@dataclass(frozen=True)
class EnrollForm:
    email: str = field(default="", repr=False)
    document_type: DocumentType = DocumentType.DNI
    document_number: str = field(default="", repr=False)
    first_name: str = field(default="", repr=False)
    last_name: str = field(default="", repr=False)
    phone: str = field(default="", repr=False)
    birthday: str = field(default="", repr=False)  # as typed, see ``parse_birthday``
    gender: Gender | None = None
    day_first: bool = True  # 31/12/1990 (es-AR) or 12/31/1990 (en-US)


def format_birthday(value: date, *, day_first: bool = True) -> str:
    first, second = (value.day, value.month) if day_first else (value.month, value.day)
    return f"{first:02d}/{second:02d}/{value.year:04d}"


def form_from_prefill(prefill: Prefill, *, day_first: bool = True) -> EnrollForm:
    return EnrollForm(
        email=prefill.email or "",
        document_type=prefill.document_type or DocumentType.DNI,
        document_number=prefill.document_number or "",
        first_name=prefill.first_name or "",
        last_name=prefill.last_name or "",
        birthday=format_birthday(prefill.birthday, day_first=day_first) if prefill.birthday else "",
        gender=prefill.gender,
        day_first=day_first,
    )


def clean_email(text: str) -> str:
    return text.strip().lower()


def clean_document(text: str) -> str:
    """A document as the API wants it: no spaces, dots or dashes, upper case."""
    return re.sub(r"[\s.\-]", "", text).upper()


def parse_birthday(text: str, *, day_first: bool = True) -> date | None:
    """``31/12/1990`` (or ``12/31/1990`` when not ``day_first``; ``1990-12-31`` always).

    ``None`` for an empty text; ``ValueError`` for anything that is not a date."""
    clean = text.strip()
    if not clean:
        return None
    found = _DATE.fullmatch(clean)
    if found is None:
        raise ValueError("not a date")
    a, b, c = found.groups()
    if len(a) == 4:
        year, month, day = int(a), int(b), int(c)
    elif len(c) == 4:
        year = int(c)
        day, month = (int(a), int(b)) if day_first else (int(b), int(a))
    else:
        raise ValueError("the year needs four digits")
    return date(year, month, day)


def email_problem(email: str, *, test_domains: bool = False) -> FieldProblem | None:
    """What is wrong with a cleaned email (``None``: it can be sent). The syntax is
    ``email-validator``'s, without its network (deliverability) check: the counter
    neither waits for DNS nor refuses a client because a lookup failed. Addresses are
    ASCII (the identify field and the service's search take ASCII emails).
    ``test_domains`` accepts ``@….test`` (the training and QA services' people); a
    production counter refuses it like any reserved name."""
    try:
        validate_email(
            email,
            check_deliverability=False,
            allow_smtputf8=False,
            test_environment=test_domains,
            strict=True,  # with it, the 64-character limit before the @ (RFC 5321)
        )
    except EmailNotValidError:
        local, _, domain = email.rpartition("@")
        too_long = (
            len(email) > MAX_EMAIL
            or len(local) > MAX_EMAIL_LOCAL
            or any(len(label) > MAX_DOMAIN_LABEL for label in domain.split("."))
        )
        return FieldProblem.EMAIL_TOO_LONG if too_long else FieldProblem.EMAIL_FORMAT
    return None


def _document_problem(number: str, kind: DocumentType) -> FieldProblem | None:
    if kind is DocumentType.DNI:
        low, high = DNI_DIGITS
        ok = number.isascii() and number.isdigit() and low <= len(number.lstrip("0")) <= high
        return None if ok else FieldProblem.DNI_DIGITS
    low, high = PASSPORT_LENGTH
    ok = number.isascii() and number.isalnum() and low <= len(number) <= high
    return None if ok else FieldProblem.PASSPORT_FORMAT


def validate(
    form: EnrollForm, *, today: date, test_domains: bool = False
) -> dict[FormField, FieldProblem]:
    """What is wrong with the form, by field (empty: it can be sent); ``test_domains``
    as in ``email_problem``."""
    problems: dict[FormField, FieldProblem] = {}
    email = clean_email(form.email)
    document = clean_document(form.document_number)
    if not email and not document:
        problems[FormField.EMAIL] = FieldProblem.EMAIL_OR_DOCUMENT
        problems[FormField.DOCUMENT_NUMBER] = FieldProblem.EMAIL_OR_DOCUMENT
    if email and (problem := email_problem(email, test_domains=test_domains)) is not None:
        problems[FormField.EMAIL] = problem
    if document:
        problem = _document_problem(document, form.document_type)
        if problem is not None:
            problems[FormField.DOCUMENT_NUMBER] = problem
    for name, value in (
        (FormField.FIRST_NAME, form.first_name),
        (FormField.LAST_NAME, form.last_name),
    ):
        if len(value.strip()) > MAX_NAME:
            problems[name] = FieldProblem.TOO_LONG
    phone = form.phone.strip()
    if phone:
        digits = sum(ch.isdigit() for ch in phone)
        low, high = PHONE_DIGITS
        if not _PHONE.fullmatch(phone) or not low <= digits <= high:
            problems[FormField.PHONE] = FieldProblem.PHONE_FORMAT
    try:
        born = parse_birthday(form.birthday, day_first=form.day_first)
    except ValueError:
        problems[FormField.BIRTHDAY] = FieldProblem.BIRTHDAY_FORMAT
    else:
        if born is not None and born > today:
            problems[FormField.BIRTHDAY] = FieldProblem.BIRTHDAY_FUTURE
        elif born is not None and born.year < 1900:
            problems[FormField.BIRTHDAY] = FieldProblem.BIRTHDAY_FORMAT
    return problems


def to_new_client(form: EnrollForm, *, branch_id: int | None) -> NewClient:
    """The API body of a validated form (``ValueError`` if neither email nor document)."""
    document = clean_document(form.document_number)
    if form.document_type is DocumentType.DNI:
        document = document.lstrip("0")
    return NewClient(
        first_name=" ".join(form.first_name.split()) or None,
        last_name=" ".join(form.last_name.split()) or None,
        email=clean_email(form.email) or None,
        document_number=document or None,
        document_type=form.document_type.value if document else None,
        phone=form.phone.strip() or None,
        birthday=parse_birthday(form.birthday, day_first=form.day_first),
        gender=form.gender,
        branch_id=branch_id,
    )


@dataclass(frozen=True)
class FieldErrors:
    by_field: dict[FormField, FieldProblem]
    unknown: tuple[str, ...] = ()  # API field names the form does not show


def map_field_errors(errors: Sequence[FieldError]) -> FieldErrors:
    """The API's per-field validation errors as problems of the form's fields."""
    by_field: dict[FormField, FieldProblem] = {}
    unknown: list[str] = []
    for item in errors:
        target = API_FIELDS.get(item.field)
        if target is None:
            if item.field not in unknown:
                unknown.append(item.field)
            continue
        problem = next(
            (RULE_PROBLEMS[rule] for rule in item.constraints if rule in RULE_PROBLEMS),
            FieldProblem.INVALID,
        )
        by_field.setdefault(target, problem)
    return FieldErrors(by_field, tuple(unknown))


def existing_lookups(reason: Reason | None, draft: NewClient) -> tuple[str, ...]:
    """What finds the client that a 409 says already holds this email or document."""
    email, document = draft.email, draft.document_number
    order: tuple[str | None, ...]
    if reason is Reason.EMAIL_TAKEN:
        order = (email,)
    elif reason is Reason.DOCUMENT_TAKEN:
        order = (document,)
    else:
        order = (email, document)
    return tuple(value for value in order if value)


class EnrollOutcome(StrEnum):
    CREATED = "created"
    INVALID = "invalid"  # the form's own checks failed: nothing was sent
    REJECTED = "rejected"  # the API's validation refused fields
    ALREADY_REGISTERED = "already_registered"  # 409: jump to that client


@dataclass(frozen=True)
class EnrollResult:
    outcome: EnrollOutcome
    client: Client | None = None
    problems: dict[FormField, FieldProblem] = field(default_factory=dict)
    unknown_fields: tuple[str, ...] = ()
    existing: tuple[str, ...] = field(default=(), repr=False)  # lookups of the holder
    reason: Reason | None = None
    reconciled: bool = False  # the answer was lost; reading back showed it was created


class Enroller(Protocol):
    async def create_client(
        self, draft: NewClient, *, branch_id: int | None = None
    ) -> Applied[Client]: ...

    async def search_client(self, query: str) -> Client: ...


def _conflict_problems(reason: Reason | None) -> dict[FormField, FieldProblem]:
    if reason is Reason.EMAIL_TAKEN:
        return {FormField.EMAIL: FieldProblem.TAKEN}
    if reason is Reason.DOCUMENT_TAKEN:
        return {FormField.DOCUMENT_NUMBER: FieldProblem.TAKEN}
    return {}


async def enroll(
    api: Enroller,
    form: EnrollForm,
    *,
    branch_id: int | None,
    today: date,
    call: Caller = direct,
    test_domains: bool = False,
) -> EnrollResult:
    """Check, send, read the answer. Failures other than validation and 409 raise."""
    problems = validate(form, today=today, test_domains=test_domains)
    if problems:
        return EnrollResult(EnrollOutcome.INVALID, problems=problems)
    draft = to_new_client(form, branch_id=branch_id)
    try:
        applied = await call(lambda: api.create_client(draft, branch_id=branch_id))
    except ApiError as error:
        if error.kind is ErrorKind.VALIDATION:
            mapped = map_field_errors(error.field_errors)
            log.info("enroll: refused by validation (%s)", ", ".join(map(str, mapped.by_field)))
            return EnrollResult(
                EnrollOutcome.REJECTED, problems=mapped.by_field, unknown_fields=mapped.unknown
            )
        if error.kind is ErrorKind.CONFLICT and error.reason in ALREADY_REGISTERED:
            log.info("enroll: already registered (%s)", error.reason)
            return EnrollResult(
                EnrollOutcome.ALREADY_REGISTERED,
                problems=_conflict_problems(error.reason),
                existing=existing_lookups(error.reason, draft),
                reason=error.reason,
            )
        raise
    client = applied.record
    log.info(
        "enroll: client #%d created%s", client.id, " (reconciled)" if applied.reconciled else ""
    )
    try:
        # The search answer says whether the client registered and carries the link.
        client = await call(lambda: api.search_client(draft.lookup))
    except ApiError as error:
        log.info("enroll: could not read the new client again (%s)", error.kind)
    return EnrollResult(EnrollOutcome.CREATED, client=client, reconciled=applied.reconciled)


async def journal_enrollment(journal: AsyncJournal, client: Client) -> JournalEntry:
    """The "Today" row of an enrollment: the client masked, as the screen shows it."""
    return await journal.record(
        OperationKind.ENROLLMENT,
        Outcome.OK,
        client=client_display(display_name(client), client.email, client.document_number),
    )
