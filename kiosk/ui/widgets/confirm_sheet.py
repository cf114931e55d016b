"""The confirmation sheet: exactly what will happen, then Back or the action itself.

One widget for every step that cannot be taken back once confirmed: a manager's
destructive action (delete, suspend, remove, deliver), the cancel of a credit on
Today, an exchange on Rewards, a delivery on Redeem, closing the kiosk. An in-screen
panel rather than a modal dialog: never ``dialog.exec()`` inside a coroutine (qasync
issue #59), and better on a touch counter.

- The action's button is a ``CommitButton``: armed only once the sheet has been
  painted and ``ARM_GUARD_MS`` passed, so a double tap (or Enter, Enter) on what opened
  the sheet never lands on it; busy at once when tapped (one tap, one request).
  ``ask`` gives the sheet the focus: Enter confirms, once armed, and only once.
- Its texts wrap and keep the height their width needs (``FitLabel``): a window short
  of room gives way elsewhere before it squeezes them.
- ``asking_pin(True)``: a manager's PIN is asked below; the heading stays, the rest and
  the buttons step aside (the PIN sheet has the one way back).

Two looks, chosen by the screen:

- a card (the default) that shows itself on ``ask`` and hides on ``dismiss``: the icon
  beside the heading (the question) and its consequence, Back and the action at the
  bottom right. ``scroll=True`` (manager mode: it takes the place of the page that
  asked): the texts scroll when taller than the room, the buttons stay in place.
- a page of its screen's stack (``page=True``: Rewards, Redeem), shown by the stack:
  the icon beside the heading, the message large, Back at the left and the action at
  the right right under the texts, so the action never stands where the button that
  opened the sheet was (Redeem's Deliver).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from kiosk.ui.icons import pixmap
from kiosk.ui.theme import PRIMARY_PX, current_palette
from kiosk.ui.widgets.commit_button import CommitButton
from kiosk.ui.widgets.fit_label import FitLabel
from kiosk.ui.widgets.layouts import text_scroll

TALL = "QPushButton { min-height: 44px; padding: 8px 28px; }"  # 64 px with the padding
CARD_ICON_PX, PAGE_ICON_PX = 36, 48


class ConfirmSheet(QFrame):
    """``ask`` shows what will happen; ``confirmed`` is emitted once per accepted tap (or
    Enter) of the action, ``dismissed`` on Back or ``dismiss()``.

    ``action`` and ``subject`` are the caller's: what is being confirmed, kept until
    the sheet is dismissed."""

    confirmed = Signal()
    dismissed = Signal()

    def __init__(
        self,
        icon_name: str = "trash",
        parent: QWidget | None = None,
        *,
        danger: bool = True,
        page: bool = False,
        scroll: bool = False,
        confirm_width: int = 200,
    ) -> None:
        """``icon_name`` and ``danger`` (a red action, else the accent) are what ``ask``
        shows unless told otherwise; ``confirm_width``: the card's action at least."""
        super().__init__(parent)
        self.setProperty("role", "card")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # Enter confirms (once armed)
        self.action = ""
        self.subject: object = None
        self._page = page
        self._defaults = (icon_name, danger)
        self._icon_drawn: tuple[str, bool] | None = None
        self._asking = False
        self._extra_widget: QWidget | None = None
        self.icon = QLabel()
        self.heading = FitLabel()
        self.heading.setProperty("role", "heading")
        self.message = FitLabel()
        if page:
            self.message.setStyleSheet("font-size: 28px; font-weight: 600;")
        else:
            self.message.setProperty("role", "muted")
        self.detail = FitLabel()
        self.detail.setStyleSheet("font-size: 20px;")
        self.hint = FitLabel()
        self.hint.setProperty("role", "hint")
        self.extra = QVBoxLayout()
        self.extra.setSpacing(4)
        self.problem = FitLabel()
        self.problem.setProperty("role", "field-error")
        for label in (self.detail, self.hint, self.problem):
            label.hide()
        self.back = QPushButton(self.tr("Back"))
        self.back.clicked.connect(self.dismiss)
        self.confirm = CommitButton(primary=False)
        self.confirm.committed.connect(self.confirmed.emit)
        self.buttons = QWidget()
        row = QHBoxLayout(self.buttons)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(16)
        self.scroller: QScrollArea | None = None
        self._layout = QVBoxLayout(self)
        if page:
            self._margins = (32, 20)
            self.back.setStyleSheet(f"min-width: 160px; min-height: {PRIMARY_PX - 20}px;")
            self.confirm.setStyleSheet(f"min-width: 320px; min-height: {PRIMARY_PX - 16}px;")
            row.addWidget(self.back)
            row.addStretch(1)
            row.addWidget(self.confirm)
            self._lay_out_page()
        else:
            self._margins = (24, 20)
            self.back.setStyleSheet(TALL)
            self.confirm.setStyleSheet(TALL)
            self.confirm.setMinimumWidth(confirm_width)
            row.addStretch(1)
            row.addWidget(self.back)
            row.addWidget(self.confirm)
            self._lay_out_card(scroll)
        self._set_margins(self._margins[1])
        self._show_kind(icon_name, danger)
        if not page:
            self.hide()

    def _lay_out_card(self, scroll: bool) -> None:
        texts = QVBoxLayout()
        texts.setSpacing(8)
        for label in (self.heading, self.message, self.detail, self.hint):
            texts.addWidget(label)
        texts.addLayout(self.extra)
        texts.addWidget(self.problem)
        texts.addStretch(1)  # the texts at the top of their room, not spread over it
        top = QHBoxLayout()
        top.setSpacing(16)
        top.addWidget(self.icon, 0, Qt.AlignmentFlag.AlignTop)
        top.addLayout(texts, 1)
        self._layout.setSpacing(16)
        if scroll:
            content = QWidget()
            content.setLayout(top)
            top.setContentsMargins(0, 0, 8, 0)  # room for the scroll bar
            self.scroller = text_scroll(content, "sheetContent")
            self._layout.addWidget(self.scroller, 1)
        else:
            self._layout.addLayout(top)
        self._layout.addWidget(self.buttons)

    def _lay_out_page(self) -> None:
        head = QHBoxLayout()
        head.setSpacing(16)
        head.addWidget(self.icon, 0, Qt.AlignmentFlag.AlignTop)
        head.addWidget(self.heading, 1)
        self._layout.setSpacing(12)
        self._layout.addLayout(head)
        for label in (self.message, self.detail, self.hint):
            self._layout.addWidget(label)
        self._layout.addLayout(self.extra)
        self._layout.addWidget(self.problem)
        # The buttons right under what they confirm, not at the bottom.
        self._layout.addSpacing(8)
        self._layout.addWidget(self.buttons)
        self._layout.addStretch(1)

    # -- asking ------------------------------------------------------------------------
    def ask(
        self,
        heading: str,
        message: str,
        confirm: str,
        *,
        detail: str = "",
        hint: str = "",
        extra: QWidget | None = None,
        icon_name: str | None = None,
        danger: bool | None = None,
        action: str = "",
        subject: object = None,
    ) -> None:
        """Show what confirming ``confirm`` will do; the action accepts a tap once this
        has been painted and the guard time passed."""
        self.action = action
        self.subject = subject
        default_icon, default_danger = self._defaults
        self._show_kind(icon_name or default_icon, default_danger if danger is None else danger)
        self.heading.setText(heading)
        self.message.setText(message)
        self.detail.setText(detail)
        self.hint.setText(hint)
        self.confirm.setText(confirm)
        self._set_extra(extra)
        self.show_problem("")
        self._asking = True
        self.asking_pin(False)
        self.confirm.set_busy(False)
        self.confirm.arm()  # taps count once the sheet was painted and the guard passed
        self.back.setEnabled(True)
        if not self._page:
            self.show()
        if self.scroller is not None:
            self.scroller.verticalScrollBar().setValue(0)
        self.setFocus()  # Enter confirms (once armed); Enter, Enter commits once

    @property
    def asking(self) -> str:
        """The action shown, or "" when the sheet is hidden."""
        return self.action if not self.isHidden() else ""

    def show_problem(self, text: str) -> None:
        """Why the action cannot go on yet (a reason missing), under the texts."""
        self.problem.setText(text)
        self.problem.setVisible(bool(text))

    def asking_pin(self, asking: bool) -> None:
        """A manager's PIN is asked below: the heading stays, the rest and the buttons
        step aside (the PIN sheet has the one way back), tighter: the pad below needs
        the room (1024x768, a client card, a long name). What confirming does was read
        before confirming."""
        self.buttons.setVisible(not asking)
        for label in (self.message, self.detail, self.hint):
            label.setVisible(not asking and bool(label.text()))
        self._set_margins(12 if asking else self._margins[1])
        if not asking and self.isVisible():
            self.setFocus()

    # -- the request -------------------------------------------------------------------
    def set_running(self, running: bool) -> None:
        """The confirmed request runs: the action busy (since its tap), Back refused."""
        if running and not self.confirm.busy:
            self.confirm.set_busy(True)
        self.back.setEnabled(not running)

    def finish(self, *, rearm: bool = False) -> None:
        """The request ended; ``rearm`` when the same may be confirmed again (after an
        error), else the action waits for the next ``ask``."""
        self.confirm.finish(rearm=rearm and self._asking)
        self.back.setEnabled(True)

    def dismiss(self) -> None:
        """Back: nothing confirmed (a card hides; a page is left by its screen)."""
        self.action = ""
        self.subject = None
        self._asking = False
        self._set_extra(None)
        self.confirm.disarm()
        if not self._page:
            self.hide()
        self.dismissed.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.buttons.isVisible():
            if self.confirm.armed:
                self.confirm.click()  # the button's own guard: one request per armed tap
            return
        super().keyPressEvent(event)

    # -- parts -------------------------------------------------------------------------
    def _show_kind(self, icon_name: str, danger: bool) -> None:
        """The icon (drawn only when it changes) and the action's role: red or accent."""
        if self._icon_drawn == (icon_name, danger):
            return
        self._icon_drawn = (icon_name, danger)
        p = current_palette()
        size = PAGE_ICON_PX if self._page else CARD_ICON_PX
        self.icon.setPixmap(pixmap(icon_name, p.danger if danger else p.accent, size))
        role = "danger" if danger else "primary"
        if self.confirm.property("role") != role:
            self.confirm.setProperty("role", role)
            if self.confirm.testAttribute(Qt.WidgetAttribute.WA_WState_Polished):
                self.confirm.style().unpolish(self.confirm)
                self.confirm.style().polish(self.confirm)

    def _set_extra(self, widget: QWidget | None) -> None:
        if self._extra_widget is not None and self._extra_widget is not widget:
            self._extra_widget.hide()  # stays in the sheet for the next time
        self._extra_widget = widget
        if widget is not None:
            if self.extra.indexOf(widget) < 0:
                self.extra.addWidget(widget)
            widget.show()

    def _set_margins(self, vertical: int) -> None:
        side = self._margins[0]
        self._layout.setContentsMargins(side, vertical, side, vertical)
