"""Training's "Simulate no connection": the in-process simulator made unreachable.

Staff practise the offline flow in training: while the switch is on, every call to
the training simulator fails as a dropped network does (``SimTransport.unreachable``:
connection refused), for the counter and the outbox's sender alike. Identify offers
the offline entry, credits wait in the outbox, the status bar says "No connection";
switched off, the pending rows go within seconds. It is not a setting: it lasts
until it is switched off or the counter is rebuilt (a saved setting, a restart).
"""

from __future__ import annotations

import logging
from typing import Protocol

from PySide6.QtWidgets import QCheckBox, QWidget

from kiosk.ui.manager.settings_fields import TOUCH, SectionCard

log = logging.getLogger(__name__)


class TrainingModel(Protocol):
    def training_transport(self) -> object | None: ...


class TrainingSection(SectionCard):
    def __init__(self, transport: object, parent: QWidget | None = None) -> None:
        super().__init__(
            self.tr("Training"),
            self.tr(
                "Practise the offline flow: while this is on, the training service cannot "
                "be reached, as when the network is down. Operations wait in the outbox and "
                "are sent once it is off."
            ),
            parent,
        )
        self.transport = transport
        self.no_connection = QCheckBox(self.tr("Simulate no connection"))
        self.no_connection.setMinimumHeight(TOUCH)
        self.no_connection.setChecked(bool(getattr(transport, "unreachable", False)))
        self.no_connection.toggled.connect(self._toggled)
        self.rows.addWidget(self.no_connection)

    def _toggled(self, on: bool) -> None:
        self.transport.unreachable = on  # type: ignore[attr-defined]
        log.info("training: no connection simulated %s", "on" if on else "off")


def training_section(model: TrainingModel) -> TrainingSection | None:
    """The card when the kiosk runs the training simulator in process, else None."""
    transport = model.training_transport()
    if transport is None or not hasattr(transport, "unreachable"):
        return None
    return TrainingSection(transport)
