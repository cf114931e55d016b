"""The point-item basket of one sale: units per item, 1 to 100 units in all.

The API takes a credit's items as a list of ids, one per unit (``[12, 12, 37]``
is two units of 12 and one of 37), and a preview's as ``{id, quantity}`` pairs.
The basket keeps the order in which items were first added, so the list the
cashier sees, the preview and the credit all read the same way.
"""

from __future__ import annotations

from collections.abc import Iterator

from kiosk.api.models.points import MAX_POINT_ITEMS, ItemQuantity

MAX_UNITS = MAX_POINT_ITEMS
"""The contract's limit of point-item units in one credit."""


class BasketFull(ValueError):
    """Adding one more unit would go over ``MAX_UNITS``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(f"a credit takes at most {limit} point-item units")


class Basket:
    """Units per point item id, at most ``limit`` units in all."""

    def __init__(self, limit: int = MAX_UNITS) -> None:
        if not 1 <= limit <= MAX_UNITS:
            raise ValueError(f"the limit must be between 1 and {MAX_UNITS}")
        self.limit = limit
        self._units: dict[int, int] = {}

    def add(self, item_id: int, units: int = 1) -> int:
        """Add ``units`` of ``item_id``; returns its new count. ``BasketFull`` (and
        nothing added) when the total would go over the limit."""
        if item_id <= 0:
            raise ValueError("point item ids are positive")
        if units < 1:
            raise ValueError("add at least one unit")
        if self.total_units + units > self.limit:
            raise BasketFull(self.limit)
        self._units[item_id] = self._units.get(item_id, 0) + units
        return self._units[item_id]

    def remove(self, item_id: int) -> int:
        """Take one unit of ``item_id`` out; returns what is left of it (0: gone)."""
        count = self._units.get(item_id, 0)
        if count <= 1:
            self._units.pop(item_id, None)
            return 0
        self._units[item_id] = count - 1
        return count - 1

    def discard(self, item_id: int) -> None:
        """Take every unit of ``item_id`` out."""
        self._units.pop(item_id, None)

    def clear(self) -> None:
        self._units.clear()

    def count(self, item_id: int) -> int:
        return self._units.get(item_id, 0)

    @property
    def total_units(self) -> int:
        return sum(self._units.values())

    @property
    def is_empty(self) -> bool:
        return not self._units

    @property
    def is_full(self) -> bool:
        return self.total_units >= self.limit

    def lines(self) -> list[tuple[int, int]]:
        """``(item id, units)`` in the order items were first added."""
        return list(self._units.items())

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self.lines())

    def __len__(self) -> int:
        return len(self._units)

    def quantities(self) -> list[ItemQuantity]:
        """The preview's ``pointItems``: one ``{id, quantity}`` per item."""
        return [ItemQuantity(item_id, units) for item_id, units in self._units.items()]

    def unit_ids(self) -> list[int]:
        """The credit's ``pointItems``: each id repeated once per unit."""
        return [item_id for item_id, units in self._units.items() for _ in range(units)]

    def copy(self) -> Basket:
        other = Basket(self.limit)
        other._units = dict(self._units)
        return other

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Basket) and self._units == other._units

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Basket({self._units!r})"
