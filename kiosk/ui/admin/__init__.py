"""Program administration (manager only): point items, rewards, levels, operators,
clients and purchases, each a section with a paginated list, search and sort as the
contract allows, forms with per-field errors, and confirmation before anything
destructive.

``admin_sections(session)`` is what the manager view shows: (title, icon name,
factory) per section; each factory builds an ``AdminSection`` (a ``Screen``).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtWidgets import QWidget

from kiosk.core.session import CounterSession

CONTEXT = "AdminSections"

TITLES = {
    "point_items": QT_TRANSLATE_NOOP("AdminSections", "Point items"),
    "rewards": QT_TRANSLATE_NOOP("AdminSections", "Rewards"),
    "levels": QT_TRANSLATE_NOOP("AdminSections", "Levels"),
    "operators": QT_TRANSLATE_NOOP("AdminSections", "Operators"),
    "clients": QT_TRANSLATE_NOOP("AdminSections", "Clients"),
    "purchases": QT_TRANSLATE_NOOP("AdminSections", "Exchanges"),
}


def admin_sections(session: CounterSession) -> list[tuple[str, str, Callable[[], QWidget]]]:
    """The sections in the manager view's order; each factory builds a fresh section."""
    from kiosk.ui.admin.clients import ClientsSection
    from kiosk.ui.admin.levels import LevelsSection
    from kiosk.ui.admin.operators import OperatorsSection
    from kiosk.ui.admin.point_items import PointItemsSection
    from kiosk.ui.admin.purchases import PurchasesSection
    from kiosk.ui.admin.rewards import RewardsSection
    from kiosk.ui.admin.section import AdminSection

    sections: list[tuple[str, type[AdminSection]]] = [
        ("point_items", PointItemsSection),
        ("rewards", RewardsSection),
        ("levels", LevelsSection),
        ("operators", OperatorsSection),
        ("clients", ClientsSection),
        ("purchases", PurchasesSection),
    ]

    def factory(cls: type[AdminSection]) -> Callable[[], QWidget]:
        return lambda: cls(session)

    return [
        (QCoreApplication.translate(CONTEXT, str(TITLES[name])), cls.icon_name, factory(cls))
        for name, cls in sections
    ]
