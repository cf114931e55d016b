"""The branch this kiosk last confirmed with the service, kept for the next start.

A kiosk must open its counter when the service cannot be reached (a morning outage:
credits wait in the outbox, see issue #5). It is bound to a branch id by its settings;
the branch's *name* (the status bar shows it) comes from ``GET /external/branch``.
The last name read is kept in the data folder, bound to the environment, the base
URL and the branch id, so the next start shows it at once, works without the
service, and checks it again in the background.

The file holds no secret and no personal data (an id and a branch name). It is
written atomically; a missing, damaged or foreign one is simply not used.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

log = logging.getLogger(__name__)

FILE_NAME = "branch.json"
VERSION = 1


def recall_branch(
    path: Path, environment: str, base_url: str, configured: int | None
) -> tuple[int, str] | None:
    """(id, name) last confirmed for this service and this branch setting, or None.

    ``configured`` is the branch setting: an id, or None in training mode (where
    the simulator's first branch is used)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        log.warning("branch memory: %s cannot be read (%s); ignored", path.name, error)
        return None
    if not isinstance(document, dict) or document.get("version") != VERSION:
        return None
    name, branch_id = document.get("name"), document.get("branch_id")
    same = (
        document.get("environment") == environment
        and document.get("base_url") == base_url
        and document.get("configured") == configured
        and (configured is None or branch_id == configured)
    )
    if not same or not isinstance(name, str) or not isinstance(branch_id, int):
        return None
    return branch_id, name


def remember_branch(
    path: Path,
    environment: str,
    base_url: str,
    configured: int | None,
    branch_id: int,
    name: str,
) -> None:
    """Keep the branch for the next start (a crash leaves the old file or the new one)."""
    document = {
        "version": VERSION,
        "environment": environment,
        "base_url": base_url,
        "configured": configured,
        "branch_id": branch_id,
        "name": name,
    }
    from kiosk.core.storage import write_atomically

    try:
        write_atomically(path, json.dumps(document, ensure_ascii=False))
    except OSError as error:  # a cache: the counter works without it
        log.warning("branch memory: %s cannot be written (%s)", path.name, error)
