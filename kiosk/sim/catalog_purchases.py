"""Purchase records (exchange results) shared by exchanges, purchases and the seed.

A purchase is stored exactly as the contract shows it plus private keys:
``_client_id``, ``_product_id``, ``_offer_id`` (None for money), ``_expires_at``
(epoch seconds), ``_created_ts`` (epoch seconds, for ordering), and once
delivered ``_redeemed_branch_id``.
"""

from __future__ import annotations

from kiosk.sim.catalog_common import branch_summary, client_summary
from kiosk.sim.clock import iso
from kiosk.sim.world import Merchant, Record, World

# Codes are read aloud and typed at the counter: no 0/O, 1/I/L.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8


def code_taken(world: World, code: str) -> bool:
    return any(
        p["code"] == code for m in world.merchants.values() for p in m.tables["purchases"].values()
    )


def new_code(world: World) -> str:
    """A fresh purchase code, unique across every merchant."""
    while True:
        code = "".join(world.random.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not code_taken(world, code):
            return code


def normalize_code(raw: str) -> str:
    return raw.strip().upper()


def create_purchase(
    world: World,
    merchant: Merchant,
    *,
    client: Record,
    branch: Record | None,
    points: int,
    product: Record | None = None,
    offer_id: int | None = None,
    money_amount: float | None = None,
    code: str | None = None,
    created_at: float | None = None,
    status: str = "pending",
) -> Record:
    """Store and return a new purchase record (no balance change here)."""
    ts = world.clock.time() if created_at is None else created_at
    stamp = iso(ts)
    purchase: Record = {
        "id": world.next_id("purchases"),
        "code": code or new_code(world),
        "status": status,
        "type": "product" if product is not None else "money",
        "points": points,
        "moneyAmount": money_amount,
        "product": None if product is None else {"id": product["id"], "name": product["name"]},
        "client": client_summary(client),
        "branch": branch_summary(branch),
        "createdAt": stamp,
        "updatedAt": stamp,
        "_client_id": client["id"],
        "_product_id": None if product is None else product["id"],
        "_offer_id": offer_id,
        "_created_ts": ts,
        "_expires_at": ts + merchant.rules.purchase_ttl_seconds,
    }
    merchant.tables["purchases"][purchase["id"]] = purchase
    return purchase


def find_purchase(merchant: Merchant, raw_code: str) -> Record | None:
    code = normalize_code(raw_code)
    for purchase in merchant.tables["purchases"].values():
        if purchase["code"] == code:
            return purchase
    return None


def is_expired(world: World, purchase: Record) -> bool:
    expires_at = purchase.get("_expires_at")
    return expires_at is not None and world.clock.time() >= float(expires_at)


def purchases_of(merchant: Merchant, client_id: int, product_id: int) -> int:
    """Non-canceled purchases of ``product_id`` by ``client_id`` (the per-client cap count)."""
    return sum(
        1
        for p in merchant.tables["purchases"].values()
        if p.get("_client_id") == client_id
        and p.get("_product_id") == product_id
        and p["status"] != "canceled"
    )


def purchase_view(merchant: Merchant, purchase: Record) -> Record:
    """The public record, with the client's current name and email (an update or
    the anonymization after removal shows through)."""
    view = {k: v for k, v in purchase.items() if not k.startswith("_")}
    client = merchant.tables["clients"].get(purchase.get("_client_id", -1))
    if client is not None:
        view["client"] = client_summary(client)
    return view
