"""Building manager mode for the counter window (the lead's wiring)::

    lock = ManagerLock.for_paths(settings, paths)          # one per app: the guard uses it too
    model = ManagerSettings(settings, transport_for=..., training=..., pending=outbox)
    sections = [*settings_sections(model, on_applied), *admin_sections(session)]
    screen = build_manager_screen(session, lock, sections, idle_seconds=..., on_exit=...)

Before the counter can start (no key, no branch: ``NotConfigured``) the settings are
still reachable behind the PIN: ``build_manager_gate(lock, settings_sections(model, ...))``
as the window's central widget.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtWidgets import QWidget

from kiosk.core.admin.manager_settings import ManagerSettings
from kiosk.core.security.lock import ManagerLock
from kiosk.core.session import CounterSession
from kiosk.ui.manager.gate import ManagerGate, ManagerScreen
from kiosk.ui.manager.manager_view import ManagerView, Section
from kiosk.ui.manager.settings_screen import Applied, SettingsScreen

SETTINGS_TITLE = QT_TRANSLATE_NOOP("ManagerView", "Settings")
AnySection = Section | tuple[str, str, Callable[[], QWidget]]


def settings_sections(
    model: ManagerSettings,
    on_applied: Applied | None = None,
    running_branch: Callable[[], int | None] | None = None,
) -> list[Section]:
    """The "Settings" section (first in the list); ``running_branch``: the branch the
    counter runs with (shown when the branch setting is left unset)."""
    title = QCoreApplication.translate("ManagerView", str(SETTINGS_TITLE))

    def screen() -> SettingsScreen:
        return SettingsScreen(model, on_applied=on_applied, running_branch=running_branch)

    return [Section(title, "settings", screen)]


def build_manager_gate(
    lock: ManagerLock,
    sections: Sequence[AnySection],
    *,
    idle_seconds: float,
    on_exit: Callable[[], object] | None = None,
) -> ManagerGate:
    """The PIN, then the sections. ``on_exit``: what "Close the kiosk" does (kiosk mode)."""

    def view() -> ManagerView:
        made = ManagerView(sections, can_exit=on_exit is not None)
        if on_exit is not None:
            made.exit_requested.connect(on_exit)
        return made

    return ManagerGate(lock, view, idle_seconds=idle_seconds)


def build_manager_screen(
    session: CounterSession,
    lock: ManagerLock,
    sections: Sequence[AnySection],
    *,
    idle_seconds: float,
    on_exit: Callable[[], object] | None = None,
) -> ManagerScreen:
    """The rail's "Manager" entry (key ``manager``)."""
    gate = build_manager_gate(lock, sections, idle_seconds=idle_seconds, on_exit=on_exit)
    return ManagerScreen(session, gate)
