"""What the identify field received: an email, a document number or a DNI barcode.

``parse_identity`` classifies the text (typed, or typed by a keyboard-wedge
scanner) and gives the exact-search query. Argentine DNI barcodes (PDF417, both
card formats) are read with the mix-ups real counters see: ``"`` instead of
``@`` (scanner set for a US keyboard on a Spanish layout), ``-`` or ``&``
instead of ``/`` in dates, trailing Tab/Enter/spaces, a garbled ``Ñ``. The
document number is the field to trust; names are best effort, title-cased for
display, and flagged ``names_uncertain`` when anything had to be repaired.

``WedgeDetector`` tells scanner input (fast keystrokes ending in Enter or Tab)
from human typing, fed with the key timestamps the screen sees.
"""

from __future__ import annotations

import itertools
import re
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from enum import StrEnum

MAX_INPUT = 512
_SEPARATORS = ("@", '"')  # '"' is '@' typed by a US-configured scanner on a Spanish layout
_MIN_BARCODE_FIELDS = 8
_DATE = re.compile(r"(\d{1,2})[/\-.&_ ](\d{1,2})[/\-.&_ ](\d{4})")
_EMAIL = re.compile(r"[a-z0-9._%+'-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}")
_PASSPORT = re.compile(r"(?=.*[A-Z])(?=.*[0-9])[A-Z0-9]{5,20}")
_CUIL_PREFIXES = ("20", "23", "24", "27")
_CUIL_WEIGHTS = (5, 4, 3, 2, 7, 6, 5, 4, 3, 2)
_PARTICLES = frozenset({"de", "del", "la", "las", "los", "y", "da", "di", "van", "von"})


class IdentityKind(StrEnum):
    EMAIL = "email"
    DOCUMENT = "document"
    DNI_BARCODE = "dni_barcode"
    UNKNOWN = "unknown"


class DocumentType(StrEnum):
    DNI = "DNI"
    PASSPORT = "PASSPORT"


class ScanProblem(StrEnum):
    EMPTY = "empty"
    TOO_LONG = "too_long"
    INVALID_EMAIL = "invalid_email"
    DOCUMENT_LENGTH = "document_length"
    BARCODE_UNREADABLE = "barcode_unreadable"
    NOT_RECOGNIZED = "not_recognized"


class CardFormat(StrEnum):
    SINCE_2012 = "2012"
    FROM_2009 = "2009"


class Sex(StrEnum):
    MALE = "M"
    FEMALE = "F"
    OTHER = "X"

    @property
    def gender(self) -> int:
        """The contract's client ``gender``: 0 male, 1 female, 2 other (3 is no data)."""
        return {Sex.MALE: 0, Sex.FEMALE: 1, Sex.OTHER: 2}[self]


@dataclass(frozen=True)
class DniBarcode:
    card: CardFormat
    document_number: str
    last_names: str
    first_names: str
    sex: Sex | None
    birth_date: date | None
    names_uncertain: bool

    @property
    def display_name(self) -> str:
        return f"{self.first_names} {self.last_names}".strip()


@dataclass(frozen=True)
class Identity:
    """The classified input. ``query`` is what the exact search receives ("" when unknown);
    ``partial_query`` is what a partial search may use when the exact one finds nothing."""

    kind: IdentityKind
    query: str = ""
    document_type: DocumentType | None = None
    barcode: DniBarcode | None = None
    problem: ScanProblem | None = None
    partial_query: str | None = None

    @property
    def is_valid(self) -> bool:
        return self.kind is not IdentityKind.UNKNOWN


def _unknown(problem: ScanProblem, partial: str | None = None) -> Identity:
    return Identity(IdentityKind.UNKNOWN, problem=problem, partial_query=partial or None)


def parse_identity(text: str) -> Identity:
    """Classify what the identify field received."""
    clean = text.strip(" \t\r\n\u00a0")
    if not clean:
        return _unknown(ScanProblem.EMPTY)
    if len(clean) > MAX_INPUT:
        return _unknown(ScanProblem.TOO_LONG)
    if any(clean.count(sep) >= _MIN_BARCODE_FIELDS // 2 for sep in _SEPARATORS):
        barcode = parse_dni_barcode(clean)
        if barcode is None:
            return _unknown(ScanProblem.BARCODE_UNREADABLE)
        return Identity(
            IdentityKind.DNI_BARCODE, barcode.document_number, DocumentType.DNI, barcode
        )
    if "@" in clean or ('"' in clean and clean.count('"') == 1):
        return _email_identity(clean)
    return _document_identity(clean)


def scanned_client(text: str) -> Identity | None:
    """The client a scanner's burst names (a DNI barcode, a DNI number or an email),
    or None when it names no client: a purchase code, a product's barcode, a passport
    (which has no barcode: it is typed)."""
    identity = parse_identity(text)
    if identity.kind is IdentityKind.DNI_BARCODE or identity.kind is IdentityKind.EMAIL:
        return identity
    if identity.kind is IdentityKind.DOCUMENT and identity.document_type is DocumentType.DNI:
        return identity
    return None


def _email_identity(clean: str) -> Identity:
    email = clean.replace('"', "@") if "@" not in clean else clean
    email = email.lower()
    if _EMAIL.fullmatch(email) and ".." not in email:
        return Identity(IdentityKind.EMAIL, email)
    if "@" in clean:
        return _unknown(ScanProblem.INVALID_EMAIL, email)
    return _unknown(ScanProblem.NOT_RECOGNIZED, clean)


def _document_identity(clean: str) -> Identity:
    compact = re.sub(r"[\s.\-]", "", clean).upper()
    if compact.isascii() and compact.isdigit():
        if len(compact) == 11 and _is_cuil(compact):
            compact = compact[2:10]
        number = compact.lstrip("0")
        if 6 <= len(number) <= 8:
            return Identity(IdentityKind.DOCUMENT, number, DocumentType.DNI)
        return _unknown(ScanProblem.DOCUMENT_LENGTH, compact)
    if _PASSPORT.fullmatch(compact):
        return Identity(IdentityKind.DOCUMENT, compact, DocumentType.PASSPORT)
    return _unknown(ScanProblem.NOT_RECOGNIZED, " ".join(clean.split()))


def _is_cuil(digits: str) -> bool:
    """A CUIL/CUIT (11 digits) of a person, with a valid check digit."""
    if digits[:2] not in _CUIL_PREFIXES:
        return False
    remainder = sum(int(d) * w for d, w in zip(digits[:10], _CUIL_WEIGHTS, strict=True)) % 11
    if remainder == 1:  # no valid check digit: such numbers are issued with prefix 23
        return False
    return (11 - remainder) % 11 == int(digits[10])


# --- DNI barcodes -----------------------------------------------------------------


def parse_dni_barcode(text: str) -> DniBarcode | None:
    """Read a DNI barcode in either card format and either separator; None if not one."""
    clean = text.strip(" \t\r\n\u00a0")
    for separator in _SEPARATORS:
        if clean.count(separator) < _MIN_BARCODE_FIELDS // 2:
            continue
        fields = clean.split(separator)
        parsed = _old_card(fields) if clean.startswith(separator) else _new_card(fields)
        if parsed is not None:
            return parsed
    return None


def _document(field: str) -> str | None:
    digits = field.strip()
    if not (digits.isascii() and digits.isdigit()):
        return None
    number = digits.lstrip("0")
    return number if 6 <= len(number) <= 8 else None


def _sex(field: str) -> Sex | None:
    try:
        return Sex(field.strip().upper())
    except ValueError:
        return None


def _date(field: str) -> date | None:
    found = _DATE.fullmatch(field.strip())
    if found is None:
        return None
    day, month, year = (int(part) for part in found.groups())
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _new_card(fields: list[str]) -> DniBarcode | None:
    """``tramite@LAST@FIRST@SEX@DOCUMENT@COPY@BIRTH@ISSUED@CHECK`` (cards since 2012)."""
    if not fields[0].strip().isdigit():
        return None
    for j in range(3, len(fields) - 2):
        number = _document(fields[j])
        sex = _sex(fields[j - 1])
        copy = fields[j + 1].strip()
        if number and sex and len(copy) == 1 and copy.isalpha() and _date(fields[j + 2]):
            return _barcode(
                CardFormat.SINCE_2012, number, fields[1 : j - 1], sex, _date(fields[j + 2])
            )
    # Damaged beyond the names: the document (the only 7-8 digit field) is still good.
    numbers = {n for n in (_document(f) for f in fields[1:]) if n and len(n) >= 7}
    if len(numbers) == 1:
        return _barcode(CardFormat.SINCE_2012, numbers.pop(), [], None, None)
    return None


def _old_card(fields: list[str]) -> DniBarcode | None:
    """``@DOCUMENT   @COPY@?@LAST@FIRST@NATIONALITY@BIRTH@SEX@ISSUED@tramite@...`` (2009-2012)."""
    if len(fields) < 3:
        return None
    number = _document(fields[1])
    if number is None:
        return None
    for i in range(6, len(fields) - 1):
        birth, sex = _date(fields[i]), _sex(fields[i + 1])
        if birth and sex:
            return _barcode(CardFormat.FROM_2009, number, fields[4 : i - 1], sex, birth)
    return _barcode(CardFormat.FROM_2009, number, [], None, None)


def _barcode(
    card: CardFormat, number: str, names: list[str], sex: Sex | None, birth: date | None
) -> DniBarcode:
    # Two name fields is the normal case; more means a garbled character split one.
    uncertain = len(names) != 2
    last_raw = names[0] if names else ""
    first_raw = " ".join(names[1:])
    last, last_repaired = clean_name(last_raw)
    first, first_repaired = clean_name(first_raw)
    return DniBarcode(
        card=card,
        document_number=number,
        last_names=last,
        first_names=first,
        sex=sex,
        birth_date=birth,
        names_uncertain=uncertain or last_repaired or first_repaired,
    )


def clean_name(raw: str) -> tuple[str, bool]:
    """(``raw`` title-cased for display, whether anything had to be repaired)."""
    text = unicodedata.normalize("NFC", " ".join(raw.split()))
    # The Ñ key of a Spanish layout is ';' (':' shifted) on a US one; '¥' is Ñ in code page 437.
    repaired = re.sub(r"(?<=[^\W\d_])[;:¥](?=[^\W\d_])", "Ñ", text)
    # Dead-key accents typed apart from their letter.
    repaired = re.sub(r"[´`¨^~]", "", repaired)
    repaired = "".join(c if c.isalpha() or c in " -'" else "?" for c in repaired)
    return _title(repaired), repaired != text


def _title(text: str) -> str:
    words = []
    for index, word in enumerate(text.lower().split(" ")):
        if index and word in _PARTICLES:
            words.append(word)
            continue
        words.append(re.sub(r"(^|[-'])(\w)", lambda m: m.group(1) + m.group(2).upper(), word))
    return " ".join(words)


# --- keyboard-wedge scanners ------------------------------------------------------


class InputSource(StrEnum):
    SCANNER = "scanner"
    HUMAN = "human"


@dataclass(frozen=True)
class Burst:
    """What came in before an Enter/Tab: from a scanner (``text`` is just the scanned
    characters) or from a person (``text`` is everything typed since the last reset)."""

    source: InputSource
    text: str
    keys: int


_TERMINATORS = frozenset({"\r", "\n", "\r\n", "\t"})
KEPT_KEYS = MAX_INPUT + 1  # one more than any input read: a longer one says "too long"


class WedgeDetector:
    """Tells a keyboard-wedge scanner from a person by the rhythm of the keys.

    A scanner types a whole code in a burst, a few milliseconds apart, and ends it
    with Enter or Tab right away; people rarely press two keys 40 ms apart and never
    a dozen in a row. Timestamps are seconds on any monotonic scale (a Qt key
    event's ``timestamp() / 1000``); without one the injected ``clock`` is read.
    A held key (auto-repeat is fast too) is a person: every character the same.
    """

    def __init__(
        self,
        *,
        max_gap: float = 0.040,
        min_length: int = 6,
        fast_share: float = 0.9,
        pause: float = 0.300,
        end_gap: float = 0.150,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.max_gap = max_gap
        self.min_length = min_length
        self.fast_share = fast_share
        self.pause = pause
        self.end_gap = end_gap
        self._clock = clock
        self._keys: list[tuple[str, float]] = []

    def key(self, text: str, at: float | None = None) -> Burst | None:
        """Feed one key's text; an Enter or Tab ends the input and returns the verdict."""
        now = self._clock() if at is None else at
        if text in _TERMINATORS:
            return self.end(now)
        if text:
            self._keys.append((text, now))
            if len(self._keys) > KEPT_KEYS:  # a held key without Enter: the newest only
                del self._keys[: len(self._keys) - KEPT_KEYS]
        return None

    def end(self, at: float | None = None) -> Burst:
        """The input ended (Enter/Tab) at ``at``: classify it and start afresh."""
        now = self._clock() if at is None else at
        burst = self._classify(now)
        self.reset()
        return burst

    def flush(self, at: float | None = None) -> Burst | None:
        """For scanners set to send no suffix: a scanner burst that went quiet."""
        now = self._clock() if at is None else at
        if not self._keys or now - self._keys[-1][1] <= self.end_gap:
            return None
        burst = self._classify(self._keys[-1][1])
        if burst.source is not InputSource.SCANNER:
            return None
        self.reset()
        return burst

    def reset(self) -> None:
        """Forget the keys (call on Backspace, focus changes, a cleared field)."""
        self._keys.clear()

    @property
    def scanning(self) -> bool:
        """The last keys look like a scan in progress (hold off search-as-you-type)."""
        run = self._burst()
        return len(run) >= 3 and self._fast(run)

    def _burst(self) -> list[tuple[str, float]]:
        """The trailing keys with no pause between them."""
        keys = self._keys
        start = len(keys) - 1
        while start > 0 and 0.0 <= keys[start][1] - keys[start - 1][1] <= self.pause:
            start -= 1
        return keys[max(start, 0) :]

    def _fast(self, run: list[tuple[str, float]]) -> bool:
        # A key stamped before the one before it (a clock that wrapped, e.g. X11's or
        # Windows' 49.7-day millisecond count) tells nothing of speed: not fast.
        gaps = [b[1] - a[1] for a, b in itertools.pairwise(run)]
        fast = sum(0.0 <= gap <= self.max_gap for gap in gaps)
        return bool(gaps) and fast >= self.fast_share * len(gaps)

    def _classify(self, ended_at: float) -> Burst:
        everything = "".join(text for text, _ in self._keys)
        run = self._burst()
        text = "".join(t for t, _ in run)
        is_scan = (
            len(text) >= self.min_length
            and self._fast(run)
            and ended_at - run[-1][1] <= self.end_gap
            and len(set(text)) > 1
        )
        if is_scan:
            return Burst(InputSource.SCANNER, text, len(run))
        return Burst(InputSource.HUMAN, everything, len(self._keys))
