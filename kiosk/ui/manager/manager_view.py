"""Manager mode once unlocked: a list of sections on the left, the chosen one on the right,
and "Lock" always in reach.

Sections are ``Section(title, icon_name, factory)``: "Settings" plus whatever the
lead passes (the program-administration screens of ``kiosk/ui/admin``). Each
widget is built the first time its section is opened, and everything is thrown
away when manager mode locks again (``ManagerGate`` deletes this view).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from kiosk.ui.icons import icon, pixmap
from kiosk.ui.manager.settings_reflow import ReflowRow
from kiosk.ui.screens.base import Screen
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.confirm_sheet import ConfirmSheet
from kiosk.ui.widgets.relayout import PageStack


@dataclass(frozen=True)
class Section:
    title: str  # translated by whoever builds the list
    icon_name: str  # an SVG of resources/icons
    factory: Callable[[], QWidget]


class ManagerView(QWidget):
    """Emits ``lock_requested`` on "Lock", ``exit_requested`` on "Close the kiosk",
    ``change_pin_requested`` on "Change PIN" (shown by the gate when the PIN may change)."""

    lock_requested = Signal()
    exit_requested = Signal()
    change_pin_requested = Signal()

    def __init__(
        self,
        sections: Sequence[Section | tuple[str, str, Callable[[], QWidget]]],
        *,
        can_exit: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("managerView")
        self.sections = [s if isinstance(s, Section) else Section(*s) for s in sections]
        self.widgets: dict[int, QWidget] = {}
        palette = current_palette()
        title = QLabel(self.tr("Manager mode"))
        title.setProperty("role", "heading")
        self.note = QLabel(self.tr("Locks again by itself when nobody touches the screen."))
        self.note.setProperty("role", "muted")
        self.exit_button = QPushButton(self.tr("Close the kiosk"))
        self.exit_button.setMinimumHeight(48)
        self.exit_button.setVisible(can_exit)
        self.exit_button.clicked.connect(self.ask_exit)
        self.pin_button = QPushButton(self.tr("Change PIN"))
        self.pin_button.setMinimumHeight(48)
        self.pin_button.hide()
        self.pin_button.clicked.connect(self.change_pin_requested.emit)
        self.lock_button = QPushButton(self.tr("Lock"))
        self.lock_button.setProperty("role", "primary")
        self.lock_button.setIcon(icon("manager", palette.accent_text))
        self.lock_button.setMinimumSize(160, 56)
        self.lock_button.clicked.connect(self.lock_requested.emit)
        titles_box = QWidget()
        titles = QVBoxLayout(titles_box)
        titles.setContentsMargins(0, 0, 0, 0)
        titles.setSpacing(2)
        titles.addWidget(title)
        titles.addWidget(self.note)
        buttons_box = QWidget()
        buttons = QHBoxLayout(buttons_box)
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.setSpacing(16)
        buttons.addStretch(1)
        buttons.addWidget(self.exit_button, 0, Qt.AlignmentFlag.AlignVCenter)
        buttons.addWidget(self.pin_button, 0, Qt.AlignmentFlag.AlignVCenter)
        buttons.addWidget(self.lock_button, 0, Qt.AlignmentFlag.AlignVCenter)
        # The buttons beside the title when they fit (1280 px), under it when not.
        self.header = ReflowRow(titles_box, buttons_box, first_stretch=1)
        # In-screen, never a modal dialog; in the header's place while it asks (the
        # section below keeps its room at 1024x768).
        self.confirm_exit = ConfirmSheet("close")
        self.confirm_exit.confirmed.connect(self._exit)
        self.confirm_exit.dismissed.connect(self.header.show)
        self.list = QListWidget()
        self.list.setFixedWidth(200)
        self.list.setIconSize(QSize(28, 28))
        self.list.setSpacing(2)
        self.list.setStyleSheet("QListWidget::item { min-height: 52px; padding-left: 8px; }")
        for section in self.sections:
            QListWidgetItem(_list_icon(section.icon_name), section.title, self.list)
        self.stack = PageStack()
        self.list.currentRowChanged.connect(self.open_section)
        body = QHBoxLayout()
        body.setSpacing(16)
        body.addWidget(self.list)
        body.addWidget(self.stack, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(12)
        layout.addWidget(self.header)
        layout.addWidget(self.confirm_exit)
        layout.addLayout(body, 1)
        if self.sections:
            self.list.setCurrentRow(0)

    def keep_banner_room(self, slot: QWidget) -> None:
        """Manager mode's banner room, under the header: a banner drawn over it never
        covers "Change PIN" or "Lock" (``ManagerGate`` moves the screen's room here)."""
        layout = self.layout()
        assert isinstance(layout, QVBoxLayout)
        # Its height kept whatever the section asks: opening "Sort and filter" once took
        # 11 px of it and the section jumped up under the manager's finger.
        slot.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        layout.insertWidget(layout.indexOf(self.confirm_exit) + 1, slot)

    def open_section(self, row: int) -> None:
        if not 0 <= row < len(self.sections):
            return
        widget = self.widgets.get(row)
        if widget is None:
            widget = self.sections[row].factory()
            self.widgets[row] = widget
            self.stack.addWidget(widget)
            host = self._host_screen()
            if isinstance(widget, Screen) and host is not None:
                widget.say_in(host)  # the section speaks in manager mode's banner
        self.stack.setCurrentWidget(widget)
        if self.list.currentRow() != row:
            self.list.setCurrentRow(row)

    def _host_screen(self) -> Screen | None:
        """The counter screen manager mode sits in (none when shown on its own)."""
        parent = self.parentWidget()
        while parent is not None and not isinstance(parent, Screen):
            parent = parent.parentWidget()
        return parent

    def current_widget(self) -> QWidget | None:
        return self.stack.currentWidget()

    def ask_exit(self) -> None:
        self.header.hide()
        self.confirm_exit.ask(
            self.tr("Close the kiosk?"),
            self.tr(
                "The counter stops until someone starts it again. Credits waiting to be "
                "sent stay saved and go out at the next start."
            ),
            self.tr("Close the kiosk"),
        )

    def _exit(self) -> None:
        self.exit_requested.emit()
        self.confirm_exit.finish(rearm=True)  # (still here: the kiosk did not close)


def _list_icon(name: str) -> QIcon:
    """Accent on the list, white on the selected row."""
    palette = current_palette()
    result = QIcon()
    for size in (24, 32):
        result.addPixmap(pixmap(name, palette.accent, size), QIcon.Mode.Normal)
        result.addPixmap(pixmap(name, palette.accent_text, size), QIcon.Mode.Selected)
    return result
