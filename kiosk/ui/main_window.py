"""The counter view: environment band, left rail of modes, client card, the active
screen, and the status bar that never moves. It is the central widget of the
``KioskWindow`` shell (``kiosk/ui/shell.py``), which paints before this is built."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QKeySequence, QResizeEvent, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QButtonGroup,
    QFrame,
    QHBoxLayout,
    QVBoxLayout,
    QWidget,
)

from kiosk.api.models.clients import Client
from kiosk.core.session import CounterSession
from kiosk.ui.icons import draw_icons_ahead, icon
from kiosk.ui.scan_desk import ScanDesk
from kiosk.ui.screens.base import Screen
from kiosk.ui.theme import RAIL_PX, current_palette
from kiosk.ui.warm_imports import ImportsAhead
from kiosk.ui.widgets.band import EnvironmentBand
from kiosk.ui.widgets.client_card import ClientCard
from kiosk.ui.widgets.confirm_sheet import ConfirmSheet
from kiosk.ui.widgets.idle import IdleTimer
from kiosk.ui.widgets.idle_warning import IdleWarning
from kiosk.ui.widgets.plain_text import install_plain_text
from kiosk.ui.widgets.rail_button import RailButton
from kiosk.ui.widgets.relayout import PageStack, lay_out_ahead, one_relayout
from kiosk.ui.widgets.status_bar import CounterStatusBar

log = logging.getLogger(__name__)

IMPORTS_POLL_MS = 5  # how often a warm-up waiting for its imports ahead looks again
# The imports ahead start once the loop is calm: CALM_TURNS turns in a row, polled
# every CALM_POLL_MS, each within CALM_GAP_S of the one before (at most CALM_MAX_S).
CALM_TURNS, CALM_POLL_MS, CALM_GAP_S, CALM_MAX_S = 8, 2, 0.008, 1.0
# Meanwhile the thread begins a module only if the warm-up's poll came this recently
# (a longer gap: a turn is busy, e.g. a tap building a screen, and keeps the GIL).
CALM_BEAT_S = 0.010


@dataclass(frozen=True)
class ScreenSpec:
    """A screen of the rail, built on first use (start-up builds only the first)."""

    key: str
    icon_name: str
    needs_client: bool
    title: str
    factory: Callable[[], Screen]
    # The modules ``factory`` imports (the screen's and those of its parts made on
    # first use): the warm-up imports them ahead, off the UI thread.
    modules: tuple[str, ...] = ()

    @classmethod
    def of(cls, screen: Screen) -> ScreenSpec:
        return cls(
            screen.key, screen.icon_name, screen.needs_client, screen.title(), lambda: screen
        )


class CounterView(QWidget):
    def __init__(self, session: CounterSession, screens: Sequence[Screen | ScreenSpec]) -> None:
        super().__init__()
        app = QApplication.instance()
        if isinstance(app, QApplication):
            install_plain_text(app)  # (once) data shows as plain text
        self.setObjectName("root")
        self.session = session
        specs = [s if isinstance(s, ScreenSpec) else ScreenSpec.of(s) for s in screens]
        self.specs = {spec.key: spec for spec in specs}
        self._warm_steps: list[Callable[[], object]] = []  # what warm_up() has left to do
        self._made: dict[str, Screen] = {}  # made by the warm-up, not yet in the window
        # Steps the warm-up runs once its imports ahead are in, before it builds the
        # screens (e.g. the manager lock that Today's and manager mode's builds share).
        self.warm_first: list[Callable[[], object]] = []
        self.imports_ahead = ImportsAhead(())
        # The screens built so far (a spec is built on first show, or by warm_up()).
        self.screens: dict[str, Screen] = {}
        self.band = EnvironmentBand()
        self.band.set_environment(session.config.environment)
        self.card = ClientCard(session.config.locale)
        self.card.change_requested.connect(self.change_client)
        self.card.level_wanted.connect(self._read_level)
        self.stack = PageStack()
        self.status = CounterStatusBar()
        self.status.set_branch(session.config.branch.name, session.config.branch.id)
        self.rail_group = QButtonGroup(self)
        self.rail_group.setExclusive(True)
        self.rail_buttons: dict[str, RailButton] = {}
        rail = QFrame()
        rail.setProperty("role", "rail")
        rail.setFixedWidth(RAIL_PX)
        rail_layout = QVBoxLayout(rail)
        rail_layout.setContentsMargins(8, 12, 8, 12)
        rail_layout.setSpacing(6)
        palette = current_palette()
        for index, screen in enumerate(specs):
            button = RailButton(screen.title, f"F{index + 1}")  # says its key
            button.setIcon(icon(screen.icon_name, palette.accent, palette.border))
            button.clicked.connect(lambda _=False, key=screen.key: self.show_screen(key))
            self.rail_group.addButton(button)
            self.rail_buttons[screen.key] = button
            rail_layout.addWidget(button, 0, Qt.AlignmentFlag.AlignHCenter)
            shortcut = QShortcut(QKeySequence(f"F{index + 1}"), self)
            shortcut.activated.connect(lambda key=screen.key: self.show_screen(key))
        rail_layout.addStretch(1)
        content = QVBoxLayout()
        content.setContentsMargins(16, 12, 16, 0)
        content.setSpacing(0)
        content.addWidget(self.card)
        content.addWidget(self.stack, 1)
        middle = QHBoxLayout()
        middle.setContentsMargins(0, 0, 0, 0)
        middle.setSpacing(0)
        middle.addWidget(rail)
        middle.addLayout(content, 1)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        outer.addWidget(self.band)
        outer.addLayout(middle, 1)
        outer.addWidget(self.status)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self).activated.connect(self._escape)
        session.client_changed.connect(self._client_changed)
        session.busy_changed.connect(self.status.set_busy)
        session.online_changed.connect(self.status.set_online)
        session.branch_changed.connect(
            lambda branch: self.status.set_branch(branch.name, branch.id)
        )
        self.idle = IdleTimer(session.config.idle_timeout_seconds, self)
        self.idle.idle.connect(self.on_idle)
        self.idle_warning = IdleWarning(self)
        self.idle_warning.kept.connect(self._sale_kept)
        self.idle_warning.expired.connect(self.clear_counter)
        # A scanner's burst is a scan on every screen, never typing (kiosk/ui/scan_desk.py).
        self.scan_desk = ScanDesk(self, self)
        self.scan_offer, self.scan_watch = self.scan_desk.offer, self.scan_desk.watch
        self.idle.idle.connect(self.scan_offer.withdraw)
        self.current: Screen | None = None
        self._shown_before: str | None = None
        self._client_changed(session.client)
        if specs:
            self.show_screen(specs[0].key)
        self.idle.start()

    def build(self, key: str) -> Screen:
        """The screen of ``key``, built now if it was not yet (or only made)."""
        screen = self.screens.get(key)
        if screen is None:
            screen = self.make(key)
            del self._made[key]
            self.stack.addWidget(screen)  # styled in the window (~half the build)
            self.screens[key] = screen
        return screen

    def make(self, key: str) -> Screen:
        """The screen of ``key`` made, not yet in the window (the warm-up's first half
        of a build: ``build`` puts it in the window in another turn)."""
        screen = self.screens.get(key) or self._made.get(key)
        if screen is None:
            screen = self._made[key] = self.specs[key].factory()
            screen.navigate.connect(self.show_screen)
        return screen

    def warm_up(self) -> None:
        """Build the screens not shown yet and their parts made on first use
        (``Screen.warm_steps``), one piece per event-loop turn, and fetch their data:
        the cashier's first visit to each is then instant. The modules those screens
        import are imported first, off the UI thread (``ImportsAhead``); the steps
        begin once they are in, so no turn pays for an import."""
        steps: list[Callable[[], object]] = [
            step
            for screen in self.screens.values()
            for step in (*screen.warm_steps(), screen.banner.prepare)
        ]
        # (the built screens' too: their parts made on first use import theirs)
        beat = [time.perf_counter()]  # the warm-up's last turn: it polls every 5 ms
        self.imports_ahead = ahead = ImportsAhead(
            (module for spec in self.specs.values() for module in spec.modules),
            calm=lambda: time.perf_counter() - beat[0] < CALM_BEAT_S,
        )

        def build(key: str) -> None:
            if key not in self.screens:  # (a tap may have built it meanwhile)
                screen = self.build(key)
                screen.run("preload", screen.preload())
                # next, one per turn as well: its parts, then its layout at the room it gets
                steps[0:0] = [
                    *screen.warm_steps(),
                    screen.banner.prepare,
                    partial(lay_out_hidden, screen),
                ]

        def lay_out_hidden(screen: Screen) -> None:
            if screen is not self.stack.currentWidget():
                lay_out_ahead(screen, self.stack.size())

        steps += self.warm_first
        steps += [
            step
            for key in self.specs
            if key not in self.screens
            for step in (partial(self.make, key), partial(build, key))  # a turn each
        ]
        if not steps:
            return

        self._warm_steps = steps  # shutdown() empties it: the rest is never run

        calm: list[float] = []  # the turns of a calm loop so far
        began = time.perf_counter()

        def next_one() -> None:
            if not steps:
                return
            if not ahead.started:
                # Not at ready: the work started then (the branch check, the sender's
                # first call, the training simulator) runs its first steps on the CPU
                # in the next turns, and a thread taking the GIL half of the time
                # would double them. The imports start once the loop turns calmly.
                now = time.perf_counter()
                if calm and now - calm[-1] > CALM_GAP_S:
                    calm.clear()
                calm.append(now)
                if len(calm) < CALM_TURNS and now - began < CALM_MAX_S:
                    QTimer.singleShot(CALM_POLL_MS, self, next_one)
                    return
                ahead.start()
            beat[0] = time.perf_counter()
            if not ahead.done():  # no step imports on the UI thread: wait for them
                QTimer.singleShot(IMPORTS_POLL_MS, self, next_one)
                return
            steps.pop(0)()
            draw_icons_ahead()  # the icons of what was just built, before it is shown
            if steps:
                QTimer.singleShot(0, self, next_one)  # (not after the view is gone)

        QTimer.singleShot(0, self, next_one)

    def show_screen(self, key: str) -> None:
        spec = self.specs.get(key)
        if spec is None or (self.current is not None and self.current.key == key):
            return
        client = self.session.client
        if spec.needs_client and (client is None or client.is_suspended):
            self.rail_buttons[key].setChecked(False)
            if self.current is not None:
                self.rail_buttons[self.current.key].setChecked(True)
            return
        screen = self.build(key)
        if self.current is not None:
            self._shown_before = self.current.key  # where Escape goes back to
            self.current.leave()
        self.current = screen
        self.rail_buttons[key].setChecked(True)
        self.stack.setCurrentWidget(screen)
        # Manager mode is not about the client at the counter: its screen gets the room.
        self.card.setVisible(
            self.session.client is not None and getattr(screen, "shows_client_card", True)
        )
        screen.entered()

    def change_client(self) -> None:
        self.session.clear_client()
        self.show_screen(next(iter(self.specs)))

    def on_idle(self) -> None:
        """No input for the idle time: a half-done sale is warned of first ("Still
        there?", ``IdleWarning``); then the client is cleared and every screen reset.
        A screen that needs no client (Code, Today, Redeem) stays on screen."""
        if getattr(self.current, "suspends_counter_idle", False):
            self.idle.start()  # manager mode is open: its own, longer idle lock applies
            return
        if self.session.client is not None and any(
            screen.unfinished() for screen in self.screens.values()
        ):
            log.info("idle: a sale is half-done; warning before clearing it")
            self.idle_warning.start()
            return
        self.clear_counter()

    def clear_counter(self) -> None:
        """What idle does: the client cleared, every screen back to empty (a previewed
        sale left in the journal as not credited), the screen kept unless it needs a
        client."""
        self.idle_warning.stop()
        log.info("idle: clearing the counter")
        for screen in self.screens.values():
            if screen.unfinished():
                screen.abandon()
        self.session.clear_client()  # (a screen that needs a client leaves: _show_client)
        for screen in self.screens.values():
            screen.reset()
        if self.current is None:
            first = next(iter(self.specs), None)
            if first is not None:
                self.show_screen(first)
        self.idle.start()

    def _sale_kept(self) -> None:
        log.info("idle: the cashier kept the sale")
        self.idle.start()

    def _read_level(self) -> None:
        """The card shows no level: the client read again (the card follows)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # (no loop turning: nothing can be read now)
            return
        if self.session.client is not None and self.session.online:
            self.session.keep_going(self.session.refresh_client())

    def _escape(self) -> None:
        """Escape closes what is open, one thing a press: the scan's offer, a banner, what
        the screen has open (Points: the preview), a confirmation sheet (nothing is
        confirmed); else it goes back to the screen shown before."""
        screen = self.current
        if self.scan_offer.isVisible():
            self.scan_offer.decline()
            return
        if screen is None:
            return
        if screen.banner.isVisible():
            screen.banner.dismiss()
            return
        escape = getattr(screen, "escape", None)
        if escape is not None and escape():
            return
        for sheet in screen.findChildren(ConfirmSheet):
            if sheet.isVisible() and sheet.back.isVisible() and sheet.back.isEnabled():
                sheet.back.click()
                return
        back = self._shown_before
        if back is not None and back != screen.key:
            self.show_screen(back)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.scan_desk.place()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # At every start (and a rebuild, e.g. a new language) the screen's field has the
        # focus: Identify's, so that a scan or typing lands in it.
        QTimer.singleShot(0, self, self._focus_current)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        active = event.type() == QEvent.Type.ActivationChange and self.isActiveWindow()
        if active and QApplication.focusWidget() is None:  # the window came up unfocused
            self._focus_current()

    def _focus_current(self) -> None:
        focus = getattr(self.current, "take_focus", None)
        if focus is not None:
            focus()

    def _client_changed(self, client: Client | None) -> None:
        with one_relayout(self):
            self._show_client(client)

    def _show_client(self, client: Client | None) -> None:
        self.card.show_client(client)
        if self.current is not None and not getattr(self.current, "shows_client_card", True):
            self.card.hide()
        suspended = client is not None and client.is_suspended
        for key, button in self.rail_buttons.items():
            enabled = not self.specs[key].needs_client or (client is not None and not suspended)
            button.setEnabled(enabled)
            if enabled:
                hint = ""
            elif suspended:
                hint = self.tr("This client is suspended: they cannot earn or use points.")
            else:
                hint = self.tr("Identify a client first")
            button.set_hint(hint)
        if (client is None or suspended) and self.current is not None and self.current.needs_client:
            self.show_screen(next(iter(self.specs)))

    def shutdown(self) -> None:
        """Cancel every screen's work and the warm-up, and stop watching input (the
        window is closing)."""
        self._warm_steps.clear()
        self.scan_watch.uninstall()
        for screen in self._made.values():  # made ahead, never put in the window
            screen.tasks.cancel_all()
            screen.deleteLater()
        self._made.clear()
        for screen in self.screens.values():
            screen.tasks.cancel_all()
            screen.left()
        self.idle.detach()
        self.idle_warning.detach()
