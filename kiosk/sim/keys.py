"""The simulator's API keys: what the kiosk's training mode sends without a key of its own.

Kept apart from ``kiosk.sim.seed`` (which builds the whole world) so that the kiosk can
name the training key at its start without loading the simulator.
"""

from __future__ import annotations

DEFAULT_API_KEY = "sim-demo-key"
DEFAULT_OTHER_API_KEY = "sim-other-merchant-key"
