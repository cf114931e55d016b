"""The lock in front of manager mode: enter the PIN, or in training choose the first one twice.

The check runs in a worker thread (``ManagerLock.attempt``): the pad and the
button wait meanwhile. After a wrong PIN the panel says how many tries remain
before a wait; during a lockout the keys are off and a countdown says when the
next try is accepted (it survives a restart: ``ManagerLock`` keeps it on disk).
After 100 wrong PINs in a row, or when the lock's files were changed outside the
kiosk, the keys stay off and the panel says that IT must reset the PIN.

Without a PIN: in training mode the panel says that the first person here chooses
it, and asks for it twice (a PIN anyone tries first, like 1234, is refused);
outside training the keys are off and it says to ask IT to set the manager PIN.

With a ``purpose`` the panel asks the PIN for one action at the counter (cancelling a
credit): it only checks the PIN (never chooses one), says what the PIN is for, lays
the pad beside the words (it fits under a confirmation at 1024x768), and its one
"Back" emits ``cancelled``.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from kiosk.core.security.lock import (
    PIN_MAX,
    PIN_MIN,
    Attempt,
    CommonPinError,
    ManagerLock,
    NoPinError,
    Outcome,
    PinChangeRefused,
    common_pin,
)
from kiosk.ui.icons import pixmap
from kiosk.ui.manager.lock_words import (
    BLOCKED,
    CARD_MARGIN_PX,
    CARD_PX,
    CARD_TEXT_PX,
    COMMON,
    FAILED,
    NO_PIN,
    UNBOUNDED_PX,
    Mode,
    clock_text,
    keep_room,
    lock_text,
)
from kiosk.ui.tasks import ScreenTasks
from kiosk.ui.theme import PRIMARY_PX, current_palette
from kiosk.ui.widgets.busy_button import BusyButton

log = logging.getLogger(__name__)

__all__ = ["BLOCKED", "COMMON", "FAILED", "NO_PIN", "LockPanel", "Mode", "clock_text", "lock_text"]


class LockPanel(QWidget):
    """Emits ``unlocked`` once the lock opens (the gate then shows manager mode), and
    ``cancelled`` when a change of PIN (``start_change``) is abandoned, or, with a
    ``purpose``, when the person goes back without the PIN."""

    unlocked = Signal()
    cancelled = Signal()

    def __init__(
        self, lock: ManagerLock, parent: QWidget | None = None, *, purpose: str | None = None
    ) -> None:
        super().__init__(parent)
        from kiosk.ui.manager.pin_pad import PinPad

        self.lock = lock
        self.purpose = purpose
        self.mode = Mode.ENTER
        self.changing = False  # choosing a new PIN while unlocked
        self._first = ""
        self.tasks = ScreenTasks(self._failed)
        palette = current_palette()
        badge = QLabel()
        badge.setPixmap(pixmap("manager", palette.accent, 32))
        self.heading = QLabel()
        self.heading.setProperty("role", "heading")
        title = QHBoxLayout()
        title.setSpacing(10)
        title.addStretch(1)
        title.addWidget(badge)
        title.addWidget(self.heading)
        title.addStretch(1)
        self.hint = QLabel()
        self.hint.setProperty("role", "muted")
        self.hint.setWordWrap(True)
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message = QLabel()
        self.message.setProperty("role", "field-error")
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message.setMinimumHeight(30)
        self.pad = PinPad()
        self.pad.changed.connect(self._typed)
        self.pad.submitted.connect(self.submit)
        self.button = BusyButton(primary=True)
        self.button.setMinimumHeight(64)
        # A tap on a button leaves the keyboard's digits with the pad (a focused button,
        # disabled while the PIN is checked, handed the focus on to whatever came next).
        self.button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.button.clicked.connect(self.submit)
        self.back = QPushButton()
        self.back.setStyleSheet(f"QPushButton {{ min-height: {PRIMARY_PX - 16}px; }}")
        self.back.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.back.clicked.connect(self._back)
        actions = QHBoxLayout()
        actions.setSpacing(8)
        actions.addWidget(self.back)
        actions.addWidget(self.button, 1)
        if purpose is None:
            self._stacked(title, actions)
        else:
            self._beside(title, actions)
        self.countdown = QTimer(self)
        self.countdown.setInterval(250)
        self.countdown.timeout.connect(self._tick)
        self.reset()

    def _stacked(self, title: QHBoxLayout, actions: QHBoxLayout) -> None:
        """Manager mode's lock: one card, the pad under the words."""
        card = QFrame()
        card.setProperty("role", "card")
        card.setFixedWidth(CARD_PX)
        inner = QVBoxLayout(card)
        inner.setContentsMargins(CARD_MARGIN_PX, 16, CARD_MARGIN_PX, 16)
        inner.setSpacing(8)
        inner.addLayout(title)
        inner.addWidget(self.hint)
        inner.addWidget(self.pad, 1)
        inner.addWidget(self.message)
        inner.addLayout(actions)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(card, 0, Qt.AlignmentFlag.AlignHCenter)

    def _beside(self, title: QHBoxLayout, actions: QHBoxLayout) -> None:
        """One action's PIN: the pad on the left, the words and buttons on the right, so
        the whole of it fits in a few hundred pixels of height; "Authorize" (off until
        a PIN is typed) stands bottom right, where the confirmation's button was."""
        title.takeAt(0)  # the words start at the left edge
        title.takeAt(title.count() - 1)
        title.addStretch(1)
        self.hint.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.message.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        dots = self.pad.dots  # under the words: the pad is only keys, and lower
        pad_layout = self.pad.layout()
        if pad_layout is not None:
            pad_layout.removeWidget(dots)
        words = QVBoxLayout()
        words.setSpacing(8)
        words.addLayout(title)
        words.addWidget(self.hint)
        words.addWidget(dots)
        words.addWidget(self.message)
        words.addStretch(1)
        words.addLayout(actions)
        outer = QHBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(24)
        outer.addWidget(self.pad, 0)
        outer.addLayout(words, 1)

    # -- states ------------------------------------------------------------------
    def reset(self) -> None:
        """Back to the start: enter the PIN (or choose one when none is set)."""
        self.tasks.cancel_all()
        self.button.set_busy(False)
        self.changing = False
        one_shot = self.purpose is not None  # checks a PIN, never chooses one
        if self.lock.has_pin() or self.lock.blocked:
            mode = Mode.ENTER
        elif not one_shot and self.lock.may_choose_pin():
            mode = Mode.CHOOSE
        else:
            mode = Mode.NO_PIN
        self._set_mode(mode)
        self._tick()

    def set_purpose(self, purpose: str) -> None:
        """What the PIN is for, in the words of the screen that asks it."""
        self.purpose = purpose
        self.hint.setText(purpose)

    def start_change(self) -> None:
        """Choose a new PIN (twice) while manager mode is unlocked."""
        self.reset()
        self.changing = True
        self._set_mode(Mode.CHOOSE)

    def _back(self) -> None:
        if self.mode is Mode.CONFIRM:
            self._set_mode(Mode.CHOOSE)
        else:
            self.reset()
            self.cancelled.emit()

    def _set_mode(self, mode: Mode) -> None:
        self.mode = mode
        self._first = "" if mode is not Mode.CONFIRM else self._first
        self.pad.take()
        self.message.clear()
        self.back.setVisible(
            self.purpose is not None
            or mode is Mode.CONFIRM
            or (self.changing and mode is Mode.CHOOSE)
        )
        self.back.setText(self.tr("Start again") if mode is Mode.CONFIRM else self.tr("Cancel"))
        heading, hint, button = self._words(mode, self.changing)
        self.heading.setText(heading)
        self.hint.setText(hint)
        self.button.setText(button)
        if self.purpose is not None:
            self.back.setText(self.tr("Back"))
        else:
            self._keep_room()
        self._typed(self.pad.count)
        self.pad.setFocus()

    def _words(self, mode: Mode, changing: bool) -> tuple[str, str, str]:
        """The heading, the hint and the button's word of ``mode``."""
        choose = (
            self.tr("Choose %1 to %2 digits that only managers know.")
            if changing
            else self.tr(
                "Training mode: the first person here chooses the manager PIN. Choose "
                "%1 to %2 digits that only managers know."
            )
        )
        choose = choose.replace("%1", str(self.lock.pin_min)).replace("%2", str(PIN_MAX))
        if self.purpose is not None:
            hint = lock_text(NO_PIN) if mode is Mode.NO_PIN else self.purpose
            return self.tr("Manager PIN"), hint, self.tr("Authorize")
        if mode is Mode.NO_PIN:
            return self.tr("Manager PIN"), lock_text(NO_PIN), self.tr("Unlock")
        if mode is Mode.ENTER:
            hint = self.tr("Enter the manager PIN to open manager mode.")
            return self.tr("Manager PIN"), hint, self.tr("Unlock")
        if mode is Mode.CHOOSE:
            heading = self.tr("New manager PIN") if changing else self.tr("Set a manager PIN")
            return heading, choose, self.tr("Continue")
        hint = self.tr("Enter the same PIN again to confirm it.")
        return self.tr("Set a manager PIN"), hint, self.tr("Save PIN and unlock")

    def _keep_room(self) -> None:
        """The hint and the message keep the room of their longest words while a PIN is
        entered or chosen (the pad never moves under the finger as they change). When
        no PIN can be typed (none set, or only IT unlocks) they take what their longer
        sentences need: nothing is typed then, so nothing moves under a finger."""
        if self._closed():
            for label in (self.hint, self.message):
                label.setMinimumHeight(0)
                label.setMaximumHeight(UNBOUNDED_PX)
            return
        hints = [
            self._words(m, c)[1]
            for m in (Mode.ENTER, Mode.CHOOSE, Mode.CONFIRM)
            for c in (False, True)
        ]
        messages = [
            lock_text(COMMON),
            lock_text(FAILED),
            self.tr("The two PINs do not match. Choose a PIN again."),
            self.tries_left_text(2),
            self.tries_left_text(1),
            self.tr("Too many wrong PINs. Try again in %1.").replace("%1", "30:00"),
            self.tr("You can try again now."),
        ]
        keep_room(self.hint, hints, CARD_TEXT_PX)
        keep_room(self.message, messages, CARD_TEXT_PX)
        # "Start again" comes and goes beside the main button: the row keeps its height.
        self.back.ensurePolished()
        self.button.setMinimumHeight(max(64, self.back.sizeHint().height()))

    def _closed(self) -> bool:
        """No PIN can be typed: none is set (IT must), or only IT unlocks."""
        return self.mode is Mode.NO_PIN or (self.mode is Mode.ENTER and self.lock.blocked)

    def _fewest(self) -> int:
        """Digits the pad needs: any PIN to enter one, ``pin_min`` to choose one (10
        outside training: docs/security.md)."""
        return self.lock.pin_min if self.mode in (Mode.CHOOSE, Mode.CONFIRM) else PIN_MIN

    def _typed(self, count: int) -> None:
        waiting = self.lock.wait_remaining() > 0 or self._closed()
        self.button.setEnabled(count >= self._fewest() and not waiting and not self.button.busy)
        if count and self.mode is not Mode.ENTER and not waiting:
            self.message.clear()

    def _tick(self) -> None:
        if self._closed():
            self.countdown.stop()
            self.pad.set_keys_enabled(False)
            self.button.setEnabled(False)
            if self.purpose is None:
                self._keep_room()  # (the longer sentence of IT's reset: all its room)
            if self.mode is Mode.ENTER:
                self.message.setText(lock_text(BLOCKED))
            return
        remaining = self.lock.wait_remaining() if self.mode is Mode.ENTER else 0.0
        if remaining > 0:
            self.pad.set_keys_enabled(False)
            self.button.setEnabled(False)
            self.message.setText(
                self.tr("Too many wrong PINs. Try again in %1.").replace(
                    "%1", clock_text(remaining)
                )
            )
            if not self.countdown.isActive():
                self.countdown.start()
            return
        if self.countdown.isActive():
            self.countdown.stop()
            self.message.setText(self.tr("You can try again now."))
            self.take_keys()
        self.pad.set_keys_enabled(not self.button.busy)
        self._typed(self.pad.count)

    # -- actions -----------------------------------------------------------------
    def submit(self) -> None:
        if not self.button.isEnabled() or self.pad.count < self._fewest():
            return
        pin = self.pad.take()
        if self.mode is Mode.CHOOSE and common_pin(pin):
            self.pad.show_error()
            self.message.setText(lock_text(COMMON))
            return
        if self.mode is Mode.CHOOSE:
            self._first = pin
            self._set_mode(Mode.CONFIRM)
            return
        self._busy(True)
        if self.mode is Mode.CONFIRM:
            first, self._first = self._first, ""
            if pin != first:
                self._busy(False)
                self._set_mode(Mode.CHOOSE)
                self.message.setText(self.tr("The two PINs do not match. Choose a PIN again."))
                return
            self.tasks.start("pin", self._set_pin(pin))
        else:
            self.tasks.start("pin", self._attempt(pin))

    async def _set_pin(self, pin: str) -> None:
        try:
            await self.lock.set_pin(pin)
        finally:
            self._busy(False)
        self.changing = False
        self.unlocked.emit()

    async def _attempt(self, pin: str) -> None:
        try:
            result = await self.lock.attempt(pin)
        finally:
            self._busy(False)
        self._show(result)

    def _show(self, result: Attempt) -> None:
        if result.outcome is Outcome.OK:
            self.message.clear()
            self.unlocked.emit()
            return
        self.pad.show_error()
        if result.outcome is Outcome.WRONG and result.wait <= 0:
            self.message.setText(self.tries_left_text(result.tries_left))
        self._tick()
        self.take_keys()

    def tries_left_text(self, tries: int) -> str:
        """One try left, or several: two sources (English has no catalogue for plurals)."""
        if tries == 1:
            return self.tr("Wrong PIN. 1 try left before a wait.")
        return self.tr("Wrong PIN. %n tries left before a wait.", "", tries)

    def take_keys(self) -> None:
        """Typed digits go to the pad again (after a check, whatever took the focus)."""
        if self.isVisible() and not self._closed():
            self.pad.setFocus(Qt.FocusReason.OtherFocusReason)

    def _busy(self, busy: bool) -> None:
        self.button.set_busy(busy)
        self.pad.set_keys_enabled(not busy)
        if not busy:
            self._typed(self.pad.count)

    def _failed(self, error: BaseException) -> None:
        self._busy(False)
        if isinstance(error, NoPinError):  # IT reset the PIN meanwhile
            if self.purpose is not None and self.lock.training:
                self.unlocked.emit()  # training: no PIN, nothing to check (as pin_authorizer)
                return
            self.reset()  # training: choose one; otherwise IT must set one
            return
        if isinstance(error, CommonPinError):
            self._set_mode(Mode.CHOOSE)
            self.message.setText(lock_text(COMMON))
            return
        if isinstance(error, PinChangeRefused):  # locked meanwhile, or IT's PIN now
            log.warning("manager PIN not changed: %s", error)
            self.reset()
            return
        log.error("manager PIN check failed", exc_info=error)
        self.message.setText(QCoreApplication.translate("LockPanel", str(FAILED)))

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.take_keys()  # back on the PIN screen: the keyboard's digits go to the pad

    def hideEvent(self, event: QHideEvent) -> None:
        # Nothing typed stays behind when the panel goes away.
        self.tasks.cancel_all()
        self._first = ""
        self.pad.take()
        self.countdown.stop()
        super().hideEvent(event)
