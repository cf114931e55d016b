"""Enrollment: the form's checks, the API body, the API's field errors mapped to the
form, 409 "already registered", and creation against the simulator in process."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from datetime import date
from typing import Any, TypeVar

import pytest

from kiosk.api.client import LoyaltyClient
from kiosk.api.errors import FieldError, Reason
from kiosk.api.models.clients import Gender, NewClient
from kiosk.core.counter import enroll
from kiosk.core.counter.enroll import (
    EnrollForm,
    EnrollOutcome,
    FieldProblem,
    FormField,
    form_from_prefill,
    map_field_errors,
    parse_birthday,
    to_new_client,
    validate,
)
from kiosk.core.counter.identify import Prefill
from kiosk.core.counter.scan import DocumentType
from kiosk.sim import create_app
from kiosk.sim.transport import SimTransport
from kiosk.sim.world import World
from tests.conftest import MAIN_KEY

T = TypeVar("T")
TODAY = date(2026, 5, 20)


def run_api(world: World, scenario: Callable[[LoyaltyClient], Awaitable[T]]) -> T:
    async def main() -> T:
        api = LoyaltyClient(
            f"http://sim-{uuid.uuid4().hex[:8]}.test",
            MAIN_KEY,
            transport=SimTransport(create_app(world, controls=True)),
        )
        try:
            return await scenario(api)
        finally:
            await api.aclose()

    return asyncio.run(main())


def main_clients(world: World) -> list[dict[str, Any]]:
    return list(world.merchants[1].tables["clients"].values())


def first_branch(world: World) -> int:
    return min(world.merchants[1].tables["branches"])


# -- the form's own checks --------------------------------------------------------------


def test_email_or_document_is_required() -> None:
    problems = validate(EnrollForm(first_name="Ana"), today=TODAY)
    assert problems == {
        FormField.EMAIL: FieldProblem.EMAIL_OR_DOCUMENT,
        FormField.DOCUMENT_NUMBER: FieldProblem.EMAIL_OR_DOCUMENT,
    }
    assert validate(EnrollForm(email="ana@example.com"), today=TODAY) == {}
    assert validate(EnrollForm(document_number="44123987"), today=TODAY) == {}


@pytest.mark.parametrize(
    ("email", "ok"),
    [
        ("ana.lopez@example.com", True),
        (" Ana.Lopez@Example.COM ", True),
        ("ana@example", False),
        ("ana@@example.com", False),
        ("ana lopez@example.com", False),
        ("ana..lopez@example.com", False),
        ("@example.com", False),
    ],
)
def test_email_format(email: str, ok: bool) -> None:
    problems = validate(EnrollForm(email=email), today=TODAY)
    assert (FormField.EMAIL not in problems) is ok
    if not ok:
        assert problems[FormField.EMAIL] is FieldProblem.EMAIL_FORMAT


# The address: 254 characters, 181 of them before the @ (issue #14, item 7).
OVERLONG = "a" * 181 + "@" + "b" * 60 + ".example.com"


@pytest.mark.parametrize(
    ("email", "problem"),
    [
        (OVERLONG, FieldProblem.EMAIL_TOO_LONG),
        ("a" * 65 + "@example.com", FieldProblem.EMAIL_TOO_LONG),  # 64 before the @ at most
        ("a" * 64 + "@example.com", None),
        ("ana@" + "b" * 64 + ".com", FieldProblem.EMAIL_TOO_LONG),  # a domain label: 63
        ("a@" + ".".join(["b" * 60] * 5) + ".com", FieldProblem.EMAIL_TOO_LONG),  # 254 in all
        ("ana@example.com", None),
        ("ana@localhost", FieldProblem.EMAIL_FORMAT),
        ("ana@example.local", FieldProblem.EMAIL_FORMAT),  # reserved: never delivered
        ("ñandú@example.com", FieldProblem.EMAIL_FORMAT),  # ASCII, as the search takes it
        ('"ana lopez"@example.com', FieldProblem.EMAIL_FORMAT),
    ],
)
def test_email_checked_by_email_validator_offline(
    email: str, problem: FieldProblem | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("the email check used the network")

    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    assert enroll.email_problem(email) is problem
    problems = validate(EnrollForm(email=email), today=TODAY)
    assert problems.get(FormField.EMAIL) is problem


def test_test_domains_only_where_asked() -> None:
    """The training and QA services' people have ``@….test`` addresses; production
    refuses a reserved name."""
    form = EnrollForm(email="bruno.diaz@almacendelsol.test")
    assert validate(form, today=TODAY) == {FormField.EMAIL: FieldProblem.EMAIL_FORMAT}
    assert validate(form, today=TODAY, test_domains=True) == {}


@pytest.mark.parametrize(
    ("kind", "number", "problem"),
    [
        (DocumentType.DNI, "44123987", None),
        (DocumentType.DNI, "4.412.398", None),  # 7 digits, dots allowed while typing
        (DocumentType.DNI, "44 123 987", None),
        (DocumentType.DNI, "123456", FieldProblem.DNI_DIGITS),
        (DocumentType.DNI, "123456789", FieldProblem.DNI_DIGITS),
        (DocumentType.DNI, "4412398A", FieldProblem.DNI_DIGITS),
        (DocumentType.PASSPORT, "FZ482913", None),
        (DocumentType.PASSPORT, "aa123456", None),
        (DocumentType.PASSPORT, "A1234", FieldProblem.PASSPORT_FORMAT),
        (DocumentType.PASSPORT, "A123456789", FieldProblem.PASSPORT_FORMAT),
        (DocumentType.PASSPORT, "AB12#456", FieldProblem.PASSPORT_FORMAT),
    ],
)
def test_document_by_type(kind: DocumentType, number: str, problem: FieldProblem | None) -> None:
    problems = validate(EnrollForm(document_type=kind, document_number=number), today=TODAY)
    assert problems.get(FormField.DOCUMENT_NUMBER) is problem


@pytest.mark.parametrize(
    ("text", "day_first", "expected"),
    [
        ("30/01/2002", True, date(2002, 1, 30)),
        ("1/30/2002", False, date(2002, 1, 30)),
        ("2002-01-30", True, date(2002, 1, 30)),
        ("30-01-2002", True, date(2002, 1, 30)),
        ("", True, None),
    ],
)
def test_birthday_parsing(text: str, day_first: bool, expected: date | None) -> None:
    assert parse_birthday(text, day_first=day_first) == expected


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("31/02/1990", FieldProblem.BIRTHDAY_FORMAT),
        ("30/01/02", FieldProblem.BIRTHDAY_FORMAT),
        ("yesterday", FieldProblem.BIRTHDAY_FORMAT),
        ("01/01/1850", FieldProblem.BIRTHDAY_FORMAT),
        ("21/05/2026", FieldProblem.BIRTHDAY_FUTURE),
        ("20/05/2026", None),
    ],
)
def test_birthday_checks(text: str, problem: FieldProblem | None) -> None:
    problems = validate(EnrollForm(email="a@example.com", birthday=text), today=TODAY)
    assert problems.get(FormField.BIRTHDAY) is problem


@pytest.mark.parametrize(
    ("phone", "ok"),
    [
        ("+54 11 4321-5678", True),
        ("(011) 4321 5678", True),
        ("12345", False),
        ("1234567890123456", False),
        ("11-CALL-ME", False),
    ],
)
def test_phone_digits(phone: str, ok: bool) -> None:
    problems = validate(EnrollForm(email="a@example.com", phone=phone), today=TODAY)
    assert (FormField.PHONE not in problems) is ok


def test_names_too_long() -> None:
    problems = validate(EnrollForm(email="a@example.com", last_name="x" * 101), today=TODAY)
    assert problems == {FormField.LAST_NAME: FieldProblem.TOO_LONG}


def test_body_of_a_valid_form_is_normalized() -> None:
    form = EnrollForm(
        email=" Ana.Lopez@Example.com ",
        document_number="04.412.398",
        first_name="  Ana  María ",
        last_name="López",
        phone=" 11 4321 5678 ",
        birthday="30/01/2002",
        gender=Gender.OTHER,
    )
    draft = to_new_client(form, branch_id=7)
    assert draft == NewClient(
        first_name="Ana María",
        last_name="López",
        email="ana.lopez@example.com",
        document_number="4412398",
        document_type="DNI",
        phone="11 4321 5678",
        birthday=date(2002, 1, 30),
        gender=Gender.OTHER,
        branch_id=7,
    )
    body = draft.to_json()
    assert body["birthday"] == "2002-01-30T00:00:00.000Z"
    assert body["gender"] == 2
    assert body["branchId"] == 7
    passport = to_new_client(
        EnrollForm(document_type=DocumentType.PASSPORT, document_number="fz 482913"), branch_id=None
    )
    assert (passport.document_number, passport.document_type) == ("FZ482913", "PASSPORT")
    assert passport.email is None


def test_form_from_a_barcode_prefill() -> None:
    prefill = Prefill(
        document_number="44123987",
        document_type=DocumentType.DNI,
        first_name="Ana",
        last_name="Lopez",
        gender=Gender.OTHER,
        birthday=date(2002, 1, 30),
    )
    form = form_from_prefill(prefill)
    assert form == EnrollForm(
        document_number="44123987",
        first_name="Ana",
        last_name="Lopez",
        birthday="30/01/2002",
        gender=Gender.OTHER,
    )
    assert form_from_prefill(prefill, day_first=False).birthday == "01/30/2002"
    assert validate(form, today=TODAY) == {}


# -- the API's answers ------------------------------------------------------------------


def test_field_errors_map_to_the_form_and_unknown_ones_are_kept() -> None:
    errors = (
        FieldError("email", {"isEmail": "email must be an email"}),
        FieldError("documentNumber", {"matches": "a DNI must have 6 to 8 digits"}),
        FieldError("birthday", {"minAge": "at least 18 years"}),
        FieldError("firstName", {"maxLength": "too long"}),
        FieldError("phone", {"somethingNew": "?"}),
        FieldError("affiliateCard", {"isNotEmpty": "should not be empty"}),
        FieldError("tagIds", {"isInt": "?"}),
        FieldError("affiliateCard", {"maxLength": "?"}),
    )
    mapped = map_field_errors(errors)
    assert mapped.by_field == {
        FormField.EMAIL: FieldProblem.EMAIL_FORMAT,
        FormField.DOCUMENT_NUMBER: FieldProblem.DOCUMENT_FORMAT,
        FormField.BIRTHDAY: FieldProblem.BIRTHDAY_MIN_AGE,
        FormField.FIRST_NAME: FieldProblem.TOO_LONG,
        FormField.PHONE: FieldProblem.INVALID,
    }
    assert mapped.unknown == ("affiliateCard", "tagIds")


def test_existing_lookups_follow_the_reason() -> None:
    draft = NewClient(email="a@example.com", document_number="30123456")
    assert enroll.existing_lookups(Reason.EMAIL_TAKEN, draft) == ("a@example.com",)
    assert enroll.existing_lookups(Reason.DOCUMENT_TAKEN, draft) == ("30123456",)
    assert enroll.existing_lookups(Reason.CLIENT_EXISTS, draft) == ("a@example.com", "30123456")
    only_doc = NewClient(document_number="30123456")
    assert enroll.existing_lookups(Reason.CLIENT_EXISTS, only_doc) == ("30123456",)


@pytest.fixture
def world(sim_world: World) -> World:
    return sim_world


def test_enroll_creates_the_client_with_the_branch(world: World) -> None:
    branch = first_branch(world)
    form = EnrollForm(
        document_number="44123987",
        first_name="Ana",
        last_name="López",
        birthday="30/01/2002",
        gender=Gender.OTHER,
        email="ana.lopez@example.org",
    )

    async def scenario(api: LoyaltyClient) -> enroll.EnrollResult:
        return await enroll.enroll(api, form, branch_id=branch, today=date.today())

    result = run_api(world, scenario)
    assert result.outcome is EnrollOutcome.CREATED
    client = result.client
    assert client is not None
    record = world.merchants[1].tables["clients"][client.id]
    assert record["document_number"] == "44123987"
    assert record["email"] == "ana.lopez@example.org"
    assert record["_branch_id"] == branch
    assert record["gender"] == 2
    # Read again by exact search: a new client has not registered and gets the link.
    assert client.registered is False
    assert client.register_url is not None
    assert client.level is None or client.level.name  # assigned later by the service


def test_invalid_form_sends_nothing(world: World) -> None:
    before = len(world.request_log)

    async def scenario(api: LoyaltyClient) -> enroll.EnrollResult:
        form = EnrollForm(document_number="123", birthday="01/01/2999")
        return await enroll.enroll(api, form, branch_id=None, today=TODAY)

    result = run_api(world, scenario)
    assert result.outcome is EnrollOutcome.INVALID
    assert result.problems == {
        FormField.DOCUMENT_NUMBER: FieldProblem.DNI_DIGITS,
        FormField.BIRTHDAY: FieldProblem.BIRTHDAY_FUTURE,
    }
    assert len(world.request_log) == before


def test_api_validation_errors_come_back_by_field(world: World) -> None:
    world.merchants[1].rules.minimum_age_years = 18
    # 10 years old: the form cannot know the merchant's minimum age; the API refuses.
    born = date.today().replace(year=date.today().year - 10)
    form = EnrollForm(email="kid@example.org", birthday=born.strftime("%d/%m/%Y"))

    async def scenario(api: LoyaltyClient) -> enroll.EnrollResult:
        return await enroll.enroll(api, form, branch_id=None, today=date.today())

    result = run_api(world, scenario)
    assert result.outcome is EnrollOutcome.REJECTED
    assert result.problems == {FormField.BIRTHDAY: FieldProblem.BIRTHDAY_MIN_AGE}
    assert not any(c.get("email") == "kid@example.org" for c in main_clients(world))


@pytest.mark.parametrize("field", ["email", "document"])
def test_already_registered_gives_the_lookups_of_the_holder(world: World, field: str) -> None:
    perez = next(c for c in main_clients(world) if c["document_number"] == "30123456")
    form = (
        EnrollForm(email=perez["email"].upper())
        if field == "email"
        else EnrollForm(document_number="30.123.456")
    )

    async def scenario(api: LoyaltyClient) -> tuple[enroll.EnrollResult, int]:
        result = await enroll.enroll(api, form, branch_id=None, today=TODAY)
        from kiosk.core.counter.identify import find_first

        holder = await find_first(api, result.existing)
        return result, holder.id

    result, holder = run_api(world, scenario)
    assert result.outcome is EnrollOutcome.ALREADY_REGISTERED
    assert result.reason is Reason.CLIENT_EXISTS
    assert holder == perez["id"]
