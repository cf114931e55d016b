"""Seed: point items, products, permission groups, operators, validation QRs, purchases.

Runs after ``seed_people.seed`` and reads the branches, levels and clients it
made (no fixed ids assumed; with none of them the matching part is skipped).
Deterministic: timestamps are offsets from the world's clock, secrets come from
the world's seeded random.
"""

from __future__ import annotations

from typing import Any

from kiosk.sim.catalog_operators import add_group, groups, password_hash
from kiosk.sim.catalog_products import refresh_enabled
from kiosk.sim.catalog_purchases import create_purchase
from kiosk.sim.catalog_seed_data import (
    MAIN_OPERATORS,
    MAIN_POINT_ITEMS,
    MAIN_PRODUCTS,
    MAIN_PURCHASES,
    OTHER_OPERATORS,
    OTHER_POINT_ITEMS,
    OTHER_PRODUCTS,
    OTHER_PURCHASES,
    PERMISSION_GROUPS,
)
from kiosk.sim.clock import iso
from kiosk.sim.world import Merchant, Record, World

DAY = 24 * 3600.0
VALIDATION_WINDOW_SECONDS = 60
MONEY_DEMO_AMOUNT = 1000.0
MAIN_MERCHANT_ID = 1


def seed(world: World, merchant: Merchant) -> None:
    main = merchant.id == MAIN_MERCHANT_ID
    now = world.clock.time()
    _point_items(world, merchant, MAIN_POINT_ITEMS if main else OTHER_POINT_ITEMS, now)
    _products(world, merchant, MAIN_PRODUCTS if main else OTHER_PRODUCTS, now)
    for name in PERMISSION_GROUPS:
        add_group(world, merchant, name)
    _operators(world, merchant, MAIN_OPERATORS if main else OTHER_OPERATORS, now)
    _qrs(world, merchant)
    _purchases(world, merchant, MAIN_PURCHASES if main else OTHER_PURCHASES, now)


def _branches(merchant: Merchant) -> list[Record]:
    return sorted(merchant.tables["branches"].values(), key=lambda b: b["id"])


def _levels(merchant: Merchant) -> list[Record]:
    return sorted(
        merchant.tables["levels"].values(), key=lambda lv: (lv.get("minPoints", 0), lv["id"])
    )


def _point_items(
    world: World,
    merchant: Merchant,
    items: list[tuple[str, int | None, float | None, bool]],
    now: float,
) -> None:
    stamp = iso(now - 60 * DAY)
    for name, points, amount, per_branch in items:
        targets: list[Record | None] = list(_branches(merchant)) if per_branch else [None]
        for branch in targets:
            item: Record = {
                "id": world.next_id("point_items"),
                "name": name if branch is None else f"{name} ({branch['name']})",
                "points": points,
                "amount": amount,
                "branchId": None if branch is None else branch["id"],
                "createdAt": stamp,
                "updatedAt": stamp,
            }
            merchant.tables["point_items"][item["id"]] = item


def _offers(world: World, merchant: Merchant, base: int, top_only: bool) -> list[Record]:
    levels = _levels(merchant)
    offers: list[Record] = []
    if not (top_only and levels):
        offers.append(
            {
                "productOfferId": world.next_id("product_offers"),
                "points": base,
                "levelId": None,
                "levelName": None,
            }
        )
    for rung, level in enumerate(levels, start=1):
        if top_only and rung != len(levels):
            continue
        price = max(10, round(base * (1 - 0.1 * rung) / 10) * 10)
        offers.append(
            {
                "productOfferId": world.next_id("product_offers"),
                "points": price,
                "levelId": level["id"],
                "levelName": level["name"],
            }
        )
    return offers


def _products(
    world: World,
    merchant: Merchant,
    rows: list[tuple[str, str, int, int | None, dict[str, Any]]],
    now: float,
) -> None:
    for index, (name, short, base, stock, extras) in enumerate(rows):
        stamp = iso(now - 90 * DAY + index * 3600)
        product: Record = {
            "id": world.next_id("products"),
            "name": name,
            "shortDescription": short,
            "description": f"{short}. Canjeable en todas las sucursales de {merchant.name}.",
            "offers": _offers(world, merchant, base, bool(extras.get("top_level_only"))),
            "stock": {"controlled": stock is not None, "available": stock or 0},
            "categoryIds": list(extras.get("categoryIds", [])),
            "createdAt": stamp,
            "updatedAt": stamp,
            "_custom_coupons": bool(extras.get("_custom_coupons")),
            "_preserved": dict(extras.get("_preserved", {})),
        }
        if "maxPurchases" in extras:
            product["maxPurchases"] = extras["maxPurchases"]
        if extras.get("_disabled_in_panel"):
            product["_disabled_in_panel"] = True
        refresh_enabled(product)
        merchant.tables["products"][product["id"]] = product


def _operators(
    world: World,
    merchant: Merchant,
    rows: list[tuple[str, str, str, str, str, bool, list[tuple[int, str | None]]]],
    now: float,
) -> None:
    branches = _branches(merchant)
    by_name = {g["name"]: g for g in groups(merchant).values()}
    for index, (first, last, email, document, role, has_password, assigned) in enumerate(rows):
        if role == "admin":
            assigned = [(i, "Encargado de sucursal") for i in range(len(branches))]
        entries = []
        for branch_index, group_name in assigned:
            if branch_index >= len(branches):
                continue
            branch = branches[branch_index]
            group = by_name.get(group_name) if group_name else None
            entries.append(
                {
                    "branchId": branch["id"],
                    "branchName": branch["name"],
                    "permissionGroupId": group["id"] if group else None,
                    "permissionGroupName": group["name"] if group else None,
                }
            )
        stamp = iso(now - (200 - 20 * index) * DAY)
        operator: Record = {
            "id": world.next_id("operators"),
            "role": role,
            "firstName": first,
            "lastName": last,
            "fullName": f"{first} {last}",
            "email": email,
            "documentNumber": document,
            "phone": f"+54 9 11 5{index:03d}-{1000 + index * 111}",
            "birthday": f"{1980 + index * 3}-0{index + 3}-1{index}T00:00:00.000Z",
            "hasCompletedOnboarding": has_password,
            "branches": entries,
            "createdAt": stamp,
            "updatedAt": stamp,
            "_password_hash": password_hash(f"demo-{email}") if has_password else None,
        }
        merchant.tables["operators"][operator["id"]] = operator


def _qrs(world: World, merchant: Merchant) -> None:
    branches = _branches(merchant)
    for branch in branches:
        _add_qr(world, merchant, branch, f"Caja principal - {branch['name']}", active=True)
    if branches:
        _add_qr(
            world,
            merchant,
            branches[0],
            f"Mostrador (desactivado) - {branches[0]['name']}",
            active=False,
        )


def _add_qr(world: World, merchant: Merchant, branch: Record, name: str, *, active: bool) -> None:
    qr = {
        "qrId": world.next_id("qrs"),
        "qrName": name,
        "branchId": branch["id"],
        "branchName": branch["name"],
        "validationWindowSeconds": VALIDATION_WINDOW_SECONDS,
        "_secret": f"{world.random.getrandbits(128):032x}",
        "_active": active,
        "_rotating": True,
    }
    merchant.tables["qrs"][qr["qrId"]] = qr


def _purchases(
    world: World, merchant: Merchant, rows: list[tuple[str, str, str | None, float]], now: float
) -> None:
    clients = [
        c
        for c in sorted(merchant.tables["clients"].values(), key=lambda c: c["id"])
        if c.get("_removed_at") is None and c.get("status", "ACTIVE") == "ACTIVE"
    ]
    if not clients:
        return
    branches = _branches(merchant)
    products = {p["name"]: p for p in merchant.tables["products"].values()}
    for index, (code, status, product_name, age_days) in enumerate(rows):
        client = clients[index % len(clients)]
        product = products.get(product_name) if product_name else None
        offer = min(product["offers"], key=lambda o: o["points"]) if product else None
        points = (
            offer["points"]
            if offer
            else round(MONEY_DEMO_AMOUNT * merchant.rules.points_per_currency)
        )
        purchase = create_purchase(
            world,
            merchant,
            client=client,
            branch=branches[index % len(branches)] if branches else None,
            points=points,
            product=product,
            offer_id=offer["productOfferId"] if offer else None,
            money_amount=None if product else MONEY_DEMO_AMOUNT,
            code=code,
            created_at=now - age_days * DAY,
            status="pending" if status == "expired" else status,
        )
        if status == "delivered":
            purchase["updatedAt"] = iso(now - age_days * DAY + 3600)
