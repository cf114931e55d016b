"""A client the counter could not check: the API was unreachable when they were identified.

Offline, the exact search cannot run, so the cashier types the client's email or
document twice (both entries must say the same thing), or scans their DNI barcode
once (a scan cannot have a typo). The counter then holds an *unverified* client:
a ``Client`` record with ``id`` 0 (no real client has it), no balance, status
``UNVERIFIED`` and the email or document that was given. A credit for them goes
through the outbox with the ``client`` object (``client.email`` /
``client.document_number``), so the API finds or creates the client when the
connection returns. Rewards and the points preview need a real client and refuse.

Nothing here logs what was typed: it is an email or a document number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from kiosk.api.errors import AmbiguousOutcome, ApiError, ErrorKind
from kiosk.api.models.clients import Client
from kiosk.core.counter.scan import (
    DocumentType,
    Identity,
    IdentityKind,
    ScanProblem,
    parse_identity,
)

UNVERIFIED = "UNVERIFIED"
UNVERIFIED_ID = 0  # the API's ids start at 1

# The identify search could not get an answer about the client: the connection is
# down, the service is unavailable or broken, or something in between (a captive
# portal's page) answers instead. Configuration failures (key, TLS) are not here:
# they need IT, not an unverified client.
CANNOT_CHECK_KINDS = frozenset(
    {
        ErrorKind.NETWORK,
        ErrorKind.TIMEOUT,
        ErrorKind.UNAVAILABLE,
        ErrorKind.SERVER,
        ErrorKind.MALFORMED,
    }
)

# No connection at all (exchanges and redemptions say "nothing was sent").
NO_CONNECTION_KINDS = frozenset({ErrorKind.NETWORK, ErrorKind.TIMEOUT})


def cannot_check(error: BaseException) -> bool:
    """An identify search failure that justifies continuing without checking."""
    return isinstance(error, ApiError) and error.kind in CANNOT_CHECK_KINDS


def no_connection(error: BaseException) -> bool:
    """A failure that reached no server: the connection is down and nothing was applied.

    An ambiguous outcome (the request may have been applied before the connection
    dropped) is not one: the caller must check before anything is tried again."""
    return (
        isinstance(error, ApiError)
        and not isinstance(error, AmbiguousOutcome)
        and error.kind in NO_CONNECTION_KINDS
    )


def is_unverified(client: Client | None) -> bool:
    """The active client was accepted offline, without checking (no balance, no id)."""
    return client is not None and client.id == UNVERIFIED_ID and client.status == UNVERIFIED


class EntryProblem(StrEnum):
    EMPTY = "empty"  # the first field is empty
    NOT_VALID = "not_valid"  # not an email nor a document (see ``scan_problem``)
    CONFIRM_EMPTY = "confirm_empty"  # typed once only
    MISMATCH = "mismatch"  # the two entries differ


@dataclass(frozen=True)
class OfflineEntry:
    """The outcome of the typed-twice (or scanned) entry: a client, or why not."""

    client: Client | None = field(default=None, repr=False)
    problem: EntryProblem | None = None
    scan_problem: ScanProblem | None = None
    scanned: bool = False

    @property
    def ok(self) -> bool:
        return self.client is not None


def unverified_client(identity: Identity) -> Client:
    """The unverified client for a valid email, document or DNI barcode."""
    if not identity.is_valid:
        raise ValueError("an unverified client needs an email or a document")
    if identity.kind is IdentityKind.EMAIL:
        return Client(id=UNVERIFIED_ID, balance=0, email=identity.query, status=UNVERIFIED)
    barcode = identity.barcode
    document_type = identity.document_type or DocumentType.DNI
    return Client(
        id=UNVERIFIED_ID,
        balance=0,
        first_name=(barcode.first_names or None) if barcode else None,
        last_name=(barcode.last_names or None) if barcode else None,
        document_number=identity.query,
        document_type=document_type.value,
        status=UNVERIFIED,
    )


def from_scan(text: str) -> OfflineEntry:
    """One scan of a DNI barcode suffices; any other scanned text must be typed twice."""
    identity = parse_identity(text)
    if identity.kind is IdentityKind.DNI_BARCODE:
        return OfflineEntry(unverified_client(identity), scanned=True)
    return OfflineEntry(
        problem=EntryProblem.NOT_VALID,
        scan_problem=identity.problem or ScanProblem.BARCODE_UNREADABLE,
        scanned=True,
    )


def confirm_typed(first: str, second: str) -> OfflineEntry:
    """The client's email or document, typed twice: both must be valid and the same.

    The entries are compared as the search would read them (email in lower case,
    a document without dots or spaces), so ``30.123.456`` confirms ``30123456``. A
    DNI barcode in either field (a scanner typed it) is accepted on its own."""
    for text in (first, second):
        if parse_identity(text).kind is IdentityKind.DNI_BARCODE:
            return from_scan(text)
    if not first.strip():
        return OfflineEntry(problem=EntryProblem.EMPTY)
    identity = parse_identity(first)
    if not identity.is_valid:
        return OfflineEntry(problem=EntryProblem.NOT_VALID, scan_problem=identity.problem)
    if not second.strip():
        return OfflineEntry(problem=EntryProblem.CONFIRM_EMPTY)
    again = parse_identity(second)
    if again.kind is not identity.kind or again.query != identity.query:
        return OfflineEntry(problem=EntryProblem.MISMATCH)
    return OfflineEntry(unverified_client(identity))
