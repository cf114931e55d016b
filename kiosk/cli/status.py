"""``loyalty-kiosk-cli --status [--json]``: the kiosk's health, as its heartbeat posts it
(``kiosk.core.fleet.status``), for Intune Remediations or any script.

Read from the database (read-only) and the disk now; ``online`` and ``last_success``
from the running counter's last look (``null`` when none ran lately). Exit 0 when the
kiosk looks healthy, 1 when it is offline or its database cannot be read.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TextIO

from kiosk.cli.args import EXIT_FAILED, EXIT_OK
from kiosk.core.fleet.status import KioskStatus, last_saved, status_now, with_running_counter
from kiosk.core.settings import layers as S
from kiosk.core.settings.layers import SettingsError, load_settings
from kiosk.core.settings.paths import KioskPaths


def read_kiosk_id(path: Path) -> str | None:
    """The installation's id (never made here: None until the counter first ran)."""
    try:
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if re.fullmatch(r"[0-9a-f]{8}", text) else None


def current_status(paths: KioskPaths, *, demo: bool = False) -> KioskStatus:
    try:
        settings = load_settings(paths)
        environment = "training" if demo else settings.get(S.ENVIRONMENT).value
        branch = settings.get(S.BRANCH_ID)
    except SettingsError:
        environment, branch = "unknown", None
    status = status_now(
        kiosk_id=read_kiosk_id(paths.kiosk_id),
        environment=environment,
        branch=branch,
        database=paths.database_for(environment),
        data_dir=paths.data_dir,
    )
    return with_running_counter(status, last_saved(paths.data_dir))


def print_status(
    paths: KioskPaths, *, as_json: bool, out: TextIO | None, demo: bool = False
) -> int:
    status = current_status(paths, demo=demo)
    if out is not None:
        if as_json:
            out.write(status.to_json() + "\n")
        else:
            out.write("\n".join(f"{key}: {value}" for key, value in vars(status).items()) + "\n")
        out.flush()
    return EXIT_OK if status.healthy else EXIT_FAILED
