"""The confirmation sheet of a cancel: exactly what will happen, then Confirm or Back.

An in-screen panel rather than a modal dialog (never ``exec()`` inside a
coroutine; and better on a touch counter).

"Cancel the credit" is a ``CommitButton``: it accepts a tap only once the question
has been painted and the guard time has passed, and one tap sends one cancel (a
second tap, or Enter, Enter, lands on a busy button). With the sheet focused, Enter
confirms (when the button is armed). While a manager's PIN is
asked (``asking_pin``), the question stays and its buttons give way to the PIN's.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt, Signal
from PySide6.QtGui import QKeyEvent, QResizeEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from kiosk.core.amounts import AmountLocale, format_points
from kiosk.core.journal import JournalEntry, Outcome
from kiosk.ui.icons import pixmap
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.commit_button import CommitButton

TALL = "QPushButton { min-height: 44px; padding: 8px 28px; }"  # 64 px with the padding


class FitLabel(QLabel):
    """A wrapped label that keeps the height its width needs (a long name, Spanish): the
    screen's layout does not ask for height-for-width, and would squash it."""

    def __init__(self) -> None:
        super().__init__()
        self.setWordWrap(True)

    def setText(self, text: str) -> None:
        super().setText(text)
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        width = self.contentsRect().width()
        if width <= 0:
            return
        # The font's own measure: QLabel.heightForWidth() asked a line more here.
        flags = Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignLeft
        text = self.fontMetrics().boundingRect(QRect(0, 0, width, 100_000), flags, self.text())
        margins = self.contentsMargins()
        needed = text.height() + margins.top() + margins.bottom()
        if needed != self.minimumHeight():
            self.setMinimumHeight(needed)


class CancelSheet(QFrame):
    confirmed = Signal()
    dismissed = Signal()

    def __init__(self, locale: AmountLocale, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.amount_locale = locale
        self.setProperty("role", "card")
        self.entry: JournalEntry | None = None
        p = current_palette()
        icon = QLabel()
        icon.setPixmap(pixmap("trash", p.danger, 36))
        self.question = FitLabel()
        self.question.setProperty("role", "heading")
        self.consequence = FitLabel()
        self.consequence.setProperty("role", "muted")
        self.back = QPushButton(self.tr("Back"))
        self.back.setStyleSheet(TALL)
        self.back.clicked.connect(self.dismiss)
        self.confirm = CommitButton(self.tr("Cancel the credit"), primary=False)
        self.confirm.setProperty("role", "danger")
        self.confirm.setStyleSheet(TALL)
        self.confirm.setMinimumWidth(280)
        self.confirm.committed.connect(self.confirmed.emit)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        texts = QVBoxLayout()
        texts.setSpacing(8)
        texts.addWidget(self.question)
        texts.addWidget(self.consequence)
        self.buttons = QWidget()
        buttons = QHBoxLayout(self.buttons)
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.setSpacing(16)
        buttons.addStretch(1)
        buttons.addWidget(self.back)
        buttons.addWidget(self.confirm)
        top = QHBoxLayout()
        top.setSpacing(16)
        top.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        top.addLayout(texts, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 20, 24, 20)
        layout.setSpacing(16)
        self._layout = layout
        layout.addLayout(top)
        layout.addWidget(self.buttons)
        self.hide()

    def ask(self, entry: JournalEntry) -> None:
        """Show what cancelling ``entry`` will do."""
        self.entry = entry
        points = format_points(entry.points or 0, self.amount_locale)
        client = entry.client or self.tr("the client")
        if entry.ticket:
            text = self.tr("Cancel the credit of %1 points to %2 (ticket %3)?")
            text = text.replace("%3", entry.ticket)
        else:
            text = self.tr("Cancel the credit of %1 points to %2?")
        self.question.setText(text.replace("%1", points).replace("%2", client))
        if entry.outcome is Outcome.PENDING:
            consequence = self.tr(
                "This credit has not reached the service yet: it will not be sent, and no "
                "points change."
            )
        else:
            consequence = self.tr(
                "The points are taken back from the client. This cannot be undone."
            )
        self.consequence.setText(consequence)
        self.asking_pin(False)
        self.confirm.set_busy(False)
        self.confirm.arm()  # taps count once the question is painted, after the guard
        self.back.setEnabled(True)
        self.show()
        self.setFocus()  # Enter confirms

    def set_running(self, running: bool) -> None:
        self.back.setEnabled(not running)

    def finish(self, *, rearm: bool) -> None:
        """The cancel's request ended; ``rearm`` when it may be confirmed again."""
        self.confirm.finish(rearm=rearm and self.entry is not None)
        self.set_running(False)

    def asking_pin(self, asking: bool) -> None:
        """A manager's PIN is asked below: the question stays, its buttons step aside
        (the PIN sheet has the one way back)."""
        self.buttons.setVisible(not asking)
        # The question alone, tighter: the pad below needs the room (1024x768, a client
        # card, a long name). What the cancel does was read before confirming.
        self.consequence.setVisible(not asking)
        vertical = 12 if asking else 20
        self._layout.setContentsMargins(24, vertical, 24, vertical)
        if not asking and self.isVisible():
            self.setFocus()

    def dismiss(self) -> None:
        self.entry = None
        self.confirm.disarm()
        self.hide()
        self.dismissed.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.buttons.isVisible():
            if self.confirm.armed:
                self.confirm.click()  # the button's own guard: one cancel per armed tap
            return
        super().keyPressEvent(event)
