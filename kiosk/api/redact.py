"""Masking of personal data and secrets, for logs and for the screen.

``mask_email('ana.perez@gmail.com') == 'a***@gmail.com'`` and
``mask_document('30123456') == '****3456'``. ``redact_text`` finds emails,
document-like numbers and what looks like an API key (``lk_live_…``: a prefix, a
mode, then the secret part) inside free text (log lines, API messages) and masks
them; ``redact_url_text`` also masks a search term in a query string
(``query=Santiago`` becomes ``query=S***``): what a manager typed to find a client
is personal data.
"""

from __future__ import annotations

import hashlib
import re
from urllib.parse import unquote_plus

_EMAIL = re.compile(r"([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*@([A-Za-z0-9.-]+\.[A-Za-z]{2,})")
# 7 to 11 digits (DNI 7-8, CUIL/CUIT 11), optionally with dots (30.123.456), not inside a longer number.
_DOCUMENT = re.compile(r"(?<![\d.])(\d{1,2}\.?\d{3}\.?\d{3}|\d{9,11})(?![\d.])")
# A key in the usual "prefix_mode_secret" shape, whole or cut: lk_live_9f8e..., sk_test_...
_KEY_LIKE = re.compile(
    r"(?<![A-Za-z0-9])([A-Za-z]{2,8}_(?:live|test|prod|production|qa|sandbox)_)"
    r"[A-Za-z0-9]{4,}[A-Za-z0-9_+/=.~-]*",
    re.IGNORECASE,
)
# A search term in a query string (a client's name, email, document, phone).
_SEARCH_TERM = re.compile(r"([?&](?:query|search|q)=)([^&\s#'\"<>]+)", re.IGNORECASE)
KEY_MASK = "***"


def mask_email(email: str | None) -> str:
    if not email:
        return ""
    local, sep, domain = email.partition("@")
    if not sep:
        return mask_document(email)
    return f"{local[:1]}***@{domain}"


def mask_document(document: str | None) -> str:
    if not document:
        return ""
    clean = document.strip()
    if len(clean) <= 4:
        return "*" * len(clean)
    return "****" + clean[-4:]


def redact_text(text: str) -> str:
    """``text`` with every key-like token, email and document-like number masked."""
    text = _KEY_LIKE.sub(lambda m: m.group(1) + KEY_MASK, text)
    text = _EMAIL.sub(lambda m: f"{m.group(1)}***@{m.group(2)}", text)
    return _DOCUMENT.sub(lambda m: mask_document(m.group(1).replace(".", "")), text)


_ENCODED_AT = re.compile(r"%(?:25)?40", re.IGNORECASE)


def mask_search_term(term: str) -> str:
    """A search term as a log may keep it: an email or a document as such, anything
    else (a name, a phone) its first character."""
    term = term.strip()
    if "@" in term:
        return mask_email(term)
    if term.replace(".", "").replace("-", "").isdigit():
        return mask_document(term)
    return f"{term[:1]}***" if term else ""


def redact_url_text(text: str) -> str:
    """``redact_text`` for text that may hold URLs: a percent-encoded ``@`` (``%40``,
    as httpx writes query strings) is decoded first, so an email in a query string
    is found and masked too; a search term (``query=``) is masked whatever it is."""
    text = _SEARCH_TERM.sub(lambda m: m.group(1) + mask_search_term(unquote_plus(m.group(2))), text)
    return redact_text(_ENCODED_AT.sub("@", text))


def key_fingerprint(api_key: str) -> str:
    """A stable, non-reversible name for a key (registry and logs): never the key."""
    return hashlib.sha256(b"loyalty-kiosk-key:" + api_key.encode()).hexdigest()[:12]
