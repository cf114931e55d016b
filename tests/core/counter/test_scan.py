"""The identify field: emails, documents, DNI barcodes (both cards, garbled), scanner rhythm."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date

import pytest

from kiosk.core.counter.scan import (
    Burst,
    CardFormat,
    DocumentType,
    IdentityKind,
    InputSource,
    ScanProblem,
    Sex,
    WedgeDetector,
    clean_name,
    parse_dni_barcode,
    parse_identity,
    scanned_client,
)

# The samples of ../shared/data/dni-barcodes.md, verbatim.
NEW_CARDS = [
    "00512345678@PEREZ@JUAN CARLOS@M@30123456@B@15/03/1985@20/06/2015@239",
    "00623456789@GONZALEZ FERNANDEZ@MARIA JOSE@F@27456789@A@02/11/1979@04/08/2019@200",
    "00734567890@LOPEZ@ANA@X@44123987@A@30/01/2002@11/09/2021@254",
]
OLD_CARD = (
    "@20111222    @A@1@RODRIGUEZ@PABLO MARTIN@ARGENTINA@09/07/1968@M@12/05/2011@00087654321"
    "@7045 @12/05/2026@421@0@ILR:2.01 C:110613.02 (No Cap.)@UNIDAD #10 || S/N: 0040>2008>>0008"
)
US_LAYOUT_SAMPLE = '00512345678"PEREZ"JUAN CARLOS"M"30123456"B"15/03/1985"20/06/2015"239'

EXPECTED = {
    NEW_CARDS[0]: ("30123456", "Perez", "Juan Carlos", Sex.MALE, date(1985, 3, 15)),
    NEW_CARDS[1]: ("27456789", "Gonzalez Fernandez", "Maria Jose", Sex.FEMALE, date(1979, 11, 2)),
    NEW_CARDS[2]: ("44123987", "Lopez", "Ana", Sex.OTHER, date(2002, 1, 30)),
    OLD_CARD: ("20111222", "Rodriguez", "Pablo Martin", Sex.MALE, date(1968, 7, 9)),
}


def garbled(text: str, rng: random.Random) -> str:
    """``text`` as a misconfigured scanner might type it: separator, dates, suffixes."""
    if rng.random() < 0.5:
        text = text.replace("@", '"')
    if rng.random() < 0.4:
        text = text.replace("/", rng.choice("-&"))
    prefix = rng.choice(["", " ", "\t"])
    suffix = rng.choice(["", "\r", "\n", "\r\n", "\t", " ", " \t", "  \r\n"])
    return prefix + text + suffix


@pytest.mark.parametrize("sample", list(EXPECTED))
def test_samples(sample: str) -> None:
    identity = parse_identity(sample + "\r")
    number, last, first, sex, birth = EXPECTED[sample]
    assert identity.kind is IdentityKind.DNI_BARCODE
    assert identity.is_valid
    assert identity.query == number
    assert identity.document_type is DocumentType.DNI
    card = identity.barcode
    assert card is not None
    assert (card.document_number, card.last_names, card.first_names) == (number, last, first)
    assert (card.sex, card.birth_date) == (sex, birth)
    assert not card.names_uncertain
    assert card.card is (CardFormat.FROM_2009 if sample.startswith("@") else CardFormat.SINCE_2012)
    assert card.display_name == f"{first} {last}"


def test_us_layout_sample_reads_like_the_original() -> None:
    assert parse_dni_barcode(US_LAYOUT_SAMPLE) == parse_dni_barcode(NEW_CARDS[0])
    assert parse_identity(US_LAYOUT_SAMPLE + "\t").query == "30123456"


def test_garbled_variants_of_the_samples_read_the_same() -> None:
    rng = random.Random(5)
    for sample in EXPECTED:
        clean = parse_dni_barcode(sample)
        for _ in range(200):
            variant = garbled(sample, rng)
            identity = parse_identity(variant)
            assert identity.kind is IdentityKind.DNI_BARCODE, repr(variant)
            assert identity.barcode == clean, repr(variant)


@dataclass
class Person:
    tramite: str
    last: str
    first: str
    sex: str
    number: str
    birth: date

    def new_card(self) -> str:
        born = f"{self.birth:%d/%m/%Y}"
        return f"{self.tramite}@{self.last}@{self.first}@{self.sex}@{self.number}@A@{born}@01/02/2020@123"

    def old_card(self) -> str:
        born = f"{self.birth:%d/%m/%Y}"
        return (
            f"@{self.number:<12}@A@1@{self.last}@{self.first}@ARGENTINA@{born}@{self.sex}"
            f"@12/05/2011@{self.tramite}@7045 @12/05/2026@421@0@ILR:2.01@UNIDAD #10"
        )


LASTS = ["PEREZ", "MUÑOZ", "GONZALEZ FERNANDEZ", "DE LA TORRE", "O'CONNOR", "PEÑA", "IBAÑEZ"]
FIRSTS = ["JUAN", "MARIA JOSE", "ANA", "NUÑO", "JOSE MARIA DE LOS ANGELES", "PABLO MARTIN"]


def random_person(rng: random.Random) -> Person:
    return Person(
        tramite=f"{rng.randint(0, 10**11 - 1):011d}",
        last=rng.choice(LASTS),
        first=rng.choice(FIRSTS),
        sex=rng.choice("MFX"),
        number=str(rng.randint(1_000_000, 99_999_999)),
        birth=date(rng.randint(1930, 2010), rng.randint(1, 12), rng.randint(1, 28)),
    )


def test_generated_people_in_both_cards_and_garbled() -> None:
    """The document number is always right; names are right unless an Ñ was garbled."""
    rng = random.Random(12)
    for _ in range(500):
        person = random_person(rng)
        text = rng.choice([person.new_card, person.old_card])()
        nye_garble = rng.choice(["", ";", ":", "¥", "§"]) if "Ñ" in text else ""
        if nye_garble:
            text = text.replace("Ñ", nye_garble)
        card = parse_identity(garbled(text, rng)).barcode
        assert card is not None, text
        assert card.document_number == person.number
        assert card.sex == Sex(person.sex)
        assert card.birth_date == person.birth
        repaired = nye_garble in ";:¥" and nye_garble != ""
        if not nye_garble or repaired:
            assert card.last_names.upper() == person.last
            assert card.first_names.upper() == person.first
        assert card.names_uncertain == bool(nye_garble)


def test_name_split_by_a_garbled_separator_keeps_the_document() -> None:
    text = '00512345678"MU"OZ"JUAN"M"30123456"B"15/03/1985"20/06/2015"239'
    card = parse_dni_barcode(text)
    assert card is not None
    assert card.document_number == "30123456"
    assert card.names_uncertain
    assert card.birth_date == date(1985, 3, 15)


def test_damaged_fields_still_give_the_document() -> None:
    text = "00512345678@PEREZ@JUAN@?@30123456@#@1503?1985@20/06/2015@239"
    card = parse_dni_barcode(text)
    assert card is not None
    assert card.document_number == "30123456"
    assert (card.sex, card.birth_date, card.names_uncertain) == (None, None, True)
    old = "@20111222    @A@1@RODRIGUEZ@PABLO@ARGENTINA@09?07?1968@?@12/05/2011@1@2@3"
    card = parse_dni_barcode(old)
    assert card is not None
    assert card.document_number == "20111222"


@pytest.mark.parametrize(
    "text",
    [
        "@@@@@@@@",
        "00512345678@PEREZ@JUAN@M@3012345X@B@15/03/1985@20/06/2015@239",
        "@ABC    @A@1@RODRIGUEZ@PABLO@ARGENTINA@09/07/1968@M@12/05/2011",
        "00512345678@PEREZ@JUAN@M@12@B@15/03/1985@20/06/2015@239",
    ],
)
def test_unreadable_barcodes(text: str) -> None:
    identity = parse_identity(text)
    assert identity.kind is IdentityKind.UNKNOWN
    assert identity.problem is ScanProblem.BARCODE_UNREADABLE
    assert identity.partial_query is None  # never search with a whole barcode


@pytest.mark.parametrize(
    ("raw", "expected", "repaired"),
    [
        ("PEREZ", "Perez", False),
        ("GONZALEZ FERNANDEZ", "Gonzalez Fernandez", False),
        ("MARIA DE LOS ANGELES", "Maria de los Angeles", False),
        ("DE LA TORRE", "De la Torre", False),
        ("O'CONNOR", "O'Connor", False),
        ("PEREZ-GARCIA", "Perez-Garcia", False),
        ("MUÑOZ", "Muñoz", False),
        ("MU;OZ", "Muñoz", True),
        ("MU:OZ", "Muñoz", True),
        ("MU¥OZ", "Muñoz", True),
        ("JOS´E", "Jose", True),
        ("MU§OZ", "Mu?oz", True),
        ("  ANA   MARIA ", "Ana Maria", False),
    ],
)
def test_names_are_title_cased_and_repaired(raw: str, expected: str, repaired: bool) -> None:
    assert clean_name(raw) == (expected, repaired)


@pytest.mark.parametrize(
    ("text", "query"),
    [
        ("ana.perez@gmail.com", "ana.perez@gmail.com"),
        ("  Ana.Perez@Gmail.COM \r\n", "ana.perez@gmail.com"),
        ('ana.perez"gmail.com', "ana.perez@gmail.com"),
        ("juan+promo@mail.example.com.ar\t", "juan+promo@mail.example.com.ar"),
        ("o'neil@example.org", "o'neil@example.org"),
    ],
)
def test_emails(text: str, query: str) -> None:
    identity = parse_identity(text)
    assert (identity.kind, identity.query, identity.document_type) == (
        IdentityKind.EMAIL,
        query,
        None,
    )


@pytest.mark.parametrize("text", ["ana@gmail", "ana@@gmail.com", "@gmail.com", "a..b@x.com"])
def test_invalid_emails_offer_a_partial_search(text: str) -> None:
    identity = parse_identity(text)
    assert identity.problem is ScanProblem.INVALID_EMAIL
    assert identity.query == ""
    assert identity.partial_query == text.lower()


@pytest.mark.parametrize(
    ("text", "query", "kind"),
    [
        ("30123456", "30123456", DocumentType.DNI),
        ("30.123.456", "30123456", DocumentType.DNI),
        (" 30 123 456\t", "30123456", DocumentType.DNI),
        ("5123456", "5123456", DocumentType.DNI),
        ("05123456", "5123456", DocumentType.DNI),
        ("20-12345678-6", "12345678", DocumentType.DNI),  # a CUIL: the DNI is inside
        ("27-05123456-7", "5123456", DocumentType.DNI),
        ("aaa123456", "AAA123456", DocumentType.PASSPORT),
        ("AB-123 456", "AB123456", DocumentType.PASSPORT),
        ("x1234y5", "X1234Y5", DocumentType.PASSPORT),
    ],
)
def test_documents(text: str, query: str, kind: DocumentType) -> None:
    identity = parse_identity(text)
    assert (identity.kind, identity.query, identity.document_type) == (
        IdentityKind.DOCUMENT,
        query,
        kind,
    )


@pytest.mark.parametrize(
    ("text", "problem", "partial"),
    [
        ("", ScanProblem.EMPTY, None),
        (" \t\r\n", ScanProblem.EMPTY, None),
        ("123", ScanProblem.DOCUMENT_LENGTH, "123"),
        ("1234567890", ScanProblem.DOCUMENT_LENGTH, "1234567890"),
        ("20-12345678-5", ScanProblem.DOCUMENT_LENGTH, "20123456785"),  # bad CUIL check digit
        ("juan  perez", ScanProblem.NOT_RECOGNIZED, "juan perez"),
        ("３０１２３４５６", ScanProblem.NOT_RECOGNIZED, "３０１２３４５６"),
        ("x" * 600, ScanProblem.TOO_LONG, None),
    ],
)
def test_unknown_inputs(text: str, problem: ScanProblem, partial: str | None) -> None:
    identity = parse_identity(text)
    assert identity.kind is IdentityKind.UNKNOWN
    assert not identity.is_valid
    assert (identity.problem, identity.partial_query, identity.query) == (problem, partial, "")


def test_sex_maps_to_the_contract_gender() -> None:
    assert [s.gender for s in (Sex.MALE, Sex.FEMALE, Sex.OTHER)] == [0, 1, 2]


# --- the wedge detector -----------------------------------------------------------


def feed(
    detector: WedgeDetector,
    text: str,
    gaps: list[float],
    start: float = 100.0,
    end_after: float = 0.005,
    end: str = "\r",
) -> Burst:
    at = start
    for char, gap in zip(text, gaps, strict=True):
        at += gap
        assert detector.key(char, at) is None
    burst = detector.key(end, at + end_after)
    assert burst is not None
    return burst


def test_scanner_burst() -> None:
    detector = WedgeDetector()
    burst = feed(detector, NEW_CARDS[0], [0.004] * len(NEW_CARDS[0]))
    assert burst == Burst(InputSource.SCANNER, NEW_CARDS[0], len(NEW_CARDS[0]))
    assert parse_identity(burst.text).query == "30123456"


def test_person_typing() -> None:
    burst = feed(WedgeDetector(), "30123456", [0.18] * 8, end_after=0.3)
    assert burst == Burst(InputSource.HUMAN, "30123456", 8)


def test_tab_ends_a_scan_too() -> None:
    burst = feed(WedgeDetector(), "30123456", [0.01] * 8, end="\t")
    assert burst.source is InputSource.SCANNER


def test_short_fast_input_is_a_person() -> None:
    assert feed(WedgeDetector(), "ab1", [0.01] * 3).source is InputSource.HUMAN


def test_held_key_is_a_person() -> None:
    assert feed(WedgeDetector(), "1" * 12, [0.03] * 12).source is InputSource.HUMAN


def test_late_enter_is_a_person() -> None:
    burst = feed(WedgeDetector(), "30123456", [0.01] * 8, end_after=0.6)
    assert burst.source is InputSource.HUMAN


def test_one_hiccup_in_a_long_scan_is_tolerated() -> None:
    gaps = [0.005] * len(NEW_CARDS[1])
    gaps[20] = 0.12  # the UI thread was busy for a moment
    assert feed(WedgeDetector(), NEW_CARDS[1], gaps).source is InputSource.SCANNER


def test_scan_after_typing_keeps_only_the_scanned_text() -> None:
    detector = WedgeDetector()
    text = "ab" + "30123456"
    gaps = [0.2, 0.2, 1.5] + [0.005] * 7
    burst = feed(detector, text, gaps)
    assert (burst.source, burst.text, burst.keys) == (InputSource.SCANNER, "30123456", 8)


def test_injected_clock_and_scanning_flag() -> None:
    now = [50.0]
    detector = WedgeDetector(clock=lambda: now[0])
    for char in "3012":
        detector.key(char)
        now[0] += 0.006
    assert detector.scanning
    for char in "3456":
        detector.key(char)
        now[0] += 0.006
    burst = detector.key("\n")
    assert burst == Burst(InputSource.SCANNER, "30123456", 8)
    assert not detector.scanning  # reset after the verdict
    for char in "abc":
        detector.key(char)
        now[0] += 0.25
    assert not detector.scanning


def test_flush_closes_a_scan_without_suffix() -> None:
    detector = WedgeDetector()
    for index, char in enumerate("30123456"):
        detector.key(char, 10.0 + index * 0.005)
    last = 10.0 + 7 * 0.005
    assert detector.flush(last + 0.05) is None  # maybe more is coming
    assert detector.flush(last + 0.5) == Burst(InputSource.SCANNER, "30123456", 8)
    assert detector.flush(last + 1.0) is None
    for index, char in enumerate("30123456"):
        detector.key(char, 20.0 + index * 0.2)
    assert detector.flush(30.0) is None  # a person: nothing to close


def test_reset_forgets_the_keys() -> None:
    detector = WedgeDetector()
    for index, char in enumerate("3012"):
        detector.key(char, 1.0 + index * 0.005)
    detector.reset()
    assert detector.end(1.1) == Burst(InputSource.HUMAN, "", 0)


def test_random_rhythms() -> None:
    rng = random.Random(9)
    samples = [*NEW_CARDS, OLD_CARD, "30123456", "ana.perez@gmail.com"]
    for _ in range(300):
        text = rng.choice(samples)
        fast = [rng.uniform(0.0, 0.025) for _ in text]
        scanned = feed(WedgeDetector(), text, fast, end_after=rng.uniform(0.0, 0.03))
        assert scanned == Burst(InputSource.SCANNER, text, len(text))
        slow = [rng.uniform(0.07, 0.45) for _ in text]
        typed = feed(WedgeDetector(), text, slow, end_after=rng.uniform(0.1, 0.8))
        assert typed.source is InputSource.HUMAN


def test_a_held_key_without_enter_keeps_a_bounded_number_of_keys() -> None:
    """A key stuck down all night (no Enter): the detector keeps the newest keys only,
    one more than any input read, so the input still reads as too long."""
    from kiosk.core.counter.scan import KEPT_KEYS, MAX_INPUT

    detector = WedgeDetector()
    for n in range(5 * KEPT_KEYS):
        detector.key("7", n * 0.03)
    assert len(detector._keys) == KEPT_KEYS
    burst = detector.end(5 * KEPT_KEYS * 0.03)
    assert burst.source is InputSource.HUMAN  # a held key is a person
    assert len(burst.text) == MAX_INPUT + 1


@pytest.mark.parametrize(
    ("text", "query"),
    [
        (NEW_CARDS[1], "27456789"),
        ("30123456", "30123456"),
        ("ana@example.org", "ana@example.org"),
    ],
)
def test_a_scan_names_a_client_by_a_dni_barcode_a_dni_or_an_email(text: str, query: str) -> None:
    identity = scanned_client(text)
    assert identity is not None
    assert identity.query == query


@pytest.mark.parametrize("text", ["PEND2345", "7791234567893", "0001-00012345", "AB123456", ""])
def test_a_purchase_code_a_product_a_ticket_or_a_passport_names_no_client(text: str) -> None:
    assert scanned_client(text) is None


def test_keys_stamped_before_the_one_before_are_not_a_scan() -> None:
    """A clock that went back (a wrapped timestamp) says nothing of speed: not fast."""
    from kiosk.core.counter.scan import InputSource, WedgeDetector

    detector = WedgeDetector(clock=lambda: 0.0)
    for index, char in enumerate("30123456"):
        detector.key(char, 100.0 - index * 0.5)  # each key "earlier" than the last
    assert detector.end(96.0).source is InputSource.HUMAN
