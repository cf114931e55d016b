"""External ids (idempotency keys of credits), extra_data and the kiosk id."""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from kiosk.core.counter.tickets import (
    MAX_EXTERNAL_ID_LENGTH,
    MAX_TICKET_LENGTH,
    ORIGIN,
    TicketError,
    credit_external_id,
    extra_data,
    kiosk_external_id,
    load_kiosk_id,
    normalize_ticket,
    ticket_external_id,
)
from kiosk.core.outbox.external_ids import ExternalIdKind, external_id_kind

DAY = date(2026, 11, 22)
KIOSK = "1a2b3c4d"


@pytest.mark.parametrize(
    "typed",
    [
        "0003-00012345",
        " 0003-00012345 ",
        "0003 00012345",
        "0003/00012345",
        "0003.00012345",
        "0003 - 00012345",
        "0003--00012345\t",
        "-0003_00012345-",
    ],
)
def test_spellings_of_one_ticket_are_one_ticket(typed: str) -> None:
    assert normalize_ticket(typed) == "0003-00012345"
    assert ticket_external_id(12, DAY, typed) == "b12-20261122-T0003-00012345"


def test_ticket_is_upper_cased() -> None:
    assert normalize_ticket(" t000123 ") == "T000123"
    assert normalize_ticket("a-12") == "A-12"


@pytest.mark.parametrize("typed", [None, "", "   ", "--", " / "])
def test_no_ticket(typed: str | None) -> None:
    assert normalize_ticket(typed) is None


@pytest.mark.parametrize("typed", ["Ñ123", "12;3", "12,3", "T€1", "12'3"])
def test_tickets_with_other_characters_are_refused_not_stripped(typed: str) -> None:
    with pytest.raises(TicketError, match="only letters, digits"):
        normalize_ticket(typed)


def test_ticket_length_limit() -> None:
    assert normalize_ticket("9" * MAX_TICKET_LENGTH) == "9" * MAX_TICKET_LENGTH
    with pytest.raises(TicketError, match="longer than"):
        normalize_ticket("9" * (MAX_TICKET_LENGTH + 1))
    with pytest.raises(TicketError, match="empty"):
        ticket_external_id(1, DAY, "  ")


def test_ticket_external_id_example_and_determinism() -> None:
    assert ticket_external_id(12, DAY, "000123") == "b12-20261122-T000123"
    assert ticket_external_id(12, DAY, "000123") == ticket_external_id(12, DAY, " 000123 ")
    others = {
        ticket_external_id(13, DAY, "000123"),
        ticket_external_id(12, date(2026, 11, 23), "000123"),
        ticket_external_id(12, DAY, "000124"),
        ticket_external_id(12, DAY, "000123"),
    }
    assert len(others) == 4  # branch, date and ticket each matter


def test_kiosk_external_id() -> None:
    made = kiosk_external_id(12, DAY, KIOSK, token=lambda: "0123456789ab")
    assert made == "b12-20261122-k1a2b3c4d-0123456789ab"
    randoms = {kiosk_external_id(12, DAY, KIOSK) for _ in range(200)}
    assert len(randoms) == 200
    for external_id in randoms:
        assert re.fullmatch(r"b12-20261122-k1a2b3c4d-[0-9a-f]{12}", external_id)
        assert external_id_kind(external_id) is ExternalIdKind.KIOSK


@pytest.mark.parametrize("kiosk_id", ["", "1A2B3C4D", "1a2b3c4", "1a2b3c4d5", "zzzzzzzz"])
def test_bad_kiosk_ids(kiosk_id: str) -> None:
    with pytest.raises(ValueError, match="kiosk id"):
        kiosk_external_id(12, DAY, kiosk_id)
    with pytest.raises(ValueError, match="kiosk id"):
        extra_data(kiosk_id)


def test_bad_token_and_branch() -> None:
    with pytest.raises(ValueError, match="token"):
        kiosk_external_id(12, DAY, KIOSK, token=lambda: "ABC/123")
    with pytest.raises(ValueError, match="negative"):
        ticket_external_id(-1, DAY, "1")


def test_credit_external_id_picks_the_family() -> None:
    with_ticket = credit_external_id(12, DAY, "T-77", KIOSK)
    assert with_ticket == "b12-20261122-TT-77"
    assert external_id_kind(with_ticket) is ExternalIdKind.TICKET
    without = credit_external_id(12, DAY, "  ", KIOSK, token=lambda: "abcdef123456")
    assert without == "b12-20261122-k1a2b3c4d-abcdef123456"
    assert external_id_kind(without) is ExternalIdKind.KIOSK
    assert credit_external_id(None, DAY, None, KIOSK, token=lambda: "abcdef").startswith("b0-")


@pytest.mark.parametrize("other", ["INV-0001", "b12-20261122", "B12-20261122-T1", ""])
def test_foreign_external_ids(other: str) -> None:
    assert external_id_kind(other) is ExternalIdKind.OTHER


def test_ticket_ids_never_look_like_kiosk_ids() -> None:
    """A ticket typed as K1A2B3C4D-... stays a ticket: the families cannot collide."""
    sneaky = credit_external_id(12, DAY, "K1A2B3C4D-0123456789AB", KIOSK)
    assert external_id_kind(sneaky) is ExternalIdKind.TICKET
    made = kiosk_external_id(12, DAY, KIOSK, token=lambda: "0123456789ab")
    assert sneaky.lower() != made


def test_longest_ids_fit() -> None:
    biggest = 2**31 - 1
    longest = ticket_external_id(biggest, DAY, "9" * MAX_TICKET_LENGTH)
    assert len(longest) <= MAX_EXTERNAL_ID_LENGTH
    assert len(kiosk_external_id(biggest, DAY, KIOSK)) <= MAX_EXTERNAL_ID_LENGTH
    with pytest.raises(ValueError, match="longer than"):
        ticket_external_id(10**40, DAY, "9" * MAX_TICKET_LENGTH)


def test_origin_is_the_contract_value_for_an_own_system() -> None:
    assert ORIGIN == "external-integration"


def test_extra_data_is_a_json_array_of_one_object() -> None:
    encoded = extra_data(KIOSK, app_version="0.1.0", ticket=" 0003 00012345 ", mode="amount")
    assert isinstance(encoded, str)
    assert json.loads(encoded) == [
        {
            "source": "loyalty-kiosk",
            "kiosk_id": KIOSK,
            "app_version": "0.1.0",
            "ticket": "0003-00012345",
            "mode": "amount",
        }
    ]
    assert encoded == extra_data(KIOSK, app_version="0.1.0", ticket="0003-00012345", mode="amount")
    assert json.loads(extra_data(KIOSK)) == [{"source": "loyalty-kiosk", "kiosk_id": KIOSK}]


def test_kiosk_id_is_created_once_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "data" / "kiosk-id"
    first = load_kiosk_id(path)
    assert re.fullmatch(r"[0-9a-f]{8}", first)
    assert load_kiosk_id(path) == first
    assert path.read_text().strip() == first
    assert [p.name for p in path.parent.iterdir()] == ["kiosk-id"]  # no temp file left


def test_two_installations_get_different_ids(tmp_path: Path) -> None:
    ids = {load_kiosk_id(tmp_path / str(n) / "kiosk-id") for n in range(50)}
    assert len(ids) == 50


def test_damaged_kiosk_id_is_replaced(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"kiosk id file .* is damaged")
    path = tmp_path / "kiosk-id"
    path.write_bytes(b"\xff\xfe garbage")
    with caplog.at_level(logging.WARNING, logger="kiosk.core.counter.tickets"):
        fresh = load_kiosk_id(path)
    assert re.fullmatch(r"[0-9a-f]{8}", fresh)
    assert "damaged" in caplog.text
    assert load_kiosk_id(path) == fresh


def test_racing_starts_agree_on_one_id(tmp_path: Path) -> None:
    path = tmp_path / "kiosk-id"
    barrier = threading.Barrier(8)
    results: list[str] = []

    def start() -> None:
        barrier.wait()
        results.append(load_kiosk_id(path))

    threads = [threading.Thread(target=start) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 8
    assert len(set(results)) == 1
