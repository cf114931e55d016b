"""Starts the counter: one function owns the Qt application, the qasync loop, the
window and the shutdown.

Order matters for the first paint: the window paints a "Starting…" frame with
plain Qt first (``paint_first_frame``); only then are asyncio/qasync, the API
client, the simulator and the screens imported and built (``kiosk.wiring``), so
the first paint does not wait for what it does not show.
"""

from __future__ import annotations

import logging
import sys
import time
from argparse import Namespace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from kiosk.ui.shell import KioskWindow

log = logging.getLogger(__name__)

FIRST_PAINT_WAIT = 5.0


def paint_first_frame(app: QApplication, window: KioskWindow) -> None:
    """Show the window and let Qt paint it once, before any asyncio machinery exists."""
    painted: list[bool] = []
    window.first_painted.connect(lambda: painted.append(True))
    window.show()
    deadline = time.monotonic() + FIRST_PAINT_WAIT
    while not painted and time.monotonic() < deadline:
        app.processEvents()


def run(args: Namespace, started: float) -> int:
    from PySide6.QtWidgets import QApplication

    from kiosk.core import settings as S
    from kiosk.core.paths import resolve_paths
    from kiosk.core.settings import load_settings
    from kiosk.ui.i18n import choose_language, install_translators
    from kiosk.ui.shell import KioskWindow
    from kiosk.ui.theme import apply_theme

    paths = resolve_paths()
    settings = load_settings(paths)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setApplicationName("Loyalty Kiosk")
    app.setOrganizationName("LoyaltyKiosk")
    # This function owns the shutdown: closing the window resolves a future and the
    # cleanup (cancel screens, close the client and the database) runs before exit.
    app.setQuitOnLastWindowClosed(False)
    translators = install_translators(app, choose_language(str(settings.get(S.LANGUAGE))))
    apply_theme(app, str(settings.get(S.THEME)))
    window = KioskWindow()
    window.resize(1280, 800)
    paint_first_frame(app, window)
    timings = {"first_paint": time.perf_counter() - started}
    # The log handlers (rotation, redaction) load after the first frame; settings
    # problems found while loading are logged by their warnings from here on.
    from kiosk.core.logs import setup_logging

    setup_logging(paths.log_dir, console=args.smoke)

    import asyncio

    import qasync

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    try:
        with loop:
            return loop.run_until_complete(_main(window, settings, paths, args, started, timings))
    finally:
        del translators
        asyncio.set_event_loop(None)


async def _main(
    window: Any,
    settings: Any,
    paths: Any,
    args: Namespace,
    started: float,
    timings: dict[str, float],
) -> int:
    import asyncio

    from PySide6.QtWidgets import QApplication

    loop = asyncio.get_running_loop()
    closed: asyncio.Future[None] = loop.create_future()
    window.closing.connect(lambda: closed.done() or closed.set_result(None))
    app = QApplication.instance()
    if app is not None:  # the OS ends the session
        app.aboutToQuit.connect(lambda: closed.done() or closed.set_result(None))

    from kiosk.ui.counter import build_view
    from kiosk.wiring import NotConfigured, build_counter

    try:
        counter = await build_counter(settings, paths, demo=args.demo)
    except NotConfigured as problem:
        log.error("the kiosk is not configured: %s", problem)
        window.show_failure(
            window.tr(
                "This kiosk is not set up yet. A manager must enter the API key and the branch "
                "(or start it in training mode with --demo)."
            )
        )
        if args.smoke:
            return 1
        await closed
        return 1
    from kiosk.ui.crash import ExceptionReporter

    view = build_view(counter.session)
    window.setCentralWidget(view)
    reporter = ExceptionReporter(
        lambda text: view.current.banner.show_error(text) if view.current else None
    )
    reporter.install()
    try:
        await view.load()
        timings["ready"] = time.perf_counter() - started
        if args.smoke:
            print(
                f"first_paint_ms={timings['first_paint'] * 1000:.0f} "
                f"ready_ms={timings['ready'] * 1000:.0f}"
            )
            window.close()
        else:
            view.warm_up()
            await closed
    finally:
        reporter.uninstall()
        view.shutdown()
        await counter.close()
    return 0
