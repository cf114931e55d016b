"""A reusable administration form: fields with their own error lines, notes, and a
footer with Back, an optional destructive action, and Save; actions on the record as a
whole (a client's Suspend, Schedule removal) may stand beside the heading instead, so
that the footer keeps one row and the fields their height at 1024x768.

Problems come from ``kiosk.core.admin.forms`` (the form's own checks before sending,
or the API's refusal mapped onto fields) and are shown next to their fields;
problems of fields the form does not show go to a line above the fields. The form
scrolls; its footer stays in place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractButton,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from kiosk.core.admin.forms import GENERAL, Problem
from kiosk.ui.admin.chips import FlowLayout
from kiosk.ui.icons import icon
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.busy_button import BusyButton
from kiosk.ui.widgets.elided import ElidedLabel
from kiosk.ui.widgets.field_box import FieldBox
from kiosk.ui.widgets.layouts import text_scroll

CONTEXT = "AdminForm"
FIELD_PX = 48  # touch target of a text field
TALL = "QPushButton { min-height: 44px; padding: 8px 24px; }"  # 64 px with the padding
ACTION_PX = 48  # an action beside the heading (a touch target, under the footer's 64)

PROBLEM_TEXT = {
    Problem.REQUIRED: QT_TRANSLATE_NOOP("AdminForm", "This field is needed."),
    Problem.NOT_A_NUMBER: QT_TRANSLATE_NOOP("AdminForm", "Type a number, like 1,5."),
    Problem.NOT_AN_INTEGER: QT_TRANSLATE_NOOP("AdminForm", "Type a whole number, digits only."),
    Problem.NOT_POSITIVE: QT_TRANSLATE_NOOP("AdminForm", "It must be greater than zero."),
    Problem.NEGATIVE: QT_TRANSLATE_NOOP("AdminForm", "It must be zero or more."),
    Problem.BELOW_ONE: QT_TRANSLATE_NOOP(
        "AdminForm", "The multiplier is at least 1 (1 = no bonus, 1,5 = 50% more points)."
    ),
    Problem.TOO_LARGE: QT_TRANSLATE_NOOP("AdminForm", "That is too large. Check it."),
    Problem.TOO_SMALL: QT_TRANSLATE_NOOP("AdminForm", "That is too small. Check it."),
    Problem.NOT_A_COLOR: QT_TRANSLATE_NOOP("AdminForm", "Type a colour like #1d4ed8 or #abc."),
    Problem.TOO_LONG: QT_TRANSLATE_NOOP("AdminForm", "Too long. Shorten it."),
    Problem.EMAIL_FORMAT: QT_TRANSLATE_NOOP(
        "AdminForm", "Not a valid email (like name@example.com)."
    ),
    Problem.PASSWORD_SHORT: QT_TRANSLATE_NOOP(
        "AdminForm", "A password has at least 8 characters. Or leave it empty."
    ),
    Problem.NOT_A_URL: QT_TRANSLATE_NOOP(
        "AdminForm", "Type a full web address starting with https://, or leave it empty."
    ),
    Problem.NO_OFFER: QT_TRANSLATE_NOOP(
        "AdminForm", "Give at least one price: for clients without level or for a level."
    ),
    Problem.NOT_A_LIST: QT_TRANSLATE_NOOP(
        "AdminForm", "Type category numbers separated by commas, like 1, 5."
    ),
    Problem.REPEATED: QT_TRANSLATE_NOOP("AdminForm", "The same value appears twice."),
    Problem.TAKEN: QT_TRANSLATE_NOOP("AdminForm", "Already used by another record."),
    Problem.NOT_EDITABLE: QT_TRANSLATE_NOOP("AdminForm", "This cannot be changed."),
    Problem.EMAIL_LOCKED: QT_TRANSLATE_NOOP(
        "AdminForm", "The email cannot be changed: the client already entered the platform."
    ),
    Problem.COUPON_STOCK: QT_TRANSLATE_NOOP(
        "AdminForm",
        "This reward's stock comes from its coupons, loaded in the merchant panel. "
        "Choose “Leave the stock as it is” and save again.",
    ),
    Problem.UNKNOWN_GROUP: QT_TRANSLATE_NOOP(
        "AdminForm",
        "No permission group has this number. Check it in the merchant panel, or leave it empty.",
    ),
    Problem.CANNOT_CLEAR: QT_TRANSLATE_NOOP(
        "AdminForm", "This cannot be emptied from the kiosk. Type a new value."
    ),
    Problem.DOCUMENT_FORMAT: QT_TRANSLATE_NOOP(
        "AdminForm", "A DNI has 6 to 8 digits; a passport 5 to 20 letters and digits."
    ),
    Problem.PHONE_FORMAT: QT_TRANSLATE_NOOP("AdminForm", "A phone number has 6 to 15 digits."),
    Problem.NO_REASON: QT_TRANSLATE_NOOP("AdminForm", "Choose at least one reason."),
    Problem.NO_BRANCH: QT_TRANSLATE_NOOP(
        "AdminForm", "Choose at least one branch: without one the operator cannot work anywhere."
    ),
    Problem.INVALID: QT_TRANSLATE_NOOP("AdminForm", "The service did not accept this. Check it."),
}
OTHER_FIELDS = QT_TRANSLATE_NOOP(
    "AdminForm", "The service refused data this form does not show (%1). Call IT."
)


def problem_text(problem: Problem) -> str:
    return QCoreApplication.translate(CONTEXT, str(PROBLEM_TEXT[problem]))


def line(placeholder: str = "", *, read_only: bool = False) -> QLineEdit:
    edit = QLineEdit()
    edit.setPlaceholderText(placeholder)
    edit.setMinimumHeight(FIELD_PX)
    set_read_only(edit, read_only)
    return edit


def set_read_only(edit: QLineEdit, read_only: bool) -> None:
    """A field shown but not editable (greyed, no keyboard, not focused by taps)."""
    edit.setReadOnly(read_only)
    edit.setProperty("touchKeyboard", not read_only)
    edit.setFocusPolicy(Qt.FocusPolicy.NoFocus if read_only else Qt.FocusPolicy.StrongFocus)
    edit.setStyleSheet(
        f"QLineEdit {{ background: {current_palette().surface_alt}; }}" if read_only else ""
    )


class FormPanel(QFrame):
    """``submitted`` (Save), ``cancelled`` (Back), ``delete_requested`` (the danger action)."""

    submitted = Signal()
    cancelled = Signal()
    delete_requested = Signal()
    problems_cleared = Signal()  # the last field with a problem was edited

    def __init__(self, heading: str = "", *, save_text: str = "", danger_text: str = "") -> None:
        super().__init__()
        self.setProperty("role", "card")
        p = current_palette()
        self.setStyleSheet(
            f"QLineEdit:disabled {{ background: {p.surface_alt}; color: {p.muted};"
            f" border-style: dashed; }}"
            f' QPushButton[role="danger"]:disabled {{ background: {p.border}; color: {p.muted}; }}'
        )
        # A long name elides (whole in the tooltip; the fields show it whole too).
        self.heading = ElidedLabel(heading)
        self.heading.setProperty("role", "heading")
        self.notes = QVBoxLayout()
        self.notes.setSpacing(4)
        self.general = QLabel()
        self.general.setProperty("role", "field-error")
        self.general.setWordWrap(True)
        self.general.hide()
        self.grid = QGridLayout()
        self.grid.setHorizontalSpacing(24)
        self.grid.setVerticalSpacing(4)  # (each field keeps room for its error line)
        self.grid.setColumnStretch(0, 1)
        self.grid.setColumnStretch(1, 1)
        self._row = 0
        self._col = 0
        self.boxes: dict[str, FieldBox] = {}
        self._aliases: dict[str, str] = {}
        self._texts: dict[tuple[str, Problem], str] = {}
        self._limits: dict[str, int] = {}
        content = QWidget()
        inner = QVBoxLayout(content)
        inner.setContentsMargins(0, 0, 20, 0)
        inner.setSpacing(8)
        inner.addLayout(self.notes)
        inner.addWidget(self.general)
        inner.addLayout(self.grid)
        inner.addStretch(1)
        self.scroller = text_scroll(content, "formContent")

        self.back_button = QPushButton(self.tr("Back"))
        self.back_button.setStyleSheet(TALL)
        self.back_button.setMinimumHeight(64)
        self.back_button.clicked.connect(self.cancelled.emit)
        self.danger_button = BusyButton(danger_text or self.tr("Delete"))
        self.danger_button.setProperty("role", "danger")
        self.danger_button.setIcon(icon("trash", "#ffffff"))
        self.danger_button.setStyleSheet(TALL)
        self.danger_button.setMinimumHeight(64)
        self.danger_button.clicked.connect(self.delete_requested.emit)
        self.danger_button.setVisible(bool(danger_text))
        self.save_button = BusyButton(save_text or self.tr("Save"), primary=True)
        self.save_button.setIcon(icon("success", p.accent_text))
        self.save_button.setMinimumHeight(64)
        self.save_button.setMinimumWidth(220)
        self.save_button.clicked.connect(self.submitted.emit)
        # The buttons wrap onto a second line rather than cut their words (Spanish at
        # 1024 px): Back and the section's own first, then the destructive one, Save last.
        self.extra_buttons = FlowLayout(spacing=12)
        footer = self.extra_buttons
        footer.addWidget(self.back_button)
        footer.addWidget(self.danger_button)
        footer.addWidget(self.save_button)
        self.heading_row = QHBoxLayout()
        self.heading_row.setSpacing(12)
        self.heading_row.addWidget(self.heading, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.setSpacing(6)
        layout.addLayout(self.heading_row)
        layout.addWidget(self.scroller, 1)
        layout.addLayout(footer)

    def add_footer_button(self, button: QPushButton) -> None:
        """A button of the section's own in the footer, after Back."""
        self.extra_buttons.insert_widget(1, button)

    def add_heading_button(self, button: QPushButton) -> None:
        """An action on the whole record, beside the heading (the name elides first)."""
        self._action_size(button)
        self.heading_row.addWidget(button, 0, Qt.AlignmentFlag.AlignVCenter)

    def danger_beside_heading(self) -> None:
        """The destructive action beside the heading rather than in the footer."""
        index = self.extra_buttons.indexOf(self.danger_button)
        if index >= 0:
            self.extra_buttons.takeAt(index)
        self.add_heading_button(self.danger_button)

    @staticmethod
    def _action_size(button: QPushButton) -> None:
        """One height for the heading's actions, whatever their role; never below the text."""
        # 48 px both: every button, a danger one too, has a 2 px border (theme.py).
        button.setStyleSheet("QPushButton { min-height: 28px; padding: 8px 12px; }")
        button.setMaximumHeight(ACTION_PX)
        button.setMinimumWidth(button.sizeHint().width())

    # -- building ------------------------------------------------------------------------
    def add_note(self, text: str, *, warning: bool = False) -> QLabel:
        note = QLabel(text)
        note.setWordWrap(True)
        note.setProperty("role", "hint")
        if warning:
            p = current_palette()
            note.setStyleSheet(
                f"QLabel {{ background: {p.info_bg}; border-left: 4px solid {p.accent};"
                f" padding: 8px 12px; color: {p.text}; }}"
            )
        self.notes.addWidget(note)
        return note

    def add_field(
        self,
        key: str,
        label: str,
        editor: QWidget,
        *,
        hint: str = "",
        wide: bool = False,
        focus: QWidget | None = None,
    ) -> FieldBox:
        box = FieldBox(label, editor, hint=hint, focus=focus)
        self.boxes[key] = box
        self._place(box, wide=wide)
        if isinstance(editor, QLineEdit):
            editor.returnPressed.connect(self.submitted.emit)
        # A field's problem goes as soon as the person edits the field.
        edits = [editor] if isinstance(editor, QLineEdit) else editor.findChildren(QLineEdit)
        for edit in edits:
            edit.textEdited.connect(lambda _text, b=box: self._edited(b))
        taps = [editor] if isinstance(editor, QAbstractButton) else []
        for button in taps or editor.findChildren(QAbstractButton):
            button.clicked.connect(lambda _checked=False, b=box: self._edited(b))
        return box

    def _edited(self, box: FieldBox) -> None:
        if not box.error.text():
            return
        box.set_error("")
        if not self.has_problems():
            self.problems_cleared.emit()

    def has_problems(self) -> bool:
        """A field or the line above the fields still shows a problem."""
        return not self.general.isHidden() or any(b.error.text() for b in self.boxes.values())

    def add_heading(self, text: str) -> QLabel:
        """A sub-heading inside the form (a group of fields)."""
        label = QLabel(text)
        label.setStyleSheet("QLabel { font-size: 20px; font-weight: 600; padding-top: 8px; }")
        label.setIndent(0)
        self.add_widget(label)
        return label

    def add_widget(self, widget: QWidget, *, wide: bool = True) -> None:
        self._place(widget, wide=wide)

    def alias(self, key: str, shown_in: str) -> None:
        """Problems of ``key`` show in the box of ``shown_in``."""
        self._aliases[key] = shown_in

    def word(self, key: str, problem: Problem, text: str) -> None:
        """A better sentence than the generic one for ``problem`` on field ``key``."""
        self._texts[(key, problem)] = text

    def limits(self, most: Mapping[str, int]) -> None:
        """The most characters of fields (``key`` -> count): their "Too long" says it."""
        self._limits.update(most)

    def _problem_text(self, key: str, problem: Problem) -> str:
        text = self._texts.get((key, problem))
        if text:
            return text
        if problem is Problem.TOO_LONG and key in self._limits:
            return self.tr("Too long: at most %n characters.", "", self._limits[key])
        return problem_text(problem)

    def _place(self, widget: QWidget, *, wide: bool) -> None:
        if wide and self._col:
            self._row += 1
            self._col = 0
        self.grid.addWidget(
            widget, self._row, self._col, 1, 2 if wide else 1, Qt.AlignmentFlag.AlignTop
        )
        if wide or self._col:
            self._row += 1
            self._col = 0
        else:
            self._col = 1

    # -- problems ------------------------------------------------------------------------
    def show_problems(self, problems: Mapping[str, Problem], unknown: Sequence[str] = ()) -> None:
        self.clear_problems()
        general: list[str] = []
        first: FieldBox | None = None
        for key, problem in problems.items():
            box = self.boxes.get(self._aliases.get(key, key))
            if box is None or key == GENERAL:
                if key != GENERAL or not unknown:
                    general.append(problem_text(problem))
                continue
            if not box.error.text():
                box.set_error(self._problem_text(key, problem))
            first = first or box
        if unknown:
            text = QCoreApplication.translate(CONTEXT, str(OTHER_FIELDS))
            general.append(text.replace("%1", ", ".join(unknown)))
        if general:
            self.general.setText("\n".join(dict.fromkeys(general)))
            self.general.show()
        if first is not None:
            first.focus_target.setFocus()
            shown = first
            # After the layout made room for the error lines.
            QTimer.singleShot(0, self, lambda: self.scroller.ensureWidgetVisible(shown, 8, 24))

    def to_top(self) -> None:
        """Shown from its first field (a form used again opens at its top, not where
        the previous record was left)."""
        self.scroller.verticalScrollBar().setValue(0)

    def rewind(self) -> None:
        """Long texts show from their start after filling the form."""
        for edit in self.findChildren(QLineEdit):
            edit.setCursorPosition(0)

    def error_of(self, key: str) -> str:
        box = self.boxes.get(self._aliases.get(key, key))
        return box.error.text() if box is not None else ""

    def clear_problems(self) -> None:
        for box in self.boxes.values():
            box.set_error("")
        self.general.clear()
        self.general.hide()

    def set_busy(self, busy: bool) -> None:
        """While a save or delete runs: nothing else can be sent, Back waits."""
        self.back_button.setEnabled(not busy)
        if busy:
            self.save_button.setEnabled(False)
            self.danger_button.setEnabled(False)
        else:
            self.save_button.set_busy(False)
            self.danger_button.set_busy(False)
