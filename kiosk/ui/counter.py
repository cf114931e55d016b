"""The counter view with its screens, in rail order.

Only the first screen (Identify) is built before the counter is "ready"; the
others are imported and built on first visit, or by ``warm_up()`` right after
start-up, so the counter paints and answers sooner.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from kiosk.core.session import CounterSession
from kiosk.ui.main_window import CounterView, ScreenSpec
from kiosk.ui.screens.base import Screen

# key, icon, needs a client, rail title, module, class
RAIL = (
    (
        "identify",
        "identify",
        False,
        QT_TRANSLATE_NOOP("Rail", "Identify"),
        "identify",
        "IdentifyScreen",
    ),
    ("points", "points", True, QT_TRANSLATE_NOOP("Rail", "Points"), "points", "PointsScreen"),
    ("rewards", "rewards", True, QT_TRANSLATE_NOOP("Rail", "Rewards"), "rewards", "RewardsScreen"),
    ("redeem", "redeem", False, QT_TRANSLATE_NOOP("Rail", "Redeem"), "redeem", "RedeemScreen"),
    ("code", "code", False, QT_TRANSLATE_NOOP("Rail", "Code"), "code", "CodeScreen"),
    ("today", "today", False, QT_TRANSLATE_NOOP("Rail", "Today"), "today", "TodayScreen"),
)


def _factory(session: CounterSession, module: str, name: str) -> Callable[[], Screen]:
    def build() -> Screen:
        cls = getattr(importlib.import_module(f"kiosk.ui.screens.{module}.screen"), name)
        screen: Screen = cls(session)
        return screen

    return build


# What a screen's parts made on first use import besides its module (imported ahead
# by the warm-up, off the UI thread): Identify's pages (the enrolment form brings
# ``email_validator``).
PARTS = {
    "identify": tuple(
        f"kiosk.ui.screens.identify.{page}" for page in ("found", "matches", "offline", "enroll")
    ),
}
# Today guarded by the manager's PIN, and manager mode. The lock's seal looks its
# keyring backend up: keyring's own backends (and what they import) come in too.
PIN_GUARD = (
    "kiosk.core.security.lock",
    *(f"keyring.backends.{name}" for name in ("SecretService", "libsecret", "kwallet")),
    *(f"keyring.backends.{name}" for name in ("chainer", "macOS", "Windows")),
    "zipp",
    "kiosk.ui.manager.authorize",
    "kiosk.ui.manager.pin_pad",
)
ADMIN_LISTS = ("clients", "levels", "operators", "point_items", "purchases", "rewards")
MANAGER = (
    *PIN_GUARD,
    "kiosk.core.admin.manager_settings",
    "kiosk.ui.manager.assemble",
    "kiosk.ui.admin",
    *(f"kiosk.ui.admin.{name}" for name in ADMIN_LISTS),
    "kiosk.ui.admin.section",
)


def screen_specs(session: CounterSession) -> list[ScreenSpec]:
    return [
        ScreenSpec(
            key,
            icon,
            needs,
            QCoreApplication.translate("Rail", title),
            _factory(session, module, cls),
            (f"kiosk.ui.screens.{module}.screen", *PARTS.get(key, ())),
        )
        for key, icon, needs, title, module, cls in RAIL
    ]


def build_screens(session: CounterSession) -> list[Screen]:
    """Every screen, built now (tests and the screenshot script)."""
    return [spec.factory() for spec in screen_specs(session)]


class Counter(CounterView):
    def show_outbox(self) -> None:
        """The status bar follows the outbox; a tap on its counter opens the Pending list."""
        self.session.pending_changed.connect(self.status.show_outbox)
        self.status.pending_tapped.connect(self.show_pending)

    def show_pending(self) -> None:
        self.show_screen("today")
        today = self.screens.get("today")
        show = getattr(today, "show_pending", None)
        if show is not None:
            show()

    def guard_today_with(self, lock_for: Callable[[], Any]) -> None:
        """Cancelling a credit from Today, or discarding an outbox row, needs a manager's
        PIN (``lock_for()``: the manager lock, made when Today is first built)."""
        original = self.specs["today"]

        def build() -> Screen:
            from kiosk.ui.manager.authorize import pin_authorizer

            lock = lock_for()
            screen = original.factory()
            reason = QCoreApplication.translate(
                "Rail", QT_TRANSLATE_NOOP("Rail", "A manager's PIN is needed to cancel a credit.")
            )
            screen.authorize_cancel = pin_authorizer(lock, screen, reason)  # type: ignore[attr-defined]
            discard = QCoreApplication.translate(
                "Rail",
                QT_TRANSLATE_NOOP(
                    "Rail", "A manager's PIN is needed to discard a pending operation."
                ),
            )
            screen.authorize_discard = pin_authorizer(lock, screen, discard)  # type: ignore[attr-defined]
            return screen

        self.specs["today"] = ScreenSpec(
            original.key,
            original.icon_name,
            original.needs_client,
            original.title,
            build,
            (*original.modules, *PIN_GUARD),
        )
        # The lock in a warm-up turn of its own (the keyring's backends are looked up:
        # ~10 ms), not in Today's build.
        self.warm_first.append(lock_for)

    async def load(self) -> None:
        """Ready: the screens built so far fetched what they need (failures show in
        their banners)."""
        screens = list(self.screens.values())
        results = await asyncio.gather(*(s.preload() for s in screens), return_exceptions=True)
        outbox = self.session.outbox
        if outbox is not None:
            self.status.show_outbox(await outbox.status())
        for screen, result in zip(screens, results, strict=True):
            if isinstance(result, BaseException):
                screen.show_error(result)


@dataclass
class ManagerContext:
    """What manager mode needs besides the session (built by ``kiosk.app``)."""

    settings: Any  # kiosk.core.settings.layers.Settings
    lock: Any  # kiosk.core.security.lock.ManagerLock, or None with make_lock
    model: Any  # kiosk.core.admin.manager_settings.ManagerSettings, or None with make_model
    idle_seconds: float
    on_applied: Callable[[tuple[str, ...]], object] | None = None
    on_exit: Callable[[], object] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    # Builds ``model`` when manager mode is first built (it loads the OS keyring:
    # ~50 ms the counter's start does not need).
    make_model: Callable[[], Any] | None = None
    # Makes ``lock`` when manager mode or Today is first built (the PIN's files and
    # ``kiosk.core.security.lock``: ~3 ms the counter's start does not need).
    make_lock: Callable[[], Any] | None = None

    def settings_model(self) -> Any:
        if self.model is None and self.make_model is not None:
            self.model = self.make_model()
        return self.model

    def manager_lock(self) -> Any:
        if self.lock is None and self.make_lock is not None:
            self.lock = self.make_lock()
        return self.lock


def manager_spec(session: CounterSession, manager: ManagerContext) -> ScreenSpec:
    def build() -> Screen:
        from kiosk.ui.admin import admin_sections
        from kiosk.ui.manager.assemble import build_manager_screen, settings_sections

        sections = [
            *settings_sections(
                manager.settings_model(),
                manager.on_applied,
                running_branch=lambda: session.config.branch.id,
            ),
            *admin_sections(session),
        ]
        return build_manager_screen(
            session,
            manager.manager_lock(),
            sections,
            idle_seconds=manager.idle_seconds,
            on_exit=manager.on_exit,
        )

    title = QCoreApplication.translate("Rail", QT_TRANSLATE_NOOP("Rail", "Manager"))
    return ScreenSpec("manager", "manager", False, title, build, MANAGER)


def build_view(session: CounterSession, manager: ManagerContext | None = None) -> Counter:
    specs = screen_specs(session)
    if manager is not None:
        specs.append(manager_spec(session, manager))
    view = Counter(session, specs)
    view.show_outbox()
    if manager is not None:
        view.guard_today_with(manager.manager_lock)
    return view
