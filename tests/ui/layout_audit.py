"""The layout audit (issue #14): what a cashier's eye and finger would catch on a window.

``audit(window, state)`` walks every widget a person can see in a top-level window
(rendered with the counter's theme, at a real size) and returns a ``Finding`` for each

- button or field (``QAbstractButton``, ``QLineEdit``, ``QComboBox``, spin and date
  boxes) under ``MIN_TOUCH_PX`` in either dimension;
- widget that reaches outside the window, or outside the parent that clips it (a
  child pushed past its parent's edge is cut on screen);
- two buttons or fields that overlap (neither inside the other);
- scroll area that scrolls sideways (its content wider than its view: cut text, a
  hidden column);
- label whose text is wider (or, wrapped, taller) than the label, unless it is elided
  on purpose: the text ends with "…" and the tooltip holds the whole text;
- button whose text is wider than the room its style leaves it;
- text the cashier must read whole before a tap, cut even "on purpose": any text of
  the preview card (``WHOLE_INSIDE``), a commit button's words, a masked document
  ("DNI ****6789") in any label;
- banner over a button or a field (a banner never covers what the cashier taps).

Scrolled content is judged against its scroll area's viewport: a widget scrolled out
of view is reachable, not clipped. A finding names the widget (object name, or class
and text), the state, what is wrong, and the module of the nearest kiosk widget that
holds it (who owns the fix).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6 import QtGui
from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QAbstractSpinBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyle,
    QStyleOptionButton,
    QStyleOptionToolButton,
    QTabBar,
    QToolButton,
    QWidget,
)

MIN_TOUCH_PX = 44
SLACK_PX = 1  # rounding of fractional font metrics
ELLIPSIS = "…"
FIELDS = (QLineEdit, QComboBox, QAbstractSpinBox)
INTERACTIVE = (QAbstractButton, *FIELDS)
# Qt's own parts of a compound widget: not a separate target for a finger.
PARTS_OF = (QComboBox, QAbstractSpinBox, QLineEdit, QTabBar, QAbstractScrollArea)
PRIVATE_PARTS = ("QTableCornerButton", "QLineEditIconButton")
# What the cashier reads before the tap it leads to: never cut, not even with "…".
WHOLE_INSIDE = ("PreviewCard", "CommitButton")
MASKED_DOCUMENT = re.compile(r"\S+ \*{4}\w{1,4}\b")
BANNERS = ("Banner",)


@dataclass(frozen=True)
class Finding:
    state: str
    widget: str
    what: str
    owner: str  # module of the nearest kiosk widget holding it

    def line(self) -> str:
        return f"{self.state}: {self.widget}: {self.what} [{self.owner}]"


def describe(widget: QWidget) -> str:
    name = widget.objectName()
    text = " ".join(shown_text(widget).replace("&&", "&").split())
    if len(text) > 48:
        text = text[:47] + ELLIPSIS
    kind = type(widget).__name__
    label = f"{kind}#{name}" if name and not name.startswith("qt_") else kind
    return f"{label} {text!r}" if text else label


# Shared widgets: a finding in one belongs to the screen that holds it.
SHARED = (
    "kiosk.ui.widgets.elided",
    "kiosk.ui.widgets.busy_button",
    "kiosk.ui.widgets.commit_button",
    "kiosk.ui.widgets.confirm_sheet",
    "kiosk.ui.widgets.field_box",
    "kiosk.ui.widgets.fit_label",
    "kiosk.ui.widgets.keypad",
    "kiosk.ui.widgets.relayout",
    "kiosk.ui.widgets.rounded",
    "kiosk.ui.widgets.layouts",
)


def owner_of(widget: QWidget | None) -> str:
    """The module of the nearest kiosk widget holding ``widget`` (shared widgets skipped)."""
    fallback = "?"
    while widget is not None:
        module = type(widget).__module__
        if module.startswith("kiosk."):
            path = module.replace(".", "/") + ".py"
            if module not in SHARED:
                return path
            fallback = path if fallback == "?" else fallback
        widget = widget.parentWidget()
    return fallback


def shown_text(widget: QWidget) -> str:
    """The text Qt draws (a subclass that elides may override ``text()`` with the whole)."""
    if isinstance(widget, QLabel):
        return QLabel.text(widget)
    if isinstance(widget, QAbstractButton):
        return QAbstractButton.text(widget)
    if isinstance(widget, QLineEdit):
        return widget.text()
    if isinstance(widget, QComboBox):
        return widget.currentText()
    return ""


def _shown(widget: QWidget, window: QWidget) -> bool:
    return widget.isVisibleTo(window) and widget.isVisible() and widget.width() > 0


def _is_part(widget: QWidget) -> bool:
    if type(widget).__name__ in PRIVATE_PARTS:
        return True
    parent = widget.parentWidget()
    if isinstance(parent, PARTS_OF) and not isinstance(parent, QAbstractScrollArea):
        return True
    # A scroll area's own scroll bars and corner: parts of it, not content.
    return isinstance(parent, QWidget) and parent.objectName() in (
        "qt_scrollarea_hcontainer",
        "qt_scrollarea_vcontainer",
    )


def _scroll_viewport(widget: QWidget, window: QWidget) -> QRect | None:
    """The window rectangle of the innermost scroll viewport that shows ``widget``."""
    child: QWidget | None = widget
    parent = widget.parentWidget()
    while parent is not None and child is not window:
        if isinstance(parent, QAbstractScrollArea) and child is parent.viewport():
            return QRect(parent.viewport().mapTo(window, QPoint(0, 0)), parent.viewport().size())
        child, parent = parent, parent.parentWidget()
    return None


def _window_rect(widget: QWidget, window: QWidget) -> QRect:
    return QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())


def _text_lines(text: str) -> list[str]:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").split("\n")


def _overhead(widget: QAbstractButton) -> int | None:
    """Width the style takes around a button's content (border and padding)."""
    style = widget.style()
    big = QSize(1000, 100)
    if isinstance(widget, QPushButton):
        option = QStyleOptionButton()
        widget.initStyleOption(option)
        size = style.sizeFromContents(QStyle.ContentsType.CT_PushButton, option, big, widget)
    elif isinstance(widget, QToolButton):
        tool = QStyleOptionToolButton()
        widget.initStyleOption(tool)
        size = style.sizeFromContents(QStyle.ContentsType.CT_ToolButton, tool, big, widget)
    else:
        return None
    return max(0, size.width() - big.width())


def _button_need(widget: QAbstractButton) -> int:
    metrics = widget.fontMetrics()
    lines = _text_lines(shown_text(widget))
    text = max((metrics.horizontalAdvance(line) for line in lines), default=0)
    if widget.icon().isNull():
        return text
    icon = widget.iconSize().width()
    if isinstance(widget, QToolButton):
        style = widget.toolButtonStyle()
        if style == Qt.ToolButtonStyle.ToolButtonTextUnderIcon:
            return max(text, icon)
        if style == Qt.ToolButtonStyle.ToolButtonIconOnly:
            return icon
    return text + icon + 4


def _elided_on_purpose(text: str, tooltip: str) -> bool:
    shown = text.strip()
    return ELLIPSIS in shown and bool(tooltip.strip()) and len(tooltip.strip()) >= len(shown)


def _label_problem(label: QLabel) -> str | None:
    text = shown_text(label)
    if not text.strip() or (label.pixmap() is not None and not label.pixmap().isNull()):
        return None
    rich = label.textFormat() == Qt.TextFormat.RichText or (
        label.textFormat() == Qt.TextFormat.AutoText and QtGui.Qt.mightBeRichText(text)
    )
    if rich:
        return None
    room = label.contentsRect().adjusted(label.margin(), label.margin(), -label.margin(), 0)
    if label.indent() > 0:
        room.setWidth(room.width() - label.indent())
    metrics = label.fontMetrics()
    if label.wordWrap():
        need_h = label.heightForWidth(label.width()) - (
            label.height() - label.contentsRect().height()
        )
        if need_h > room.height() + metrics.height() // 2:
            return f"wrapped text needs {need_h} px of height, the label has {room.height()}"
        return None
    lines = text.split("\n")
    need_w = max(metrics.horizontalAdvance(line) for line in lines)
    if need_w > room.width() + SLACK_PX:
        if _elided_on_purpose(text, label.toolTip()) and not _must_be_whole(label):
            return None
        return f"text needs {need_w} px, the label has {room.width()} (not elided)"
    need_h = metrics.height() * len(lines)
    if need_h > room.height() + metrics.height() // 2:
        return f"text needs {need_h} px of height, the label has {room.height()}"
    return None


def _must_be_whole(widget: QWidget) -> bool:
    """Inside (or one of) the widgets whose every text is read before a tap."""
    seen: QWidget | None = widget
    while seen is not None:
        if any(type(seen).__name__ == name for name in WHOLE_INSIDE):
            return True
        seen = seen.parentWidget()
    return False


def whole_text(widget: QWidget) -> str:
    """The whole text a widget stands for (an eliding label's ``text()``)."""
    text = getattr(widget, "text", None)
    whole = text() if callable(text) else ""
    return whole if isinstance(whole, str) else ""


def _cut_problem(widget: QWidget) -> str | None:
    """Text that must be read whole, drawn cut (with "…" or a shorter text)."""
    shown, whole = shown_text(widget), whole_text(widget)
    if _must_be_whole(widget) and whole.strip() and shown.split() != whole.split():
        return f"shows {shown!r} of {whole!r}: read whole before the tap"
    for document in MASKED_DOCUMENT.findall(whole):
        if document not in shown:
            return f"cuts the document {document!r} (shows {shown!r})"
    return None


def _banner_over(
    banner: QWidget, targets: list[tuple[QWidget, QRect]], window: QWidget
) -> list[str]:
    """The buttons and fields a shown banner covers (its own parts aside)."""
    area = _window_rect(banner, window)
    covered = []
    for target, rect in targets:
        if banner.isAncestorOf(target) or target.isAncestorOf(banner):
            continue
        overlap = area.intersected(rect)
        if overlap.width() > SLACK_PX and overlap.height() > SLACK_PX:
            covered.append(f"covers {describe(target)} ({overlap.width()}x{overlap.height()} px)")
    return covered


def _button_problem(button: QAbstractButton) -> str | None:
    if not shown_text(button).strip():
        return None
    overhead = _overhead(button)
    if overhead is None:
        return None
    room = button.width() - overhead
    need = _button_need(button)
    if need > room + SLACK_PX:
        return f"text needs {need} px, the button leaves it {room}"
    return None


def audit(window: QWidget, state: str) -> list[Finding]:
    """Every finding on ``window`` as it is now (shown, laid out, polished)."""
    findings: list[Finding] = []
    frame = window.rect()

    def add(widget: QWidget, what: str) -> None:
        findings.append(Finding(state, describe(widget), what, owner_of(widget)))

    widgets = [w for w in window.findChildren(QWidget) if _shown(w, window)]
    targets: list[tuple[QWidget, QRect]] = []
    for widget in widgets:
        rect = _window_rect(widget, window)
        viewport = _scroll_viewport(widget, window)
        part = _is_part(widget)
        # Reaching out: of the window, or of the parent that clips it.
        if viewport is None and not part:
            if not frame.contains(rect):
                add(widget, f"reaches outside the window ({_rect(rect)} in {_rect(frame)})")
            else:
                parent = widget.parentWidget()
                if parent is not None and parent is not window:
                    inner = QRect(QPoint(0, 0), parent.size())
                    mine = widget.geometry()
                    if not inner.adjusted(-SLACK_PX, -SLACK_PX, SLACK_PX, SLACK_PX).contains(mine):
                        add(
                            widget,
                            f"cut by its parent {describe(parent)} "
                            f"({_rect(mine)} in {inner.width()}x{inner.height()})",
                        )
        if isinstance(widget, QAbstractScrollArea) and widget.horizontalScrollBar().isVisible():
            bar = widget.horizontalScrollBar()
            add(widget, f"scrolls sideways: its content is {bar.maximum()} px wider than its view")
        if isinstance(widget, INTERACTIVE) and not part:
            small = widget.width() < MIN_TOUCH_PX or widget.height() < MIN_TOUCH_PX
            if small:
                add(widget, f"{widget.width()}x{widget.height()} px, under {MIN_TOUCH_PX} px")
            seen = rect if viewport is None else rect.intersected(viewport)
            if not seen.isEmpty():
                targets.append((widget, seen))
        if isinstance(widget, QLabel):
            problem = _label_problem(widget)
            if problem:
                add(widget, problem)
        elif isinstance(widget, QAbstractButton) and not part:
            problem = _button_problem(widget)
            purpose = _elided_on_purpose(shown_text(widget), widget.toolTip())
            if problem and (not purpose or _must_be_whole(widget)):
                add(widget, problem)
        if isinstance(widget, (QLabel, QAbstractButton)) and not part:
            problem = _cut_problem(widget)
            if problem:
                add(widget, problem)
    for banner in widgets:
        if type(banner).__name__ in BANNERS:
            for what in _banner_over(banner, targets, window):
                add(banner, what)
    for index, (one, one_rect) in enumerate(targets):
        for other, other_rect in targets[index + 1 :]:
            if one.isAncestorOf(other) or other.isAncestorOf(one):
                continue
            overlap = one_rect.intersected(other_rect)
            if overlap.width() > SLACK_PX and overlap.height() > SLACK_PX:
                add(one, f"overlaps {describe(other)} by {overlap.width()}x{overlap.height()} px")
    return findings


def _rect(rect: QRect) -> str:
    return f"{rect.width()}x{rect.height()}+{rect.x()}+{rect.y()}"
