"""Demo data: an Argentine store chain and a second merchant, built fresh on every reset."""

from __future__ import annotations

from kiosk.sim.clock import SimClock
from kiosk.sim.keys import DEFAULT_API_KEY as DEFAULT_API_KEY
from kiosk.sim.keys import DEFAULT_OTHER_API_KEY as DEFAULT_OTHER_API_KEY
from kiosk.sim.world import Merchant, SimSettings, World

MAIN_MERCHANT_ID = 1
OTHER_MERCHANT_ID = 2


def build_world(
    *,
    api_key: str = DEFAULT_API_KEY,
    other_api_key: str = DEFAULT_OTHER_API_KEY,
    clock: SimClock | None = None,
    settings: SimSettings | None = None,
) -> World:
    world = World(clock=clock, settings=settings)
    seed_world(world, api_key=api_key, other_api_key=other_api_key)
    return world


def seed_world(world: World, *, api_key: str, other_api_key: str) -> None:
    """(Re)fill ``world`` with the seed data, keeping its clock and settings."""
    from kiosk.sim import seed_catalog, seed_people

    world.merchants = {}
    world.seq = {}
    world.jobs = []
    world.rate_windows = {}
    main = world.add_merchant(
        Merchant(id=MAIN_MERCHANT_ID, name="Almacén del Sol", api_key=api_key)
    )
    other = world.add_merchant(
        Merchant(id=OTHER_MERCHANT_ID, name="Farmacia Norte", api_key=other_api_key)
    )
    for merchant in (main, other):
        seed_people.seed(world, merchant)
    for merchant in (main, other):
        seed_catalog.seed(world, merchant)
