"""Seed: point items, products, operators, validation QRs, purchases (being written)."""

from __future__ import annotations

from kiosk.sim.world import Merchant, World


def seed(world: World, merchant: Merchant) -> None:
    return None
