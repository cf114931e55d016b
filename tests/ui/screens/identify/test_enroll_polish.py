"""The enrollment form's field errors restyle an editor only when its ``invalid`` flag
flips (issue #4): a re-polish sends the editor a palette and font change and costs a
fraction of a millisecond a field, and clearing the problems of a clean form (every
reset, every submit) was re-polishing seven fields for nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.core.counter.enroll import EnrollForm, FieldProblem, FormField
from kiosk.core.session import CounterSession
from kiosk.ui.screens.identify.enroll import EnrollPanel
from tests.ui.event_count import EventCount
from tests.ui.theme_support import app_theme

RESTYLE = {QEvent.Type.PaletteChange, QEvent.Type.FontChange, QEvent.Type.StyleChange}


@pytest.fixture
def panel(qtbot: QtBot, qapp: QApplication) -> Iterator[EnrollPanel]:
    with app_theme(qapp):  # the sheet with the QLineEdit[invalid="true"] rule
        panel = EnrollPanel()
        qtbot.addWidget(panel)
        panel.show()
        yield panel


def watch(panel: EnrollPanel) -> EventCount:
    restyles = EventCount(*RESTYLE)
    for box in set(panel.boxes.values()):
        box.focus_target.installEventFilter(restyles)
    return restyles


def test_clearing_a_clean_form_restyles_nothing(panel: EnrollPanel) -> None:
    restyles = watch(panel)
    panel.clear_problems()
    panel.reset()
    panel.set_form(EnrollForm(email="ana@example.org", document_number="44123987"))
    assert restyles.count == 0
    assert all(not box.error.text() for box in panel.boxes.values())


def test_an_error_restyles_its_field_once_and_clearing_it_restyles_it_back(
    panel: EnrollPanel,
) -> None:
    restyles = watch(panel)
    panel.show_problems({FormField.EMAIL: FieldProblem.EMAIL_FORMAT})
    assert panel.email.property("invalid") is True
    assert panel.error_of(FormField.EMAIL) == "Not a valid email (like name@example.com)."
    first = restyles.count
    assert first > 0
    # The same field wrong again, another text: the text changes, not the style.
    panel.boxes[FormField.EMAIL].set_error("Too long. Shorten it.")
    assert panel.error_of(FormField.EMAIL) == "Too long. Shorten it."
    assert restyles.count == first
    panel.clear_problems()
    assert panel.email.property("invalid") is False
    assert panel.error_of(FormField.EMAIL) == ""
    assert restyles.count > first


def test_identify_restyles_its_field_only_when_the_hint_flag_flips(
    qtbot: QtBot, qapp: QApplication, session: CounterSession
) -> None:
    """Typing calls ``_show_hint(None)`` on every keystroke: a clean field is left alone."""
    from kiosk.core.counter.scan import ScanProblem
    from tests.ui.screens.identify.identify_support import make_screen

    with app_theme(qapp):
        screen = make_screen(qtbot, session)
        restyles = EventCount(*RESTYLE)
        screen.field.installEventFilter(restyles)
        for _ in range(5):
            screen._show_hint(None)
        assert restyles.count == 0
        screen._show_hint(ScanProblem.NOT_RECOGNIZED)
        assert screen.field.property("invalid") is True
        assert not screen.field_hint.isHidden()
        flipped = restyles.count
        assert flipped > 0
        screen._show_hint(ScanProblem.NOT_RECOGNIZED)  # still invalid: no restyle
        assert restyles.count == flipped
        screen._show_hint(None)
        assert screen.field.property("invalid") is False
        assert screen.field_hint.isHidden()
        assert restyles.count > flipped
