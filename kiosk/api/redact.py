"""Masking of personal data and secrets, for logs and for the screen.

``mask_email('ana.perez@gmail.com') == 'a***@gmail.com'`` and
``mask_document('30123456') == '****3456'``. ``redact_text`` finds emails and
document-like numbers inside free text (log lines, API messages) and masks them.
"""

from __future__ import annotations

import hashlib
import re

_EMAIL = re.compile(r"([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*@([A-Za-z0-9.-]+\.[A-Za-z]{2,})")
# 7 to 11 digits (DNI 7-8, CUIL/CUIT 11), optionally with dots (30.123.456), not inside a longer number.
_DOCUMENT = re.compile(r"(?<![\d.])(\d{1,2}\.?\d{3}\.?\d{3}|\d{9,11})(?![\d.])")


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
    """``text`` with every email and document-like number masked."""
    text = _EMAIL.sub(lambda m: f"{m.group(1)}***@{m.group(2)}", text)
    return _DOCUMENT.sub(lambda m: mask_document(m.group(1).replace(".", "")), text)


_ENCODED_AT = re.compile(r"%(?:25)?40", re.IGNORECASE)


def redact_url_text(text: str) -> str:
    """``redact_text`` for text that may hold URLs: a percent-encoded ``@`` (``%40``,
    as httpx writes query strings) is decoded first, so an email in a query string
    is found and masked too."""
    return redact_text(_ENCODED_AT.sub("@", text))


def key_fingerprint(api_key: str) -> str:
    """A stable, non-reversible name for a key (registry and logs): never the key."""
    return hashlib.sha256(b"loyalty-kiosk-key:" + api_key.encode()).hexdigest()[:12]
