"""Hostile data for the whole counter (issue #17, item 6): names that are markup, and a
name of thousands of characters, in every record a screen shows (clients, levels,
branches, rewards, point items, purchases, operators, validation QRs).

``hostile_findings(window, state)`` judges one state of the real counter: a visible
label that would render its text as markup, or any visible widget (a label widened by
a long name) that reaches outside the window.
"""

from __future__ import annotations

from PySide6 import QtGui
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QLabel, QWidget

from kiosk.sim.world import World
from kiosk.ui.widgets.plain_text import is_plain
from tests.ui.layout_audit import (
    Finding,
    _is_part,
    _scroll_viewport,
    _shown,
    _window_rect,
    describe,
    owner_of,
)
from tests.ui.layout_walk import LONG_DNI

IMAGE = '<img src="file:///etc/hostname">'
FAKE_BALANCE = '<b style="font-size:72px">999.999.999 pts</b>'
# Thousands of characters: under the API client's cap on one string (4096), so the
# client is read and shown, not refused as a malformed answer.
ENDLESS = " ".join(["Ñandú"] * 600)


def hostile(name: str) -> str:
    return f"<i>{name}</i> {IMAGE}"


def hostile_world(world: World) -> None:
    """Every name the counter shows turned into markup; the walk's client (``LONG_DNI``)
    gets markup, a fake balance and a name of ~3,600 characters."""
    tables = world.merchants[1].tables
    client = next(c for c in tables["clients"].values() if c["document_number"] == LONG_DNI)
    first, last = f"María {IMAGE}", f"{FAKE_BALANCE} {ENDLESS}"
    client.update(first_name=first, last_name=last, name=f"{first} {last}")
    for level in tables["levels"].values():
        level["name"] = hostile(level["name"])
    for branch in tables["branches"].values():
        branch["name"] = hostile(branch["name"])
    for product in tables["products"].values():
        product["name"] = hostile(product["name"]) + " " + ENDLESS[:300]
    for item in tables["point_items"].values():
        item["name"] = hostile(item["name"])
    for purchase in tables["purchases"].values():
        if purchase.get("product"):
            purchase["product"]["name"] = hostile(purchase["product"]["name"])
        purchase["branch"]["name"] = hostile(purchase["branch"]["name"])
        purchase["client"]["firstName"] = hostile(purchase["client"]["firstName"])
    for operator in tables["operators"].values():
        operator["firstName"] = hostile(operator["firstName"])
        operator["fullName"] = f"{operator['firstName']} {operator['lastName']}"
    for qr in tables["qrs"].values():
        qr["qrName"], qr["branchName"] = hostile(qr["qrName"]), hostile(qr["branchName"])


def hostile_findings(window: QWidget, state: str) -> list[Finding]:
    findings: list[Finding] = []
    frame = QRect(0, 0, window.width(), window.height())
    for widget in window.findChildren(QWidget):
        if not _shown(widget, window):
            continue
        if (
            isinstance(widget, QLabel)
            and QtGui.Qt.mightBeRichText(widget.text())
            and not is_plain(widget)
        ):
            findings.append(
                Finding(state, describe(widget), "renders its text as markup", owner_of(widget))
            )
        if isinstance(widget, QLabel) and widget.width() > window.width():
            findings.append(
                Finding(
                    state,
                    describe(widget),
                    f"{widget.width()} px wide in a {window.width()} px window",
                    owner_of(widget),
                )
            )
        elif (
            _scroll_viewport(widget, window) is None
            and not _is_part(widget)
            and not frame.contains(_window_rect(widget, window))
        ):
            findings.append(
                Finding(state, describe(widget), "reaches outside the window", owner_of(widget))
            )
    return findings


def markup_shown(window: QWidget) -> bool:
    """Whether some visible label holds a hostile name (the walk is not vacuous)."""
    marks = ("<i>", "<img")
    return any(
        mark in text
        for label in window.findChildren(QLabel)
        if _shown(label, window)
        for text in (label.text(), label.toolTip())
        for mark in marks
    )
