"""The layout audit of the whole counter (issue #14, "Checks that catch the class").

The REAL counter (``build_view`` with manager mode, in a ``KioskWindow``, over the
in-process simulator, with the counter's theme) is walked through every screen and
state a cashier or a manager reaches (``tests/ui/layout_walk.py``), in English and
Spanish, at 1280x800 and 1024x768; ``tests/ui/layout_audit.py`` judges each state.
Each (state, language, size) is its own test; the counter is built and walked once per
(language, size), by the first of its tests, and the others read what that walk saw.

Each state's picture is saved to ``/tmp/shots/audit/`` (``KIOSK_AUDIT_SHOTS`` names
another folder, empty: none), and the findings of the walks so far, grouped by who owns
the fix, to ``/tmp/notes/audit-findings.md`` (``KIOSK_AUDIT_NOTES``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.ui.layout_audit import audit
from tests.ui.layout_walk import STATES, Outcome, case_id, walk_counter

LANGUAGES = ("en", "es")
SIZES = ((1280, 800), (1024, 768))
_walks: dict[tuple[str, tuple[int, int]], dict[str, Outcome]] = {}

# Findings still open go here, each with its reason: strict xfail turns its fix into a
# failure until its line is removed. None is open.
KNOWN: dict[str, str] = {}


def _case(lang: str, size: tuple[int, int], state: str) -> object:
    name = case_id(lang, size, state)
    known = KNOWN.get(name)
    marks = [pytest.mark.xfail(strict=True, reason=known)] if known else []
    return pytest.param(lang, size, state, id=name, marks=marks)


CASES = [_case(lang, size, state) for lang in LANGUAGES for size in SIZES for state in STATES]


@pytest.mark.parametrize(("lang", "size", "state"), CASES)
def test_layout(
    lang: str, size: tuple[int, int], state: str, request: pytest.FixtureRequest
) -> None:
    key = (lang, size)
    if key not in _walks:
        _walks[key] = walk_counter(request, lang, size)
        _write_notes()
    outcome = _walks[key].get(state, "the walk stopped before this state")
    if isinstance(outcome, str):
        pytest.fail(f"{case_id(lang, size, state)}: state not reached: {outcome}", pytrace=False)
    if outcome:
        lines = "\n".join(f"  {f.widget}: {f.what} [{f.owner}]" for f in outcome)
        pytest.fail(f"{case_id(lang, size, state)}:\n{lines}", pytrace=False)


# -- the findings, for the engineers fixing them ------------------------------------------
OWNERS = (
    (
        "Today / PIN pad",
        (
            "screens/today",
            "manager/pin_pad",
            "manager/lock_panel",
            "manager/authorize",
            "widgets/keypad",
        ),
    ),
    ("Points", ("screens/points",)),
    ("Rewards / Redeem", ("screens/rewards", "screens/redeem")),
    (
        "Identify / Enroll / Code / banner",
        (
            "screens/identify",
            "screens/enroll",
            "screens/code",
            "widgets/banner",
            "widgets/client_card",
            "widgets/scan_field",
            "widgets/touch_keyboard",
        ),
    ),
    ("Manager settings", ("manager/settings", "manager/manager_view", "manager/gate")),
    ("Admin lists", ("admin/",)),
    (
        "Layout audit (shell, theme, status bar, band)",
        (
            "ui/shell",
            "ui/theme",
            "widgets/status_bar",
            "widgets/band",
            "ui/main_window",
            "ui/counter",
        ),
    ),
)


def owner_group(path: str) -> str:
    for group, parts in OWNERS:
        if any(part in path for part in parts):
            return group
    return "Other"


def _write_notes() -> None:
    target = Path(os.environ.get("KIOSK_AUDIT_NOTES", "/tmp/notes/audit-findings.md"))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return
    groups: dict[str, list[str]] = {}
    unreached: list[str] = []
    for (lang, size), results in _walks.items():
        for state, outcome in results.items():
            case = case_id(lang, size, state)
            if isinstance(outcome, str):
                unreached.append(f"- {case}: {outcome}")
                continue
            for finding in outcome:
                line = f"- {case}: {finding.widget}: {finding.what} ({finding.owner})"
                groups.setdefault(owner_group(finding.owner), []).append(line)
    walked = ", ".join(f"{lang} {w}x{h}" for lang, (w, h) in _walks)
    parts = [
        "# Layout audit findings (tests/ui/test_layout_audit.py)",
        "",
        f"Walks: {walked}. Pictures: /tmp/shots/audit/<state>-<lang>-<size>.png.",
        "",
    ]
    for group, _ in (*OWNERS, ("Other", ())):
        lines = groups.get(group, [])
        parts += [f"## {group} ({len(lines)})", "", *lines, ""]
    parts += [f"## States not reached ({len(unreached)})", "", *unreached, ""]
    target.write_text("\n".join(parts), encoding="utf-8")


def test_the_status_bar_gives_way_with_the_whole_text_in_the_tooltip(qtbot: Any) -> None:
    """Offline, with refused and stale operations, in a narrow window: the pending text
    and a long branch name are cut with "…" and whole in their tooltips, the clock stays,
    and a tap on the pending text still opens the list."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtWidgets import QApplication, QLabel

    from kiosk.ui.widgets.status_bar import CounterStatusBar
    from tests.ui.theme_support import app_theme

    with app_theme(QApplication.instance()):  # type: ignore[arg-type]
        bar = CounterStatusBar()
        qtbot.addWidget(bar)
        bar.resize(700, 52)
        bar.show()
        bar.set_branch("Sucursal Centro Comercial Paseo del Parque Avenida Libertador 4500")
        bar.set_online(False)
        bar.show_counts(1234, 56, True)
        bar.set_busy(True)
        for _ in range(3):  # the bar lays out on posted events
            QApplication.processEvents()
        assert audit(bar, "status-bar") == []
        for label in (bar.branch, bar.pending):
            assert QLabel.text(label).endswith("…")
            assert label.toolTip().startswith(label.text())
        assert "waiting over 24 h" in bar.pending.text()
        assert bar.clock.isVisible()
        assert bar.clock.geometry().right() < bar.width()
        taps: list[bool] = []
        bar.pending_tapped.connect(lambda: taps.append(True))
        spot = bar.pending.mapTo(bar, QPoint(5, bar.pending.height() // 2))
        qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=spot)
        assert taps == [True]
