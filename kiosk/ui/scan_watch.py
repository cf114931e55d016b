"""The scanner watch: a keyboard-wedge scan is a scan on every screen, never typing.

A wedge scanner "types" what it reads (a DNI's PDF417 text, a purchase code) as a
burst of keys a few milliseconds apart, then Enter or Tab. Typed into the Points
amount it became ``$ 6.234.567,00`` and its Enter previewed, then credited, the
previous client (issue #21). ``ScanWatch`` is one application-level event filter for
the counter's window that holds the keys of a burst until it can tell:

- **typing**: the held keys are delivered, in order, to the widget they were sent to
  (a person's key waits at most ``QUIET_MS``, or less: the next key that comes slowly,
  a tap, another key or Enter delivers it at once);
- **a scan**: nothing is delivered, the scanner's Enter or Tab (and a second one right
  after, CR LF) is swallowed, and ``scanned(text)`` is emitted. The counter view decides
  what the scan is for (``CounterView.take_scan``): Identify searches it, Redeem looks a
  purchase code up, anywhere else a client's DNI offers to switch to that client.

The verdict is ``kiosk.core.counter.scan.WedgeDetector``'s, as in the identify field:
at least 6 keys, nearly all at most 40 ms apart, ending (Enter, Tab, or a pause) right
after the last one, and not one key repeated. A person's keys are slower; a held key
(auto-repeat) is a person; a tap on the on-screen keypad is no key at all. The clock
is injectable and a key event's own timestamp wins over it, so tests type scans and
people with exact timings and decide the held keys with ``settle()``, never sleeping.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QWidget
from shiboken6 import isValid

from kiosk.core.counter.scan import KEPT_KEYS, InputSource, WedgeDetector

QUIET_MS = 60  # a held key is typing (or a scan without a suffix) after this pause
SCANNING_MS = 150  # ... or this one, while the held keys look like a scan coming in
# After a scan, its trailing Enter/Tab (a scanner may send CR LF, or its Enter after
# the pause that ended a burst) is swallowed for this long: it never reaches a commit
# button. A person's own Enter comes later than that.
TRAILING_S = 0.2
_TERMINATORS = frozenset({Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Tab})
_COMMANDS = (
    Qt.KeyboardModifier.ControlModifier
    | Qt.KeyboardModifier.AltModifier
    | Qt.KeyboardModifier.MetaModifier
)
_KEYS = (QEvent.Type.KeyPress, QEvent.Type.KeyRelease)
_MODIFIER_KEYS = frozenset(
    {
        Qt.Key.Key_Shift,
        Qt.Key.Key_Control,
        Qt.Key.Key_Alt,
        Qt.Key.Key_AltGr,
        Qt.Key.Key_Meta,
        Qt.Key.Key_CapsLock,
    }
)


@dataclass
class _Held:
    receiver: QWidget
    event: QKeyEvent


def _copy(event: QKeyEvent) -> QKeyEvent:
    copy = QKeyEvent(
        event.type(),
        event.key(),
        event.modifiers(),
        event.text(),
        event.isAutoRepeat(),
        event.count(),
    )
    copy.setTimestamp(event.timestamp())
    return copy


class ScanWatch(QObject):
    """Watches the keys sent to ``scope`` and its children; ``scanned(text)`` for a scan.

    Installed on the application by ``install()`` and removed with the watch (it is a
    child of ``scope``)."""

    scanned = Signal(str)

    def __init__(
        self,
        scope: QWidget,
        *,
        clock: Callable[[], float] = time.monotonic,
        quiet_ms: int = QUIET_MS,
    ) -> None:
        super().__init__(scope)
        self.scope = scope
        self.clock = clock
        self.detector = WedgeDetector(clock=clock)
        self._held: list[_Held] = []
        self._last_at = 0.0  # the last held key: its time (event's scale)...
        self._received = 0.0  # ... and when it came (the clock's)
        self._swallow_until = -1.0  # until when (event's scale) a terminator is a scan's
        self._swallow_from = 0.0  # ...and from when (a clock that went back swallows nothing)
        self._replaying = False
        # The widget the scan's keys were sent to (the focus when it came), while
        # ``scanned`` is emitted: a text field may take a scan that names no client.
        self.scan_target: QWidget | None = None
        self._scan_keys: list[_Held] = []
        self._quiet = QTimer(self)
        self._quiet.setSingleShot(True)
        self.quiet_ms = quiet_ms
        self._waiting_ms = quiet_ms
        self._quiet.timeout.connect(self._quiet_came)
        # The scan read last, when a pause ended it (no Enter or Tab): its text, its last
        # key's time and where it was sent. Fast keys right after it, to the same widget,
        # are more of it (the loop was busy among its keys): never typed either.
        self._scan_text = ""
        self._scan_end = float("-inf")
        self._scan_receiver: QWidget | None = None
        self._continued = False

    def install(self) -> None:
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)

    def uninstall(self) -> None:
        self._quiet.stop()
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)

    @property
    def holding(self) -> bool:
        """Keys are held, not yet told typing or scan."""
        return bool(self._held)

    # -- the filter ------------------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if self._replaying or not isValid(self.scope):
            return False
        if kind in (QEvent.Type.MouseButtonPress, QEvent.Type.TouchBegin, QEvent.Type.FocusOut):
            if self._held and isinstance(watched, QWidget) and self._ours(watched):
                self.settle()  # a tap after typing: the keys land first, where they were sent
            return False
        if kind == QEvent.Type.ShortcutOverride and self._held and isinstance(event, QKeyEvent):
            if not self._printable(event) and event.key() not in _MODIFIER_KEYS:
                self.settle()  # F1, Escape... after typing: the typing first
            return False
        if kind not in _KEYS or not isinstance(event, QKeyEvent):
            return False
        if not isinstance(watched, QWidget) or not self._ours(watched):
            return False
        if kind == QEvent.Type.KeyRelease:
            if self._held:
                self._held.append(_Held(watched, _copy(event)))
                return True
            return event.key() in _TERMINATORS and self._trailing(self._at(event))
        return self._press(watched, event)

    def _ours(self, widget: QWidget) -> bool:
        # (The window itself too: with nothing focused, the keys go to it, and a scan
        # there is still a scan.)
        return (
            widget is self.scope or self.scope.isAncestorOf(widget) or widget is self.scope.window()
        )

    @staticmethod
    def _printable(event: QKeyEvent) -> bool:
        text = event.text()
        mods = event.modifiers()
        # AltGr arrives as Ctrl+Alt on Windows: "@" on a Spanish layout is a character.
        alt_gr = (
            mods & Qt.KeyboardModifier.ControlModifier and mods & Qt.KeyboardModifier.AltModifier
        )
        return bool(text) and text.isprintable() and (not mods & _COMMANDS or bool(alt_gr))

    def _at(self, event: QKeyEvent) -> float:
        # Synthetic events (tests without timestamps, the on-screen keyboard) carry none.
        stamp = event.timestamp()
        return stamp / 1000 if stamp else self.clock()

    def _press(self, receiver: QWidget, event: QKeyEvent) -> bool:
        if event.isAutoRepeat():  # a held key: a person
            self.settle()
            return False
        if event.key() in _TERMINATORS and not event.modifiers() & _COMMANDS:
            return self._terminator(event)
        if event.key() in _MODIFIER_KEYS:
            # Shift (AltGr, Ctrl...) alone types nothing: a wedge presses Shift around
            # each capital and "@", and a scan goes on through it. Held with the burst so
            # a replay keeps the order.
            if self._held:
                self._held.append(_Held(receiver, _copy(event)))
                return True
            return False
        if not self._printable(event):
            self.settle()  # Backspace, arrows, Escape...: typing, after what was typed
            return False
        at = self._at(event)
        if self._held and not 0.0 <= at - self._last_at <= self.detector.max_gap:
            self.settle()  # a slow key: what was held before it was typed
        if len(self._held) >= 2 * KEPT_KEYS:
            self.settle()  # nothing read is this long: let it through as it is
        if (
            not self._held
            and 0.0 <= at - self._scan_end <= self.detector.max_gap
            and receiver is self._scan_receiver
        ):
            self._continued = True
        self._held.append(_Held(receiver, _copy(event)))
        self.detector.key(event.text(), at)
        self._last_at, self._received = at, self.clock()
        scanning = self._continued or self.detector.scanning
        self._waiting_ms = SCANNING_MS if scanning else self.quiet_ms
        self._quiet.start(self._waiting_ms)
        return True

    def _trailing(self, at: float) -> bool:
        """``at`` is within the moments after a scan when its scanner's Enter or Tab
        may still come (never when the clock went back: timestamps wrap)."""
        return self._swallow_from <= at <= self._swallow_until

    def _terminator(self, event: QKeyEvent) -> bool:
        if not self._held:
            # A scanner's late or second Enter/Tab after its scan: swallowed (the scan
            # is whole: no key after it is more of it).
            swallowed = self._trailing(self._at(event))
            if swallowed:
                self._scan_end = float("-inf")
            return swallowed
        at = self._at(event)
        if self._continued:
            self._scan(self._scan_text + self._held_text(), at)
            self._scan_end = float("-inf")
            return True
        burst = self.detector.end(at)
        if burst.source is InputSource.SCANNER:
            self._scan(burst.text, at)
            self._scan_end = float("-inf")  # ended by its Enter or Tab: whole
            return True
        self._deliver()
        return False

    def _quiet_came(self) -> None:
        waited = self.clock() - self._received
        remaining = self._waiting_ms / 1000 - waited
        if self._held and remaining > 0.001:  # the loop was busy: the keys were not quiet
            self._quiet.start(max(1, int(remaining * 1000)))
            return
        self.settle()

    # -- verdicts --------------------------------------------------------------------
    def settle(self) -> None:
        """Decide the held keys now (a pause came): a scan without a suffix, or typing."""
        self._quiet.stop()
        if not self._held:
            return
        if self._continued:
            self._scan(self._scan_text + self._held_text(), self._last_at)
            return
        burst = self.detector.end(self._last_at)
        if burst.source is InputSource.SCANNER:
            self._scan(burst.text, self._last_at)
        else:
            self._deliver()

    def _scan(self, text: str, at: float) -> None:
        self._quiet.stop()
        held, self._held = self._held, []
        target = held[0].receiver if held else None
        self.detector.reset()
        self._swallow_from, self._swallow_until = at, at + TRAILING_S
        self._scan_text, self._scan_end, self._continued = text, self._last_at, False
        self._scan_receiver = target
        self.scan_target = target if target is not None and isValid(target) else None
        self._scan_keys = held
        try:
            self.scanned.emit(text)
        finally:
            self.scan_target = None
            self._scan_keys = []

    def type_scan(self) -> None:
        """While ``scanned`` is handled: type the scan's keys (never its Enter or Tab)
        into ``scan_target`` after all, as a person's (a text field's own text)."""
        keys, self._scan_keys = self._scan_keys, []
        self._send(keys)

    def _deliver(self) -> None:
        """The held keys were a person's: to the widgets they were sent to, in order."""
        self._quiet.stop()
        held, self._held = self._held, []
        self.detector.reset()
        self._continued = False
        self._send(held)

    def _held_text(self) -> str:
        return "".join(
            item.event.text() for item in self._held if item.event.type() == QEvent.Type.KeyPress
        )

    def _send(self, held: list[_Held]) -> None:
        self._replaying = True
        try:
            for item in held:
                if isValid(item.receiver):
                    QApplication.sendEvent(item.receiver, item.event)
        finally:
            self._replaying = False
