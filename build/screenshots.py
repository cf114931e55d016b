"""Render the counter's screens and states to PNG (docs/screenshots/), for the README
and for looking at what we build.

    python build/screenshots.py [--out docs/screenshots] [--size 1280x800] [--lang en|es]

Runs the real counter (training mode: the in-process simulator with its demo data)
offscreen and drives it through each screen, as a cashier would.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


async def settle(seconds: float = 0.3) -> None:
    await asyncio.sleep(seconds)


async def until(predicate: Callable[[], object], within: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while not predicate():
        if loop.time() > deadline:
            raise TimeoutError("state not reached")
        await asyncio.sleep(0.02)


async def shoot(args: argparse.Namespace) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from kiosk.core.settings.layers import load_settings
    from kiosk.core.settings.paths import resolve_paths
    from kiosk.ui.counter import build_view
    from kiosk.ui.shell import KioskWindow
    from kiosk.wiring import build_counter

    out = Path(args.out)
    width, height = (int(v) for v in args.size.split("x"))
    paths = resolve_paths()
    counter = await build_counter(load_settings(paths), paths, demo=True)
    window = KioskWindow()
    from kiosk.core.admin.manager_settings import ManagerSettings, TrainingLink
    from kiosk.core.security.lock import ManagerLock
    from kiosk.sim import DEFAULT_API_KEY
    from kiosk.ui.counter import ManagerContext
    from kiosk.wiring import TRAINING_URL

    settings = load_settings(paths)
    model = ManagerSettings(
        settings,
        transport_for=lambda *_: counter.transport,
        training=TrainingLink(TRAINING_URL, DEFAULT_API_KEY),
        pending=counter.session.outbox,
    )
    manager_ctx = ManagerContext(
        settings=settings,
        lock=ManagerLock.for_paths(settings, paths),
        model=model,
        idle_seconds=900,
    )
    view = build_view(counter.session, manager_ctx)
    window.setCentralWidget(view)
    window.resize(width, height)
    window.show()
    await view.load()
    counter.start_checks()  # the outbox's sender and the branch check, as the kiosk does
    session = counter.session

    async def save(name: str) -> None:
        await settle()
        QApplication.processEvents()
        window.grab().save(str(out / f"{name}.png"))
        print(f"{out / name}.png")

    steps: list[tuple[str, Callable[[], Awaitable[Any]]]] = []

    async def identify_empty() -> None:
        view.show_screen("identify")

    async def identify_found() -> None:
        client = await session.api.search_client("30123456")
        session.set_client(client)
        view.show_screen("identify")

    async def points() -> None:  # an amount typed and previewed: the credit armed beside
        view.show_screen("points")
        screen = view.current
        screen.setFocus()
        QTest.keyClicks(screen, "15000")
        QTest.keyClick(screen, Qt.Key.Key_Return)  # Preview
        await until(lambda: screen.credit_button.isVisible() and screen.credit_button.armed)

    async def rewards() -> None:
        screen = view.current  # the previewed credit, tapped once armed (Today shows it)
        QTest.mouseClick(screen.credit_button, Qt.MouseButton.LeftButton)
        await until(lambda: not screen.credit_button.isVisible())
        view.show_screen("rewards")
        await settle(1.0)

    async def redeem() -> None:  # the client's own pending purchase, looked up
        view.show_screen("redeem")
        screen = view.current
        screen.code.setFocus()
        QTest.keyClicks(screen.code, "PEND2345")
        QTest.keyClick(screen.code, Qt.Key.Key_Return)
        await until(lambda: screen.card.view is not None)

    async def code() -> None:
        view.show_screen("code")
        await settle(1.5)

    async def today() -> None:
        view.show_screen("today")
        await settle(0.5)

    async def scan_offer() -> None:  # a DNI scanned on Points: offered, never typed
        view.show_screen("points")
        view.scan_desk.take(
            "00623456789@GONZALEZ FERNANDEZ@MARIA JOSE@F@27456789@A@02/11/1979@04/08/2019@200"
        )
        await until(lambda: view.scan_offer.isVisible())

    async def manager() -> None:
        view.scan_offer.decline()
        view.show_screen("manager")
        await settle(0.3)

    async def manager_clients() -> None:  # training: the first person chooses the PIN
        gate = view.current.gate
        for _ in range(2):  # the PIN, then again to confirm it
            QTest.keyClicks(gate.panel.pad, "2468")
            QTest.keyClick(gate.panel.pad, Qt.Key.Key_Return)
            await settle(0.3)
        await until(lambda: gate.view is not None and gate.stack.currentWidget() is gate.view)
        clients = len(gate.view.sections) - 2  # ... Operators, Clients, Exchanges
        gate.view.open_section(clients)
        section = gate.view.current_widget()
        await until(lambda: getattr(section, "list", None) is not None and section.list.loads > 0)

    steps = [
        ("01-identify-empty", identify_empty),
        ("02-identify-found", identify_found),
        ("03-points", points),
        ("04-rewards", rewards),
        ("05-redeem", redeem),
        ("06-code", code),
        ("07-today", today),
        ("10-scan-offer", scan_offer),
        ("08-manager", manager),
        ("09-manager-clients", manager_clients),
    ]
    try:
        for name, step in steps:
            await step()  # every step runs: later screens need the client found earlier
            if not args.only or args.only in name:
                await save(name)
    finally:
        view.shutdown()
        await counter.close()
        window.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--size", default="1280x800")
    parser.add_argument("--lang", default="en", choices=["en", "es"])
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    Path(args.out).mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("LOYALTY_KIOSK_HOME", tempfile.mkdtemp(prefix="kiosk-shots-"))

    import qasync
    from PySide6.QtWidgets import QApplication

    from kiosk.ui.i18n import install_translators
    from kiosk.ui.theme import apply_theme

    app = QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)
    keep = install_translators(app, args.lang)
    apply_theme(app, "light")
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with loop:
        loop.run_until_complete(shoot(args))
    del keep
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
