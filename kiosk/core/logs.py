"""The kiosk's log: a rotating file in the platform log folder, redacted at the handler.

Every handler gets ``kiosk.api.logsafety``'s redaction (API keys, registration
links, emails and document numbers never reach the file). IT reads these files;
``--diagnostics`` zips them.
"""

from __future__ import annotations

import logging
import logging.handlers
import sys
from pathlib import Path

from kiosk.api import logsafety

LOG_NAME = "kiosk.log"
MAX_BYTES = 2 * 1024 * 1024
BACKUPS = 5
FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"


def setup_logging(
    log_dir: Path | None, *, level: int = logging.INFO, console: bool = False
) -> list[logging.Handler]:
    """Install the kiosk's handlers on the root logger; returns them (for tests to remove)."""
    handlers: list[logging.Handler] = []
    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
        file_handler = logging.handlers.RotatingFileHandler(
            log_dir / LOG_NAME, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8"
        )
        handlers.append(file_handler)
    if console:
        handlers.append(logging.StreamHandler(sys.stderr))
    root = logging.getLogger()
    for handler in handlers:
        handler.setFormatter(logging.Formatter(FORMAT))
        logsafety.install(handler)
        root.addHandler(handler)
    root.setLevel(level)
    # Third-party chatter stays out of IT's file unless it is a problem.
    for noisy in ("httpx", "httpcore", "uvicorn.access", "asyncio"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    return handlers
