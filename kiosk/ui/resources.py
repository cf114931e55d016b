"""Where the kiosk's bundled resources live, in a checkout and in a frozen bundle."""

from __future__ import annotations

import sys
from pathlib import Path


def resources_root() -> Path:
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root is not None:
        return Path(frozen_root) / "resources"
    return Path(__file__).resolve().parents[2] / "resources"


def resource_path(*parts: str) -> Path:
    return resources_root().joinpath(*parts)
