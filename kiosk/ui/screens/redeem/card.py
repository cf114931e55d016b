"""The purchase card of the Redeem screen: reward, client, status, date, type, and a
notice under them: "Hand over the reward" once the service said yes, what not to do
after a refusal, a purchase of another client than the one identified.

A pending code is "Pending: not delivered yet", never "ready": the record of an
expired code still says pending (issue #14)."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtWidgets import QFrame, QGridLayout, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from kiosk.core.counter.redeem import PurchaseState, PurchaseView
from kiosk.ui.icons import pixmap, set_pixmap
from kiosk.ui.screens.rewards.sheets import code_style
from kiosk.ui.theme import Palette, current_palette
from kiosk.ui.widgets.elided import ElidedLines

STATE_TEXT = {
    PurchaseState.PENDING: QT_TRANSLATE_NOOP("PurchaseCard", "Pending: not delivered yet"),
    PurchaseState.DELIVERED: QT_TRANSLATE_NOOP("PurchaseCard", "Delivered"),
    PurchaseState.CANCELED: QT_TRANSLATE_NOOP("PurchaseCard", "Canceled"),
    PurchaseState.EXPIRED: QT_TRANSLATE_NOOP("PurchaseCard", "Expired"),
    PurchaseState.UNKNOWN: QT_TRANSLATE_NOOP("PurchaseCard", "Unknown status"),
}


def state_text(state: PurchaseState) -> str:
    return QCoreApplication.translate("PurchaseCard", str(STATE_TEXT[state]))


def _chip_colors(state: PurchaseState, p: Palette) -> tuple[str, str]:
    """(background, text) of the status chip."""
    if state is PurchaseState.PENDING:
        return p.info_bg, p.accent
    if state is PurchaseState.DELIVERED:
        return p.success_bg, p.success
    return p.surface_alt, p.muted


class PurchaseCard(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("role", "card")
        self.view: PurchaseView | None = None
        self.art = QLabel()
        self.art.setFixedSize(72, 72)
        self.art.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.reward = ElidedLines(lines=2)
        self.reward.setStyleSheet("font-size: 28px; font-weight: 700;")
        self.kind = QLabel()
        self.kind.setProperty("role", "muted")
        self.status = QLabel()
        self.status.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.code = QLabel()
        self.code.setStyleSheet(code_style(26))
        self.code.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.client = ElidedLines(lines=2)
        self.points = QLabel()
        self.created = QLabel()
        self.updated = QLabel()
        self.branch = QLabel()
        self.captions: dict[QLabel, QLabel] = {}
        # Two columns of facts: the card keeps its notice and its heading in a window
        # of 1024x768 with the longest names (one column squeezed them, issue #14).
        facts = QGridLayout()
        facts.setHorizontalSpacing(20)
        facts.setVerticalSpacing(6)
        columns = (
            [
                (self.tr("Code"), self.code),
                (self.tr("Client"), self.client),
                (self.tr("Points"), self.points),
            ],
            [
                (self.tr("Exchanged"), self.created),
                (self.tr("Last change"), self.updated),
                (self.tr("Branch"), self.branch),
            ],
        )
        for column, rows in enumerate(columns):
            for row, (caption, value) in enumerate(rows):
                label = QLabel(caption)
                label.setProperty("role", "muted")
                self.captions[value] = label
                top_left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
                facts.addWidget(label, row, 2 * column, top_left)
                facts.addWidget(value, row, 2 * column + 1)
            facts.setColumnStretch(2 * column + 1, 1)
        # What to do now (hand over / do not / check the client): space kept, so the
        # card does not move under the finger when it comes and goes.
        self.notice = QLabel()
        self.notice.setWordWrap(True)
        self.notice.setTextFormat(Qt.TextFormat.PlainText)
        self.notice.setMinimumHeight(64)
        self.notice.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.notice_kind = ""
        title = QVBoxLayout()
        title.setSpacing(2)
        title.addWidget(self.reward)
        title.addWidget(self.kind)
        head = QHBoxLayout()
        head.setSpacing(16)
        head.addWidget(self.art, 0, Qt.AlignmentFlag.AlignTop)
        head.addLayout(title, 1)
        head.addWidget(self.status, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(28, 20, 28, 20)
        layout.setSpacing(12)
        layout.addLayout(head)
        layout.addLayout(facts)
        layout.addWidget(self.notice)
        layout.addStretch(1)

    def show_view(self, view: PurchaseView) -> None:
        self.view = view
        p = current_palette()
        set_pixmap(self.art, pixmap("money" if view.is_money else "rewards", p.accent, 40))
        self.art.setStyleSheet(f"background: {p.info_bg}; border-radius: 16px;")
        self.reward.setText(
            self.tr("%1 in money").replace("%1", view.reward) if view.is_money else view.reward
        )
        self.kind.setText(self.tr("Money exchange") if view.is_money else self.tr("Reward"))
        background, ink = _chip_colors(view.state, p)
        self.status.setText(state_text(view.state))
        self.status.setStyleSheet(
            f"background: {background}; color: {ink}; border-radius: 18px; padding: 6px 18px;"
            " font-size: 20px; font-weight: 700;"
        )
        self.code.setText(view.code)
        self.client.setText(" · ".join(x for x in (view.client_name, view.client_email) if x))
        self.points.setText(self.tr("%1 pts").replace("%1", view.points))
        self.created.setText(view.created)
        self.updated.setText(view.updated if view.updated != view.created else "")
        self.branch.setText(view.branch)
        for value in (self.updated, self.branch, self.client):
            value.setVisible(bool(value.text()))
            self.captions[value].setVisible(bool(value.text()))
        self.show_notice("", "")

    def show_notice(self, text: str, kind: str) -> None:
        """``kind``: "go" (hand over), "stop" (do not), "check" (another client); ""
        with no text clears it (its space stays)."""
        p = current_palette()
        colors = {
            "go": (p.success_bg, p.success),
            "stop": (p.danger_bg, p.danger),
            "check": (p.warning, p.warning_text),
        }
        self.notice_kind = kind if text else ""
        self.notice.setText(text)
        if text:
            background, ink = colors[kind]
            self.notice.setStyleSheet(
                f"background: {background}; color: {ink}; border-radius: 12px;"
                " padding: 8px 16px; font-size: 20px; font-weight: 700;"
            )
        else:
            self.notice.setStyleSheet("background: transparent;")

    @property
    def state(self) -> PurchaseState | None:
        return self.view.state if self.view else None

    def clear(self) -> None:
        self.view = None
        self.reward.setText("")
        self.client.setText("")
        self.show_notice("", "")
        for label in (
            self.kind,
            self.status,
            self.code,
            self.points,
            self.created,
            self.updated,
            self.branch,
        ):
            label.setText("")
