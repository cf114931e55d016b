"""Level rules: which level a client holds, and the asynchronous reassignment job.

The contract makes level assignment asynchronous: after a credit, a cancel, a
client creation or a level change, clients may show the old level (or null) for
a while. The simulator schedules one deferred job per merchant
(``LEVEL_JOB``, ``world.settings.level_delay_seconds`` later; a later trigger
pushes it back) that:

- sets every client's ``level`` to ``{id, name}`` of the highest level whose
  ``minPoints`` is at most the client's ``total_score`` (``None`` when no level
  fits or the merchant has no levels);
- refreshes ``levelName`` of every product offer bound to a level.

Offers of a deleted level are removed at once by the delete (see ``levels.py``).
"""

from __future__ import annotations

from kiosk.sim.world import Merchant, Record, World

LEVEL_JOB = "level-assignment"


def level_for(merchant: Merchant, total_score: int) -> Record | None:
    """The highest level reached with ``total_score`` accumulated points."""
    reached = [lv for lv in merchant.tables["levels"].values() if lv["minPoints"] <= total_score]
    if not reached:
        return None
    return max(reached, key=lambda lv: (lv["minPoints"], lv["id"]))


def level_ref(level: Record | None) -> Record | None:
    return None if level is None else {"id": level["id"], "name": level["name"]}


def current_level(merchant: Merchant, client: Record) -> Record | None:
    """The level record the client shows now (possibly stale); ``None`` if gone."""
    ref = client.get("level")
    if not ref:
        return None
    return merchant.tables["levels"].get(int(ref["id"]))


def assign_levels(world: World, merchant: Merchant) -> None:
    for client in merchant.tables["clients"].values():
        if client.get("_anonymized"):
            continue
        client["level"] = level_ref(level_for(merchant, int(client.get("total_score") or 0)))
    levels = merchant.tables["levels"]
    for product in merchant.tables["products"].values():
        for offer in product.get("offers") or []:
            level_id = offer.get("levelId")
            if level_id is not None and level_id in levels:
                offer["levelName"] = levels[level_id]["name"]
    world.changed()


def schedule_levels(world: World, merchant: Merchant) -> None:
    """Trigger the reassignment after the configured delay."""
    register(world)
    world.schedule(LEVEL_JOB, merchant)


def register(world: World) -> None:
    if LEVEL_JOB not in world.job_kinds:
        world.register_job(LEVEL_JOB, assign_levels)
