"""How many points a credit gives: conversion, point items, level bonus, point rules.

1. Initial points (before bonuses), by mode:
   - ``amount``: one point per ``merchant.rules.currency_per_point`` of the amount,
     rounded down.
   - ``items``: each unit of a point item with ``points`` gives those points and
     adds 0 to the reported amount; each unit of an item with ``amount`` converts
     like a purchase of that amount (rounded down per unit: an item's equivalence
     is fixed) and adds its amount to the reported amount.
   - ``points`` (preview only, ``initialPointsToGive``): the points as sent.
2. Level bonus: ``floor(initial * pointsMultiplier)`` of the client's current
   level, minus the initial points.
3. Point rules bonus (the simulator's one demo rule): a branch carrying the private
   key ``_bonus_percent`` (seeded: 10 on "Sucursal Palermo" of Almacén del Sol)
   adds that percent of the initial points, rounded down, to every credit and
   preview made with its ``branch_id``.

All arithmetic is decimal, so 100 x 1.15 gives 115, not 114.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal

from kiosk.sim.http import ApiError, not_found
from kiosk.sim.rules_levels import current_level
from kiosk.sim.world import Merchant, Record

NO_POINTS = "La operación no genera puntos."


@dataclass(frozen=True)
class PointsQuote:
    reward_type: str  # 'amount', 'items' or 'points'
    amount: int | float
    initial: int
    level_bonus: int
    rules_bonus: int

    @property
    def total(self) -> int:
        return self.initial + self.level_bonus + self.rules_bonus

    def credit_points(self) -> Record:
        """The ``points`` object of a credit (and of its cancel)."""
        return {
            "amount": self.amount,
            "totalPointsToGive": self.total,
            "initialPointsToGive": self.initial,
            "selectedRewardType": self.reward_type,
        }

    def preview_points(self) -> Record:
        return {
            "amount": self.amount,
            "initialPointsToGive": self.initial,
            "levelBonusPoints": self.level_bonus,
            "rulesBonusPoints": self.rules_bonus,
            "totalPointsToGive": self.total,
            "selectedRewardType": self.reward_type,
        }


def _dec(value: int | float) -> Decimal:
    return Decimal(str(value))


def _number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def convert(merchant: Merchant, amount: int | float) -> int:
    """Points for a purchase ``amount`` under the merchant's conversion rule."""
    per_point = merchant.rules.currency_per_point
    if per_point <= 0 or amount <= 0:
        return 0
    return math.floor(_dec(amount) / _dec(per_point))


def resolve_items(
    merchant: Merchant, ids: list[int], branch_id: int | None
) -> list[tuple[Record, int]]:
    """Each distinct point item with its units; 404 on the first unknown id.

    An item limited to a branch exists only for credits made with that branch.
    """
    units = Counter(ids)
    table = merchant.tables["point_items"]
    resolved: list[tuple[Record, int]] = []
    for item_id, count in units.items():
        item = table.get(item_id)
        limited = item is not None and item.get("branchId") not in (None, branch_id)
        if item is None or item.get("_deleted") or limited:
            raise not_found(f"PointsItem with id {item_id} not found")
        resolved.append((item, count))
    return resolved


def items_value(merchant: Merchant, items: list[tuple[Record, int]]) -> tuple[int | float, int]:
    """(reported amount, initial points) of the resolved items."""
    amount = Decimal(0)
    points = 0
    for item, units in items:
        if item.get("points") is not None:
            points += int(item["points"]) * units
        elif item.get("amount") is not None:
            amount += _dec(item["amount"]) * units
            points += convert(merchant, item["amount"]) * units
    return _number(amount), points


def rules_bonus(branch: Record | None, initial: int) -> int:
    if branch is None:
        return 0
    percent = branch.get("_bonus_percent") or 0
    return math.floor(_dec(initial) * _dec(percent) / 100) if percent > 0 else 0


def quote(
    merchant: Merchant,
    client: Record | None,
    branch: Record | None,
    *,
    reward_type: str,
    amount: int | float,
    initial: int,
) -> PointsQuote:
    """The full computation; 400 when it yields not even one point.

    ``client`` is ``None`` for a client about to be created (no level yet).
    """
    level = current_level(merchant, client) if client is not None else None
    multiplier = _dec(level["pointsMultiplier"]) if level is not None else Decimal(1)
    level_bonus = math.floor(_dec(initial) * multiplier) - initial if initial > 0 else 0
    result = PointsQuote(
        reward_type=reward_type,
        amount=amount,
        initial=initial,
        level_bonus=level_bonus,
        rules_bonus=rules_bonus(branch, initial) if initial > 0 else 0,
    )
    if result.total < 1:
        raise ApiError(400, NO_POINTS)
    return result


def level_summary(merchant: Merchant, client: Record) -> Record | None:
    """``{id, name, pointsMultiplier}`` of the level used by a preview."""
    level = current_level(merchant, client)
    if level is None:
        return None
    return {"id": level["id"], "name": level["name"], "pointsMultiplier": level["pointsMultiplier"]}
