"""The modules the screens not built yet need, imported ahead off the UI thread.

Right after "ready" the warm-up builds the other screens; the modules they import
(the enrolment form's ``email_validator``, the manager's sections, the admin lists,
the keyring's packages) cost ~250 ms of imports, which on the UI thread held the event
loop 40-100 ms per screen. ``ImportsAhead`` imports them in a daemon thread instead:
the interpreter hands the GIL over every 5 ms (``sys.getswitchinterval``), so the UI
keeps turning, and the warm-up builds a screen only once its modules are in. The
thread begins a module only while the loop turns calmly (``calm``): a tap's turn that
builds a screen meanwhile has the GIL to itself, but for the module under way.

Only imports run in the thread: no Qt object is created there (the kiosk's modules
create none at import; their widgets are made when the UI thread builds a screen). A
tap that needs a module meanwhile just imports it: Python's per-module import lock
makes it wait for the thread to finish that module (never a half-made one), or import
it itself if the thread has not come to it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable

from kiosk.core.lazy import import_ahead

CALM_WAIT_S = 0.002  # how often the thread looks again whether the loop is calm
CALM_PATIENCE_S = 1.0  # a module is begun after this much waiting, calm or not


class ImportsAhead:
    """Imports ``modules`` in order in a daemon thread (``start``), each begun when
    ``calm()`` says so; ``done`` once all were tried. A module that fails to import is
    left to the UI thread's own import, which raises where it is used."""

    def __init__(self, modules: Iterable[str], calm: Callable[[], bool] = lambda: True) -> None:
        self.modules = tuple(dict.fromkeys(modules))  # in order, once each
        self.calm = calm  # called in the thread: is the UI's loop turning freely now?
        self._thread: threading.Thread | None = None
        self._finished = threading.Event()
        self.failed: list[str] = []

    def start(self) -> None:
        if self._thread is not None:
            return
        if not self.modules:
            self._finished.set()
            return
        self._thread = threading.Thread(target=self._run, name="imports-ahead", daemon=True)
        self._thread.start()

    @property
    def started(self) -> bool:
        return self._thread is not None or self._finished.is_set()

    def done(self) -> bool:
        """Every module imported (or tried); True when nothing was to import."""
        return self._finished.is_set() or not self.modules

    def wait(self, timeout: float | None = None) -> bool:
        """Block until done (tests; never on the UI thread while it must answer)."""
        return self.done() or self._finished.wait(timeout)

    def _run(self) -> None:
        try:
            for name in self.modules:
                waited = time.monotonic() + CALM_PATIENCE_S
                while not self.calm() and time.monotonic() < waited:
                    time.sleep(CALM_WAIT_S)  # (the GIL is the UI's meanwhile)
                if not import_ahead(name):  # the UI thread's import will say why
                    self.failed.append(name)
        finally:
            self._finished.set()
