"""A long-running task that dies is logged and started again, after a growing wait.

``supervised(run, name=..., sleep=...)`` awaits ``run()`` for ever: when it raises
(anything but a cancel), the exception goes to the log with its traceback and ``run``
starts again after 1, 2, 4... seconds, at most ``MAX_RESTART_WAIT``. A loop that
crashes on bad server data (a window of 10^9 seconds) thus comes back instead of
ending silently, and a loop that crashes at once cannot spin.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]

MAX_RESTART_WAIT = 300.0
# The longest single wait a loop computes from a server's data (a rotation window, an
# expiry): a longer one is clamped, so no timer gets a value the event loop refuses.
MAX_LOOP_WAIT = 3600.0


def clamp_wait(seconds: float, *, most: float = MAX_LOOP_WAIT) -> float:
    """``seconds`` within ``[0, most]`` (NaN as 0)."""
    if seconds != seconds or seconds <= 0:
        return 0.0
    return min(seconds, most)


async def supervised(
    run: Callable[[], Awaitable[None]],
    *,
    name: str,
    sleep: Sleep,
    first_wait: float = 1.0,
    most: float = MAX_RESTART_WAIT,
) -> None:
    restarts = 0
    while True:
        try:
            await run()
            return
        except Exception:
            restarts += 1
            wait = min(most, first_wait * 2.0 ** (restarts - 1))
            log.exception("%s stopped on an error; started again in %.0f s", name, wait)
            await sleep(wait)
