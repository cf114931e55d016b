"""Identify the client at the counter: what was typed or scanned, then who it is.

``classify`` reads the identify field (an email, a document number, a DNI
barcode; see ``kiosk.core.counter.scan``). ``search`` then asks the API:

1. exact search (``search_client``) by email or document: ``FOUND``;
2. when nothing matches exactly (404 on the client), a partial search
   (``list_clients(query=...)``) for near misses (a typo in the email, a digit
   missing): ``CHOOSE`` with the rows, or ``NOT_FOUND``;
3. input that is neither an email nor a document: ``INVALID``, and no request.

``CHOOSE`` and ``NOT_FOUND`` carry a ``Prefill`` for enrollment: what was typed,
or what the DNI barcode said (document, names, sex, birth date).

Every API call goes through an injected ``call`` (the counter session's
``call``: busy indicator and connection state). Nothing here logs the query:
it is an email or a document number.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from typing import Protocol, TypeVar
from urllib.parse import urlsplit

from kiosk.api.errors import ApiError, ErrorKind, Resource
from kiosk.api.models.clients import Client, Gender
from kiosk.api.models.common import Page
from kiosk.api.redact import mask_document, mask_email
from kiosk.core.counter.scan import DocumentType, Identity, IdentityKind, parse_identity

T = TypeVar("T")

log = logging.getLogger(__name__)

PARTIAL_LIMIT = 8
MIN_PARTIAL = 3  # shorter partial queries match half the program


class Caller(Protocol):
    """How each API call is made (``CounterSession.call``, or ``direct``)."""

    def __call__(self, make: Callable[[], Awaitable[T]], /) -> Awaitable[T]: ...


async def direct(make: Callable[[], Awaitable[T]]) -> T:
    return await make()


class ClientDirectory(Protocol):
    """The two client reads identification needs (``LoyaltyClient`` has them)."""

    async def search_client(self, query: str) -> Client: ...

    async def list_clients(
        self, *, page: int = 1, limit: int | None = None, query: str | None = None
    ) -> Page[Client]: ...


class SearchOutcome(StrEnum):
    FOUND = "found"
    CHOOSE = "choose"  # no exact match; near matches to choose from (or enroll)
    NOT_FOUND = "not_found"  # no match at all: enroll
    INVALID = "invalid"  # neither an email nor a document: nothing was asked


@dataclass(frozen=True)
class Prefill:
    """What enrollment starts from: the typed email or document, or the DNI barcode."""

    email: str | None = field(default=None, repr=False)
    document_number: str | None = field(default=None, repr=False)
    document_type: DocumentType | None = None
    first_name: str | None = field(default=None, repr=False)
    last_name: str | None = field(default=None, repr=False)
    gender: Gender | None = None
    birthday: date | None = field(default=None, repr=False)
    names_uncertain: bool = False

    @property
    def is_empty(self) -> bool:
        return not (self.email or self.document_number or self.first_name or self.last_name)


def prefill_from(identity: Identity) -> Prefill:
    if identity.kind is IdentityKind.EMAIL:
        return Prefill(email=identity.query)
    if identity.kind is IdentityKind.DOCUMENT:
        return Prefill(document_number=identity.query, document_type=identity.document_type)
    barcode = identity.barcode
    if identity.kind is IdentityKind.DNI_BARCODE and barcode is not None:
        return Prefill(
            document_number=barcode.document_number,
            document_type=DocumentType.DNI,
            first_name=barcode.first_names or None,
            last_name=barcode.last_names or None,
            gender=Gender(barcode.sex.gender) if barcode.sex is not None else None,
            birthday=barcode.birth_date,
            names_uncertain=barcode.names_uncertain,
        )
    return Prefill()


@dataclass(frozen=True)
class SearchResult:
    outcome: SearchOutcome
    identity: Identity = field(repr=False)
    client: Client | None = None
    matches: tuple[Client, ...] = ()
    more_matches: bool = False  # the partial search found more than it shows
    prefill: Prefill = field(default_factory=Prefill)


def classify(text: str) -> Identity:
    """What the identify field holds (see ``kiosk.core.counter.scan.parse_identity``)."""
    return parse_identity(text)


def partial_query(identity: Identity) -> str | None:
    """What the partial search looks for when the exact one found nothing.

    An email's local part (``juan.perez@gmial.com`` still finds
    ``juan.perez@example.com``); a document as typed (``3012345`` finds
    ``30123456``). Nothing shorter than ``MIN_PARTIAL`` characters."""
    if not identity.is_valid:
        return None
    text = identity.query
    if identity.kind is IdentityKind.EMAIL:
        local = text.partition("@")[0]
        text = local if len(local) >= MIN_PARTIAL else text
    return text if len(text) >= MIN_PARTIAL else None


def _client_missing(error: ApiError) -> bool:
    return error.kind is ErrorKind.NOT_FOUND and error.resource in (Resource.CLIENT, None)


async def search(
    directory: ClientDirectory,
    identity: Identity,
    *,
    call: Caller = direct,
    limit: int = PARTIAL_LIMIT,
) -> SearchResult:
    """Exact search, then partial; API failures other than "no such client" raise."""
    if not identity.is_valid:
        return SearchResult(SearchOutcome.INVALID, identity)
    prefill = prefill_from(identity)
    query = identity.query
    try:
        client = await call(lambda: directory.search_client(query))
    except ApiError as error:
        if not _client_missing(error):
            raise
    else:
        log.info("identify: exact match, client #%d", client.id)
        return SearchResult(SearchOutcome.FOUND, identity, client=client, prefill=prefill)
    partial = partial_query(identity)
    if partial is None:
        return SearchResult(SearchOutcome.NOT_FOUND, identity, prefill=prefill)
    page = await call(lambda: directory.list_clients(query=partial, limit=limit))
    matches = page.items[:limit]
    total = page.meta.total_items if page.meta.total_items is not None else len(page.items)
    log.info("identify: no exact match, %d partial match(es)", total)
    return SearchResult(
        SearchOutcome.CHOOSE if matches else SearchOutcome.NOT_FOUND,
        identity,
        matches=matches,
        more_matches=total > len(matches) or not page.meta.is_last,
        prefill=prefill,
    )


def lookup_of(client: Client) -> str | None:
    """What finds this client again by exact search: the email, else the document."""
    return client.email or client.document_number or None


async def reread(directory: ClientDirectory, client: Client, *, call: Caller = direct) -> Client:
    """A row of the partial list, read again by exact search: the list's records do
    not say whether the client registered, and the balance may have moved."""
    lookup = lookup_of(client)
    if lookup is None:
        return client
    return await call(lambda: directory.search_client(lookup))


async def find_first(
    directory: ClientDirectory, lookups: tuple[str, ...], *, call: Caller = direct
) -> Client:
    """The client found by the first of ``lookups`` that matches (404s are skipped)."""
    missing: ApiError | None = None
    for lookup in lookups:

        def read(query: str = lookup) -> Awaitable[Client]:
            return directory.search_client(query)

        try:
            return await call(read)
        except ApiError as error:
            if not _client_missing(error):
                raise
            missing = error
    raise missing or ApiError(ErrorKind.NOT_FOUND, resource=Resource.CLIENT)


def display_name(client: Client) -> str:
    """The client's name as the counter shows it ("" when the record has none)."""
    name = client.name or " ".join(p for p in (client.first_name, client.last_name) if p)
    return " ".join(name.split())


def masked_contact(client: Client) -> str:
    """``a***@gmail.com · DNI ****3456``: how a list row or the journal shows contact data."""
    parts = []
    if client.email:
        parts.append(mask_email(client.email))
    if client.document_number:
        parts.append(f"{client.document_type or 'DNI'} {mask_document(client.document_number)}")
    return " · ".join(parts)


REGISTER_URL_MAX = 2048  # a QR of more is unreadable at the counter's size anyway


def registration_link(client: Client | None) -> str | None:
    """The registration link an unregistered client's QR may carry: an ``https`` URL
    with a host, of at most 2048 visible characters; ``None`` otherwise (the server
    sends data: a QR is never made of a ``javascript:``, ``http:`` or host-less link).
    Never logged: it works as the client's password."""
    if client is None or client.registered is not False or client.register_url is None:
        return None
    link = client.register_url.reveal()
    if len(link) > REGISTER_URL_MAX or not link.isascii() or not link.isprintable():
        return None
    try:
        parts = urlsplit(link)
        host = parts.hostname
    except ValueError:
        return None
    if parts.scheme != "https" or not host or " " in link:
        return None
    return link


def needs_registration(client: Client | None) -> bool:
    """An unregistered client with a registration link the QR can show."""
    return registration_link(client) is not None


def registration_qr(client: Client | None) -> str | None:
    """The link to show as the registration QR now (``registration_link``), noted in
    the log as "registration QR shown for client #id", never the link itself."""
    link = registration_link(client)
    if link is not None and client is not None:
        log.info("registration QR shown for client #%s", client.id)
    return link
