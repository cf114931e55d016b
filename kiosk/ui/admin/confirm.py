"""The in-screen confirmation sheet of a destructive action: exactly what will happen,
then Back or the action itself (red).

An in-screen panel rather than a modal dialog: never ``dialog.exec()`` inside a
coroutine (qasync issue #59), and better on a touch counter. Extra content (the
reasons of a client's removal) goes into ``extra``. It takes the place of the page
that asked (the section hides it), its texts scroll when taller than the room, and
its buttons stay in place at the bottom.

The action's button is a ``CommitButton``: armed only once the sheet has been painted
and ``ARM_GUARD_MS`` passed, so a double tap on "Delete" or "Deliver" never lands on
the confirmation; busy at once when tapped (one tap, one request).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
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
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.commit_button import CommitButton

TALL = "QPushButton { min-height: 44px; padding: 8px 28px; }"  # 64 px with the padding


class ConfirmSheet(QFrame):
    confirmed = Signal()
    dismissed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "card")
        self.action = ""  # what is being confirmed (the section decides on ``confirmed``)
        self.subject: object = None
        p = current_palette()
        self.icon = QLabel()
        self.icon.setPixmap(pixmap("trash", p.danger, 36))
        self.question = QLabel()
        self.question.setProperty("role", "heading")
        self.question.setWordWrap(True)
        self.consequence = QLabel()
        self.consequence.setProperty("role", "muted")
        self.consequence.setWordWrap(True)
        self.extra = QVBoxLayout()
        self.extra.setSpacing(4)
        self.problem = QLabel()
        self.problem.setProperty("role", "field-error")
        self.problem.setWordWrap(True)
        self.problem.hide()
        self.back = QPushButton(self.tr("Back"))
        self.back.setStyleSheet(TALL)
        self.back.clicked.connect(self.dismiss)
        self.confirm = CommitButton(primary=False)
        self.confirm.setProperty("role", "danger")
        self.confirm.setStyleSheet(TALL)
        self.confirm.setMinimumWidth(200)
        self.confirm.committed.connect(self.confirmed.emit)
        texts = QVBoxLayout()
        texts.setSpacing(8)
        texts.addWidget(self.question)
        texts.addWidget(self.consequence)
        texts.addLayout(self.extra)
        texts.addWidget(self.problem)
        buttons = QHBoxLayout()
        buttons.setSpacing(16)
        buttons.addStretch(1)
        buttons.addWidget(self.back)
        buttons.addWidget(self.confirm)
        content = QWidget()
        content.setObjectName("sheetContent")
        content.setStyleSheet("QWidget#sheetContent { background: transparent; }")
        top = QHBoxLayout(content)
        top.setContentsMargins(0, 0, 8, 0)
        top.setSpacing(16)
        top.addWidget(self.icon, 0, Qt.AlignmentFlag.AlignTop)
        top.addLayout(texts, 1)
        self.scroller = QScrollArea()
        self.scroller.setWidget(content)
        self.scroller.setWidgetResizable(True)
        self.scroller.setFrameShape(QFrame.Shape.NoFrame)
        self.scroller.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroller.setStyleSheet("QScrollArea { background: transparent; border: none; }")
        self.scroller.viewport().setAutoFillBackground(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 20, 24, 20)
        layout.setSpacing(16)
        layout.addWidget(self.scroller, 1)
        layout.addLayout(buttons)
        self._extra_widget: QWidget | None = None
        self.hide()

    def ask(
        self,
        action: str,
        question: str,
        consequence: str,
        confirm_text: str,
        *,
        subject: object = None,
        extra: QWidget | None = None,
        icon_name: str = "trash",
        danger: bool = True,
    ) -> None:
        """Show the sheet for ``action`` on ``subject``."""
        self.action = action
        self.subject = subject
        p = current_palette()
        self.icon.setPixmap(pixmap(icon_name, p.danger if danger else p.accent, 36))
        self.question.setText(question)
        self.consequence.setText(consequence)
        self.confirm.setText(confirm_text)
        self.confirm.setProperty("role", "danger" if danger else "primary")
        self.confirm.style().unpolish(self.confirm)
        self.confirm.style().polish(self.confirm)
        self._set_extra(extra)
        self.show_problem("")
        self.confirm.set_busy(False)
        self.back.setEnabled(True)
        self.show()
        self.scroller.verticalScrollBar().setValue(0)
        self.confirm.arm()  # taps count once the sheet was painted and the guard passed

    def _set_extra(self, widget: QWidget | None) -> None:
        if self._extra_widget is not None and self._extra_widget is not widget:
            self._extra_widget.hide()  # stays in the sheet for the next time
        self._extra_widget = widget
        if widget is not None:
            if self.extra.indexOf(widget) < 0:
                self.extra.addWidget(widget)
            widget.show()

    def show_problem(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.setVisible(bool(text))

    def set_running(self, running: bool) -> None:
        self.back.setEnabled(not running)

    @property
    def asking(self) -> str:
        """The action shown, or "" when the sheet is hidden."""
        return self.action if not self.isHidden() else ""

    def dismiss(self) -> None:
        self.action = ""
        self.subject = None
        self._set_extra(None)
        self.confirm.disarm()
        self.hide()
        self.dismissed.emit()
