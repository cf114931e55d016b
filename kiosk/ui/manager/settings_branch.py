"""Branch binding: the branch (from ``GET /external/branch``) with its type and address,
its validation QR, and which point items show as counter buttons, in what order (a
checklist over a model: a merchant may have hundreds of point items)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from kiosk.api.models.catalog import PointItem
from kiosk.api.models.staff import Branch
from kiosk.api.models.validation import ValidationQr
from kiosk.core.admin.manager_settings import Field
from kiosk.core.amounts import AmountLocale, format_amount, format_points
from kiosk.ui.manager.settings_checklist import ChecklistView, PointItemChecklist
from kiosk.ui.manager.settings_fields import TOUCH, FieldRow, SectionCard, TouchCombo
from kiosk.ui.manager.settings_reflow import ReflowRow
from kiosk.ui.widgets.busy_button import BusyButton

COMBO_ROOM = 300  # the branch list's least width beside "Load branches"


class BranchSection(SectionCard):
    """``branch_chosen`` when the manager picks another branch; ``reload_requested``."""

    branch_chosen = Signal()
    reload_requested = Signal()

    def __init__(self, locale: AmountLocale, parent: QWidget | None = None) -> None:
        super().__init__(
            self.tr("Branch and counter"),
            self.tr(
                "The branch this kiosk credits for, its validation QR, and the point "
                "item buttons of the Points screen."
            ),
            parent,
        )
        self.amount_locale = locale
        self.branches: tuple[Branch, ...] = ()
        self.branch_combo = TouchCombo()
        self.branch_combo.activated.connect(lambda _: self.branch_chosen.emit())
        self.reload_button = BusyButton(self.tr("Load branches"))
        self.reload_button.setMinimumHeight(TOUCH)
        self.reload_button.setSizePolicy(QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Fixed)
        self.reload_button.clicked.connect(self.reload_requested.emit)
        self.details = QLabel()
        self.details.setProperty("role", "muted")
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.PlainText)
        self.details.hide()
        branch_box = QWidget()
        branch_layout = QVBoxLayout(branch_box)
        branch_layout.setContentsMargins(0, 0, 0, 0)
        branch_layout.setSpacing(6)
        # "Load branches" beside the list when both fit, under it when not (1024 px).
        top = ReflowRow(
            self.branch_combo,
            self.reload_button,
            spacing=8,
            first_stretch=1,
            side_width=lambda: (
                max(COMBO_ROOM, self.branch_combo.minimumSizeHint().width())
                + 8
                + self.reload_button.sizeHint().width()
            ),
        )
        branch_layout.addWidget(top)
        branch_layout.addWidget(self.details)
        self.qr_combo = TouchCombo()
        self.checklist = PointItemChecklist(self)
        # Long names wrap inside the list's width: it never scrolls sideways.
        self.items = ChecklistView(self.checklist)
        self.items.setMinimumHeight(260)
        self.up_button = QPushButton(self.tr("Move up"))
        self.down_button = QPushButton(self.tr("Move down"))
        for button, step in ((self.up_button, -1), (self.down_button, 1)):
            button.setMinimumHeight(TOUCH)
            button.clicked.connect(lambda _=False, s=step: self.move_item(s))
        self.items_hint = QLabel(
            self.tr("Checked items show as buttons on the Points screen, in this order.")
        )
        self.items_hint.setProperty("role", "hint")
        self.items_hint.setWordWrap(True)
        items_box = QWidget()
        items_layout = QVBoxLayout(items_box)
        items_layout.setContentsMargins(0, 0, 0, 0)
        items_layout.setSpacing(8)
        buttons = QHBoxLayout()
        buttons.setSpacing(8)
        buttons.addWidget(self.up_button)
        buttons.addWidget(self.down_button)
        buttons.addStretch(1)
        items_layout.addWidget(self.items, 1)
        items_layout.addLayout(buttons)
        items_layout.addWidget(self.items_hint)
        self.rows_by_field = {
            Field.BRANCH: FieldRow(self.tr("Branch"), branch_box),
            Field.VALIDATION_QR: FieldRow(self.tr("Validation QR"), self.qr_combo),
            Field.POINT_ITEMS: FieldRow(self.tr("Counter buttons"), items_box),
        }
        for field_row in self.rows_by_field.values():
            self.rows.addWidget(field_row)
        self.clear_branches(self.tr("Load the branches this key opens."))

    def set_locked(self, locked: set[Field]) -> None:
        for which, field_row in self.rows_by_field.items():
            field_row.set_locked(which in locked)
        # Reloading the list is allowed: it changes nothing by itself.
        self.reload_button.setEnabled(True)

    # -- branches ----------------------------------------------------------------
    def clear_branches(self, hint: str) -> None:
        self.branches = ()
        self.branch_combo.clear()
        self.branch_combo.setPlaceholderText(hint)
        self.details.clear()
        self.details.hide()
        self.clear_choices()

    def set_branches(self, branches: Sequence[Branch], selected: int | None) -> None:
        self.branches = tuple(branches)
        self.branch_combo.clear()
        self.branch_combo.setPlaceholderText(self.tr("Choose the branch"))
        for branch in self.branches:
            self.branch_combo.addItem(branch.name or f"#{branch.id}", branch.id)
        index = self.branch_combo.findData(selected) if selected is not None else -1
        self.branch_combo.setCurrentIndex(index)
        self.show_details()

    def branch_id(self) -> int | None:
        value = self.branch_combo.currentData()
        return value if isinstance(value, int) else None

    def show_details(self) -> None:
        branch = next((b for b in self.branches if b.id == self.branch_id()), None)
        self.details.setVisible(branch is not None)
        if branch is None:
            self.details.clear()
            return
        kind = branch.branch_type or self.tr("type not given")
        address = branch.address or self.tr("no address given")
        words = self.tr("%1 · %2 · %3").replace("%1", branch.name or "")
        self.details.setText(words.replace("%2", kind).replace("%3", address))

    # -- QR and items ------------------------------------------------------------
    def clear_choices(self) -> None:
        self.qr_combo.clear()
        self.qr_combo.addItem(self.tr("None: the Code screen stays empty"), None)
        self.checklist.clear()

    def set_choices(
        self,
        qrs: Sequence[ValidationQr],
        items: Sequence[PointItem],
        qr_id: int | None,
        item_ids: Sequence[int],
    ) -> None:
        self.clear_choices()
        for qr in qrs:
            self.qr_combo.addItem(self._qr_text(qr), qr.id)
        if qrs:  # none chosen: the Code screen shows the branch's first (as the counter does)
            self.qr_combo.setItemText(
                0,
                self.tr("Automatic: %1 (the branch's first)").replace("%1", self._qr_text(qrs[0])),
            )
        self.qr_combo.setCurrentIndex(max(0, self.qr_combo.findData(qr_id)))
        by_id = {item.id: item for item in items}
        chosen = [by_id[i] for i in item_ids if i in by_id]
        rest = sorted((i for i in items if i.id not in item_ids), key=lambda i: i.name or "")
        rows = [(item.id, self._item_text(item)) for item in [*chosen, *rest]]
        self.checklist.set_items(rows, item_ids)

    def _qr_text(self, qr: ValidationQr) -> str:
        label = qr.name or f"QR #{qr.id}"
        if qr.window_seconds:
            label += self.tr(" (new code every %1 s)").replace("%1", str(qr.window_seconds))
        return label

    def _item_text(self, item: PointItem) -> str:
        name = item.name or f"#{item.id}"
        if item.points is not None:
            worth = self.tr("%1 pts").replace("%1", format_points(item.points, self.amount_locale))
        elif item.amount is not None:
            worth = format_amount(Decimal(str(item.amount)), self.amount_locale)
        else:
            worth = ""
        return f"{name}  ·  {worth}" if worth else name

    def qr_id(self) -> int | None:
        value = self.qr_combo.currentData()
        return value if isinstance(value, int) else None

    def item_ids(self) -> tuple[int, ...]:
        return self.checklist.checked_ids()

    def move_item(self, step: int) -> None:
        row = self.items.current_row()
        if row >= 0 and self.checklist.move(row, row + step):
            self.items.set_current_row(row + step)
