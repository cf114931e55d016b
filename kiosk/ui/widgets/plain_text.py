"""Text from the server or a person is data, never markup.

A client named ``<img src="file:///...">`` must not make the counter load a file (on
Windows a UNC path reaches the network), and HTML must not fake a balance on screen.
Qt's ``QLabel`` guesses "rich text" from the text itself (``Qt::AutoText``), and so does
every tooltip. So the whole UI shows plain text through one piece: ``PlainTextStyle``,
the application's style, sets ``PlainText`` on every label when Qt polishes it (before
its first paint, whoever made it and whatever it shows), the tooltip's own label
included. The kiosk never shows rich text on purpose; a label that ever needs it would
set its format after it is polished.

``clip`` cuts a name quoted inside a sentence of the counter's own
("Not the client identified (%1): ...") to a few words, so the sentence keeps its
room; the whole name stays where it is shown on its own (elided, with a tooltip).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QProxyStyle, QWidget

QUOTED_CHARS = 32  # a quoted name: about three words of a long name
_INSTALLED = "kioskPlainText"


class PlainTextStyle(QProxyStyle):
    """The platform's style, with every label polished into plain text."""

    def polish(self, target: object) -> object:  # (QWidget, QApplication or QPalette)
        if isinstance(target, QLabel):
            target.setTextFormat(Qt.TextFormat.PlainText)
        return super().polish(target)  # type: ignore[call-overload]


def install_plain_text(app: QApplication) -> None:
    """Make ``PlainTextStyle`` the application's style (once; the look is the
    platform style's own: the proxy makes a fresh one of the same kind)."""
    if app.property(_INSTALLED):
        return
    app.setProperty(_INSTALLED, True)
    # Under a style sheet ``style().name()`` is empty: the theme noted the platform's.
    base = str(app.property("kioskBaseStyle") or app.style().name() or "fusion")
    app.setStyle(PlainTextStyle(base))


def is_plain(widget: QWidget) -> bool:
    """Whether ``widget`` shows its text as plain text (labels; others always do)."""
    return not isinstance(widget, QLabel) or widget.textFormat() is Qt.TextFormat.PlainText


def clip(text: str, limit: int = QUOTED_CHARS) -> str:
    """``text`` with its white space folded, cut at ``limit`` characters with "…"
    (at a word's end where one is near)."""
    folded = " ".join(text.split())
    if len(folded) <= limit:
        return folded
    cut = folded[: limit - 1]
    space = cut.rfind(" ")
    if space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,.;:-") + "…"
