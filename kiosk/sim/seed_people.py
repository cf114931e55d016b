"""Seed: branches, levels, clients and their credit history (the ledger).

Almacén del Sol (merchant 1), an Argentine grocery chain: three branches (Palermo
carries the demo point rule, +10%), levels Bronce / Plata / Oro and 36 clients,
among them the people of ``shared/data/dni-barcodes.md`` who are members (Juan
Carlos Pérez 30123456, María José González Fernández 27456789; Ana López
44123987 and Pablo Martín Rodríguez 20111222 are left out so enrollment can be
shown), one client 10 points below Plata, one suspended, five not registered
and one with a passport. Farmacia Norte (merchant 2): two branches, two levels,
six clients (one shares Juan Carlos Pérez's DNI: same person, other program).

Everything is fixed data; dates are relative to the clock; register tokens come
from ``world.random``. Seeded credits are ``active`` operations with external
ids ``SEED-<merchant>-<n>`` whose totals add up to each client's accumulated
points.
"""

from __future__ import annotations

from kiosk.sim.clock import iso
from kiosk.sim.levels import add_level
from kiosk.sim.people_common import build_client, fold
from kiosk.sim.rules_levels import level_for, level_ref
from kiosk.sim.seed_branches import MAIN_BRANCHES, OTHER_BRANCHES
from kiosk.sim.world import Merchant, Record, World

DAY = 86400.0
SITE = "https://almacendelsol.example.test"

# name, minPoints, multiplier, (primary, secondary, border), description
MAIN_LEVELS = (
    ("Bronce", 0, 1, ("#cd7f32", "#f3e0cc", "#8c5a2b"), "Nivel inicial del programa"),
    ("Plata", 5000, 1.25, ("#a8a9ad", "#eeeeef", "#6e6f73"), "25% más de puntos en cada compra"),
    ("Oro", 15000, 1.5, ("#d4af37", "#fbf3d5", "#9c7c1c"), "50% más de puntos en cada compra"),
)
OTHER_LEVELS = (
    ("Clásico", 0, 1, ("#2e7d32", "#e8f5e9", "#1b5e20"), ""),
    ("Preferencial", 3000, 1.2, ("#1565c0", "#e3f2fd", "#0d47a1"), "20% más de puntos"),
)

# first, last, gender, document, birthday, accumulated, available, registered
Person = tuple[str, str, int, str, str, int, int, bool]
MAIN_CLIENTS: tuple[Person, ...] = (
    ("Juan Carlos", "Pérez", 0, "30123456", "1985-03-15", 5230, 4730, True),
    ("María José", "González Fernández", 1, "27456789", "1979-11-02", 16840, 12840, True),
    ("Lucía", "Martínez", 1, "35678123", "1990-07-21", 4990, 4990, True),
    ("Santiago", "Fernández", 0, "38901234", "1994-01-09", 820, 820, True),
    ("Valentina", "Romero", 1, "40112233", "1997-05-30", 2150, 1650, True),
    ("Matías", "Sosa", 0, "33445566", "1988-09-12", 7420, 6420, True),
    ("Camila", "Díaz", 1, "41222333", "1998-12-03", 310, 310, False),
    ("Martín", "Álvarez", 0, "25333444", "1976-04-18", 14950, 13950, True),
    ("Florencia", "Torres", 1, "36555666", "1991-02-27", 3100, 2600, True),
    ("Nicolás", "Ruiz", 0, "39666777", "1995-08-08", 1200, 1200, True),
    ("Sofía", "Ramírez", 1, "42777888", "2000-10-14", 150, 150, False),
    ("Diego", "Flores", 0, "28888999", "1981-06-25", 22500, 18500, True),
    ("Agustina", "Acosta", 1, "37999000", "1993-03-03", 5600, 5100, True),
    ("Facundo", "Benítez", 0, "34111000", "1989-11-11", 980, 980, True),
    ("Micaela", "Medina", 1, "43000111", "2001-01-20", 60, 60, False),
    ("Gonzalo", "Herrera", 0, "31222000", "1984-07-07", 8900, 7400, True),
    ("Carolina", "Aguirre", 1, "29333111", "1982-05-16", 4100, 3600, True),
    ("Federico", "Giménez", 0, "26444222", "1978-12-29", 12300, 9800, True),
    ("Julieta", "Molina", 1, "40555333", "1996-09-09", 2750, 2750, True),
    ("Tomás", "Castro", 0, "45666444", "2003-04-04", 90, 90, False),
    ("Paula", "Ortiz", 1, "32777555", "1986-08-19", 6100, 5600, True),
    ("Ezequiel", "Silva", 0, "35888666", "1990-10-01", 1750, 1250, True),
    ("Rocío", "Núñez", 1, "38999777", "1994-06-13", 450, 450, True),
    ("Hernán", "Luna", 0, "22111888", "1971-02-08", 19800, 15300, True),
    ("Daniela", "Juárez", 1, "36222999", "1992-11-23", 3300, 3300, True),
    ("Pablo", "Cabrera", 0, "30444123", "1983-01-31", 5050, 4550, True),
    ("Victoria", "Ríos", 1, "41555234", "1999-07-17", 700, 700, True),
    ("Leandro", "Morales", 0, "27666345", "1980-03-22", 9500, 6500, True),
    ("Milagros", "Godoy", 1, "42888456", "2000-12-12", 240, 240, True),
    ("Sebastián", "Vera", 0, "33999567", "1987-05-05", 4400, 4400, True),
    ("Antonella", "Ledesma", 1, "39000678", "1995-09-28", 1580, 1080, True),
    ("Ramiro", "Peralta", 0, "31111789", "1985-12-15", 2900, 2400, True),
    ("Brenda", "Quiroga", 1, "37222890", "1993-02-14", 880, 880, False),
    ("Lucas", "Oliveira", 0, "FZ482913", "1990-06-06", 1320, 1320, True),
    ("Marcela", "Domínguez", 1, "21999111", "1969-08-30", 11000, 9000, True),
    ("Joaquín", "Navarro", 0, "36777001", "1992-04-26", 50, 50, True),
)
MAIN_SUSPENDED = "34111000"
OTHER_CLIENTS: tuple[Person, ...] = (
    ("Juan Carlos", "Pérez", 0, "30123456", "1985-03-15", 640, 640, True),
    ("Graciela", "Bustos", 1, "14222333", "1958-10-10", 3820, 3320, True),
    ("Raúl", "Ferreyra", 0, "17555444", "1963-03-19", 1210, 1210, True),
    ("Silvina", "Carranza", 1, "24666555", "1975-07-01", 2980, 2980, True),
    ("Ignacio", "Bazán", 0, "38777666", "1994-12-24", 90, 90, False),
    ("Noelia", "Villarreal", 1, "33888777", "1988-05-09", 5120, 4620, True),
)
DOMAINS = ("example.com", "example.net", "example.org")
NOTES = {
    "27456789": "Prefiere que la llamen por la tarde.",
    "28888999": "Cliente mayorista: pide factura A.",
    "34111000": "Suspendido por uso indebido de la tarjeta.",
}


def _branch(
    world: World, merchant: Merchant, spec: tuple[str, str, str, str, int], age: float
) -> Record:
    name, address, email, phone, bonus = spec
    slug = fold(name.split()[-1])
    created = iso(world.clock.time() - age)
    record: Record = {
        "id": world.next_id("branches"),
        "name": name,
        "isEnabled": True,
        "branchType": "physical",
        "emailOfBranch": email,
        "phoneOfBranch": phone,
        "ubication": address,
        "websiteUrl": SITE if merchant.id == 1 else None,
        "ubicationUrl": f"https://maps.example.test/?q={address.split(',')[0].replace(' ', '+')}",
        "registerQrUrl": f"https://registro.example.test/b/{merchant.id}-{slug}",
        "createdAt": created,
        "updatedAt": created,
    }
    if bonus:
        record["_bonus_percent"] = bonus
    merchant.tables["branches"][record["id"]] = record
    return record


def _email(first: str, last: str, index: int, merchant: Merchant) -> str:
    local = f"{fold(first.split()[0])}.{fold(last.split()[0])}"
    if merchant.id != 1:
        local = f"{fold(first[0])}{fold(last.split()[0])}"
    return f"{local}@{DOMAINS[index % len(DOMAINS)]}"


def _phone(index: int, branch: Record) -> str:
    area = (
        "341"
        if "Rosario" in branch["name"]
        else ("351" if "Córdoba" in branch["ubication"] else "11")
    )
    number = 40000000 + index * 731_117 % 9_000_000
    text = str(number)[-8 if area == "11" else -7 :]
    return f"+54 9 {area} {text[:-4]}-{text[-4:]}"


def _history(
    world: World, merchant: Merchant, client: Record, branch: Record, last_ts: float
) -> None:
    """Active credits adding up to the client's accumulated points."""
    total = client["total_score"]
    parts = [p for p in (total // 2, total // 3, total - total // 2 - total // 3) if p > 0]
    per_point = merchant.rules.currency_per_point
    for step, part in enumerate(parts):
        created = iso(last_ts - (len(parts) - 1 - step) * 17 * DAY)
        op_id = world.next_id("operations")
        merchant.tables["operations"][op_id] = {
            "id": op_id,
            "externalId": f"SEED-{merchant.id}-{op_id:05d}",
            "clientId": client["id"],
            "branchId": branch["id"],
            "points": {
                "amount": part * per_point,
                "totalPointsToGive": part,
                "initialPointsToGive": part,
                "selectedRewardType": "amount",
            },
            "state": "active",
            "createdAt": created,
            "canceledAt": None,
            "bonus": {"level": 0, "rules": 0},
            "items": [],
            "origin": "seed",
            "reason": "Compra en caja",
            "extra_data": None,
            "giftCards": None,
        }


def _clients(
    world: World, merchant: Merchant, people: tuple[Person, ...], branches: list[Record]
) -> None:
    now = world.clock.time()
    prefix = "ADS" if merchant.id == 1 else "FN"
    for index, (first, last, gender, document, born, total, score, registered) in enumerate(people):
        branch = branches[index % len(branches)]
        last_ts = now - ((index * 5) % 40 + 1) * DAY - index * 3600
        spent = total - score
        client = build_client(
            world,
            merchant,
            first_name=first,
            last_name=last,
            email=_email(first, last, index, merchant),
            document_number=document,
            phone=_phone(index + merchant.id * 50, branch),
            gender=gender,
            affiliate_card=f"{prefix}-{index * 37 + 1001:06d}" if index % 3 == 0 else None,
            score=score,
            total_score=total,
            description=NOTES.get(document) if merchant.id == 1 else None,
            birthday=f"{born}T00:00:00.000Z",
            created_at=iso(now - (420 - index * 9) * DAY),
            last_transaction=iso(last_ts) if total else None,
            purchases_counter=0 if spent == 0 else 1 + spent // 1500,
            reads_counter=(index * 7) % 23,
            _registered=registered,
            _tag_ids=[1] if total >= 10000 else ([2] if index % 4 == 1 else []),
            _branch_id=branch["id"],
            _last_credit=iso(last_ts) if total else None,
        )
        if merchant.id == 1 and document == MAIN_SUSPENDED:
            client["status"] = "SUSPENDED"
        client["level"] = level_ref(level_for(merchant, total))
        if total:
            _history(world, merchant, client, branch, last_ts)


def seed(world: World, merchant: Merchant) -> None:
    main = merchant.id == 1
    branch_specs = MAIN_BRANCHES if main else OTHER_BRANCHES
    branches = [
        _branch(world, merchant, spec, (900 - i * 120) * DAY) for i, spec in enumerate(branch_specs)
    ]
    levels = MAIN_LEVELS if main else OTHER_LEVELS
    for step, (name, min_points, multiplier, colors, description) in enumerate(levels):
        level = add_level(
            world,
            merchant,
            {
                "name": name,
                "description": description,
                "minPoints": min_points,
                "pointsMultiplier": multiplier,
                "colors": dict(zip(("primary", "secondary", "border"), colors, strict=True)),
            },
        )
        level["createdAt"] = level["updatedAt"] = iso(world.clock.time() - (800 - step) * DAY)
    _clients(world, merchant, MAIN_CLIENTS if main else OTHER_CLIENTS, branches)
