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

import contextlib
import json
import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)

FILE_NAME = "branch.json"
VERSION = 1


def recall_branch(path: Path, environment: str, base_url: str, branch_id: int) -> str | None:
    """The name last confirmed for this branch of this service, or None."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        log.warning("branch memory: %s cannot be read (%s); ignored", path.name, error)
        return None
    if not isinstance(document, dict) or document.get("version") != VERSION:
        return None
    name = document.get("name")
    same = (
        document.get("environment") == environment
        and document.get("base_url") == base_url
        and document.get("branch_id") == branch_id
    )
    return name if same and isinstance(name, str) else None


def remember_branch(path: Path, environment: str, base_url: str, branch_id: int, name: str) -> None:
    """Keep ``name`` for the next start (a crash leaves the old file or the new one)."""
    document = {
        "version": VERSION,
        "environment": environment,
        "base_url": base_url,
        "branch_id": branch_id,
        "name": name,
    }
    temp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(temp, "w", encoding="utf-8") as handle:
            json.dump(document, handle, ensure_ascii=False)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except OSError as error:  # a cache: the counter works without it
        log.warning("branch memory: %s cannot be written (%s)", path.name, error)
        with contextlib.suppress(OSError):
            temp.unlink()
