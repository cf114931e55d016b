"""A scripted cashier's session on the REAL counter view, driven through its widgets.

``run_counter_session(view, session)`` taps and types like a cashier (``QTest`` clicks
and keys on the widgets a person touches, one input per event-loop turn; no private
shortcut where a click exists) and awaits each screen reaching its expected state:

1. a scanned DNI barcode (typed as fast as a scanner) of a non-member -> "Enroll new
   client" -> the prefilled form, email and phone typed -> enrolled;
2. a member's email typed + Enter -> "Credit points";
3. by amount: ``1.234`` on the keyboard, ``,56`` on the keypad (es-AR), Preview,
   Credit, New sale; by point items: tiles, basket (one unit removed), Preview, Credit;
4. rewards: the cheapest affordable reward, confirmed on its sheet; a money exchange;
5. redeem: the seeded pending code (or, if it is not pending, the exchange's code);
6. code: the branch's code shown; the simulator's clock moved a window on; with
   ``wait_rotation`` the next code awaited in real time (the poller runs on this
   process's monotonic clock, which cannot be moved from outside);
7. today: the amount credit canceled, confirmed on its sheet.

Shared by ``tests/bench/ui_stall.py`` (a simulator process over loopback) and
``tests/ui/test_counter_session.py`` (in process). ``on_step(label)`` is called as
each step starts ("" at the end); a step that does not reach its state in time
raises ``StepFailed`` naming it and what was awaited.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget

from kiosk.core.counter.validation_code import CodePhase
from kiosk.core.journal import JournalEntry, OperationKind
from kiosk.core.session import CounterSession
from kiosk.ui.main_window import CounterView
from kiosk.ui.screens.base import Screen
from kiosk.ui.screens.code.screen import CodeScreen
from kiosk.ui.screens.identify.screen import IdentifyScreen
from kiosk.ui.screens.points.screen import PointsScreen
from kiosk.ui.screens.redeem.screen import RedeemScreen
from kiosk.ui.screens.rewards.screen import RewardsScreen
from kiosk.ui.screens.today.screen import TodayScreen

# The seeded world (docs/simulator.md, "Seed data").
MEMBER_EMAIL = "juan.perez@example.com"  # Juan Carlos Pérez, Plata, 4.730 points
# Ana López's DNI (new card format, from shared/data/dni-barcodes.md): not a member.
NEW_CLIENT_BARCODE = "00734567890@LOPEZ@ANA@X@44123987@A@30/01/2002@11/09/2021@254"
NEW_CLIENT_DOCUMENT = "44123987"
NEW_CLIENT_EMAIL = "ana.lopez@example.org"
NEW_CLIENT_PHONE = "11 4321 5678"
PENDING_CODE = "PEND2345"
MONEY_AMOUNT = "1000"
CODE_ADVANCE = 60.0  # seconds: one code window of the seeded QRs

CREDIT = OperationKind.CREDIT
LEFT = Qt.MouseButton.LeftButton
POLL = 0.01

S = TypeVar("S", bound=Screen)
OnStep = Callable[[str], None]
AdvanceClock = Callable[[float], Awaitable[None]]


class StepFailed(AssertionError):
    """A step did not reach its expected state."""


@dataclass
class SessionRecord:
    """What the session did, as the counter showed it (tests check it in the world)."""

    enrolled_client_id: int | None = None
    member_client_id: int | None = None
    amount_credit: str | None = None  # external id
    amount_points: int | None = None
    items_credit: str | None = None
    items_points: int | None = None
    items_units: dict[int, int] = field(default_factory=dict)
    exchange_code: str | None = None
    money_code: str | None = None
    delivered_code: str | None = None
    first_code: str | None = None
    rotated_code: str | None = None  # None unless the rotation was awaited
    today_rows: int = 0
    canceled_credit: str | None = None
    step_seconds: dict[str, float] = field(default_factory=dict)


class Cashier:
    """Taps, types and waits on one counter view."""

    def __init__(self, view: CounterView, on_step: OnStep | None, timeout: float) -> None:
        self.view = view
        self.on_step = on_step
        self.timeout = timeout
        self.step = ""
        self.record = SessionRecord()
        self._started = 0.0

    # -- steps ---------------------------------------------------------------------
    def begin(self, label: str) -> None:
        """Step ``label`` starts ("": the session is over)."""
        if self.step:
            self.record.step_seconds[self.step] = time.perf_counter() - self._started
        self.step, self._started = label, time.perf_counter()
        if self.on_step is not None:
            self.on_step(label)

    async def until(
        self, predicate: Callable[[], object], what: str, timeout: float | None = None
    ) -> None:
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while not predicate():
            if time.monotonic() > deadline:
                raise StepFailed(f"step {self.step!r}: {what} (not within the deadline)")
            await asyncio.sleep(POLL)

    # -- hands -----------------------------------------------------------------------
    async def tap(self, widget: QWidget) -> None:
        """Tap ``widget`` once it is shown and enabled (as a person would wait for it)."""
        if not (widget.isVisible() and widget.isEnabled()):
            text = getattr(widget, "text", lambda: "")()
            await self.until(
                lambda: widget.isVisible() and widget.isEnabled(),
                f"{type(widget).__name__} {text!r} shown and enabled",
            )
        QTest.mouseClick(widget, LEFT)
        await asyncio.sleep(0)  # one input per loop turn, as from a person

    async def type_text(self, widget: QWidget, text: str) -> None:
        """Key by key, each in its own loop turn (a scanner's burst is a few ms a key)."""
        for char in text:
            QTest.keyClicks(widget, char)
            await asyncio.sleep(0)

    async def enter(self, widget: QWidget) -> None:
        QTest.keyClick(widget, Qt.Key.Key_Return)
        await asyncio.sleep(0)

    def shown(self, kind: type[S]) -> S:
        """The screen on show, which must be a ``kind``."""
        screen = self.view.current
        if not isinstance(screen, kind):
            raise StepFailed(f"step {self.step!r}: {kind.__name__} is not shown")
        return screen

    async def rail(self, key: str, kind: type[S]) -> S:
        """Tap the rail's button ``key``: its screen is shown."""
        await self.tap(self.view.rail_buttons[key])
        return self.shown(kind)


async def run_counter_session(
    view: CounterView,
    session: CounterSession,
    *,
    on_step: OnStep | None = None,
    advance_clock: AdvanceClock | None = None,
    wait_rotation: bool = False,
    timeout: float = 10.0,
) -> SessionRecord:
    """Drive ``view`` through a full counter session; return what it did.

    ``advance_clock(seconds)`` moves the simulator's clock (its control API);
    ``wait_rotation`` then waits, in real time, for the kiosk to show the next code.
    """
    cashier = Cashier(view, on_step, timeout)
    await enroll_from_scan(cashier, session)
    await identify_member(cashier, session)
    await credit_by_amount(cashier)
    await credit_by_items(cashier)
    await exchange_reward(cashier)
    await exchange_money(cashier)
    await redeem(cashier)
    await show_code(cashier, advance_clock, wait_rotation)
    await cancel_from_today(cashier)
    cashier.begin("")
    return cashier.record


# -- identify and enroll ----------------------------------------------------------------
async def enroll_from_scan(c: Cashier, session: CounterSession) -> None:
    c.begin("identify-scan")
    screen = await c.rail("identify", IdentifyScreen)
    await c.type_text(screen.field, NEW_CLIENT_BARCODE)
    await c.enter(screen.field)
    await c.until(lambda: screen.pages.currentWidget() is screen.matches, "no-match page shown")
    await c.until(lambda: screen.search_button.isEnabled(), "search finished")
    c.begin("enroll")
    await c.tap(screen.matches.enroll_button)
    panel = screen.enroll
    if panel.document.text() != NEW_CLIENT_DOCUMENT:
        raise StepFailed(f"the form was not prefilled from the scan: {panel.document.text()!r}")
    await c.type_text(panel.email, NEW_CLIENT_EMAIL)
    await c.type_text(panel.phone, NEW_CLIENT_PHONE)
    await c.tap(panel.enroll_button)
    await c.until(lambda: screen.banner.kind == "success", "enrolled banner")
    client = session.client
    if client is None or client.document_number != NEW_CLIENT_DOCUMENT:
        raise StepFailed("the enrolled client is not the one at the counter")
    c.record.enrolled_client_id = client.id


async def identify_member(c: Cashier, session: CounterSession) -> None:
    c.begin("identify-email")
    screen = await c.rail("identify", IdentifyScreen)
    await c.type_text(screen.field, MEMBER_EMAIL)
    await c.enter(screen.field)

    def found() -> bool:
        client = session.client
        return client is not None and client.email == MEMBER_EMAIL

    await c.until(found, "the member at the counter")
    await c.until(lambda: screen.pages.currentWidget() is screen.found, "found page")
    c.record.member_client_id = session.client.id if session.client else None
    await c.tap(screen.found.points_button)  # the quick jump to Points


# -- points ----------------------------------------------------------------------------
async def _preview_and_credit(c: Cashier, screen: PointsScreen, kind: str) -> tuple[str, int]:
    c.begin(f"points-{kind}-preview")
    await c.tap(screen.preview_button)
    await c.until(
        lambda: screen.preview_card.isVisible() and not screen.preview_button.busy, "preview shown"
    )
    await c.until(lambda: screen.credit_button.armed, "credit button armed (guard time)")
    c.begin(f"points-{kind}-credit")
    await c.tap(screen.credit_button)
    await c.until(
        lambda: screen.pages.currentWidget() is screen.result and not screen.credit_button.busy,
        "credit result shown",
    )
    outcome = screen.flow.sale.outcome
    if outcome is None or outcome.points is None:
        raise StepFailed("a credit result without points")
    await c.tap(screen.result.next)  # New sale
    await c.until(lambda: screen.pages.currentIndex() == 0, "a new sale")
    return outcome.external_id, outcome.points


async def credit_by_amount(c: Cashier) -> None:
    c.begin("points-amount-type")
    screen = c.shown(PointsScreen)  # opened by "Credit points"
    if not screen.amount_tab.isChecked():
        await c.tap(screen.amount_tab)
    await c.type_text(screen, "1.234")  # the physical keyboard (the screen takes the keys)
    for key in (",", "5", "6"):  # and the big keypad
        await c.tap(screen.pad.keypad.buttons[key])
    if screen.pad.amount.text() != "$ 1.234,56":
        raise StepFailed(f"typed amount shows {screen.pad.amount.text()!r}")
    external_id, points = await _preview_and_credit(c, screen, "amount")
    c.record.amount_credit, c.record.amount_points = external_id, points


async def credit_by_items(c: Cashier) -> None:
    c.begin("points-items-basket")
    screen = c.shown(PointsScreen)
    await c.tap(screen.items_tab)
    await c.until(lambda: len(screen.grid.tiles) >= 2, "point item tiles")
    first, second = list(screen.grid.tiles)[:2]
    for item_id in (first, second, first, second):
        await c.tap(screen.grid.tiles[item_id])
    await c.tap(screen.basket.minus[second])  # one unit less
    lines = dict(screen.flow.sale.basket.lines())
    if lines != {first: 2, second: 1}:
        raise StepFailed(f"basket holds {lines}")
    c.record.items_units = lines
    external_id, points = await _preview_and_credit(c, screen, "items")
    c.record.items_credit, c.record.items_points = external_id, points
    await c.tap(screen.amount_tab)  # leave the counter ready for the next amount


# -- rewards -----------------------------------------------------------------------------
async def _await_exchange(c: Cashier, screen: RewardsScreen) -> str:
    await c.tap(screen.sheet.confirm)
    await c.until(lambda: screen.pages.currentWidget() is screen.result, "exchange result")
    await c.until(
        lambda: (
            "updating" not in screen.result.balance.text()
            and not screen.tasks.running("exchange")
            and not screen.tasks.running("catalog")
        ),
        "new balance and catalog read",
    )
    code = screen.result.code.text()
    if not code:
        raise StepFailed("an exchange without a pickup code")
    await c.tap(screen.result.done_button)
    return code


async def exchange_reward(c: Cashier) -> None:
    c.begin("rewards-catalog")
    screen = await c.rail("rewards", RewardsScreen)
    await c.until(
        lambda: screen.grid.tiles and not screen.tasks.running("catalog"), "rewards catalog"
    )
    reachable = [t for t in screen.grid.tiles.values() if t.card.affordable and t.card.in_stock]
    if not reachable:
        raise StepFailed("no affordable reward for the member")
    tile = min(reachable, key=lambda t: t.card.price)
    c.begin("rewards-exchange")
    await c.tap(tile)
    await c.until(lambda: screen.pages.currentWidget() is screen.sheet, "confirmation sheet")
    c.record.exchange_code = await _await_exchange(c, screen)
    await c.until(lambda: screen.pages.currentWidget() is screen.grid, "back on the grid")


async def exchange_money(c: Cashier) -> None:
    c.begin("rewards-money")
    screen = c.shown(RewardsScreen)
    await c.tap(screen.money_tab)
    await c.until(lambda: screen.pages.currentWidget() is screen.money, "money page")
    for key in MONEY_AMOUNT:
        await c.tap(screen.money.keypad.buttons[key])
    await c.tap(screen.money.exchange)
    await c.until(lambda: screen.pages.currentWidget() is screen.sheet, "confirmation sheet")
    c.record.money_code = await _await_exchange(c, screen)


# -- redeem -------------------------------------------------------------------------------
async def _look_up(c: Cashier, screen: RedeemScreen, code: str) -> bool:
    """Type ``code`` like a scanner (Enter after it); True when it can be delivered."""
    screen.code.selectAll()
    await c.type_text(screen.code, code)
    await c.enter(screen.code)
    await c.until(
        lambda: (
            not screen.tasks.running("lookup")
            and screen.purchase is not None
            and screen.purchase.code == code
        ),
        f"purchase {code} shown",
    )
    return screen.deliver_button.isEnabled()


async def redeem(c: Cashier) -> None:
    c.begin("redeem-lookup")
    screen = await c.rail("redeem", RedeemScreen)
    code = PENDING_CODE
    if not await _look_up(c, screen, code):
        code = c.record.exchange_code or ""  # the seeded code was delivered already
        if not code or not await _look_up(c, screen, code):
            raise StepFailed("no pending purchase code to deliver")
    c.begin("redeem-deliver")
    await c.tap(screen.deliver_button)
    await c.until(lambda: screen.pages.currentWidget() is screen.sheet, "delivery sheet")
    await c.tap(screen.sheet.confirm)
    await c.until(
        lambda: screen.banner.kind == "success" and not screen.tasks.running("deliver"),
        "delivered banner",
    )
    c.record.delivered_code = code


# -- code --------------------------------------------------------------------------------
async def show_code(c: Cashier, advance_clock: AdvanceClock | None, wait_rotation: bool) -> None:
    c.begin("code-show")
    screen = await c.rail("code", CodeScreen)
    await c.until(lambda: screen.phase() is CodePhase.LIVE and screen.panel.shown_code(), "code")
    first = screen.panel.shown_code()
    c.record.first_code = first
    if advance_clock is not None:
        await advance_clock(CODE_ADVANCE)
    if wait_rotation:
        c.begin("code-rotate")
        # The next read is due when the code expires, never sooner than the QR's window
        # after the previous read: up to one window (plus the client's margins).
        window = screen.poller.snapshot.window
        await c.until(
            lambda: screen.panel.shown_code() not in ("", first),
            "the next code",
            timeout=window + 30.0,
        )
        c.record.rotated_code = screen.panel.shown_code()


# -- today -------------------------------------------------------------------------------
async def cancel_from_today(c: Cashier) -> None:
    c.begin("today-open")
    screen = await c.rail("today", TodayScreen)
    target = c.record.amount_credit

    def credit_row() -> JournalEntry | None:  # (the cancel's row has the same external id)
        rows = screen.table.entries
        return next((e for e in rows if e.external_id == target and e.kind is CREDIT), None)

    def row_id() -> int | None:
        entry = credit_row()
        cancelable = entry is not None and entry.id in screen.table.cancelable_ids()
        return entry.id if entry is not None and cancelable else None

    await c.until(lambda: not screen.tasks.running("load") and row_id() is not None, "journal")
    c.begin("today-cancel")
    entry_id = row_id()
    assert entry_id is not None
    rect = screen.table.action_rect(entry_id)  # "Cancel credit" is painted in its row
    assert rect is not None
    QTest.mouseClick(screen.table.viewport(), LEFT, pos=rect.center())
    await asyncio.sleep(0)
    await c.until(lambda: screen.sheet.isVisible(), "cancel sheet")
    await c.tap(screen.sheet.confirm)
    await c.until(
        lambda: screen.banner.kind == "success" and not screen.tasks.running("cancel"),
        "canceled banner",
    )
    await c.until(
        lambda: (
            (row := credit_row()) is not None and row.canceled and not screen.tasks.running("load")
        ),
        "the credit shown canceled",
    )
    c.record.today_rows = len(screen.table.entries)
    c.record.canceled_credit = target
