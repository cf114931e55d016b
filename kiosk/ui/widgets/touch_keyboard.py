"""The kiosk's own on-screen keyboard for emails and names (Qt does not get the Windows
touch keyboard). It types into whatever line edit has the focus."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from kiosk.core.lazy import Lazy

ROWS_LETTERS = ["1234567890", "qwertyuiop", "asdfghjklñ", "zxcvbnm@.-_"]
ROWS_SYMBOLS = ["1234567890", "+()/:;#&'\"", "áéíóúüç!?*", "$%=,@.-_"]


class TouchKeyboard(QFrame):
    """Keys post real key events to the focused widget, so validators and signals work."""

    done = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "card")
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._shift = False
        self._symbols = False
        self._grid = QGridLayout()
        self._grid.setSpacing(6)
        bottom = QHBoxLayout()
        self.shift_key = self._make_key(self.tr("Shift"), self._toggle_shift)
        self.symbols_key = self._make_key("?123", self._toggle_symbols)
        space = self._make_key(self.tr("Space"), lambda: self._type(" "))
        back = self._make_key("⌫", self._backspace)
        hide = self._make_key(self.tr("Done"), self.done.emit)
        for key, stretch in (
            (self.shift_key, 1),
            (self.symbols_key, 1),
            (space, 4),
            (back, 1),
            (hide, 1),
        ):
            bottom.addWidget(key, stretch)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(self._grid)
        layout.addLayout(bottom)
        self._build()

    def _make_key(self, text: str, action: object) -> QPushButton:
        button = QPushButton(text)
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        button.setMinimumHeight(56)
        button.clicked.connect(action)
        return button

    def _build(self) -> None:
        while self._grid.count():
            item = self._grid.takeAt(0)
            if item is not None and item.widget() is not None:
                item.widget().deleteLater()
        rows = ROWS_SYMBOLS if self._symbols else ROWS_LETTERS
        for r, row in enumerate(rows):
            for c, char in enumerate(row):
                text = char.upper() if self._shift else char
                key = self._make_key(text, lambda _=False, t=text: self._type(t))
                key.setMinimumWidth(56)
                self._grid.addWidget(key, r, c)

    def _toggle_shift(self) -> None:
        self._shift = not self._shift
        self._build()

    def _toggle_symbols(self) -> None:
        self._symbols = not self._symbols
        self._build()

    def _target(self) -> QWidget | None:
        return QApplication.focusWidget()

    def _type(self, text: str) -> None:
        target = self._target()
        if target is None:
            return
        QApplication.sendEvent(
            target, QKeyEvent(QEvent.Type.KeyPress, 0, Qt.KeyboardModifier.NoModifier, text)
        )
        if self._shift:
            self._shift = False
            self._build()

    def _backspace(self) -> None:
        target = self._target()
        if target is not None:
            QApplication.sendEvent(
                target,
                QKeyEvent(
                    QEvent.Type.KeyPress, Qt.Key.Key_Backspace, Qt.KeyboardModifier.NoModifier
                ),
            )


class TouchKeyboardController(QObject):
    """Shows the keyboard when a text field takes the focus (touch devices or by setting).

    With ``owner``, only fields inside that widget count: each screen has its own
    keyboard and must not open it for another screen's fields. ``keyboard`` may be a
    function that builds it (and places it): it is then built the first time it is
    shown, so a counter without a touch screen never builds it."""

    def __init__(
        self,
        keyboard: TouchKeyboard | Callable[[], TouchKeyboard],
        mode: str = "auto",
        owner: QWidget | None = None,
    ) -> None:
        self._keyboard: Lazy[TouchKeyboard]
        if isinstance(keyboard, TouchKeyboard):
            super().__init__(keyboard)
            self._keyboard = Lazy(self._adopt(keyboard))
        else:
            super().__init__(owner)
            make = keyboard
            self._keyboard = Lazy(lambda: self._adopt(make()))
        self.mode = mode
        self.owner = owner
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._focus_changed)

    @property
    def keyboard(self) -> TouchKeyboard:
        return self._keyboard.get()

    def hide(self) -> None:
        """Hide the keyboard (nothing to do if it was never built)."""
        if self._keyboard.made:
            self._keyboard.get().hide()

    @staticmethod
    def _adopt(keyboard: TouchKeyboard) -> TouchKeyboard:
        keyboard.done.connect(keyboard.hide)
        keyboard.hide()
        return keyboard

    def wanted(self) -> bool:
        if self.mode == "always":
            return True
        if self.mode == "never":
            return False
        from PySide6.QtGui import QInputDevice

        return any(d.type() == QInputDevice.DeviceType.TouchScreen for d in QInputDevice.devices())

    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if self.owner is not None and (new is None or not self.owner.isAncestorOf(new)):
            return
        if (
            isinstance(new, QLineEdit)
            and new.property("touchKeyboard") is not False
            and self.wanted()
        ):
            self.keyboard.show()
