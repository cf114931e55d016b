"""The big identify field: a scan icon, typing or a keyboard-wedge scanner.

A wedge scanner "types" a whole code in a burst of keys a few milliseconds
apart, ending with Enter or Tab (or with nothing, for scanners set without a
suffix). ``ScanField`` feeds every key to ``kiosk.core.counter.scan.WedgeDetector`` and
emits ``submitted(text, scanned)``:

- on Enter: the field's text, or only the scanned burst when the scanner typed
  after something already in the field;
- on Tab, only after a scan (a person's Tab moves the focus as usual);
- after a scan that ends without a suffix and goes quiet.

``scanning`` tells whether a burst is coming in right now.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent, QKeySequence, QResizeEvent
from PySide6.QtWidgets import QLabel, QLineEdit, QWidget

from kiosk.core.counter.scan import MAX_INPUT, Burst, InputSource, WedgeDetector
from kiosk.ui.icons import pixmap
from kiosk.ui.theme import current_palette

_ENTER = frozenset({Qt.Key.Key_Return, Qt.Key.Key_Enter})
_EDITING = frozenset({Qt.Key.Key_Backspace, Qt.Key.Key_Delete, Qt.Key.Key_Escape})
_ICON_PX = 32
_FLUSH_MS = 200  # a burst this quiet has ended (WedgeDetector.end_gap is 150 ms)


class ScanField(QLineEdit):
    """A line edit that tells scanner input from typing. ``submitted(text, scanned)``."""

    submitted = Signal(str, bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "big")
        self.setMaxLength(MAX_INPUT * 2)
        self.setClearButtonEnabled(True)
        self.setMinimumHeight(72)
        # A label, not a line-edit action: actions are drawn at the small icon size.
        self.scan_icon = QLabel(self)
        self.scan_icon.setPixmap(pixmap("scan", current_palette().muted, _ICON_PX))
        self.scan_icon.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setTextMargins(_ICON_PX + 16, 0, 0, 0)
        self.detector = WedgeDetector()
        self._flush = QTimer(self)
        self._flush.setSingleShot(True)
        self._flush.setInterval(_FLUSH_MS)
        self._flush.timeout.connect(self._flush_scan)
        # The last key: its event time and when it was delivered (to flush on the same scale).
        self._last_key = (0.0, 0.0)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.scan_icon.setGeometry(16, (self.height() - _ICON_PX) // 2, _ICON_PX, _ICON_PX)

    @property
    def scanning(self) -> bool:
        return self.detector.scanning

    # -- key handling --------------------------------------------------------------
    @staticmethod
    def _at(event: QKeyEvent) -> float:
        # Synthetic events (tests, the on-screen keyboard) carry no timestamp.
        stamp = event.timestamp()
        return stamp / 1000 if stamp else time.monotonic()

    def event(self, event: QEvent) -> bool:
        # Tab never reaches keyPressEvent when the focus can move: catch it here.
        if (
            event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Tab
            and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        ):
            burst = self.detector.end(self._at(event))
            if burst.source is InputSource.SCANNER:
                event.accept()
                self._submit_scan(burst)
                return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in _ENTER:
            burst = self.detector.end(self._at(event))
            event.accept()
            if burst.source is InputSource.SCANNER:
                self._submit_scan(burst)
            else:
                self._flush.stop()
                self.submitted.emit(self.text(), False)
            return
        if key in _EDITING or event.matches(QKeySequence.StandardKey.Cut):
            self.detector.reset()
        text = event.text()
        if text and text.isprintable():
            at = self._at(event)
            self._last_key = (at, time.monotonic())
            self.detector.key(text, at)
            if self.detector.scanning:
                self._flush.start()
        super().keyPressEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        self.detector.reset()
        super().focusOutEvent(event)

    def clear_input(self) -> None:
        """Empty the field and forget the keys (a new client, idle)."""
        self._flush.stop()
        self.detector.reset()
        self.clear()

    # -- scans -----------------------------------------------------------------------
    def _flush_scan(self) -> None:
        at, delivered = self._last_key
        burst = self.detector.flush(at + (time.monotonic() - delivered))
        if burst is not None:
            self._submit_scan(burst)

    def _submit_scan(self, burst: Burst) -> None:
        self._flush.stop()
        text = burst.text
        if self.text() != text:
            # Only what the scanner typed: whatever was in the field before is not part of it.
            self.setText(text)
        self.submitted.emit(text, True)
