"""Shapes shared by every resource: envelopes, pages, list queries, secret links."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from enum import StrEnum
from typing import Any, Generic, NoReturn, TypeVar

from kiosk.api.errors import MalformedResponse
from kiosk.api.models._read import Obj

T = TypeVar("T")

MAX_PAGE_SIZE = 200
DEFAULT_ORIGIN = "external-integration"
"""The ``origin`` the kiosk stamps on its credits unless told otherwise."""


def envelope_data(body: Any, what: str, *, required: bool = True) -> Any:
    """``data`` of a ``{success, status, message, data}`` envelope.

    The HTTP status is authoritative, so ``success``/``status`` are not checked.
    """
    if not isinstance(body, dict):
        raise MalformedResponse(f"{what}: expected an envelope object")
    if required and body.get("data") is None:
        raise MalformedResponse(f"{what}: envelope without data")
    return body.get("data")


class SecretUrl:
    """A link that works as a credential (``register_url``).

    Its ``repr``/``str`` never show it, it cannot be pickled or copied into JSON by
    accident; ``reveal()`` gives the text for the one place that needs it (the QR
    shown to the client).
    """

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "SecretUrl(***)"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SecretUrl) and other._value == self._value

    def __hash__(self) -> int:
        return hash(("SecretUrl", self._value))

    def __reduce__(self) -> NoReturn:
        raise TypeError("a SecretUrl is never persisted")

    def __deepcopy__(self, memo: dict[int, Any]) -> SecretUrl:
        return self


@dataclass(frozen=True)
class PageMeta:
    total_pages: int
    current_page: int
    total_items: int | None = None
    item_count: int | None = None
    items_per_page: int | None = None

    @classmethod
    def from_json(cls, data: Any) -> PageMeta:
        o = Obj(data, "meta")
        return cls(
            total_pages=o.req_int("totalPages"),
            current_page=o.req_int("currentPage"),
            total_items=o.opt_int("totalItems"),
            item_count=o.opt_int("itemCount"),
            items_per_page=o.opt_int("itemsPerPage"),
        )

    @property
    def is_last(self) -> bool:
        return self.total_pages == 0 or self.current_page >= self.total_pages


@dataclass(frozen=True)
class Page(Generic[T]):
    """One page of a root-level ``{data, meta, links}`` list."""

    items: tuple[T, ...]
    meta: PageMeta

    @classmethod
    def from_json(cls, body: Any, what: str, parse: Callable[[Any], T]) -> Page[T]:
        o = Obj(body, what)
        return cls(items=o.list_of("data", parse), meta=o.req_obj("meta", PageMeta.from_json))


class Direction(StrEnum):
    ASC = "asc"
    DESC = "desc"


@dataclass(frozen=True)
class ListQuery:
    """Parameters of a paginated list; ``filters`` are the resource's own (API names)."""

    page: int = 1
    limit: int | None = None
    query: str | None = None
    order: str | None = None
    direction: Direction | None = None
    filters: Mapping[str, str | int | bool] = field(default_factory=dict)

    def to_params(self) -> dict[str, str]:
        if self.page < 1:
            raise ValueError("page starts at 1")
        if self.limit is not None and not 1 <= self.limit <= MAX_PAGE_SIZE:
            raise ValueError(f"limit must be 1 to {MAX_PAGE_SIZE}")
        params: dict[str, str] = {"page": str(self.page)}
        if self.limit is not None:
            params["limit"] = str(self.limit)
        if self.query:
            params["query"] = self.query
        if self.order:
            params["order"] = self.order
            if self.direction is not None:
                params["direction"] = self.direction.value
        for name, value in self.filters.items():
            params[name] = _param(value)
        return params


def _param(value: str | int | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def iso_datetime(value: date | datetime) -> str:
    """The API's date-time text (UTC, milliseconds, ``Z``); a date is its midnight UTC."""
    if not isinstance(value, datetime):
        value = datetime(value.year, value.month, value.day, tzinfo=UTC)
    elif value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    value = value.astimezone(UTC)
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"


def drop_none(body: Mapping[str, Any]) -> dict[str, Any]:
    """A request body without the fields left unset."""
    return {k: v for k, v in body.items() if v is not None}


@dataclass(frozen=True)
class Named:
    """A ``{id, name}`` reference (branch of a purchase, level of a client...)."""

    id: int
    name: str | None = None

    @classmethod
    def from_json(cls, data: Any) -> Named:
        o = Obj(data, "reference")
        return cls(id=o.req_int("id"), name=o.opt_str("name"))
