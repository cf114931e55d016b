"""Starts the counter: one function owns the Qt application, the qasync loop, the
window and the shutdown.

The window paints a "Starting…" frame first; only then are the API client, the
simulator and the screens imported and built (``kiosk.wiring``), so the first
paint does not wait for what it does not show.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from argparse import Namespace
from typing import Any

log = logging.getLogger(__name__)


def run(args: Namespace, started: float) -> int:
    import qasync
    from PySide6.QtWidgets import QApplication

    from kiosk.core import settings as S
    from kiosk.core.logs import setup_logging
    from kiosk.core.paths import resolve_paths
    from kiosk.core.settings import load_settings
    from kiosk.ui.i18n import choose_language, install_translators
    from kiosk.ui.shell import KioskWindow
    from kiosk.ui.theme import apply_theme

    paths = resolve_paths()
    setup_logging(paths.log_dir, console=args.smoke)
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
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    timings: dict[str, float] = {}
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
    from PySide6.QtWidgets import QApplication

    loop = asyncio.get_running_loop()
    painted: asyncio.Future[None] = loop.create_future()
    closed: asyncio.Future[None] = loop.create_future()

    def on_paint() -> None:
        timings["first_paint"] = time.perf_counter() - started
        if not painted.done():
            painted.set_result(None)

    window.first_painted.connect(on_paint)
    window.closing.connect(lambda: closed.done() or closed.set_result(None))
    app = QApplication.instance()
    if app is not None:  # the OS ends the session
        app.aboutToQuit.connect(lambda: closed.done() or closed.set_result(None))
    window.show()
    await painted

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
            await closed
    finally:
        reporter.uninstall()
        view.shutdown()
        await counter.close()
    return 0
