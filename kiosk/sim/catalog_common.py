"""Helpers shared by the catalog side of the simulator (products, point items,
exchanges, purchases, operators, validation codes): lookups with the contract's
404/403 answers, text folding for ``query`` searches, small record pieces.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from starlette.requests import Request

from kiosk.sim.http import ApiError, Validator, branch_header, not_found, world_of
from kiosk.sim.world import Merchant, Record

BRANCH_NOT_FOUND = "Sucursal no encontrada"
CLIENT_NOT_FOUND = "Client not found"
LEVEL_NOT_FOUND = "Level not found"
SUSPENDED_CLIENT = "El cliente se encuentra suspendido."


def fold(text: Any) -> str:
    """Lower case without accents, for partial, accent-insensitive searches."""
    if text is None:
        return ""
    decomposed = unicodedata.normalize("NFKD", str(text))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def matches(query: str | None, *values: Any) -> bool:
    """True when ``query`` is absent or a partial, accent-insensitive match of any value."""
    if query is None:
        return True
    needle = fold(query)
    return any(needle in fold(value) for value in values if value is not None)


def format_amount(value: float) -> str:
    """A currency amount as people write it: ``500``, ``1500.5``."""
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}".rstrip("0")


# ------------------------------------------------------------------ branches


def branch_of_merchant(
    request: Request, merchant: Merchant, branch_id: int, *, strict: bool
) -> Record:
    """The merchant's branch ``branch_id``.

    A branch that does not exist is 404 ``Sucursal no encontrada``. A branch of
    another merchant is the same 404 when ``strict`` is false (lists, as the
    point-item list documents), and 403 with the credit's message otherwise
    (operations that record a branch).
    """
    branch = merchant.tables["branches"].get(branch_id)
    if branch is not None:
        return branch
    owner = world_of(request).owner_of("branches", branch_id)
    if owner is not None and strict:
        raise ApiError(
            403, f"Branch with id {branch_id} does not belong to business with id {merchant.id}"
        )
    raise not_found(BRANCH_NOT_FOUND)


def header_branch(request: Request, merchant: Merchant, *, strict: bool) -> Record | None:
    """The branch named by ``x-branch-id`` (validated as above), ``None`` when absent."""
    branch_id = branch_header(request)
    if branch_id is None:
        return None
    return branch_of_merchant(request, merchant, branch_id, strict=strict)


def branch_summary(branch: Record | None) -> Record | None:
    return None if branch is None else {"id": branch["id"], "name": branch["name"]}


# ------------------------------------------------------------------- clients


def active_client(merchant: Merchant, client_id: int) -> Record:
    """The client ``client_id``; 404 ``Client not found`` when missing, of another
    merchant, or scheduled for removal."""
    client = merchant.tables["clients"].get(client_id)
    if client is None or client.get("_removed_at") is not None:
        raise not_found(CLIENT_NOT_FOUND)
    return client


def ensure_not_suspended(client: Record) -> None:
    if client.get("status") == "SUSPENDED":
        raise ApiError(403, SUSPENDED_CLIENT)


def client_summary(client: Record) -> Record:
    return {
        "id": client["id"],
        "firstName": client.get("first_name"),
        "lastName": client.get("last_name"),
        "email": client.get("email"),
    }


# -------------------------------------------------------------------- levels


def level_of_merchant(merchant: Merchant, level_id: int) -> Record:
    level = merchant.tables["levels"].get(level_id)
    if level is None:
        raise not_found(LEVEL_NOT_FOUND)
    return level


# ------------------------------------------------------------------- queries


def bool_param(v: Validator, params: dict[str, str], name: str) -> bool | None:
    """A boolean query parameter (``true``/``false``); a validation item otherwise."""
    raw = params.get(name)
    if raw is None or raw == "":
        return None
    lowered = raw.strip().lower()
    if lowered in ("true", "1"):
        return True
    if lowered in ("false", "0"):
        return False
    v.fail(name, "isBoolean", f"{name} must be a boolean value", raw)
    return None


def int_param(v: Validator, params: dict[str, str], name: str) -> int | None:
    """A positive integer query parameter; a validation item otherwise."""
    raw = params.get(name)
    if raw is None or raw == "":
        return None
    try:
        value = int(raw.strip())
    except ValueError:
        value = 0
    if value < 1:
        v.fail(name, "isInt", f"{name} must be an integer number", raw)
        return None
    return value


def choice_param(
    v: Validator, params: dict[str, str], name: str, choices: tuple[str, ...]
) -> str | None:
    raw = params.get(name)
    if raw is None or raw == "":
        return None
    if raw not in choices:
        v.fail(
            name, "isIn", f"{name} must be one of the following values: {', '.join(choices)}", raw
        )
        return None
    return raw
