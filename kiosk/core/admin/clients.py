"""Clients in manager mode: the edit form (incremental), suspension and removal.

- Edit: only the fields that changed are sent (the API keeps the others). The
  email cannot change once the client entered the platform (``registered``); the
  form locks it then, and the API's refusal is shown on the email if it happens
  anyway. Emails, documents and affiliate cards taken by another client are 409s
  shown on their fields. A field the API keeps when not sent cannot be emptied here.
- Suspend: the client stops accumulating (credits and previews are refused).
- Removal: needs at least one reason; the client leaves operation at once and is
  anonymized after a grace period of ``GRACE_DAYS`` days, during which only the
  merchant panel can restore them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from kiosk.api.errors import ApiError, Reason
from kiosk.api.models.clients import Client, ClientChanges, RemovalReason
from kiosk.core.admin.forms import (
    Problem,
    Problems,
    Refusal,
    clean_text,
    explain,
    is_email,
    table_resolver,
)
from kiosk.core.counter.enroll import clean_document

GRACE_DAYS = 30
NAME_MAX = 100  # the simulator's limits (K4-K6); the contract shows none
DESCRIPTION_MAX = 500
CARD_MAX = 50
PHONE_DIGITS = (6, 15)

FIRST_NAME = "first_name"
LAST_NAME = "last_name"
EMAIL = "email"
DOCUMENT = "document"
PHONE = "phone"
CARD = "affiliate_card"
DESCRIPTION = "description"
REASONS_FIELD = "reasons"
# The most characters of each field with a limit (said in the field's "Too long").
LIMITS = {FIRST_NAME: NAME_MAX, LAST_NAME: NAME_MAX, CARD: CARD_MAX, DESCRIPTION: DESCRIPTION_MAX}

REMOVAL_REASONS: tuple[RemovalReason, ...] = tuple(RemovalReason)


@dataclass(frozen=True)
class ClientForm:
    first_name: str = field(default="", repr=False)
    last_name: str = field(default="", repr=False)
    email: str = field(default="", repr=False)
    document: str = field(default="", repr=False)
    phone: str = field(default="", repr=False)
    affiliate_card: str = field(default="", repr=False)
    description: str = field(default="", repr=False)


def client_form(client: Client) -> ClientForm:
    return ClientForm(
        first_name=client.first_name or "",
        last_name=client.last_name or "",
        email=client.email or "",
        document=client.document_number or "",
        phone=client.phone or "",
        affiliate_card=client.affiliate_card or "",
        description=client.description or "",
    )


resolve = table_resolver(
    {
        "firstName": FIRST_NAME,
        "lastName": LAST_NAME,
        "email": EMAIL,
        "documentNumber": DOCUMENT,
        "documentType": DOCUMENT,
        "phone": PHONE,
        "affiliateCard": CARD,
        "description": DESCRIPTION,
    }
)
REASONS = {
    Reason.EMAIL_TAKEN: (EMAIL, Problem.TAKEN),
    Reason.CLIENT_EXISTS: (EMAIL, Problem.TAKEN),
    Reason.DOCUMENT_TAKEN: (DOCUMENT, Problem.TAKEN),
    Reason.CARD_TAKEN: (CARD, Problem.TAKEN),
    Reason.EMAIL_LOCKED: (EMAIL, Problem.EMAIL_LOCKED),
}


def _phone_ok(text: str) -> bool:
    digits = sum(ch.isdigit() for ch in text)
    low, high = PHONE_DIGITS
    return all(ch.isdigit() or ch in " +-()" for ch in text) and low <= digits <= high


def _document_ok(text: str) -> bool:
    """A DNI (6 to 8 digits) or a passport (5 to 20 letters and digits)."""
    clean = clean_document(text)
    if clean.isdigit():
        return 6 <= len(clean.lstrip("0")) <= 8
    return clean.isascii() and clean.isalnum() and 5 <= len(clean) <= 20


def validate_client(original: ClientForm, form: ClientForm, *, email_locked: bool) -> Problems:
    problems: Problems = {}
    texts = (
        (FIRST_NAME, original.first_name, form.first_name, NAME_MAX),
        (LAST_NAME, original.last_name, form.last_name, NAME_MAX),
        (CARD, original.affiliate_card, form.affiliate_card, CARD_MAX),
        (DESCRIPTION, original.description, form.description, DESCRIPTION_MAX),
    )
    for key, old, new, limit in texts:
        if len(clean_text(new)) > limit:
            problems[key] = Problem.TOO_LONG
        elif key != DESCRIPTION and clean_text(old) and not clean_text(new):
            problems[key] = Problem.CANNOT_CLEAR
    email = form.email.strip().lower()
    if email != original.email.strip().lower():
        if email_locked:
            problems[EMAIL] = Problem.EMAIL_LOCKED
        elif not email:
            problems[EMAIL] = Problem.CANNOT_CLEAR
        elif not is_email(email):
            problems[EMAIL] = Problem.EMAIL_FORMAT
    document = clean_document(form.document)
    if document != clean_document(original.document):
        if not document:
            problems[DOCUMENT] = Problem.CANNOT_CLEAR
        elif not _document_ok(document):
            problems[DOCUMENT] = Problem.DOCUMENT_FORMAT
    phone = form.phone.strip()
    if phone != original.phone.strip():
        if not phone:
            problems[PHONE] = Problem.CANNOT_CLEAR
        elif not _phone_ok(phone):
            problems[PHONE] = Problem.PHONE_FORMAT
    return problems


def client_changes(
    original: ClientForm, form: ClientForm, *, email_locked: bool = False
) -> ClientChanges | None:
    """Only the fields that changed (``None``: nothing did); ``ValueError`` when invalid."""
    if validate_client(original, form, email_locked=email_locked):
        raise ValueError("the form has problems")

    def changed(old: str, new: str) -> str | None:
        return clean_text(new) if clean_text(new) != clean_text(old) else None

    email = form.email.strip().lower()
    document = clean_document(form.document)
    description = form.description.strip()
    changes = ClientChanges(
        first_name=changed(original.first_name, form.first_name),
        last_name=changed(original.last_name, form.last_name),
        email=email if email != original.email.strip().lower() else None,
        document_number=document if document != clean_document(original.document) else None,
        phone=changed(original.phone, form.phone),
        affiliate_card=changed(original.affiliate_card, form.affiliate_card),
        description=description if description != original.description.strip() else None,
    )
    return changes if changes.to_json() else None


def changed_fields(changes: ClientChanges) -> tuple[str, ...]:
    """The API names sent (for the log: names only, never values)."""
    return tuple(sorted(changes.to_json()))


def explain_client(error: ApiError) -> Refusal | None:
    return explain(error, resolve, reasons=REASONS)


def removal_reasons(chosen: Iterable[RemovalReason]) -> tuple[RemovalReason, ...]:
    """The reasons in the API's order; ``ValueError`` when none was chosen."""
    picked = set(chosen)
    reasons = tuple(r for r in REMOVAL_REASONS if r in picked)
    if not reasons:
        raise ValueError("a removal needs at least one reason")
    return reasons


def removal_problems(chosen: Iterable[RemovalReason]) -> Problems:
    return {} if set(chosen) else {REASONS_FIELD: Problem.NO_REASON}
