"""The simulated world: two merchants, their records, the ledger and the request log.

Records are plain JSON-ready dicts shaped exactly as the API returns them, so a
handler returns ``public(record)`` and persistence is a JSON snapshot. Keys that
start with ``_`` are the simulator's own bookkeeping and never leave it
(``public`` strips them).

Tables of a merchant and the private keys their records carry:

========== =====================================================================
table      record (public shape per ``shared/api/loyalty-api.md``) + private keys
========== =====================================================================
branches   Branch record.
clients    Client record (snake_case as the contract). Private: ``_removed_at``
           (epoch seconds, removal scheduled: hidden from operation),
           ``_registered`` (bool), ``_register_token`` (str), ``_tag_ids``,
           ``_affiliate_card`` is the public ``affiliate_card``.
           ``status`` is ``ACTIVE`` or ``SUSPENDED``.
levels     Level record (camelCase).
products   Product record. Private: ``_enabled`` (bool, set False by stock 0),
           ``_custom_coupons`` (bool: stock derived from coupons, ``stock`` in a
           write gives 400), ``_preserved`` (options the API does not expose).
point_items Point-item record ``{id, name, points|amount, branchId, createdAt, updatedAt}``.
purchases  Purchase record. Private: ``_expires_at`` (epoch seconds).
operators  Operator record including ``branches``; the list strips ``branches``.
qrs        Validation QR record. Private: ``_secret`` (seeds the code rotation).
operations Point operations, the ledger: ``{id, externalId, clientId, branchId,
           points:{amount,totalPointsToGive,initialPointsToGive}, state:
           'active'|'canceled', createdAt, canceledAt}``.
========== =====================================================================

Ids come from one sequence per table shared by both merchants (as one database
would), so an id of the other merchant is a real id that must still be refused.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kiosk.sim.clock import SimClock, iso

Record = dict[str, Any]

TABLES = (
    "branches",
    "clients",
    "levels",
    "products",
    "point_items",
    "purchases",
    "operators",
    "qrs",
    "operations",
)


@dataclass
class MerchantRules:
    """The merchant's configuration that the API does not expose (demo values)."""

    # Conversion rule: one point for every ``currency_per_point`` of purchase amount,
    # rounded down, then the level multiplier (rounded down) on top.
    currency_per_point: float = 100.0
    welcome_points: int = 50
    # Money exchange: points debited per currency unit, and the minimum amount.
    points_per_currency: float = 1.0
    money_exchange_minimum: float = 500.0
    # Plan's operator cap.
    operator_cap: int = 10
    # Purchases expire (redeem gives 400) this many seconds after creation.
    purchase_ttl_seconds: float = 30 * 24 * 3600
    # Days of the removal grace period.
    removal_grace_days: int = 30
    # Minimum client age in years for ``birthday`` (0 = not configured).
    minimum_age_years: int = 0


@dataclass
class Merchant:
    id: int
    name: str
    api_key: str
    rules: MerchantRules = field(default_factory=MerchantRules)
    tables: dict[str, dict[int, Record]] = field(
        default_factory=lambda: {name: {} for name in TABLES}
    )

    def table(self, name: str) -> dict[int, Record]:
        return self.tables[name]


@dataclass
class SimSettings:
    rate_limits: bool = True
    # Delay of the asynchronous level reassignment and offer synchronisation.
    level_delay_seconds: float = 1.0


Job = Callable[["World", Merchant], None]


class World:
    """All state of one simulator instance."""

    def __init__(self, clock: SimClock | None = None, settings: SimSettings | None = None) -> None:
        self.clock = clock or SimClock()
        self.settings = settings or SimSettings()
        self.merchants: dict[int, Merchant] = {}
        self.seq: dict[str, int] = {}
        self.random = random.Random(20261122)
        # Deferred jobs: (due epoch seconds, job kind, merchant id), run lazily
        # before each request and by ``run_due`` so an advanced clock fires them.
        self.jobs: list[tuple[float, str, int]] = []
        self.job_kinds: dict[str, Job] = {}
        # Log of received requests (control endpoints excluded).
        self.request_log: list[Record] = []
        # Sliding rate-limit windows: (merchant id, group, key) -> request times.
        self.rate_windows: dict[tuple[int, str, str], list[float]] = {}
        # Set by the app: called after a mutating request to persist (``--db``).
        self.on_change: Callable[[World], None] | None = None

    # -- merchants ---------------------------------------------------------
    def add_merchant(self, merchant: Merchant) -> Merchant:
        self.merchants[merchant.id] = merchant
        return merchant

    def merchant_for_key(self, key: str) -> Merchant | None:
        for merchant in self.merchants.values():
            if merchant.api_key == key:
                return merchant
        return None

    def owner_of(self, table: str, record_id: int) -> Merchant | None:
        for merchant in self.merchants.values():
            if record_id in merchant.tables[table]:
                return merchant
        return None

    # -- ids and time ------------------------------------------------------
    def next_id(self, table: str) -> int:
        value = self.seq.get(table, 0) + 1
        self.seq[table] = value
        return value

    def now_iso(self) -> str:
        return iso(self.clock.time())

    # -- deferred jobs -----------------------------------------------------
    def register_job(self, kind: str, job: Job) -> None:
        self.job_kinds[kind] = job

    def schedule(self, kind: str, merchant: Merchant, delay: float | None = None) -> None:
        wait = self.settings.level_delay_seconds if delay is None else delay
        due = self.clock.time() + wait
        # One pending job of a kind per merchant: a later trigger pushes it back.
        self.jobs = [j for j in self.jobs if not (j[1] == kind and j[2] == merchant.id)]
        self.jobs.append((due, kind, merchant.id))
        if wait <= 0:
            self.run_due()

    def run_due(self, force: bool = False) -> int:
        now = self.clock.time()
        due = [j for j in self.jobs if force or j[0] <= now]
        if not due:
            return 0
        self.jobs = [j for j in self.jobs if j not in due]
        for _, kind, merchant_id in sorted(due):
            job = self.job_kinds.get(kind)
            merchant = self.merchants.get(merchant_id)
            if job is not None and merchant is not None:
                job(self, merchant)
        return len(due)

    # -- persistence -------------------------------------------------------
    def snapshot(self) -> str:
        return json.dumps(
            {
                "seq": self.seq,
                "jobs": self.jobs,
                "clock_offset": self.clock.time() - _real_time(),
                "merchants": [
                    {
                        "id": m.id,
                        "name": m.name,
                        "api_key": m.api_key,
                        "rules": vars(m.rules),
                        "tables": {
                            t: [[k, v] for k, v in rows.items()] for t, rows in m.tables.items()
                        },
                    }
                    for m in self.merchants.values()
                ],
            }
        )

    def restore(self, text: str, *, keys: dict[int, str] | None = None) -> None:
        """Load a snapshot; ``keys`` (merchant id -> key) overrides the stored keys."""
        data = json.loads(text)
        self.seq = {k: int(v) for k, v in data["seq"].items()}
        self.jobs = [(float(a), str(b), int(c)) for a, b, c in data.get("jobs", [])]
        self.merchants = {}
        for item in data["merchants"]:
            merchant = Merchant(
                id=item["id"],
                name=item["name"],
                api_key=(keys or {}).get(item["id"], item["api_key"]),
                rules=MerchantRules(**item["rules"]),
            )
            for table, rows in item["tables"].items():
                merchant.tables[table] = {int(k): v for k, v in rows}
            self.merchants[merchant.id] = merchant

    def changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self)


def _real_time() -> float:
    import time

    return time.time()


def public(record: Record) -> Record:
    """The record as the API shows it: private ``_`` keys removed (one level deep)."""
    return {k: v for k, v in record.items() if not k.startswith("_")}
