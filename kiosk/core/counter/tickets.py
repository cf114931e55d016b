"""The credit's idempotency key (``external_id``) and what it tells the merchant's reports.

A POS ticket number restarts (per day, per register, per fiscal period), so a
bare one would collide: the key is built from the branch, the kiosk's local
date and the ticket the cashier typed,

    ``b12-20261122-T0003-00012345``

and when no ticket is typed the kiosk makes one up, once, before the first
attempt (the outbox stores it and every retry reuses it):

    ``b12-20261122-k1a2b3c4d-0123456789ab``

The ``T`` / ``k`` marker keeps the two families apart, so ``external_id_kind``
(``kiosk.core.outbox.external_ids``: the outbox owns the ids it sends) tells whether
a 409 is about a cashier's ticket (already credited, no new points) or about a retry
of our own credit (success).
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
from collections.abc import Callable
from datetime import date
from pathlib import Path

_log = logging.getLogger(__name__)

ORIGIN = "external-integration"
"""The credit's ``origin``: the contract's value for a merchant's own system."""
SOURCE = "loyalty-kiosk"
"""Names this app inside ``extra_data``."""
MAX_TICKET_LENGTH = 32
MAX_EXTERNAL_ID_LENGTH = 64
_KIOSK_ID = re.compile(r"[0-9a-f]{8}")
_SEPARATORS = re.compile(r"[\s/\\._:#]+")


class TicketError(ValueError):
    """The ticket number typed by the cashier cannot be used."""


def normalize_ticket(text: str | None) -> str | None:
    """The ticket in its one canonical form, or None when nothing was typed.

    Trimmed and upper-cased; spaces, ``/``, ``.``, ``_``, ``:``, ``#`` become ``-``
    (so ``0003 00012345`` and ``0003/00012345`` are the same ticket as
    ``0003-00012345``); dashes collapse. Anything else left outside ``A-Z0-9-``
    or longer than ``MAX_TICKET_LENGTH`` raises ``TicketError`` rather than
    being silently dropped, which could merge two different tickets.
    """
    if text is None:
        return None
    ticket = _SEPARATORS.sub("-", text.strip().upper())
    ticket = re.sub(r"-{2,}", "-", ticket).strip("-")
    if not ticket:
        return None
    if not re.fullmatch(r"[A-Z0-9-]+", ticket):
        raise TicketError("The ticket number may contain only letters, digits and '-'.")
    if len(ticket) > MAX_TICKET_LENGTH:
        raise TicketError(f"The ticket number is longer than {MAX_TICKET_LENGTH} characters.")
    return ticket


def _prefix(branch_id: int | None, local_date: date) -> str:
    if branch_id is not None and branch_id < 0:
        raise ValueError("branch id must not be negative")
    return f"b{branch_id or 0}-{local_date:%Y%m%d}"


def ticket_external_id(branch_id: int | None, local_date: date, ticket: str) -> str:
    """The external id of a credit for the cashier's ``ticket`` (normalized here)."""
    normalized = normalize_ticket(ticket)
    if normalized is None:
        raise TicketError("The ticket number is empty.")
    return _checked(f"{_prefix(branch_id, local_date)}-T{normalized}")


def _random_token() -> str:
    """48 random bits as 12 hex digits (what ``uuid4().hex[:12]`` gave, without
    importing ``uuid``, which loads ``platform`` on Linux)."""
    return secrets.token_hex(6)


def kiosk_external_id(
    branch_id: int | None,
    local_date: date,
    kiosk_id: str,
    *,
    token: Callable[[], str] = _random_token,
) -> str:
    """A fresh external id made by the kiosk (``token`` is injectable for tests)."""
    _check_kiosk_id(kiosk_id)
    part = token()
    if not re.fullmatch(r"[0-9a-z]{6,32}", part):
        raise ValueError("token must be 6-32 lowercase letters or digits")
    return _checked(f"{_prefix(branch_id, local_date)}-k{kiosk_id}-{part}")


def credit_external_id(
    branch_id: int | None,
    local_date: date,
    ticket: str | None,
    kiosk_id: str,
    *,
    token: Callable[[], str] = _random_token,
) -> str:
    """The ticket's external id when the cashier typed one, else a kiosk-made one."""
    normalized = normalize_ticket(ticket)
    if normalized is not None:
        return ticket_external_id(branch_id, local_date, normalized)
    return kiosk_external_id(branch_id, local_date, kiosk_id, token=token)


def _checked(external_id: str) -> str:
    if len(external_id) > MAX_EXTERNAL_ID_LENGTH:
        raise ValueError(f"external id longer than {MAX_EXTERNAL_ID_LENGTH} characters")
    return external_id


def _check_kiosk_id(kiosk_id: str) -> None:
    if not _KIOSK_ID.fullmatch(kiosk_id):
        raise ValueError("kiosk id must be 8 lowercase hex digits")


def extra_data(
    kiosk_id: str,
    *,
    app_version: str | None = None,
    ticket: str | None = None,
    mode: str | None = None,
) -> str:
    """The credit's ``extra_data``: a JSON-encoded array holding one object.

    Names the app and the kiosk so the merchant's reports show which counter
    credited; optionally the app version, the cashier's ticket and how the
    credit was made (``amount`` / ``items``). No personal data, ever.
    """
    _check_kiosk_id(kiosk_id)
    entry: dict[str, str] = {"source": SOURCE, "kiosk_id": kiosk_id}
    if app_version:
        entry["app_version"] = app_version
    normalized = normalize_ticket(ticket)
    if normalized:
        entry["ticket"] = normalized
    if mode:
        entry["mode"] = mode
    return json.dumps([entry], separators=(",", ":"), sort_keys=True)


def new_kiosk_id() -> str:
    return secrets.token_hex(4)


def load_kiosk_id(path: Path) -> str:
    """This installation's kiosk id, created at ``path`` on first use and kept for good.

    The file appears whole or not at all (written aside, then hard-linked into
    place, which fails if it exists), so two processes starting at once agree on
    one id. A damaged file is replaced (and logged): the id only labels reports,
    the external ids stay unique on their own.
    """
    existing = _read_kiosk_id(path)
    if existing is not None:
        if _KIOSK_ID.fullmatch(existing):
            return existing
        _log.warning("kiosk id file %s is damaged; making a new kiosk id", path)
        path.unlink(missing_ok=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    kiosk_id = new_kiosk_id()
    aside = path.with_name(f"{path.name}.{kiosk_id}.tmp")
    try:
        with aside.open("w", encoding="ascii") as handle:
            handle.write(kiosk_id + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.link(aside, path)
    except FileExistsError:
        winner = _read_kiosk_id(path)  # another process won the race: use its id
        if winner is None or not _KIOSK_ID.fullmatch(winner):
            raise
        return winner
    finally:
        aside.unlink(missing_ok=True)
    _log.info("new kiosk id %s", kiosk_id)
    return kiosk_id


def _read_kiosk_id(path: Path) -> str | None:
    """The file's text, None when there is no file, "" when it cannot be read."""
    try:
        return path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError):
        return ""
