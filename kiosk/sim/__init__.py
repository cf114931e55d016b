"""The training sandbox: an independent simulator of the merchant's Loyalty Points API.

It follows ``shared/api/loyalty-api.md`` and never imports ``kiosk.api``: when the
client and the simulator disagree, one of them misread the contract. Choices made
where the contract says "not shown" are listed in ``docs/simulator.md``.
"""

from kiosk.sim.app import create_app
from kiosk.sim.seed import DEFAULT_API_KEY, DEFAULT_OTHER_API_KEY, build_world

__all__ = ["DEFAULT_API_KEY", "DEFAULT_OTHER_API_KEY", "build_world", "create_app"]
