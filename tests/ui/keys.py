"""Keys with the times of real hands and of a keyboard-wedge scanner.

Each key event carries a timestamp on one test clock (``Keys.ms``), so the counter's
scanner watch (``kiosk/ui/scan_watch.py``) tells a person from a scanner by the same
rhythm it sees at a counter, with no sleep: ``scan`` types a burst 5 ms a key then
Enter; ``person`` types 150 ms a key and then lets the pause come (``settle``).
Keys go to ``widget``, or where a keyboard's keys go: the focused widget, else the
active window.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QWidget

from kiosk.ui.scan_watch import ScanWatch

SCANNER_MS = 5
PERSON_MS = 150
ENTER = Qt.Key.Key_Return

MARIA_BARCODE = "00623456789@GONZALEZ FERNANDEZ@MARIA JOSE@F@27456789@A@02/11/1979@04/08/2019@200"
MARIA = "27456789"


def _key_of(char: str) -> int:
    code = ord(char.upper())
    return code if code < 0x7F else 0


class Keys:
    """A keyboard (and a scanner) on one clock, in milliseconds."""

    def __init__(self, start_ms: int = 5_000_000) -> None:
        self.ms = start_ms

    def target(self, widget: QWidget | None) -> QWidget:
        if widget is not None:
            return widget
        found = QApplication.focusWidget() or QApplication.activeWindow()
        assert found is not None, "no widget would receive the keys"
        return found

    def key(
        self,
        key: int,
        text: str = "",
        *,
        widget: QWidget | None = None,
        after_ms: int = PERSON_MS,
        repeat: bool = False,
    ) -> None:
        """One key pressed and released ``after_ms`` after the one before."""
        self.ms += after_ms
        to = self.target(widget)
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            event = QKeyEvent(kind, key, Qt.KeyboardModifier.NoModifier, text, repeat)
            event.setTimestamp(self.ms)
            QApplication.sendEvent(to, event)

    def type(self, text: str, *, widget: QWidget | None = None, gap_ms: int = PERSON_MS) -> None:
        for char in text:
            self.key(_key_of(char), char, widget=widget, after_ms=gap_ms)

    def enter(self, *, widget: QWidget | None = None, after_ms: int = PERSON_MS) -> None:
        self.key(ENTER, "\r", widget=widget, after_ms=after_ms)

    def shifted(
        self, char: str, *, widget: QWidget | None = None, after_ms: int, alt_gr: bool = False
    ) -> None:
        """A character typed with Shift held, as a keyboard wedge types ``A`` or ``@``:
        Shift down, the key down and up, Shift up (each event on the clock). ``alt_gr``:
        with AltGr instead, which Windows reports as Ctrl+Alt ("@" on a Spanish layout)."""
        to = self.target(widget)
        if alt_gr:
            held = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
            modifier_key = Qt.Key.Key_AltGr
        else:
            held, modifier_key = Qt.KeyboardModifier.ShiftModifier, Qt.Key.Key_Shift
        self.ms += after_ms
        steps = (
            (QEvent.Type.KeyPress, modifier_key, "", held),
            (QEvent.Type.KeyPress, _key_of(char), char, held),
            (QEvent.Type.KeyRelease, _key_of(char), char, held),
            (QEvent.Type.KeyRelease, modifier_key, "", Qt.KeyboardModifier.NoModifier),
        )
        for kind, key, text, modifiers in steps:
            event = QKeyEvent(kind, key, modifiers, text)
            event.setTimestamp(self.ms)
            QApplication.sendEvent(to, event)
            self.ms += 1

    def scan(
        self,
        text: str,
        *,
        widget: QWidget | None = None,
        suffix: int | None = ENTER,
        shift: bool = False,
        alt_gr_at: bool = False,
    ) -> None:
        """A scanner's burst (after a person's pause), then its Enter (or Tab, or none);
        ``shift``: capitals and ``@`` come with the Shift key, as a wedge types them;
        ``alt_gr_at``: "@" with AltGr (Ctrl+Alt on Windows), as on a Spanish layout."""
        self.ms += 1000
        if shift or alt_gr_at:
            for char in text:
                if alt_gr_at and char == "@":
                    self.shifted(char, widget=widget, after_ms=SCANNER_MS, alt_gr=True)
                elif shift and (char.isupper() or char in '@"'):
                    self.shifted(char, widget=widget, after_ms=SCANNER_MS)
                else:
                    self.key(_key_of(char), char, widget=widget, after_ms=SCANNER_MS)
        else:
            self.type(text, widget=widget, gap_ms=SCANNER_MS)
        if suffix is not None:
            self.key(
                suffix,
                "\t" if suffix == Qt.Key.Key_Tab else "\r",
                widget=widget,
                after_ms=SCANNER_MS,
            )
        if suffix is None:
            settle(widget)

    def press(self, key: Qt.Key | str, *, widget: QWidget | None = None) -> None:
        """A person presses one key (a character or a ``Qt.Key``), and nothing after it."""
        if isinstance(key, str):
            self.key(_key_of(key), key, widget=widget)
        else:
            text = {Qt.Key.Key_Return: "\r", Qt.Key.Key_Enter: "\r", Qt.Key.Key_Tab: "\t"}
            self.key(key, text.get(key, ""), widget=widget)
        settle(widget)

    def person(self, text: str, *, widget: QWidget | None = None) -> None:
        """A person types ``text`` (then stops: the last key is not held back)."""
        self.type(text, widget=widget)
        settle(widget)


def watch_of(widget: QWidget | None = None) -> ScanWatch | None:
    window = widget.window() if widget is not None else QApplication.activeWindow()
    if window is None:
        return None
    return window.findChild(ScanWatch)


def settle(widget: QWidget | None = None) -> None:
    """The pause after the last key came: the held keys are decided."""
    watch = watch_of(widget)
    if watch is not None:
        watch.settle()
