"""The walk of the layout audit (``tests/ui/test_layout_audit.py``): the REAL counter
(``build_view`` with manager mode, in a ``KioskWindow``) over the in-process simulator,
driven through every screen and state a cashier or a manager reaches; ``look(state)``
audits the window (``tests/ui/layout_audit.py``) and saves its picture.

A state that cannot be reached (a screen changed its parts) is reported as such, and
the walk goes on with the next."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QPushButton, QWidget

from kiosk.sim.seed_catalog import VALIDATION_WINDOW_SECONDS
from kiosk.sim.world import World
from tests.qt_async import until
from tests.ui.keys import Keys
from tests.ui.layout_audit import Finding, audit
from tests.ui.theme_support import app_theme
from tests.ui.translated import translated

LEFT = Qt.MouseButton.LeftButton
PIN = "1357"
LONG_FIRST, LONG_LAST = "María José Guadalupe Esperanza", "González Fernández de la Cruz"
LONG_DNI = "27456789"  # a seeded member, renamed and made rich below
BIG_BALANCE, BIG_TOTAL = 98_765_432, 123_456_789
LONG_EMAIL = "maria.jose.guadalupe.esperanza.gonzalez@almacendelsol-clientes.example.com"
PENDING_CODE = "PEND2345"
STATE_SECONDS = 10.0  # a state not reached by then is reported, and the walk goes on

# The states, in the order the walk reaches them.
STATES = (
    "identify-empty",
    "identify-banner-error",
    "redeem-empty",
    "code",
    "today-empty",
    "manager-pin-first",
    "manager-settings",
    "manager-point_items-list",
    "manager-point_items-new",
    "manager-point_items-edit",
    "manager-rewards-list",
    "manager-rewards-new",
    "manager-rewards-edit",
    "manager-levels-list",
    "manager-levels-new",
    "manager-levels-edit",
    "manager-operators-list",
    "manager-operators-new",
    "manager-operators-detail",
    "manager-clients-list",
    "manager-clients-detail",
    "manager-clients-removal",
    "manager-purchases-list",
    "manager-purchases-deliver",
    "manager-pin-enter",
    "identify-found",
    "identify-banner-success",
    "points-amount-12-digits",
    "points-preview",
    "points-banner",
    "points-items",
    "rewards-grid",
    "rewards-banner",
    "rewards-sheet",
    "rewards-money",
    "redeem-found",
    "redeem-sheet",
    "redeem-delivered",
    "code-with-client",
    "today-credits",
    "today-cancel-sheet",
    "today-cancel-pin",
    "status-bar-alarm",
)
ADMIN = ("point_items", "rewards", "levels", "operators", "clients", "purchases")

Outcome = list[Finding] | str  # the findings, or why the state was not reached
Judge = Callable[[QWidget, str], list[Finding]]  # what is wrong on a window in a state


def case_id(lang: str, size: tuple[int, int], state: str) -> str:
    return f"{state}-{lang}-{size[0]}x{size[1]}"


class Walk:
    """One counter in one window; ``look(state)`` audits and photographs it."""

    def __init__(
        self,
        window: QWidget,
        view: Any,
        lang: str,
        size: tuple[int, int],
        judge: Judge = audit,
    ) -> None:
        self.window, self.view = window, view
        self.judge = judge
        self.lang, self.size = lang, size
        self.results: dict[str, Outcome] = {}
        folder = os.environ.get("KIOSK_AUDIT_SHOTS", "/tmp/shots/audit")
        self.shots = Path(folder) if folder else None

    async def settle(self) -> None:
        for _ in range(3):
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            await asyncio.sleep(0.01)

    async def look(self, state: str) -> None:
        await self.settle()
        self.results[state] = self.judge(self.window, state)
        if self.shots is not None:
            self.shots.mkdir(parents=True, exist_ok=True)
            name = f"{case_id(self.lang, self.size, state)}.png"
            self.window.grab().save(str(self.shots / name))

    async def state(self, name: str, reach: Callable[[], Awaitable[object]]) -> None:
        """Reach state ``name`` and look at it; a state that cannot be reached says why
        (and the walk goes on to the next)."""
        try:
            await asyncio.wait_for(reach(), STATE_SECONDS)
        except Exception as error:  # the screen under repair changed: say so, go on
            self.results[name] = f"{type(error).__name__}: {error}"[:300]
            return
        await self.look(name)

    async def tap(self, widget: QWidget) -> None:
        await until(lambda: widget.isVisible() and widget.isEnabled(), 3, f"{widget} shown")
        QTest.mouseClick(widget, LEFT)
        await asyncio.sleep(0)

    async def rail(self, key: str) -> Any:
        await self.tap(self.view.rail_buttons[key])
        await until(lambda: self.view.current is not None and self.view.current.key == key)
        return self.view.current


def _t(context: str, text: str) -> str:
    return QCoreApplication.translate(context, text)


def _long_client(world: World) -> None:
    clients = world.merchants[1].tables["clients"]
    record = next(c for c in clients.values() if c["document_number"] == LONG_DNI)
    name = f"{LONG_FIRST} {LONG_LAST}"
    assert len(name) == 60
    record.update(
        first_name=LONG_FIRST,
        last_name=LONG_LAST,
        name=name,
        email=LONG_EMAIL,
        score=BIG_BALANCE,
        total_score=BIG_TOTAL,
    )


def walk_counter(
    request: pytest.FixtureRequest,
    lang: str,
    size: tuple[int, int],
    *,
    prepare: Callable[[World], None] = _long_client,
    judge: Judge = audit,
) -> dict[str, Outcome]:
    """Walk the real counter through every state; ``prepare`` sets the simulator's data
    up (by default the long, rich client), ``judge`` says what is wrong in a state."""
    qapp: QApplication = request.getfixturevalue("qapp")
    qtbot = request.getfixturevalue("qtbot")
    session = request.getfixturevalue("session")
    sim_world: World = request.getfixturevalue("sim_world")
    sim_app = request.getfixturevalue("sim_app")
    arun = request.getfixturevalue("arun")
    tmp_path: Path = request.getfixturevalue("tmp_path")
    monkeypatch: pytest.MonkeyPatch = request.getfixturevalue("monkeypatch")
    monkeypatch.setenv("LOYALTY_KIOSK_HOME", str(tmp_path / "home"))
    for name in ("MACHINE_SETTINGS", "CONFIG_DIR", "DATA_DIR", "LOG_DIR"):
        monkeypatch.delenv(f"LOYALTY_KIOSK_{name}", raising=False)
    prepare(sim_world)
    # The walk enters the Code screen more often in a minute than a counter reads its
    # code (5 reads a minute per branch): a 429's wait would time a state out. The
    # limits are the simulator's own tests' and the code poller's business.
    sim_world.settings.rate_limits = False
    # The walk shows the Code screen twice, seconds apart. A code read late in its window
    # expires in between, and the poller then waits out the window before its next read
    # (as a counter does): start the walk at the beginning of a window.
    window = float(VALIDATION_WINDOW_SECONDS)
    sim_world.clock.advance(window - sim_world.clock.time() % window + 0.5)

    from kiosk.core.admin.manager_settings import ManagerSettings, TrainingLink
    from kiosk.core.settings.layers import load_settings
    from kiosk.core.settings.paths import resolve_paths
    from kiosk.sim.transport import SimTransport
    from kiosk.ui.counter import ManagerContext, build_view
    from kiosk.ui.shell import KioskWindow
    from tests.conftest import MAIN_KEY
    from tests.ui.fake_keyring import memory_keyring
    from tests.ui.manager.manager_support import Clocks, make_lock

    with app_theme(qapp), translated(qapp, lang), memory_keyring():
        settings = load_settings(resolve_paths())
        lock = make_lock(tmp_path, Clocks())
        model = ManagerSettings(
            settings,
            transport_for=lambda *_: SimTransport(sim_app),
            training=TrainingLink("http://training-audit.sim", MAIN_KEY),
            pending=session.outbox,
        )
        context = ManagerContext(settings=settings, lock=lock, model=model, idle_seconds=900)
        view = build_view(session, context)
        window = KioskWindow()
        qtbot.addWidget(window)
        window.setCentralWidget(view)
        window.resize(*size)
        window.show()
        walk = Walk(window, view, lang, size, judge)
        try:
            arun(_scenario(walk, session, lock), timeout=120)
        finally:
            view.shutdown()
            window.close()
    return walk.results


async def _scenario(walk: Walk, session: Any, lock: Any) -> None:
    view = walk.view
    await view.load()
    await _without_client(walk)
    from tests.ui.layout_walk_manager import walk_manager

    await walk_manager(walk, lock)
    await _with_client(walk, session)
    await _today(walk, session, lock)


async def _without_client(walk: Walk) -> None:
    from kiosk.api.errors import ApiError, ErrorKind
    from kiosk.core.counter.validation_code import CodePhase
    from kiosk.ui.messages import error_text

    async def identify() -> None:
        await walk.rail("identify")

    async def error_banner() -> None:
        screen = walk.view.current
        screen.banner.show_error(error_text(ApiError(ErrorKind.NETWORK)))
        await until(screen.banner.isVisible)

    async def redeem() -> None:
        walk.view.current.banner.dismiss()
        await walk.rail("redeem")

    async def code() -> None:
        screen = await walk.rail("code")
        await until(
            lambda: screen.phase() is CodePhase.LIVE and screen.panel.shown_code(),
            STATE_SECONDS,
        )

    async def today() -> None:
        screen = await walk.rail("today")
        await until(lambda: not screen.tasks.running("load"))

    await walk.state("identify-empty", identify)
    await walk.state("identify-banner-error", error_banner)
    await walk.state("redeem-empty", redeem)
    await walk.state("code", code)
    await walk.state("today-empty", today)


async def _with_client(walk: Walk, session: Any) -> None:
    async def identify() -> None:
        screen = await walk.rail("identify")
        screen.field.setFocus()
        QTest.keyClicks(screen.field, LONG_DNI)
        QTest.keyClick(screen.field, Qt.Key.Key_Return)
        await until(lambda: session.client is not None and session.client.name.startswith("María"))
        await until(lambda: screen.pages.currentWidget() is screen.found)

    async def success_banner() -> None:
        screen = walk.view.current
        text = _t("PurchasesSection", "Exchange %1 delivered.").replace("%1", PENDING_CODE)
        screen.banner.show_success(text)
        await until(screen.banner.isVisible)

    async def twelve_digits() -> None:
        walk.view.current.banner.dismiss()
        screen = await walk.rail("points")
        if not screen.amount_tab.isChecked():
            await walk.tap(screen.amount_tab)
        screen.setFocus()
        Keys().person("123456789012", widget=screen)  # a person's keys (a scan types nothing)

    async def preview() -> None:
        screen = walk.view.current
        hands = Keys()
        for _ in range(14):
            hands.press(Qt.Key.Key_Backspace, widget=screen)
        hands.person("9999999", widget=screen)
        hands.press(Qt.Key.Key_Return, widget=screen)  # Preview
        await until(lambda: screen.preview_card.isVisible())
        await asyncio.sleep(0.05)

    async def points_banner() -> None:  # the longest a credit says, over the Amount tab
        from kiosk.ui.screens.points.text import credit_failed_text

        screen = walk.view.current
        screen.new_sale()
        lost = credit_failed_text("", outbox=False, maybe_applied=True)
        screen.banner.show_error(lost)
        await until(screen.banner.isVisible)

    async def items() -> None:
        screen = walk.view.current
        screen.new_sale()
        await walk.tap(screen.items_tab)
        await until(lambda: len(screen.grid.tiles) >= 2)
        first, second = list(screen.grid.tiles)[:2]
        for item_id in (first, second, first):
            await walk.tap(screen.grid.tiles[item_id])

    async def rewards() -> None:
        screen = walk.view.current
        screen.new_sale()
        screen = await walk.rail("rewards")
        await until(lambda: screen.grid.tiles and not screen.tasks.running("catalog"))

    async def rewards_banner() -> None:  # a refusal over the grid, its tabs and Refresh
        from kiosk.ui.screens.rewards.offline import exchange_offline_text

        screen = walk.view.current
        screen.banner.show_error(exchange_offline_text())
        await until(screen.banner.isVisible)

    async def rewards_sheet() -> None:
        screen = walk.view.current
        screen.banner.dismiss()
        reachable = [t for t in screen.grid.tiles.values() if t.card.affordable and t.card.in_stock]
        tile = max(reachable, key=lambda t: len(t.card.name))
        await walk.tap(tile)
        await until(lambda: screen.pages.currentWidget() is screen.sheet)

    async def money() -> None:
        screen = walk.view.current
        screen.back()
        await until(lambda: screen.pages.currentWidget() is not screen.sheet)
        await walk.tap(screen.money_tab)
        await until(lambda: screen.pages.currentWidget() is screen.money)
        for key in "250000":
            await walk.tap(screen.money.keypad.buttons[key])

    async def redeem() -> None:
        screen = await walk.rail("redeem")
        screen.code.setFocus()
        QTest.keyClicks(screen.code, PENDING_CODE)
        QTest.keyClick(screen.code, Qt.Key.Key_Return)
        await until(
            lambda: (
                not screen.tasks.running("lookup")
                and screen.purchase is not None
                and screen.purchase.code == PENDING_CODE
            )
        )

    async def redeem_sheet() -> None:
        screen = walk.view.current
        await walk.tap(screen.deliver_button)
        await until(lambda: screen.pages.currentWidget() is screen.sheet)

    async def redeem_delivered() -> None:  # "Hand over": the banner over the code field
        screen = walk.view.current
        await walk.tap(screen.sheet.confirm)
        await until(lambda: screen.banner.isVisible() and screen.banner.kind == "success")

    async def code() -> None:
        from kiosk.core.counter.validation_code import CodePhase

        screen = await walk.rail("code")
        await until(
            lambda: screen.phase() is CodePhase.LIVE and screen.panel.shown_code(),
            STATE_SECONDS,
        )

    await walk.state("identify-found", identify)
    await walk.state("identify-banner-success", success_banner)
    await walk.state("points-amount-12-digits", twelve_digits)
    await walk.state("points-preview", preview)
    await walk.state("points-banner", points_banner)
    await walk.state("points-items", items)
    await walk.state("rewards-grid", rewards)
    await walk.state("rewards-banner", rewards_banner)
    await walk.state("rewards-sheet", rewards_sheet)
    await walk.state("rewards-money", money)
    await walk.state("redeem-found", redeem)
    await walk.state("redeem-sheet", redeem_sheet)
    await walk.state("redeem-delivered", redeem_delivered)
    await walk.state("code-with-client", code)


async def _today(walk: Walk, session: Any, lock: Any) -> None:
    from kiosk.core.counter.credit import CreditFlow
    from kiosk.ui.manager.authorize import PinSheet

    screen: Any = None

    async def credits() -> None:
        nonlocal screen
        for amount in ("15000", "1234,56"):
            flow = CreditFlow(session)
            flow.sale.set_amount_text(amount)
            await flow.preview()
            await flow.credit()
        screen = await walk.rail("today")
        await until(lambda: not screen.tasks.running("load") and screen.table.cancelable_ids())

    async def cancel_sheet() -> None:
        table = screen.table
        rect = table.action_rect(table.cancelable_ids()[0])
        QTest.mouseClick(table.viewport(), LEFT, pos=rect.center())
        await until(screen.sheet.isVisible)

    async def cancel_pin() -> None:
        assert lock.has_pin()
        await walk.tap(screen.sheet.confirm)
        await until(lambda: any(s.isVisible() for s in screen.findChildren(PinSheet)))

    await walk.state("today-credits", credits)
    await walk.state("today-cancel-sheet", cancel_sheet)
    await walk.state("today-cancel-pin", cancel_pin)
    for sheet in screen.findChildren(PinSheet) if screen is not None else []:
        if sheet.isVisible():
            back = getattr(sheet, "back", None)
            if isinstance(back, QPushButton):
                QTest.mouseClick(back, LEFT)
    await asyncio.sleep(0.05)
    lock.relock()

    async def alarm() -> None:  # the status bar's longest words: offline, refused, stale
        walk.view.status.set_online(False)
        walk.view.status.show_counts(1234, 56, True)
        walk.view.status.set_busy(True)

    await walk.state("status-bar-alarm", alarm)
    walk.view.status.set_busy(False)
