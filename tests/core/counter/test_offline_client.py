"""The unverified client accepted offline: typed twice (must match, as the search reads
it), a DNI barcode scanned once, what the record holds, and which failures count as
"cannot check" or "no connection"."""

from __future__ import annotations

import pytest

from kiosk.api.errors import AmbiguousOutcome, ApiError, ErrorKind
from kiosk.api.models.clients import Client
from kiosk.core.counter.offline_client import (
    UNVERIFIED,
    EntryProblem,
    cannot_check,
    confirm_typed,
    from_scan,
    is_unverified,
    no_connection,
    unverified_client,
)
from kiosk.core.counter.scan import ScanProblem, parse_identity

NEW_PEREZ = "00512345678@PEREZ@JUAN CARLOS@M@30123456@B@15/03/1985@20/06/2015@239"
US_PEREZ = '00512345678"PEREZ"JUAN CARLOS"M"30123456"B"15/03/1985"20/06/2015"239'


def test_an_email_typed_twice_the_same_way_makes_an_unverified_client() -> None:
    entry = confirm_typed("Ana.Gomez@Example.com ", "ana.gomez@example.com")
    assert entry.ok
    assert entry.problem is None
    assert not entry.scanned
    client = entry.client
    assert client is not None
    assert client.email == "ana.gomez@example.com"
    assert client.document_number is None
    assert client.id == 0
    assert client.balance == 0
    assert client.status == UNVERIFIED
    assert is_unverified(client)
    assert not client.is_suspended


def test_a_document_typed_twice_compares_as_the_search_reads_it() -> None:
    entry = confirm_typed("30.123.456", "30123456")
    assert entry.client is not None
    assert entry.client.document_number == "30123456"
    assert entry.client.document_type == "DNI"
    assert entry.client.email is None
    passport = confirm_typed("aab123456", "AAB123456")
    assert passport.client is not None
    assert passport.client.document_type == "PASSPORT"


@pytest.mark.parametrize(
    ("first", "second", "problem"),
    [
        ("", "", EntryProblem.EMPTY),
        ("   ", "30123456", EntryProblem.EMPTY),
        ("30123456", "", EntryProblem.CONFIRM_EMPTY),
        ("30123456", "30123465", EntryProblem.MISMATCH),
        ("ana@example.com", "ana@example.co", EntryProblem.MISMATCH),
        ("30123456", "ana@example.com", EntryProblem.MISMATCH),
        ("ana@example", "ana@example", EntryProblem.NOT_VALID),
        ("12345", "12345", EntryProblem.NOT_VALID),
        ("Juan Perez", "Juan Perez", EntryProblem.NOT_VALID),
    ],
)
def test_entries_that_are_refused(first: str, second: str, problem: EntryProblem) -> None:
    entry = confirm_typed(first, second)
    assert not entry.ok
    assert entry.client is None
    assert entry.problem is problem


def test_a_refused_format_says_which_problem_the_scanner_module_saw() -> None:
    assert confirm_typed("ana@example", "ana@example").scan_problem is ScanProblem.INVALID_EMAIL
    assert confirm_typed("12345", "12345").scan_problem is ScanProblem.DOCUMENT_LENGTH


@pytest.mark.parametrize("barcode", [NEW_PEREZ, US_PEREZ])
def test_one_scanned_dni_barcode_suffices(barcode: str) -> None:
    for entry in (from_scan(barcode), confirm_typed(barcode, ""), confirm_typed("", barcode)):
        assert entry.ok
        assert entry.scanned
        client = entry.client
        assert client is not None
        assert client.document_number == "30123456"
        assert client.document_type == "DNI"
        assert (client.first_name, client.last_name) == ("Juan Carlos", "Perez")
        assert is_unverified(client)


def test_a_scan_that_is_not_a_dni_barcode_is_refused() -> None:
    entry = from_scan("30123456")
    assert not entry.ok
    assert entry.scanned
    assert entry.problem is EntryProblem.NOT_VALID
    broken = from_scan("00512345678@PEREZ@@@@@@")
    assert broken.scan_problem is ScanProblem.BARCODE_UNREADABLE


def test_unverified_client_needs_a_valid_identity() -> None:
    with pytest.raises(ValueError, match="email or a document"):
        unverified_client(parse_identity("nonsense"))


def test_a_real_client_is_never_unverified() -> None:
    assert not is_unverified(None)
    assert not is_unverified(Client(id=12, balance=30, status="ACTIVE"))
    assert not is_unverified(Client(id=12, balance=0, status=UNVERIFIED))
    assert not is_unverified(Client(id=0, balance=0, status="ACTIVE"))


def test_which_failures_mean_the_client_cannot_be_checked() -> None:
    for kind in (ErrorKind.NETWORK, ErrorKind.TIMEOUT, ErrorKind.UNAVAILABLE, ErrorKind.SERVER):
        assert cannot_check(ApiError(kind))
    for kind in (ErrorKind.NOT_FOUND, ErrorKind.AUTH, ErrorKind.TLS, ErrorKind.VALIDATION):
        assert not cannot_check(ApiError(kind))
    assert not cannot_check(ValueError("not an API error"))


def test_no_connection_is_only_a_failure_that_cannot_have_been_applied() -> None:
    assert no_connection(ApiError(ErrorKind.NETWORK))
    assert no_connection(ApiError(ErrorKind.TIMEOUT))
    assert not no_connection(ApiError(ErrorKind.UNAVAILABLE))
    assert not no_connection(ApiError(ErrorKind.SERVER))
    assert not no_connection(AmbiguousOutcome(operation="exchange", cause=ErrorKind.NETWORK))
