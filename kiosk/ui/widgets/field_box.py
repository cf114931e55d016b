"""One field of a form (enrollment, the manager's forms): its title, the editor, an
optional hint, and its error line, kept in place so that nothing jumps when a problem
comes or goes."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from kiosk.ui.widgets.elided import ElidedLabel


class FieldBox(QWidget):
    """``set_error`` writes the field's problem under it and flags ``focus`` (the editor
    by default) ``invalid`` for the style sheet."""

    def __init__(
        self,
        label: str,
        editor: QWidget,
        focus: QWidget | None = None,
        *,
        hint: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.editor = editor
        self.focus_target = focus or editor
        # A field's title may hold a name from the server (a level's): elided, whole
        # in its tooltip, so it never widens the form past the window.
        self.label = ElidedLabel(label)
        self.label.setProperty("role", "muted")
        self.hint = QLabel(hint)
        self.hint.setProperty("role", "hint")
        self.hint.setWordWrap(True)
        self.hint.setVisible(bool(hint))
        self.error = QLabel()
        self.error.setProperty("role", "field-error")
        self.error.setWordWrap(True)
        self.error.setMinimumHeight(18)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.label)
        layout.addWidget(editor)
        layout.addWidget(self.hint)
        layout.addWidget(self.error)

    def set_error(self, text: str) -> None:
        if self.error.text() != text:
            self.error.setText(text)
        # Re-polished only when the flag flips: a re-polish restyles the editor and costs
        # ~0.3 ms a field, and clearing the problems of a clean form is the common case.
        invalid = bool(text)
        target = self.focus_target
        if bool(target.property("invalid")) != invalid:
            target.setProperty("invalid", invalid)
            target.style().unpolish(target)
            target.style().polish(target)
