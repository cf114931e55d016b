"""Redaction at the log handler: install once on every handler the app creates.

``RedactingFilter`` (or ``RedactingFormatter`` wrapping any formatter) rewrites each
record so that no line reaching a file or console carries

- a registered secret (the API key: every ``LoyaltyClient`` registers its own), whole
  or in part (a piece of at least half of it, and at least 8 characters: a key cut
  short in a message);
- a ``register_url`` seen by the client: they are remembered only as hashes, and
  any URL in a line whose hash matches is replaced;
- an email address or document number (``redact.redact_text``).

Installed on handlers, not loggers: a logger's filter does not see the records of
its child loggers (``httpx``, ``httpcore`` and ours all reach the root handlers).
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
from collections import OrderedDict

from kiosk.api.redact import redact_url_text

MASK = "***"
URL_MASK = "<secret url>"
_MIN_SECRET = 6
_TOKEN = re.compile(r"[A-Za-z0-9+_.~-]{8,}")  # a piece of a secret: 8 characters at least
_MAX_URL_HASHES = 2048
_URL = re.compile(r"https?://[^\s'\"<>()\[\]{}]+")

_lock = threading.Lock()
_secrets: set[str] = set()
_url_hashes: OrderedDict[str, None] = OrderedDict()


def register_secret(value: str) -> None:
    """Mask ``value`` wherever it appears in a log record from now on."""
    if len(value) >= _MIN_SECRET:
        with _lock:
            _secrets.add(value)


def forget_secret(value: str) -> None:
    with _lock:
        _secrets.discard(value)


def _url_hash(url: str) -> str:
    return hashlib.sha256(url.encode()).hexdigest()


def register_secret_url(url: str) -> None:
    """Mask this URL in logs; only its hash is kept (the most recent 2048)."""
    digest = _url_hash(url.rstrip(".,;:"))
    with _lock:
        _url_hashes[digest] = None
        _url_hashes.move_to_end(digest)
        while len(_url_hashes) > _MAX_URL_HASHES:
            _url_hashes.popitem(last=False)


def redact(text: str) -> str:
    """``text`` without secrets, secret URLs, emails and document numbers."""
    with _lock:
        secrets = sorted(_secrets, key=len, reverse=True)
        check_urls = bool(_url_hashes)
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, MASK)
    if secrets:
        text = _TOKEN.sub(lambda m: _mask_part(m.group(0), secrets), text)
    if check_urls and "://" in text:
        text = _URL.sub(_mask_url, text)
    return redact_url_text(text)


def _mask_part(token: str, secrets: list[str]) -> str:
    """``token`` masked when it is a long enough piece of a secret."""
    for secret in secrets:
        if len(token) * 2 >= len(secret) and token in secret:
            return MASK
    return token


def _mask_url(match: re.Match[str]) -> str:
    token = match.group(0)
    stripped = token.rstrip(".,;:")
    if _url_hash(stripped) in _url_hashes:
        return URL_MASK + token[len(stripped) :]
    return token


class RedactingFilter(logging.Filter):
    """A handler filter that rewrites the record's message, traceback and stack."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string: log it raw but still redacted
            message = f"{record.msg!r} {record.args!r}"
        record.msg = redact(message)
        record.args = None
        if record.exc_info and record.exc_info[0] is not None:
            text = record.exc_text or logging.Formatter().formatException(record.exc_info)
            record.exc_text = redact(text)
        elif record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


class RedactingFormatter(logging.Formatter):
    """Wraps a formatter and redacts its whole output (covers custom fields too)."""

    def __init__(self, inner: logging.Formatter | None = None) -> None:
        super().__init__()
        self.inner = inner or logging.Formatter()

    def format(self, record: logging.LogRecord) -> str:
        return redact(self.inner.format(record))


def install(handler: logging.Handler) -> logging.Handler:
    """Add the redacting filter to ``handler`` (idempotent); returns it."""
    if not any(isinstance(f, RedactingFilter) for f in handler.filters):
        handler.addFilter(RedactingFilter())
    return handler
