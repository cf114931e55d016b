"""Idle timers that restart on any tap, key (shortcuts too), touch or wheel at the kiosk.

User input reaches a top-level ``QWindow`` before Qt hands it to a widget, so one
event filter per window sees every tap and key the person makes, and nothing else of
the widgets' event traffic (child, polish, layout, paint, timer events: thousands per
interaction). An application-wide filter would run Python for every one of those
events; measured on the counter, that cost tens of milliseconds of event-loop stall at
start-up (the first widgets built lazily create PySide6 enum classes for exotic event
types) and a few milliseconds inside every interaction.

``UserInput.of()`` is the one listener: it filters the application's windows (new
ones as they get focus: pop-ups, dialogs) and emits ``input``. ``IdleTimer`` fires
``idle`` after ``seconds`` without input while it runs.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QTimer, Signal, Slot
from PySide6.QtGui import QGuiApplication, QWindow

# A key that matches a shortcut (the rail's F1-F7, Escape) is taken by the shortcut
# before its press reaches the window: its release still does, and counts.
USER_INPUT = frozenset(
    {
        QEvent.Type.MouseButtonPress,
        QEvent.Type.KeyPress,
        QEvent.Type.KeyRelease,
        QEvent.Type.TouchBegin,
        QEvent.Type.Wheel,
    }
)


class UserInput(QObject):
    """Emits ``input`` on each press, key, touch or wheel in any window of the app."""

    input = Signal()

    @classmethod
    def of(cls) -> UserInput | None:
        """The application's listener (made on first use; None without an application)."""
        app = QGuiApplication.instance()
        if not isinstance(app, QGuiApplication):
            return None
        found = app.findChild(UserInput, "kioskUserInput")
        if found is not None:
            return found
        listener = cls(app)
        listener.setObjectName("kioskUserInput")
        app.focusWindowChanged.connect(listener.watch)
        listener.watch_all()
        return listener

    def watch_all(self) -> None:
        for window in QGuiApplication.topLevelWindows():
            self.watch(window)

    def watch(self, window: QWindow | None) -> None:
        if window is not None:
            window.installEventFilter(self)  # installed once: Qt moves a repeated one to the front

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in USER_INPUT:
            self.input.emit()
        return False


class IdleTimer(QObject):
    """Fires ``idle`` after ``seconds`` without user input, while started."""

    idle = Signal()

    def __init__(self, seconds: float, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(max(1, round(seconds * 1000)))
        self.timer.timeout.connect(self.idle.emit)
        self._listener = UserInput.of()
        if self._listener is not None:
            self._listener.input.connect(self._input)

    def start(self) -> None:
        """(Re)start the count; windows shown since are watched too."""
        if self._listener is not None:
            self._listener.watch_all()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def detach(self) -> None:
        """Stop for good (the owner is closing)."""
        self.timer.stop()
        if self._listener is not None:
            self._listener.input.disconnect(self._input)
            self._listener = None

    @Slot()
    def _input(self) -> None:
        if self.timer.isActive():
            self.timer.start()
