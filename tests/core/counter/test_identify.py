"""Identify: classification of what the field received, exact then partial search,
and the enrollment prefill, against the simulator in process."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable, Coroutine
from datetime import date
from typing import Any, TypeVar

import pytest

from kiosk.api.client import LoyaltyClient
from kiosk.api.errors import ApiError, ErrorKind
from kiosk.api.models.clients import Client, Gender
from kiosk.api.retry import RetryPolicy
from kiosk.core.counter import identify
from kiosk.core.counter.identify import Prefill, SearchOutcome
from kiosk.core.counter.scan import DocumentType, IdentityKind, ScanProblem
from kiosk.sim import create_app
from kiosk.sim.control import SimControl
from kiosk.sim.transport import SimTransport
from kiosk.sim.world import World
from tests.conftest import MAIN_KEY

T = TypeVar("T")

NEW_CARDS = [
    "00512345678@PEREZ@JUAN CARLOS@M@30123456@B@15/03/1985@20/06/2015@239",
    "00623456789@GONZALEZ FERNANDEZ@MARIA JOSE@F@27456789@A@02/11/1979@04/08/2019@200",
    "00734567890@LOPEZ@ANA@X@44123987@A@30/01/2002@11/09/2021@254",
]
OLD_CARD = (
    "@20111222    @A@1@RODRIGUEZ@PABLO MARTIN@ARGENTINA@09/07/1968@M@12/05/2011@00087654321"
    "@7045 @12/05/2026@421@0@ILR:2.01 C:110613.02 (No Cap.)@UNIDAD #10 || S/N: 0040>2008>>0008"
)
US_LAYOUT = '00512345678"PEREZ"JUAN CARLOS"M"30123456"B"15/03/1985"20/06/2015"239'

# sample -> document, first names, last names, gender, birth date
SAMPLES = {
    NEW_CARDS[0]: ("30123456", "Juan Carlos", "Perez", Gender.MALE, date(1985, 3, 15)),
    NEW_CARDS[1]: (
        "27456789",
        "Maria Jose",
        "Gonzalez Fernandez",
        Gender.FEMALE,
        date(1979, 11, 2),
    ),
    NEW_CARDS[2]: ("44123987", "Ana", "Lopez", Gender.OTHER, date(2002, 1, 30)),
    OLD_CARD: ("20111222", "Pablo Martin", "Rodriguez", Gender.MALE, date(1968, 7, 9)),
    US_LAYOUT: ("30123456", "Juan Carlos", "Perez", Gender.MALE, date(1985, 3, 15)),
}


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def clients(world: World) -> list[dict[str, Any]]:
    return list(world.merchants[1].tables["clients"].values())


def by_document(world: World, document: str) -> dict[str, Any]:
    return next(c for c in clients(world) if c.get("document_number") == document)


async def with_api(
    world: World, scenario: Callable[[LoyaltyClient], Awaitable[T]], **options: Any
) -> T:
    api = LoyaltyClient(
        f"http://sim-{uuid.uuid4().hex[:8]}.test",
        MAIN_KEY,
        transport=SimTransport(create_app(world, controls=True)),
        **options,
    )
    try:
        return await scenario(api)
    finally:
        await api.aclose()


# -- classification ---------------------------------------------------------------------


@pytest.mark.parametrize("sample", list(SAMPLES))
@pytest.mark.parametrize("suffix", ["", "\r", "\t", " ", "\r\n"])
def test_every_dni_sample_gives_the_document_and_an_enrollment_prefill(
    sample: str, suffix: str
) -> None:
    identity = identify.classify(" " + sample + suffix if suffix == " " else sample + suffix)
    document, first, last, gender, born = SAMPLES[sample]
    assert identity.kind is IdentityKind.DNI_BARCODE
    assert identity.query == document
    prefill = identify.prefill_from(identity)
    assert prefill == Prefill(
        document_number=document,
        document_type=DocumentType.DNI,
        first_name=first,
        last_name=last,
        gender=gender,
        birthday=born,
    )
    assert identify.partial_query(identity) == document


def test_garbled_barcodes_still_give_the_document() -> None:
    # Dates typed with '-' by a wrong layout, an Ñ garbled to ';', a broken name field.
    variants = {
        NEW_CARDS[0].replace("/", "-"): "30123456",
        NEW_CARDS[2].replace("LOPEZ", "LO;EZ"): "44123987",
        US_LAYOUT.replace("JUAN CARLOS", 'JUAN"CARLOS'): "30123456",
        OLD_CARD.replace("@", '"'): "20111222",
    }
    for text, document in variants.items():
        identity = identify.classify(text)
        assert identity.kind is IdentityKind.DNI_BARCODE, text
        assert identity.query == document
        assert identify.prefill_from(identity).document_number == document


def test_damaged_barcode_is_invalid_and_asks_for_a_new_scan() -> None:
    identity = identify.classify("00512345678@PEREZ@JUAN@M@XX@B@??@20/06/2015@239")
    assert identity.kind is IdentityKind.UNKNOWN
    assert identity.problem is ScanProblem.BARCODE_UNREADABLE
    assert identify.prefill_from(identity).is_empty


@pytest.mark.parametrize(
    ("text", "kind", "query", "document_type"),
    [
        ("Juan.Perez@Example.com", IdentityKind.EMAIL, "juan.perez@example.com", None),
        ('juan.perez"example.com', IdentityKind.EMAIL, "juan.perez@example.com", None),
        ("30.123.456", IdentityKind.DOCUMENT, "30123456", DocumentType.DNI),
        (" 30123456\t", IdentityKind.DOCUMENT, "30123456", DocumentType.DNI),
        ("fz482913", IdentityKind.DOCUMENT, "FZ482913", DocumentType.PASSPORT),
        ("20-30123456-3", IdentityKind.DOCUMENT, "30123456", DocumentType.DNI),  # a CUIL
    ],
)
def test_typed_email_and_documents(
    text: str, kind: IdentityKind, query: str, document_type: DocumentType | None
) -> None:
    identity = identify.classify(text)
    assert (identity.kind, identity.query, identity.document_type) == (kind, query, document_type)
    prefill = identify.prefill_from(identity)
    if kind is IdentityKind.EMAIL:
        assert prefill == Prefill(email=query)
    else:
        assert prefill == Prefill(document_number=query, document_type=document_type)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", ScanProblem.EMPTY),
        ("   ", ScanProblem.EMPTY),
        ("ana@", ScanProblem.INVALID_EMAIL),
        ("123", ScanProblem.DOCUMENT_LENGTH),
        ("Pérez", ScanProblem.NOT_RECOGNIZED),
        ("x" * 600, ScanProblem.TOO_LONG),
    ],
)
def test_invalid_input_is_not_searched(world: World, text: str, problem: ScanProblem) -> None:
    identity = identify.classify(text)
    assert identity.problem is problem
    before = len(world.request_log)

    async def scenario(api: LoyaltyClient) -> identify.SearchResult:
        return await identify.search(api, identity)

    result = run(with_api(world, scenario))
    assert result.outcome is SearchOutcome.INVALID
    assert result.client is None
    assert result.matches == ()
    assert len(world.request_log) == before  # no request at all


def test_partial_query_of_an_email_is_its_local_part() -> None:
    assert identify.partial_query(identify.classify("juan.perez@gmial.com")) == "juan.perez"
    assert identify.partial_query(identify.classify("jp@gmial.com")) == "jp@gmial.com"
    assert identify.partial_query(identify.classify("3012345")) == "3012345"
    assert identify.partial_query(identify.classify("")) is None


# -- against the simulator --------------------------------------------------------------


@pytest.fixture
def world(sim_world: World) -> World:
    return sim_world


def test_exact_search_by_document_and_by_email(world: World) -> None:
    perez = by_document(world, "30123456")

    async def scenario(api: LoyaltyClient) -> tuple[identify.SearchResult, identify.SearchResult]:
        by_doc = await identify.search(api, identify.classify(NEW_CARDS[0]))
        by_mail = await identify.search(api, identify.classify(perez["email"].upper()))
        return by_doc, by_mail

    by_doc, by_mail = run(with_api(world, scenario))
    for result in (by_doc, by_mail):
        assert result.outcome is SearchOutcome.FOUND
        assert result.client is not None
        assert result.client.id == perez["id"]
        assert result.client.registered is True
        assert result.client.register_url is None
    # A found client still carries the prefill (nothing is done with it).
    assert by_doc.prefill.first_name == "Juan Carlos"


def test_unregistered_client_carries_a_registration_link(world: World) -> None:
    camila = by_document(world, "41222333")

    async def scenario(api: LoyaltyClient) -> identify.SearchResult:
        return await identify.search(api, identify.classify("41222333"))

    result = run(with_api(world, scenario))
    assert result.client is not None
    assert result.client.id == camila["id"]
    assert identify.needs_registration(result.client)
    assert result.client.register_url is not None
    assert result.client.register_url.reveal().startswith("http")
    assert result.client.register_url.reveal() not in repr(result.client)


def test_near_miss_lists_partial_matches(world: World) -> None:
    perez = by_document(world, "30123456")
    local = perez["email"].partition("@")[0]

    async def scenario(api: LoyaltyClient) -> tuple[identify.SearchResult, identify.SearchResult]:
        typo = await identify.search(api, identify.classify(f"{local}@gmial.com"))
        short = await identify.search(api, identify.classify("3012345"))
        return typo, short

    typo, short = run(with_api(world, scenario))
    assert typo.outcome is SearchOutcome.CHOOSE
    assert [c.id for c in typo.matches] == [perez["id"]]
    assert typo.prefill == Prefill(email=f"{local}@gmial.com")
    assert short.outcome is SearchOutcome.CHOOSE
    assert perez["id"] in [c.id for c in short.matches]
    assert all(
        "3012345" in (c.document_number or "")
        or "3012345" in (c.phone or "").replace(" ", "")
        or "3012345" in (c.email or "")
        for c in short.matches
    )


def test_partial_list_is_capped_and_says_there_are_more(world: World) -> None:
    async def scenario(api: LoyaltyClient) -> identify.SearchResult:
        # "example" is in every seeded email: no exact match, many partial ones.
        return await identify.search(api, identify.classify("example@nowhere.test"), limit=3)

    result = run(with_api(world, scenario))
    assert result.outcome is SearchOutcome.CHOOSE
    assert len(result.matches) == 3
    assert result.more_matches


def test_nobody_matches(world: World) -> None:
    async def scenario(api: LoyaltyClient) -> identify.SearchResult:
        return await identify.search(api, identify.classify(OLD_CARD))

    result = run(with_api(world, scenario))
    assert result.outcome is SearchOutcome.NOT_FOUND
    assert result.matches == ()
    assert result.prefill.last_name == "Rodriguez"
    assert result.prefill.document_number == "20111222"


def test_reread_and_find_first(world: World) -> None:
    camila = by_document(world, "41222333")

    async def scenario(api: LoyaltyClient) -> tuple[Client, Client]:
        page = await api.list_clients(query="41222333")
        row = page.items[0]
        assert row.registered is None  # the list does not say
        fresh = await identify.reread(api, row)
        first = await identify.find_first(api, ("nobody@nowhere.test", "41222333"))
        return fresh, first

    fresh, first = run(with_api(world, scenario))
    assert fresh.id == first.id == camila["id"]
    assert fresh.registered is False
    assert identify.needs_registration(fresh)


def test_find_first_raises_not_found_when_none_matches(world: World) -> None:
    async def scenario(api: LoyaltyClient) -> Client:
        return await identify.find_first(api, ("nobody@nowhere.test", "99887766"))

    with pytest.raises(ApiError) as caught:
        run(with_api(world, scenario))
    assert caught.value.kind is ErrorKind.NOT_FOUND


def test_server_failure_is_not_taken_for_not_found(
    world: World, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"retry")
    SimControl(world).add_fault("status", r"/external/clients/search", status=500, count=10)
    calls: list[str] = []

    async def counting(make: Callable[[], Awaitable[T]]) -> T:
        calls.append("call")
        return await make()

    async def scenario(api: LoyaltyClient) -> identify.SearchResult:
        return await identify.search(api, identify.classify("30123456"), call=counting)

    with pytest.raises(ApiError) as caught:
        run(with_api(world, scenario, retry=RetryPolicy(delays=(0.0, 0.0))))
    assert caught.value.kind is ErrorKind.SERVER
    assert calls == ["call"]  # no partial search after a failure


def test_display_helpers_mask_contact_data(world: World) -> None:
    perez = by_document(world, "30123456")

    async def scenario(api: LoyaltyClient) -> Client:
        return await api.search_client("30123456")

    client = run(with_api(world, scenario))
    contact = identify.masked_contact(client)
    assert perez["email"] not in contact
    assert "30123456" not in contact
    assert contact.endswith("DNI ****3456")
    assert identify.display_name(client) == "Juan Carlos Pérez"
    assert identify.lookup_of(client) == perez["email"]
