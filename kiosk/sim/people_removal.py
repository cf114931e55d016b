"""Scheduled client removal: out of operation at once, anonymized after the grace period.

``schedule_removal`` marks the client (``_removed_at``, ``_removal_due``,
``_removal_reasons``) and (re)schedules ``REMOVAL_JOB`` for the earliest due
removal of the merchant. The job anonymizes every client whose grace period
ended (personal data blanked, ``_anonymized`` set, identifiers freed) and
schedules itself again for the next one.
"""

from __future__ import annotations

from kiosk.sim.world import Merchant, Record, World

REMOVAL_JOB = "client-removal"
REMOVAL_REASONS = ("REQUESTED_BY_CLIENT", "DUPLICATE_CLIENT", "INCORRECT_EMAIL", "OTHER")
PERSONAL_FIELDS = (
    "email",
    "dni",
    "document_number",
    "phone",
    "affiliate_card",
    "birthday",
    "description",
)


def _pending(merchant: Merchant) -> list[float]:
    return [
        float(c["_removal_due"])
        for c in merchant.tables["clients"].values()
        if c.get("_removal_due") is not None and not c.get("_anonymized")
    ]


def _reschedule(world: World, merchant: Merchant) -> None:
    pending = _pending(merchant)
    if pending:
        register(world)
        world.schedule(REMOVAL_JOB, merchant, delay=max(0.001, min(pending) - world.clock.time()))


def schedule_removal(world: World, merchant: Merchant, client: Record, reasons: list[str]) -> None:
    now = world.clock.time()
    client["_removed_at"] = now
    client["_removal_due"] = now + merchant.rules.removal_grace_days * 86400
    client["_removal_reasons"] = list(reasons)
    _reschedule(world, merchant)


def anonymize_due(world: World, merchant: Merchant) -> None:
    now = world.clock.time()
    for client in merchant.tables["clients"].values():
        due = client.get("_removal_due")
        if due is None or client.get("_anonymized") or due > now:
            continue
        for key in PERSONAL_FIELDS:
            client[key] = None
        client["first_name"] = ""
        client["last_name"] = ""
        client["name"] = "Cliente eliminado"
        client["_register_token"] = None
        client["_anonymized"] = True
    _reschedule(world, merchant)
    world.changed()


def register(world: World) -> None:
    if REMOVAL_JOB not in world.job_kinds:
        world.register_job(REMOVAL_JOB, anonymize_due)
