"""Starts the counter: one function owns the Qt application, the qasync loop, the
window and the shutdown.

Order matters for the first paint: the window paints a "Starting…" frame with
plain Qt first (``paint_first_frame``); only then are asyncio/qasync, the API
client, the simulator and the screens imported and built (``kiosk.wiring``), so
the first paint does not wait for what it does not show.

A start that fails (a settings file that cannot be read, no keyring, a folder that
cannot be written, a full disk...) never ends in a traceback or a black window: the
window shows what failed, where (file and line) and what to do
(``kiosk.ui.startup_error``), the log says it, and the process ends with a documented
exit code (``ExitCode``; ``docs/troubleshooting.md``) once the screen is closed.
"""

from __future__ import annotations

import gc
import logging
import sys
import time
from argparse import Namespace
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from kiosk.core.settings.paths import KioskPaths
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


def quiet_start() -> None:
    """Two start-up costs the counter does not need to pay.

    - The cyclic garbage collector: start-up allocates only what the kiosk keeps
      (modules, classes, widgets) and the collector ran ~125 times over them (~50 ms).
      It is off until ready; then those objects are frozen out of later collections
      (``gc.freeze``) and it is on again (``ready_memory``).
    - httpx's package imports its command-line client (``httpx._main``: click, rich)
      when click is installed (uvicorn, the simulator's server, brings it): ~20 ms
      for a command the kiosk never runs. ``None`` in ``sys.modules`` makes that
      optional import fail fast, as if click were missing.
    """
    gc.disable()
    if "httpx" not in sys.modules:
        sys.modules.setdefault("httpx._main", None)


def ready_memory() -> None:
    gc.freeze()
    gc.enable()


def run(args: Namespace, started: float) -> int:
    quiet_start()
    try:
        return _run(args, started)
    finally:
        if not gc.isenabled():
            gc.enable()


def _run(args: Namespace, started: float) -> int:
    from PySide6.QtWidgets import QApplication

    from kiosk.ui.pyside_imports import plain_imports

    plain_imports()  # before the kiosk's own imports: see the module
    from kiosk.core.settings import layers as S
    from kiosk.core.settings.layers import SettingsError, load_settings
    from kiosk.core.settings.paths import resolve_paths
    from kiosk.ui.i18n import choose_language, install_translators
    from kiosk.ui.shell import KioskWindow, first_size
    from kiosk.ui.theme import apply_theme

    real = resolve_paths()
    paths = real.for_training() if args.demo else real  # training keeps its own settings
    failure: SettingsError | None = None
    try:
        settings: Any = load_settings(paths)
    except SettingsError as error:  # shown on the window, in the system's language
        settings, failure = None, error
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setApplicationName("Loyalty Kiosk")
    app.setOrganizationName("LoyaltyKiosk")
    # This function owns the shutdown: closing the window resolves a future and the
    # cleanup (cancel screens, close the client and the database) runs before exit.
    app.setQuitOnLastWindowClosed(False)
    language = choose_language(str(settings.get(S.LANGUAGE) if settings else S.LANGUAGE.default))
    look = Look(language, install_translators(app, language))
    apply_theme(app, str(settings.get(S.THEME) if settings else S.THEME.default))
    from kiosk.cli.instance import bring_to_front, claim

    instance = claim(real)  # None: this user's kiosk already runs; it was brought to the front
    if instance is None:
        return 0
    window = KioskWindow()
    screen = app.primaryScreen()
    window.resize(first_size(screen.availableGeometry().size() if screen else None))
    instance.activate_requested.connect(lambda: bring_to_front(window))
    paint_first_frame(app, window)
    timings = {"first_paint": time.perf_counter() - started}
    # The log handlers (rotation, redaction) load after the first frame; settings
    # problems found while loading are logged by their warnings from here on.
    log_file = start_logging(paths, console=args.smoke)

    import asyncio

    import qasync

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    try:
        with loop:
            if failure is not None:
                instance.shutdown_requested.connect(window.close)
                code = loop.run_until_complete(
                    show_startup_problem(window, failure, paths, log_file, smoke=args.smoke)
                )
            else:
                code = loop.run_until_complete(
                    _main(window, settings, paths, args, started, timings, instance, look, log_file)
                )
        from kiosk.core.fleet.running import fleet_events

        fleet_events().stopped(code)
        return code
    finally:
        instance.close()
        del look
        asyncio.set_event_loop(None)


def start_logging(paths: KioskPaths, *, console: bool) -> Path | None:
    """The kiosk's log file (None: its folder cannot be written; the log goes to the
    console then, and the self-test's ``storage`` check says why)."""
    from kiosk.core.logs import LOG_NAME, setup_logging

    try:
        setup_logging(paths.log_dir, console=console)
    except OSError as error:
        setup_logging(None, console=True)
        log.error("no log file: %s cannot be written (%s)", paths.log_dir, error.strerror)
        return None
    return paths.log_dir / LOG_NAME


async def show_startup_problem(
    window: Any,
    error: BaseException,
    paths: KioskPaths,
    log_file: Path | None,
    *,
    smoke: bool = False,
    close: Any = None,
) -> int:
    """Show why the start failed until the window is closed; the exit code.

    ``close`` closes the window past kiosk mode's guard (there is nothing to guard:
    the counter never started). With ``--smoke`` the screen's text goes to standard
    error and the window closes at once."""
    import asyncio

    from kiosk.ui.startup_error import ExitCode, StartupErrorView, startup_problem

    problem = startup_problem(error, paths)
    if problem.code is ExitCode.UNEXPECTED:
        log.error("%s", problem.log_line(), exc_info=error)
    else:
        log.error("%s", problem.log_line())
    from kiosk.core.fleet.running import fleet_events

    events = fleet_events()
    events.startup_error(int(problem.code), problem.code.name.lower(), problem.detail)
    if problem.code is ExitCode.KEY_REFUSED:
        events.key_refused(getattr(error, "environment", "?"))
    view = StartupErrorView(problem, log_file)
    closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    window.closing.connect(lambda: closed.done() or closed.set_result(None))
    view.close_requested.connect(close or window.close)
    window.setCentralWidget(view)
    if smoke:
        print(view.text(), file=sys.stderr, flush=True)
        window.close()
        return int(problem.code)
    if not window.isVisible():  # closed already (--shutdown during the first paint)
        return int(problem.code)
    window.showFullScreen()
    await closed
    return int(problem.code)


REBUILD_KEYS = frozenset(
    {
        "api_key",
        "environment",
        "production_url",
        "qa_url",
        "branch_id",
        "validation_qr_id",
        "point_items",
        "idle_timeout_seconds",
        "amount_locale",
        "on_screen_keyboard",
        # Applied live: the counter is rebuilt with the new catalogue or theme (``Look``).
        "language",
        "theme",
    }
)


class Look:
    """The language catalogues and theme the kiosk shows now.

    A language or theme saved in manager mode applies at once: the settings screen
    reports it (``on_applied``), the counter is rebuilt (``REBUILD_KEYS``, the same
    in-process restart a branch change makes: the counter and its outbox are closed,
    then built again), and ``refresh`` installs the new catalogue and theme before
    the new screens are built, so every text is made in the new language.
    """

    def __init__(self, language: str, translators: list[Any]) -> None:
        self.language = language
        self.translators = translators  # kept alive: Qt does not own them

    def refresh(self, app: Any, window: Any, settings: Any) -> None:
        from kiosk.core.settings import layers as S
        from kiosk.ui.i18n import choose_language, switch_language
        from kiosk.ui.theme import apply_theme, current_palette

        language = choose_language(str(settings.get(S.LANGUAGE)))
        if language != self.language:
            self.translators = switch_language(app, language, self.translators)
            self.language = language
            window.setWindowTitle(window.tr("Loyalty Kiosk"))
        theme = str(settings.get(S.THEME))
        if theme != current_palette().name:
            apply_theme(app, theme)
            log.info("theme: %s", theme)


def _manager_model(settings: Any, transport: Any, pending: Any = None) -> Any:
    from kiosk.core.admin.manager_settings import ManagerSettings, TrainingLink
    from kiosk.core.settings.layers import Environment
    from kiosk.sim import DEFAULT_API_KEY
    from kiosk.wiring import TRAINING_URL

    return ManagerSettings(
        settings,
        transport_for=lambda env, _url: transport if env is Environment.TRAINING else None,
        training=TrainingLink(TRAINING_URL, DEFAULT_API_KEY),
        pending=pending,  # the outbox: no switch of environment/key/branch while rows wait
    )


async def stop_counter(counter: Any, view: Any) -> None:
    """Close the counter and its screens (the window closing, or the counter rebuilt).

    In this order: the work that writes by itself (the outbox's sender, the branch
    check, the retention) stops, and the journal's changes still being announced (a
    row the sender settled as it stopped) reach the screens while they listen; then
    the screens stop (their tasks cancelled); then the client and the database close.
    Otherwise a screen could start reading such a row after the database was closed
    (an "unexpected failure" in the log when the kiosk closes during a drain)."""
    await counter.stop_background()
    view.shutdown()
    await counter.close()


def _marker(timings: dict[str, float], started: float) -> Any:
    def mark(name: str) -> None:
        timings.setdefault(name, time.perf_counter() - started)

    return mark


async def _main(
    window: Any,
    settings: Any,
    paths: Any,
    args: Namespace,
    started: float,
    timings: dict[str, float],
    instance: Any,
    look: Look | None = None,
    log_file: Path | None = None,
) -> int:
    import asyncio

    from PySide6.QtWidgets import QApplication

    from kiosk.core.lazy import Lazy
    from kiosk.core.settings import layers as S

    loop = asyncio.get_running_loop()
    closed: asyncio.Future[None] = loop.create_future()
    window.closing.connect(lambda: closed.done() or closed.set_result(None))
    if not window.isVisible():  # closed before the loop ran (--shutdown during the first paint)
        closed.set_result(None)
    app = QApplication.instance()
    if app is not None:  # the OS ends the session
        app.aboutToQuit.connect(lambda: closed.done() or closed.set_result(None))

    def make_lock() -> Any:
        from kiosk.core.security.lock import ManagerLock

        # --demo is training whatever kiosk.ini says: the first PIN may be chosen there.
        return ManagerLock.for_paths(settings, paths, training=True if args.demo else None)

    # One manager lock for the guard, manager mode and Today, made when first needed.
    lock: Lazy[Any] = Lazy(make_lock)
    guard = None
    if settings.get(S.KIOSK_MODE) and not args.smoke:
        from kiosk.ui.manager.kiosk_mode import KioskModeGuard

        guard = KioskModeGuard(window, lock.get())
        guard.install()
    # IT's --shutdown (and the installer's upgrades) close the kiosk without the PIN.
    instance.shutdown_requested.connect(guard.force_close if guard is not None else window.close)
    manager_idle = float(settings.get(S.MANAGER_IDLE_TIMEOUT))

    mark = _marker(timings, started)
    mark("loop")
    from kiosk.core.fleet.running import keep_crash, start_fleet
    from kiosk.core.setup_errors import KeyRefused, NoApiKey, NotConfigured
    from kiosk.ui.counter import ManagerContext, build_view
    from kiosk.ui.crash import ExceptionReporter
    from kiosk.wiring import build_counter, training_transport

    mark("imports")

    while True:
        if look is not None and app is not None:
            look.refresh(app, window, settings)  # a language or theme saved since the last round
        rebuild: asyncio.Future[None] = loop.create_future()

        def applied(keys: tuple[str, ...], rebuild: asyncio.Future[None] = rebuild) -> None:
            if REBUILD_KEYS.intersection(keys) and not rebuild.done():
                rebuild.set_result(None)

        async def start_failed(error: BaseException) -> int:
            """The full-screen card of a start-up error, and its exit code."""
            return await show_startup_problem(
                window,
                error,
                paths,
                log_file,
                smoke=args.smoke,
                close=guard.force_close if guard is not None else None,
            )

        try:
            counter = await build_counter(settings, paths, demo=args.demo)
            mark("counter")
        except (NoApiKey, KeyRefused) as error:  # only IT's provision helps: no PIN pad
            return await start_failed(error)
        except NotConfigured as problem:
            from kiosk.ui.startup_error import ExitCode  # loaded only when the start fails

            log.error("the kiosk is not configured: %s", problem)
            if args.smoke:
                window.show_failure(window.tr("This kiosk is not set up yet."))
                return int(ExitCode.NOT_SET_UP)
            from kiosk.ui.manager.assemble import build_manager_gate, settings_sections

            transport, _closers = training_transport(paths)
            model = _manager_model(settings, transport)
            window.setCentralWidget(
                build_manager_gate(
                    lock.get(), settings_sections(model, applied), idle_seconds=manager_idle
                )
            )
            done, _ = await asyncio.wait({closed, rebuild}, return_when=asyncio.FIRST_COMPLETED)
            if closed in done:
                return int(ExitCode.NOT_SET_UP)
            continue
        except Exception as error:  # settings, keyring, folders, disk, database: see the screen
            return await start_failed(error)

        manager = ManagerContext(
            settings=settings,
            lock=None,
            make_lock=lock.get,
            model=None,
            make_model=lambda counter=counter: _manager_model(
                settings, counter.transport, counter.outbox
            ),
            idle_seconds=manager_idle,
            on_applied=applied,
            on_exit=guard.force_close if guard is not None else None,
        )
        view = build_view(counter.session, manager)
        window.setCentralWidget(view)
        mark("view")
        reporter = ExceptionReporter(
            lambda text, view=view: view.current.banner.show_error(text) if view.current else None,
            keep=keep_crash(
                settings,
                paths,
                counter.session.config.environment,
                counter.session.config.kiosk_id,
            ),
        )
        reporter.install()
        try:
            await view.load()
            if "ready" not in timings:
                timings["ready"] = time.perf_counter() - started
                ready_memory()
            counter.start_checks()
            if args.smoke:
                print(
                    f"first_paint_ms={timings['first_paint'] * 1000:.0f} "
                    f"ready_ms={timings['ready'] * 1000:.0f}"
                )
                print(
                    "phases: "
                    + " ".join(f"{k}={v * 1000:.0f}" for k, v in timings.items())
                    + f" cpu={time.process_time() * 1000:.0f}"
                )
                window.close()
                return 0
            view.warm_up()
            start_fleet(counter, settings, paths)
            done, _ = await asyncio.wait({closed, rebuild}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            reporter.uninstall()
            await stop_counter(counter, view)
        if closed in done:
            return 0
        log.info("settings applied: restarting the counter")
