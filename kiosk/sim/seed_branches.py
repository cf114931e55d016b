"""The seed's branches, apart from the rest of the seed (which imports the simulator's
rules): a first training start shows its branch from here before the simulator is
built (``kiosk.wiring``); ``seed_people`` builds the branch records from the same
tuples."""

from __future__ import annotations

# name, address, email, phone, point-rule bonus percent
MAIN_BRANCHES = (
    (
        "Sucursal Centro",
        "Av. Corrientes 1234, C1043AAZ CABA, Buenos Aires",
        "centro@almacendelsol.example.test",
        "+54 11 4321-5678",
        0,
    ),
    (
        "Sucursal Palermo",
        "Av. Santa Fe 3456, C1425BGN CABA, Buenos Aires",
        "palermo@almacendelsol.example.test",
        "+54 11 4833-2211",
        10,
    ),
    (
        "Sucursal Rosario",
        "Córdoba 1450, S2000AWZ Rosario, Santa Fe",
        "rosario@almacendelsol.example.test",
        "+54 341 421-7788",
        0,
    ),
)
OTHER_BRANCHES = (
    (
        "Farmacia Norte Centro",
        "Av. Colón 1234, X5000EPT Córdoba",
        "centro@farmacianorte.example.test",
        "+54 351 422-1000",
        0,
    ),
    (
        "Farmacia Norte Cerro",
        "Av. Rafael Núñez 4500, X5009 Córdoba",
        "cerro@farmacianorte.example.test",
        "+54 351 481-2000",
        0,
    ),
)


def fresh_branches() -> tuple[tuple[int, str], ...]:
    """(id, name) of the main merchant's branches in a freshly seeded world, in the
    order the API lists them. The main merchant is seeded first and branch ids are
    the world's sequence from 1 (a test compares with a built world)."""
    return tuple((index, spec[0]) for index, spec in enumerate(MAIN_BRANCHES, start=1))
