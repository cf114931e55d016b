"""Typed reading of JSON objects: wrong types raise ``MalformedResponse``.

``Obj(data, "client")`` wraps one JSON object. ``req_*`` readers demand the field;
``opt_*`` readers give ``None`` when it is missing or null. Unknown fields are
ignored by construction: a record reads only what it knows.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from kiosk.api.errors import MalformedResponse

T = TypeVar("T")

# The longest string a record keeps. The contract sets no maximum on free texts (a
# reward's terms, a client's notes): a longer one is kept cut, with a mark, so one long
# text never makes a record or a page unreadable. An exact value (email, document,
# code, id, URL, date) that long is a broken or hostile answer: refused.
MAX_TEXT = 4096
CUT_MARK = "…"


def clip_text(value: str) -> str:
    """``value`` cut to ``MAX_TEXT`` characters, the last one ``CUT_MARK``."""
    return value if len(value) <= MAX_TEXT else value[: MAX_TEXT - len(CUT_MARK)] + CUT_MARK


# The largest integer a record may carry: the JSON a JavaScript service writes holds
# integers exactly up to 2**53 - 1; none of the contract's integers is negative.
MAX_INT = 2**53 - 1
# The largest amount of money or multiplier: larger is a broken answer, not a sale.
MAX_NUMBER = 1e15


def _type_name(value: Any) -> str:
    return "null" if value is None else type(value).__name__


class Obj:
    __slots__ = ("data", "what")

    def __init__(self, data: Any, what: str) -> None:
        if not isinstance(data, dict):
            raise MalformedResponse(f"{what}: expected an object, got {_type_name(data)}")
        self.data: dict[str, Any] = data
        self.what = what

    def _bad(self, name: str, expected: str) -> MalformedResponse:
        return MalformedResponse(
            f"{self.what}.{name}: expected {expected}, got {_type_name(self.data.get(name))}"
        )

    def _out_of_range(self, name: str, value: float, expected: str) -> MalformedResponse:
        # The value itself stays out of the message (10**400 has 401 digits).
        sign = "negative" if value < 0 else "too large"
        return MalformedResponse(f"{self.what}.{name}: expected {expected}, got a {sign} one")

    def has(self, name: str) -> bool:
        return self.data.get(name) is not None

    def _req(self, name: str, expected: str) -> Any:
        value = self.data.get(name)
        if value is None:
            raise self._bad(name, expected)
        return value

    # -- integers ---------------------------------------------------------
    def opt_int(self, name: str) -> int | None:
        """A whole number from 0 to ``MAX_INT``: every integer of the contract (ids,
        points, balances, counters, pages, seconds) is one."""
        value = self.data.get(name)
        if value is None:
            return None
        if isinstance(value, bool):
            raise self._bad(name, "an integer")
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if not isinstance(value, int):
            raise self._bad(name, "an integer")
        if not 0 <= value <= MAX_INT:
            raise self._out_of_range(name, value, f"a whole number from 0 to {MAX_INT}")
        return value

    def req_int(self, name: str) -> int:
        self._req(name, "an integer")
        value = self.opt_int(name)
        assert value is not None
        return value

    # -- numbers ----------------------------------------------------------
    def opt_number(self, name: str) -> float | None:
        value = self.data.get(name)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self._bad(name, "a number")
        if not math.isfinite(value):
            raise self._bad(name, "a finite number")
        if not 0 <= value <= MAX_NUMBER:
            raise self._out_of_range(name, value, f"a number from 0 to {MAX_NUMBER:g}")
        return float(value)

    def req_number(self, name: str) -> float:
        self._req(name, "a number")
        value = self.opt_number(name)
        assert value is not None
        return value

    # -- strings, booleans, dates -------------------------------------------
    def opt_str(self, name: str, *, exact: bool = False) -> str | None:
        """A string. Free text (a name, a description, notes) longer than ``MAX_TEXT``
        is kept cut, ending in ``CUT_MARK``; an ``exact`` value (an email, a document, a
        code, an id, a URL, a date), which a cut would make wrong, is refused instead."""
        value = self.data.get(name)
        if value is None:
            return None
        if not isinstance(value, str):
            raise self._bad(name, "a string")
        if len(value) > MAX_TEXT:
            if exact:
                raise self._bad(name, f"a string of at most {MAX_TEXT} characters")
            return clip_text(value)
        return value

    def req_str(self, name: str, *, exact: bool = False) -> str:
        self._req(name, "a string")
        value = self.opt_str(name, exact=exact)
        assert value is not None
        return value

    def opt_bool(self, name: str) -> bool | None:
        value = self.data.get(name)
        if value is None:
            return None
        if not isinstance(value, bool):
            raise self._bad(name, "a boolean")
        return value

    def opt_datetime(self, name: str) -> datetime | None:
        text = self.opt_str(name, exact=True)
        if text is None or not text.strip():
            return None
        try:
            return datetime.fromisoformat(text.strip())
        except ValueError:
            raise self._bad(name, "an ISO 8601 date-time") from None

    # -- nested -------------------------------------------------------------
    def opt_obj(self, name: str, parse: Callable[[Any], T]) -> T | None:
        value = self.data.get(name)
        if value is None:
            return None
        if not isinstance(value, dict):
            raise self._bad(name, "an object")
        return parse(value)

    def req_obj(self, name: str, parse: Callable[[Any], T]) -> T:
        self._req(name, "an object")
        value = self.opt_obj(name, parse)
        assert value is not None
        return value

    def list_of(self, name: str, parse: Callable[[Any], T]) -> tuple[T, ...]:
        """A list field (missing or null: empty)."""
        value = self.data.get(name)
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self._bad(name, "an array")
        return tuple(parse(item) for item in value)

    def int_list(self, name: str) -> tuple[int, ...]:
        value = self.data.get(name)
        if value is None:
            return ()
        if not isinstance(value, list) or any(
            isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_INT for v in value
        ):
            raise self._bad(name, f"an array of whole numbers from 0 to {MAX_INT}")
        return tuple(value)


def list_of(data: Any, what: str, parse: Callable[[Any], T]) -> tuple[T, ...]:
    """A top-level JSON array of records."""
    if not isinstance(data, list):
        raise MalformedResponse(f"{what}: expected an array, got {_type_name(data)}")
    return tuple(parse(item) for item in data)
