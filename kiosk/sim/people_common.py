"""Shared helpers of the people side of the simulator: branches, clients, messages.

A client "in operation" is one whose removal was not scheduled (``_removed_at`` is
``None``): only those are found by search, list, credit, preview and exchange.
Removed clients still hold their email, document and affiliate card until the
grace period ends and they are anonymized (``_anonymized``), so nobody can take
those identifiers meanwhile.
"""

from __future__ import annotations

import string
import unicodedata
from typing import Any

from kiosk.sim.http import ApiError, Validator, not_found
from kiosk.sim.world import Merchant, Record, World

CLIENT_NOT_FOUND = "Client not found"
BRANCH_NOT_FOUND = "Sucursal no encontrada"
CLIENT_SUSPENDED = "El cliente se encuentra suspendido."
CLIENT_TAKEN = "El cliente ya se encuentra registrado."
EMAIL_TAKEN = "El email ya está en uso por otro cliente."
DOCUMENT_TAKEN = "El documento ya está en uso por otro cliente."
CARD_TAKEN = "La tarjeta de afiliado ya está en uso."
EMAIL_LOCKED = "El email no puede modificarse: el cliente ya ingresó a la plataforma."

# Registration links point at a reserved, never-resolving domain (RFC 2606).
REGISTER_BASE = "https://registro.example.test/r/"
DOCUMENT_TYPES = ("DNI", "PASSPORT")
ACTIVE = "ACTIVE"
SUSPENDED = "SUSPENDED"


# ---------------------------------------------------------------- branches


def branch_of(world: World, merchant: Merchant, branch_id: int) -> Record:
    """The merchant's branch; 403 when it belongs to another merchant, 404 when none has it."""
    record = merchant.tables["branches"].get(branch_id)
    if record is not None:
        return record
    if world.owner_of("branches", branch_id) is not None:
        raise ApiError(
            403, f"Branch with id {branch_id} does not belong to business with id {merchant.id}"
        )
    raise not_found(BRANCH_NOT_FOUND)


# ---------------------------------------------------------------- clients


def in_operation(client: Record) -> bool:
    return client.get("_removed_at") is None


def operating_clients(merchant: Merchant) -> list[Record]:
    return [c for c in merchant.tables["clients"].values() if in_operation(c)]


def holding_clients(merchant: Merchant) -> list[Record]:
    """Clients whose identifiers are taken: in operation or within the removal grace period."""
    return [c for c in merchant.tables["clients"].values() if not c.get("_anonymized")]


def find_by_email(clients: list[Record], email: str | None) -> Record | None:
    if not email:
        return None
    wanted = email.strip().casefold()
    for client in clients:
        if (client.get("email") or "").casefold() == wanted:
            return client
    return None


def find_by_document(clients: list[Record], document: str | None) -> Record | None:
    if not document:
        return None
    wanted = document.strip().upper()
    for client in clients:
        if (client.get("document_number") or "").upper() == wanted:
            return client
    return None


def find_by_card(clients: list[Record], card: str | None) -> Record | None:
    if not card:
        return None
    for client in clients:
        if client.get("affiliate_card") == card:
            return client
    return None


def client_or_404(merchant: Merchant, client_id: int) -> Record:
    client = merchant.tables["clients"].get(client_id)
    if client is None or not in_operation(client):
        raise not_found(CLIENT_NOT_FOUND)
    return client


def check_not_suspended(client: Record) -> None:
    if client.get("status") == SUSPENDED:
        raise ApiError(403, CLIENT_SUSPENDED)


# ---------------------------------------------------------------- documents


def infer_document_type(number: str) -> str:
    """The merchant is Argentine: digits are a DNI, anything alphanumeric a passport."""
    return "DNI" if number.isdigit() else "PASSPORT"


def document_problem(number: str, document_type: str) -> str | None:
    """Why ``number`` is not a valid document of ``document_type``, or ``None``."""
    if document_type == "DNI":
        if not number.isdigit() or not 6 <= len(number) <= 8:
            return "a DNI must have 6 to 8 digits, without dots"
        return None
    if not number.isalnum() or not 5 <= len(number) <= 20:
        return "a passport must have 5 to 20 letters or digits"
    return None


def full_name(first: str | None, last: str | None) -> str:
    return " ".join(part for part in ((first or "").strip(), (last or "").strip()) if part)


# ---------------------------------------------------------------- text search


def fold(text: Any) -> str:
    """Case- and accent-insensitive form for partial searches."""
    if text is None:
        return ""
    decomposed = unicodedata.normalize("NFKD", str(text))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def register_token(world: World) -> str:
    alphabet = string.ascii_letters + string.digits
    return "".join(world.random.choice(alphabet) for _ in range(24))


def register_url(client: Record) -> str | None:
    if client.get("_registered"):
        return None
    return REGISTER_BASE + str(client.get("_register_token") or "")


# ---------------------------------------------------------------- query parameters


def query_int(v: Validator, params: dict[str, str], name: str, minimum: int) -> int | None:
    raw = params.get(name)
    if raw is None or raw.strip() == "":
        return None
    try:
        value = int(raw.strip())
    except ValueError:
        v.fail(name, "isInt", f"{name} must be an integer number", raw)
        return None
    if value < minimum:
        v.fail(name, "min", f"{name} must not be less than {minimum}", value)
        return None
    return value


def query_date(
    v: Validator, params: dict[str, str], name: str, *, end_of_day: bool
) -> float | None:
    """An ISO 8601 query parameter as epoch seconds; a bare date ending a range covers its day."""
    from kiosk.sim.clock import parse_iso

    raw = params.get(name)
    if raw is None or raw.strip() == "":
        return None
    try:
        value = parse_iso(raw)
    except ValueError:
        v.fail(name, "isDateString", f"{name} must be a valid ISO 8601 date string", raw)
        return None
    if end_of_day and len(raw.strip()) == 10:
        value += 86400 - 0.001
    return value


# ---------------------------------------------------------------- creation


def build_client(world: World, merchant: Merchant, **fields: Any) -> Record:
    """Store a new client of ``merchant`` with every contract field; ``fields`` override.

    Field names are the record's (snake_case); private keys start with ``_``.
    """
    now = world.now_iso()
    client_id = world.next_id("clients")
    document = fields.pop("document_number", None)
    record: Record = {
        "id": client_id,
        "name": "",
        "first_name": "",
        "last_name": "",
        "email": None,
        "dni": document,
        "document_number": document,
        "document_type": infer_document_type(document) if document else None,
        "phone": None,
        "gender": 3,
        "affiliate_card": None,
        "score": 0,
        "total_score": 0,
        "description": None,
        "birthday": None,
        "status": ACTIVE,
        "created_at": now,
        "last_transaction": None,
        "purchases_counter": 0,
        "reads_counter": 0,
        "level": None,
        "_removed_at": None,
        "_registered": False,
        "_register_token": register_token(world),
        "_tag_ids": [],
        "_branch_id": None,
        "_last_credit": None,
    }
    record.update(fields)
    record["name"] = full_name(record["first_name"], record["last_name"])
    merchant.tables["clients"][client_id] = record
    return record


def welcome(world: World, merchant: Merchant, client: Record) -> None:
    """Credit the merchant's welcome points to a client just created."""
    points = merchant.rules.welcome_points
    if points > 0:
        client["score"] += points
        client["total_score"] += points
        client["last_transaction"] = world.now_iso()
