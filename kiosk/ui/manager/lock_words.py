"""The manager lock's words and room: its sentences (``lock_text``), the panel's modes,
the wait as a clock, and how a label keeps the room of its longest sentence (the PIN
pad never moves under the finger while the words above and under it change)."""

from __future__ import annotations

from enum import Enum

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtWidgets import QLabel

FAILED = QT_TRANSLATE_NOOP(
    "LockPanel", "The PIN could not be checked. Try again; if it keeps happening, call IT."
)
NO_PIN = QT_TRANSLATE_NOOP(
    "LockPanel", "No manager PIN is set on this kiosk. Ask IT to set the manager PIN."
)
BLOCKED = QT_TRANSLATE_NOOP(
    "LockPanel",
    "Manager mode is locked: too many wrong PINs, or the kiosk's PIN records were "
    "changed. Ask IT to reset the manager PIN.",
)
COMMON = QT_TRANSLATE_NOOP(
    "LockPanel", "Anyone would try this PIN first (like 1234, 1111 or 4321). Choose another."
)


def lock_text(text: str) -> str:
    """One of the lock's sentences above, in the kiosk's language."""
    return QCoreApplication.translate("LockPanel", text)


class Mode(Enum):
    ENTER = "enter"
    CHOOSE = "choose"
    CONFIRM = "confirm"
    NO_PIN = "no_pin"  # outside training, no PIN: IT must set one


UNBOUNDED_PX = 16_777_215  # Qt's QWIDGETSIZE_MAX
CARD_PX = 520  # manager mode's lock: the card's width
CARD_MARGIN_PX = 28
CARD_TEXT_PX = CARD_PX - 2 * CARD_MARGIN_PX


def keep_room(label: QLabel, texts: list[str], width: int) -> None:
    """``label`` as tall as the tallest of ``texts`` wrapped at ``width``, whichever shows."""
    shown = label.text()
    label.ensurePolished()
    tallest = 0
    for text in texts:
        label.setText(text)
        tallest = max(tallest, label.heightForWidth(width))
    label.setText(shown)
    label.setFixedHeight(tallest)


def clock_text(seconds: float) -> str:
    whole = max(0, int(seconds + 0.999))
    minutes, rest = divmod(whole, 60)
    return f"{minutes}:{rest:02d}"
