"""Code: the branch's rotating 4-digit validation code, big enough to read across the counter.

The screen shows what ``kiosk.core.counter.validation_code.CodePoller`` knows: the code and
its countdown, the QR and branch names, buttons to choose among the branch's QRs,
and, when reading fails, the last code greyed out ("refreshing…") and then "code
unavailable" with when the next try is. It reads only while shown: the poller
starts on ``entered()`` and stops on ``left()`` and ``reset()``.

The screen is turned towards the client: the client card is hidden while it shows
(``shows_client_card``: no name, email or balance of whoever is at the counter), and
its title says the branch once (a QR named "Caja principal - Sucursal Centro" is not
followed by "Sucursal Centro" again).

Time comes from the poller's monotonic clock (injectable: pass a poller built by
``session_poller(session, clock=..., sleep=...)``), never from the wall clock.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from kiosk.api.models.validation import ValidationQr
from kiosk.core.counter.validation_code import CodePhase, CodePoller, CodeSnapshot, session_poller
from kiosk.core.session import CounterSession
from kiosk.ui.screens.base import Screen
from kiosk.ui.screens.code.panel import CodePanel
from kiosk.ui.widgets.elided import ElidedLabel

TICK_MS = 250  # how often the countdown texts move on while shown


class CodeScreen(Screen):
    key = "code"
    icon_name = "code"
    needs_client = False
    shows_client_card = False  # turned towards the client: nobody's data on it

    def __init__(
        self,
        session: CounterSession,
        parent: QWidget | None = None,
        *,
        poller: CodePoller | None = None,
    ) -> None:
        super().__init__(session, parent)
        self.poller = poller if poller is not None else session_poller(session)
        self.qr_name = ElidedLabel()
        self.qr_name.setProperty("role", "heading")
        self.branch_name = ElidedLabel()
        self.branch_name.setProperty("role", "muted")
        self.hint = QLabel(self.tr("The code changes by itself. Clients read it from this screen."))
        self.hint.setProperty("role", "hint")
        self.hint.setWordWrap(True)
        names = QHBoxLayout()
        names.setSpacing(16)
        names.addWidget(self.qr_name)
        names.addWidget(self.branch_name, 0, Qt.AlignmentFlag.AlignBaseline)
        names.addStretch(1)
        self.choices_row = QWidget()
        self.choices = QHBoxLayout(self.choices_row)
        self.choices.setContentsMargins(0, 0, 0, 0)
        self.choices.setSpacing(8)
        self.qr_buttons: dict[int, QPushButton] = {}
        self.panel = CodePanel(self.poller.now)
        self.body.addLayout(names)
        self.body.addWidget(self.choices_row)
        self.body.addStretch(1)
        self.body.addWidget(self.panel)
        self.body.addStretch(1)
        self.body.addWidget(self.hint)
        self.choices_row.hide()
        self._listed: tuple[ValidationQr, ...] | None = None
        self._ticker = QTimer(self)
        self._ticker.setInterval(TICK_MS)
        self._ticker.timeout.connect(self.refresh)
        self.poller.changed.connect(self._changed)
        self._shown = False
        self.refresh()

    def title(self) -> str:
        return self.tr("Code")

    # -- screen life -------------------------------------------------------------
    def entered(self) -> None:
        self._shown = True
        self.poller.start()
        self._ticker.start()
        self.refresh()

    def left(self) -> None:
        self._shown = False
        self._ticker.stop()
        self.poller.stop()

    def reset(self) -> None:
        self.poller.reset()
        if self._shown:
            self.poller.start()
        self.refresh()

    def closeEvent(self, event: object) -> None:
        self._ticker.stop()
        self.poller.stop()
        super().closeEvent(event)

    # -- drawing -----------------------------------------------------------------
    def phase(self) -> CodePhase:
        return self.poller.phase()

    def _changed(self, snapshot: CodeSnapshot) -> None:
        self.refresh()

    def refresh(self) -> None:
        snap = self.poller.snapshot
        qr = snap.qr
        self.qr_name.setText(self._qr_label(qr) if qr is not None else "")
        self.qr_name.setVisible(qr is not None)
        branch = (qr.branch_name if qr else None) or self.session.config.branch.name or ""
        self.branch_name.setText(branch)
        # The branch once: not again after a QR name that already says it.
        said = qr is not None and branch.casefold() in self._qr_label(qr).casefold()
        self.branch_name.setVisible(bool(branch) and not said)
        self._show_choices(snap)
        self.panel.show_snapshot(snap, self.poller.now())

    def _show_choices(self, snap: CodeSnapshot) -> None:
        if snap.qrs != self._listed:
            self._listed = snap.qrs
            while self.choices.count():
                item = self.choices.takeAt(0)
                widget = item.widget() if item is not None else None
                if widget is not None:
                    widget.deleteLater()
            self.qr_buttons = {}
            for qr in snap.qrs or ():
                button = QPushButton(self._qr_label(qr))
                button.setCheckable(True)
                button.setProperty("role", "tile")
                button.setStyleSheet("QPushButton { min-height: 36px; padding: 8px 20px; }")
                button.clicked.connect(lambda _=False, qr_id=qr.id: self.choose(qr_id))
                self.choices.addWidget(button)
                self.qr_buttons[qr.id] = button
            self.choices.addStretch(1)
            self.choices_row.setVisible(len(self.qr_buttons) > 1)
        for qr_id, button in self.qr_buttons.items():
            button.setChecked(snap.qr is not None and snap.qr.id == qr_id)
            button.setEnabled(not snap.reading)

    def _qr_label(self, qr: ValidationQr) -> str:
        return qr.name or self.tr("QR %1").replace("%1", str(qr.id))

    def choose(self, qr_id: int) -> None:
        """Show another QR of the branch (a button of the row)."""
        self.poller.select_qr(qr_id)
        self.refresh()
