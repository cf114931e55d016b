"""What a list's folded "Sort and filter" applies, said while it is folded.

Once the panel of sort and filter chips closes, the list could be sorted by points and
showing only pending exchanges with nothing on screen saying so. ``StateChip`` stands
beside "Sort and filter" whenever the list is sorted or filtered otherwise than its
default: it names what applies ("Sorted by Points ↑ · Pending · Money") and a tap on it
(its ✕) clears the sort and the filters at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QSize

from kiosk.api.models.common import Direction
from kiosk.core.admin.paging import ListState
from kiosk.ui.admin.chips import CHIP_STYLE, ChoiceChips, FitButton
from kiosk.ui.icons import icon
from kiosk.ui.theme import current_palette


class StateChip(FitButton):
    """The sort and the filters in force, in words; a tap clears them (``clicked``)."""

    def __init__(self) -> None:
        super().__init__("")
        self.setProperty("role", "tile")
        self.setStyleSheet(CHIP_STYLE)
        self.setMinimumHeight(52)
        self.setIcon(icon("close", current_palette().text))
        self.setIconSize(QSize(20, 20))
        self.hide()

    def describe(
        self,
        state: ListState,
        default: ListState,
        sorts: Sequence[tuple[str | None, str]],
        filters: Sequence[ChoiceChips],
    ) -> list[str]:
        """What ``state`` applies beyond ``default``, in the chips' own words."""
        parts: list[str] = []
        if (state.order, state.sent_direction) != (default.order, default.sent_direction):
            label = dict(sorts).get(state.order, "")
            arrow = (
                "" if state.order is None else (" ↑" if state.direction is Direction.ASC else " ↓")
            )
            parts.append(self.tr("Sorted by %1").replace("%1", f"{label}{arrow}"))
        for name, value in state.filters:
            if (name, value) in default.filters:
                continue
            parts.append(_filter_text(value, filters))
        return parts

    def show_parts(self, parts: list[str], folded: bool) -> None:
        text = " · ".join(parts)
        if text != self.full_text:
            self.set_full_text(text)
            self.setAccessibleName(
                self.tr("Clear the sort and the filters: %1").replace("%1", text)
            )
        self.setVisible(bool(parts) and folded)


def _filter_text(value: Any, filters: Sequence[ChoiceChips]) -> str:
    for chips in filters:
        if value in chips.values:
            return chips.text_of(value)
    return str(value)
