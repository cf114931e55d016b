"""Parts of the identify screen: the empty state, the page switcher, the field's hints,
and the on-screen keyboard limited to this screen's fields."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from kiosk.core.counter.scan import ScanProblem
from kiosk.ui.icons import pixmap
from kiosk.ui.theme import current_palette

PROBLEM_HINTS = {
    ScanProblem.EMPTY: QT_TRANSLATE_NOOP(
        "IdentifyScreen", "Scan or type the client's email or DNI."
    ),
    ScanProblem.TOO_LONG: QT_TRANSLATE_NOOP(
        "IdentifyScreen", "That is too long for an email or a document. Clear it and try again."
    ),
    ScanProblem.INVALID_EMAIL: QT_TRANSLATE_NOOP(
        "IdentifyScreen", "That email is not complete. Check it (like name@example.com)."
    ),
    ScanProblem.DOCUMENT_LENGTH: QT_TRANSLATE_NOOP(
        "IdentifyScreen", "A DNI has 7 or 8 digits. Check the number."
    ),
    ScanProblem.BARCODE_UNREADABLE: QT_TRANSLATE_NOOP(
        "IdentifyScreen", "The DNI barcode could not be read. Scan it again or type the number."
    ),
    ScanProblem.NOT_RECOGNIZED: QT_TRANSLATE_NOOP(
        "IdentifyScreen", "Type the full email or the document number (names are not searched)."
    ),
}


class Pages(QWidget):
    """One panel shown at a time, at the top, as tall as itself (a ``QStackedWidget``
    is as tall as its tallest page, which would always scroll)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.addStretch(1)
        self._current: QWidget | None = None

    def add_page(self, panel: QWidget) -> None:
        self._layout.insertWidget(self._layout.count() - 1, panel)
        panel.setVisible(self._current is None)
        self._current = self._current or panel

    def setCurrentWidget(self, panel: QWidget) -> None:
        if panel is self._current:
            return
        if self._current is not None:
            self._current.hide()
        self._current = panel
        panel.show()

    def currentWidget(self) -> QWidget | None:
        return self._current


class EmptyPage(QWidget):
    """What to do when nobody is identified yet."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        art = QLabel()
        art.setPixmap(pixmap("scan", current_palette().border, 96))
        art.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.text = QLabel(self.tr("Scan or type the client's email or DNI"))
        self.text.setProperty("role", "heading")
        self.text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        more = QLabel(
            self.tr("Press Enter to search. A DNI barcode can be scanned straight into the field.")
        )
        more.setProperty("role", "muted")
        more.setAlignment(Qt.AlignmentFlag.AlignCenter)
        more.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 96, 0, 0)
        layout.addWidget(art)
        layout.addSpacing(8)
        layout.addWidget(self.text)
        layout.addWidget(more)
