"""Uncaught exceptions (an ``asyncSlot`` that raised, a broken slot) become a logged
error, one visible, de-duplicated message instead of a silent failure, and (with
``keep``) a scrubbed crash record kept offline (``kiosk.core.fleet.crashes``)."""

from __future__ import annotations

import logging
import sys
import time
import traceback
from collections.abc import Callable
from types import TracebackType

log = logging.getLogger(__name__)

Show = Callable[[str], None]
# Keeps a scrubbed crash record (``kiosk.app.keep_crash``): once per kind of failure
# and quiet time, like the message.
Keep = Callable[[type[BaseException], BaseException, TracebackType | None], None]
SEEN_KEPT = 64  # kinds of failure remembered for the quiet time


class ExceptionReporter:
    """Install with ``install()``; ``show`` receives a translated sentence at most
    once per ``quiet_seconds`` for the same kind of failure."""

    def __init__(
        self, show: Show, quiet_seconds: float = 30.0, *, keep: Keep | None = None
    ) -> None:
        self._show = show
        self._keep = keep
        self._quiet = quiet_seconds
        self._seen: dict[str, float] = {}
        self._previous = sys.excepthook

    def install(self) -> None:
        self._previous = sys.excepthook
        sys.excepthook = self.hook

    def uninstall(self) -> None:
        sys.excepthook = self._previous

    def hook(
        self, kind: type[BaseException], error: BaseException, tb: TracebackType | None
    ) -> None:
        if issubclass(kind, KeyboardInterrupt):
            self._previous(kind, error, tb)
            return
        log.error("unexpected failure", exc_info=(kind, error, tb))
        frames = traceback.extract_tb(tb)
        where = f"{frames[-1].filename}:{frames[-1].lineno}" if frames else ""
        signature = f"{kind.__name__}@{where}"
        now = time.monotonic()
        if now - self._seen.get(signature, -1e9) < self._quiet:
            return
        self._seen[signature] = now
        if len(self._seen) > SEEN_KEPT:  # the quiet time of the oldest has long passed
            del self._seen[min(self._seen, key=self._seen.__getitem__)]
        if self._keep is not None:
            try:
                self._keep(kind, error, tb)
            except Exception as failure:  # the record is a help, never a second failure
                log.warning("crash record not kept: %s", type(failure).__name__)
        from kiosk.ui.messages import error_text

        self._show(error_text(error))
