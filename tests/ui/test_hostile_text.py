"""Hostile names through every screen (issue #17, item 6): the real counter and manager
mode walked with markup and a name of thousands of characters in every record
(``tests/ui/hostile_text.py``); no label renders markup, nothing overflows the window,
and the tooltip of a long name is plain text too."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication, QLabel, QToolTip, QWidget

from kiosk.ui.widgets.plain_text import install_plain_text, is_plain
from tests.ui.hostile_text import IMAGE, hostile_findings, hostile_world, markup_shown
from tests.ui.layout_walk import walk_counter
from tests.ui.theme_support import app_theme

WALKS = [("en", (1280, 800)), ("es", (1024, 768))]


@pytest.mark.parametrize(("lang", "size"), WALKS, ids=["en-1280x800", "es-1024x768"])
def test_hostile_names_stay_plain_text_and_inside_the_window(
    lang: str, size: tuple[int, int], request: pytest.FixtureRequest
) -> None:
    seen: list[str] = []

    def judge(window: QWidget, state: str) -> list:  # type: ignore[type-arg]
        if markup_shown(window):
            seen.append(state)
        return hostile_findings(window, state)

    results = walk_counter(request, lang, size, prepare=hostile_world, judge=judge)
    unreached = {state: why for state, why in results.items() if isinstance(why, str)}
    findings = [
        f.line() for outcome in results.values() if isinstance(outcome, list) for f in outcome
    ]
    assert not findings, "\n".join(findings)
    assert not unreached, unreached
    # The hostile names were on screen where a cashier and a manager look.
    for state in (
        "identify-found",
        "points-preview",
        "rewards-grid",
        "redeem-found",
        "today-credits",
    ):
        assert state in seen, f"no hostile name on screen in {state}"


def test_a_label_with_markup_is_caught(qapp: QApplication, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The judge sees a label that renders markup (the check can fail)."""
    window = QWidget()
    qtbot.addWidget(window)
    window.resize(400, 300)
    label = QLabel(IMAGE, window)
    window.show()
    label.setTextFormat(label.textFormat().AutoText)  # after polish: a label made rich
    assert not is_plain(label)
    assert [f.what for f in hostile_findings(window, "probe")] == ["renders its text as markup"]


# (The offscreen platform cannot raise the tooltip's window; a property of the platform.)
@pytest.mark.qt_log_ignore("This plugin does not support raise")
def test_a_tooltip_of_markup_shows_as_plain_text(qapp: QApplication, qtbot) -> None:  # type: ignore[no-untyped-def]
    with app_theme(qapp):
        install_plain_text(qapp)
        window = QWidget()
        qtbot.addWidget(window)
        window.show()
        QToolTip.showText(QPoint(10, 10), IMAGE, window)
        tips = [w for w in qapp.topLevelWidgets() if w.metaObject().className() == "QTipLabel"]
        assert tips
        assert all(isinstance(t, QLabel) and is_plain(t) for t in tips)
        QToolTip.hideText()
