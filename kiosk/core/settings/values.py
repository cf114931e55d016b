"""The value types of settings, and their parsers: INI text or JSON value in, typed value out.

Each raises ``ValueError`` with a reason written for the person fixing the file.
The reason never repeats the value (a PIN hash must not end up in a log).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar
from urllib.parse import urlsplit

E = TypeVar("E", bound=StrEnum)


class Environment(StrEnum):
    PRODUCTION = "production"
    QA = "qa"
    TRAINING = "training"  # the simulator, in process: no key, no network, no real points


class Language(StrEnum):
    AUTO = "auto"
    EN = "en"
    ES = "es"


class Theme(StrEnum):
    LIGHT = "light"
    DARK = "dark"


class OnScreenKeyboard(StrEnum):
    AUTO = "auto"  # when a field takes focus on a touch device
    ALWAYS = "always"
    NEVER = "never"


_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})
_LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})
MAX_ID = 2**31 - 1
MAX_POINT_ITEMS = 60
_PIN_HASH = re.compile(r"[A-Za-z0-9$+/=:.,_*-]{16,512}")


def _text(raw: object) -> str | None:
    return raw.strip() if isinstance(raw, str) else None


def choice(enum_type: type[E]) -> Callable[[object], E]:
    allowed = ", ".join(member.value for member in enum_type)

    def parse(raw: object) -> E:
        text = _text(raw)
        for member in enum_type:
            if text is not None and text.lower() == member.value.lower():
                return member
        raise ValueError(f"must be one of {allowed}")

    return parse


def boolean(raw: object) -> bool:
    if isinstance(raw, bool):
        return raw
    text = (_text(raw) or "").lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError("must be true or false")


def _int(raw: object) -> int:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    text = _text(raw)
    if text is not None and text.isascii() and text.isdigit():
        return int(text)
    raise ValueError("must be a whole number")


@dataclass(frozen=True)
class Integer:
    """A whole number from ``low`` to ``high`` (the bounds also go into the policy
    templates: ``build/policy_templates.py``)."""

    low: int
    high: int

    def __call__(self, raw: object) -> int:
        value = _int(raw)
        if not self.low <= value <= self.high:
            raise ValueError(f"must be between {self.low} and {self.high}")
        return value


def integer(low: int, high: int) -> Integer:
    return Integer(low, high)


def optional_id(raw: object) -> int | None:
    """A positive id, or nothing (empty text / null)."""
    if raw is None or _text(raw) == "":
        return None
    value = _int(raw)
    if not 1 <= value <= MAX_ID:
        raise ValueError("must be a positive id")
    return value


def _items(raw: object) -> list[object]:
    if isinstance(raw, list | tuple):
        return list(raw)
    text = _text(raw)
    if text is None:
        raise ValueError("must be a list")
    return [part for part in re.split(r"[,\s]+", text) if part]


def id_list(raw: object) -> tuple[int, ...]:
    """Positive ids in order, no repeats: ``12, 37, 5`` or ``[12, 37, 5]``."""
    ids: list[int] = []
    for item in _items(raw):
        try:
            value = optional_id(item)
        except ValueError:
            raise ValueError("must be positive ids separated by commas") from None
        if value is None:
            raise ValueError("must be positive ids separated by commas")
        if value in ids:
            raise ValueError(f"lists id {value} twice")
        ids.append(value)
    if len(ids) > MAX_POINT_ITEMS:
        raise ValueError(f"can list at most {MAX_POINT_ITEMS} ids")
    return tuple(ids)


def key_list(raw: object) -> tuple[str, ...]:
    """Setting keys (``environment, branch_id``) or ``*``; unknown keys are checked later."""
    keys = []
    for item in _items(raw):
        text = _text(item)
        if not text or not re.fullmatch(r"\*|[a-z][a-z0-9_]*", text.lower()):
            raise ValueError("must be setting keys separated by commas, or *")
        keys.append(text.lower())
    return tuple(dict.fromkeys(keys))


def url(raw: object) -> str | None:
    """An https base URL (http only for this machine), without a trailing slash."""
    if raw is None or _text(raw) == "":
        return None
    text = _text(raw)
    if text is None:
        raise ValueError("must be a URL")
    parts = urlsplit(text)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise ValueError("must be a URL like https://api.example.com")
    if parts.scheme == "http" and parts.hostname not in _LOOPBACK:
        raise ValueError("must use https (plain http only for localhost)")
    if parts.username or parts.password or parts.query or parts.fragment:
        raise ValueError("must not carry credentials, a query or a fragment")
    return text.rstrip("/")


def pin_hash(raw: object) -> str | None:
    """A salted PIN hash string (as the kiosk's PIN tool writes it), never a bare PIN."""
    if raw is None or _text(raw) == "":
        return None
    text = _text(raw)
    if text is not None and text.isdigit() and len(text) <= 12:
        raise ValueError("looks like a plain PIN: store only its hash")
    if text is None or not _PIN_HASH.fullmatch(text):
        raise ValueError("is not a PIN hash")
    return text
