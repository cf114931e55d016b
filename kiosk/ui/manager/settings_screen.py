"""Manager settings: connection and key, branch binding, counter buttons, idle times,
language and theme, saved all together (``ManagerSettings.apply``).

Settings IT locked show read-only with "Set by IT"; those set by IT's policies (Group
Policy, Intune: ``kiosk.core.settings.policy``) with "Set by your organization". A setting left to its default shows
what the kiosk runs with (``_effective_*``): the branch the counter is bound to, the
branch's first validation QR, every point item of the branch checked; kept as the
default (not written) unless the manager changes it. The API key is checked and
stored on its own ("Check and save key"); everything else waits for "Save
changes". After a save, ``on_applied(changed_keys)`` tells the lead's wiring what
to rebuild (the key replacement reports ``("api_key",)``).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from kiosk.api.errors import ApiError
from kiosk.api.models.staff import Branch
from kiosk.core.admin.manager_settings import (
    SETTING_OF,
    BranchChoices,
    Draft,
    Field,
    FieldProblem,
    KeyState,
    ManagerSettings,
    SettingsRefused,
)
from kiosk.core.amounts import as_locale
from kiosk.core.outbox.types import SwitchRefused
from kiosk.core.settings import layers as S
from kiosk.ui.manager.settings_branch import BranchSection
from kiosk.ui.manager.settings_connection import ConnectionSection
from kiosk.ui.manager.settings_counter import CounterSection
from kiosk.ui.manager.settings_fields import FieldRow, SectionCard
from kiosk.ui.manager.settings_text import FIELD_NAMES, problem_text
from kiosk.ui.manager.settings_training import training_section
from kiosk.ui.messages import error_text
from kiosk.ui.tasks import ScreenTasks
from kiosk.ui.widgets.banner import Banner
from kiosk.ui.widgets.busy_button import BusyButton

log = logging.getLogger(__name__)

Applied = Callable[[tuple[str, ...]], None]


class SettingsScreen(QWidget):
    def __init__(
        self,
        model: ManagerSettings,
        *,
        on_applied: Applied | None = None,
        running_branch: Callable[[], int | None] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.model = model
        # The branch the counter runs with (none before it could start).
        self.running_branch = running_branch or (lambda: None)
        self.on_applied = on_applied or (lambda keys: None)
        self.tasks = ScreenTasks(self._failed)
        self.banner = Banner(self)
        self.connection = ConnectionSection()
        self.connection.changed.connect(self._connection_changed)
        self.connection.key_entered.connect(self.check_key)
        self.branch = BranchSection(as_locale(model.settings.get(S.AMOUNT_LOCALE)))
        self.branch.reload_requested.connect(self.load_branches)
        self.branch.branch_chosen.connect(self._branch_chosen)
        self.counter = CounterSection()
        content = QWidget()
        content.setObjectName("root")
        cards = QVBoxLayout(content)
        cards.setContentsMargins(0, 0, 12, 0)
        cards.setSpacing(16)
        problems = self._it_problems()
        if problems is not None:
            cards.addWidget(problems)
        cards.addWidget(self.connection)
        cards.addWidget(self.branch)
        cards.addWidget(self.counter)
        self.training_card = training_section(model)  # training only: "no connection"
        if self.training_card is not None:
            cards.addWidget(self.training_card)
        cards.addStretch(1)
        self.scroller = QScrollArea()
        self.scroller.setWidgetResizable(True)
        self.scroller.setFrameShape(QScrollArea.Shape.NoFrame)
        self.scroller.setWidget(content)
        self.undo_button = QPushButton(self.tr("Undo changes"))
        self.undo_button.setMinimumHeight(64)
        self.undo_button.clicked.connect(self.undo)
        self.save_button = BusyButton(self.tr("Save changes"), primary=True)
        self.save_button.setMinimumSize(260, 64)
        self.save_button.clicked.connect(self.save)
        actions = QHBoxLayout()
        actions.setSpacing(12)
        actions.addStretch(1)
        actions.addWidget(self.undo_button)
        actions.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(12)
        layout.addWidget(self.banner)
        layout.addWidget(self.scroller, 1)
        layout.addLayout(actions)
        self._branches_for: tuple[object, ...] | None = None
        self._choices_for: int | None = None
        self._choices: BranchChoices | None = None
        # Each branch's QRs and point items as loaded for the connection ``_branches_for``.
        self._known_choices: dict[int, BranchChoices] = {}
        self._banner_for_fields = False  # the error banner is about the marked fields
        self._loaded_once = False
        self._watch_fixes()
        self.fill()

    # -- filling -----------------------------------------------------------------
    def _locked(self) -> set[Field]:
        return {which for which in Field if self.model.is_locked(which)}

    def _by_policy(self, which: Field) -> bool:
        setting = SETTING_OF.get(which)
        return setting is not None and self.model.settings.source(setting) is S.Layer.POLICY

    def _rows(self) -> dict[Field, FieldRow]:
        return {
            **self.connection.rows_by_field,
            **self.branch.rows_by_field,
            **self.counter.rows_by_field,
        }

    def fill(self) -> None:
        """Show the saved settings (and forget what was changed on screen).

        When the branch list on screen is the one the saved connection opens, the saved
        branch, its validation QR and its counter buttons are chosen again from what was
        already loaded: no request, so "Undo changes" restores them exactly even when the
        service is slow, refuses (429) or is out of reach."""
        draft = self.model.draft()
        locked = self._locked()
        self.connection.fill(draft, locked)
        self.counter.fill(draft, locked)
        self.branch.set_locked(locked)
        for which, row in self._rows().items():
            if self._by_policy(which):
                row.set_locked(True, by_organization=True)
        self.show_problems({})
        self._choices_for, self._choices = None, None
        if self._branches_for is not None and self._branches_for == self._connection_key(draft):
            self._show_branches(self.branch.branches, draft)
        else:
            self._forget_branches(self.tr("Load the branches this key opens."))
        self._key_state()

    def _forget_branches(self, hint: str) -> None:
        self._branches_for = None
        self._choices_for, self._choices = None, None
        self._known_choices.clear()
        self.branch.clear_branches(hint)

    def _it_problems(self) -> QWidget | None:
        found = self.model.settings.problems
        if not found:
            return None
        card = SectionCard(
            self.tr("Ignored entries in the settings files"),
            self.tr("IT should correct these; until then the kiosk uses the values shown below."),
        )
        for problem in found:
            line = QLabel(f"{problem.layer.value}: {problem.key}: {problem.message}")
            line.setProperty("role", "hint")
            line.setWordWrap(True)
            line.setTextFormat(Qt.TextFormat.PlainText)
            card.rows.addWidget(line)
        return card

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._loaded_once:
            self._loaded_once = True
            self.load_branches()

    # -- the draft ---------------------------------------------------------------
    def draft(self) -> Draft:
        """What the screen shows now (locked settings always keep their saved value)."""
        saved = self.model.draft()
        production, qa = self.connection.urls()
        branch_id = self.branch.branch_id() if self.branch.branches else saved.branch_id
        if self._choices_for is not None and self._choices_for == branch_id:
            qr_id, items = self.branch.qr_id(), self.branch.item_ids()
        elif branch_id in (saved.branch_id, self._effective_branch(saved)):
            qr_id, items = saved.validation_qr_id, saved.point_items
        else:
            qr_id, items = None, ()
        values: dict[str, object] = {
            Field.ENVIRONMENT.value: self.connection.environment(),
            Field.PRODUCTION_URL.value: production,
            Field.QA_URL.value: qa,
            **self._branch_values(saved, branch_id, qr_id, items),
            **self.counter.values(),
        }
        for which in self._locked():
            values.pop(which.value, None)
        return dataclasses.replace(saved, **values)  # type: ignore[arg-type]

    # -- what the kiosk runs with, for settings left to their default ----------------------
    def _effective_branch(self, draft: Draft) -> int | None:
        """The branch setting, or (none set) the branch the counter runs with."""
        return draft.branch_id if draft.branch_id is not None else self.running_branch()

    @staticmethod
    def _effective_items(choices: BranchChoices, ids: tuple[int, ...]) -> tuple[int, ...]:
        """No item chosen: the counter shows every item of the branch, in its order."""
        return ids or tuple(item.id for item in choices.items)

    def _branch_values(
        self, saved: Draft, branch_id: int | None, qr_id: int | None, items: tuple[int, ...]
    ) -> dict[str, object]:
        """The branch card's settings as saved: what shows as the default stays unset."""
        if saved.branch_id is None and branch_id == self.running_branch():
            branch_id = None
        choices = self._choices if self._choices_for is not None else None
        every = tuple(item.id for item in choices.items) if choices is not None else None
        if items == every and items != saved.point_items:
            items = ()  # every item, in the branch's order: the default
        return {
            Field.BRANCH.value: branch_id,
            Field.VALIDATION_QR.value: qr_id,
            Field.POINT_ITEMS.value: items,
        }

    def _key_state(self) -> KeyState:
        state = self.model.key_state(self.draft())
        self.connection.set_key_state(state)
        return state

    def _connection_key(self, draft: Draft) -> tuple[object, ...]:
        return (draft.environment, draft.base_url(self.model.training))

    def _connection_changed(self) -> None:
        state = self._key_state()
        draft = self.draft()
        if self._branches_for == self._connection_key(draft):
            return
        self.tasks.cancel("branches")
        self.tasks.cancel("choices")
        self.branch.reload_button.set_busy(False)
        self._forget_branches(self.tr("Load the branches of this environment."))
        if state in (KeyState.STORED, KeyState.NOT_NEEDED):
            self.load_branches()

    def _watch_fixes(self) -> None:
        for field_row in self._rows().values():
            field_row.fixed.connect(self._field_fixed)

    def _field_fixed(self) -> None:
        """The banner "Check the marked fields" goes once no field is marked any more."""
        marked = any(not row.error.isHidden() for row in self._rows().values())
        if not marked and self._banner_for_fields and self.banner.kind == "error":
            self.banner.dismiss()
        self._banner_for_fields = self._banner_for_fields and marked

    def show_problems(self, problems: dict[Field, FieldProblem]) -> None:
        for which, field_row in self._rows().items():
            found = problems.get(which)
            field_row.set_error(problem_text(found) if found else None)

    # -- actions -----------------------------------------------------------------
    def load_branches(self) -> None:
        state = self._key_state()
        if state not in (KeyState.STORED, KeyState.NOT_NEEDED):
            self._forget_branches(self.tr("Store the API key first, then load the branches."))
            return
        self._known_choices.clear()  # loaded again with the list: nothing stale stays
        self.branch.reload_button.set_busy(True)
        self.tasks.start("branches", self._load_branches())

    async def _load_branches(self) -> None:
        draft = self.draft()
        try:
            branches = await self.model.branches(draft)
        finally:
            self.branch.reload_button.set_busy(False)
        self._show_branches(branches, draft)

    def _show_branches(self, branches: tuple[Branch, ...], draft: Draft) -> None:
        connection = self._connection_key(draft)
        if self._branches_for != connection:
            self._known_choices.clear()
        self.branch.set_branches(branches, self._effective_branch(draft))
        self._branches_for = connection
        self._choices_for = None
        self._branch_chosen()

    def _branch_chosen(self) -> None:
        self.branch.show_details()
        branch_id = self.branch.branch_id()
        self.tasks.cancel("choices")
        self._choices_for, self._choices = None, None
        self.branch.clear_choices()
        if branch_id is None:
            return
        known = self._known_choices.get(branch_id)
        if known is not None:
            self._show_choices(branch_id, known)
        else:
            self.tasks.start("choices", self._load_choices(branch_id))

    async def _load_choices(self, branch_id: int) -> None:
        choices = await self.model.branch_choices(self.draft(), branch_id)
        self._known_choices[branch_id] = choices
        self._show_choices(branch_id, choices)

    def _show_choices(self, branch_id: int, choices: BranchChoices) -> None:
        """The branch's QRs and items, with the saved ones chosen when it is the saved branch."""
        saved = self.model.draft()
        same = branch_id == self._effective_branch(saved)
        self.branch.set_choices(
            choices.qrs,
            choices.items,
            saved.validation_qr_id if same else None,
            self._effective_items(choices, saved.point_items if same else ()),
        )
        self._choices_for, self._choices = branch_id, choices

    def check_key(self) -> None:
        self.connection.check_button.set_busy(True)
        self.connection.rows_by_field[Field.API_KEY].set_error(None)
        key = self.connection.take_key()
        self.tasks.start("key", self._check_key(key))

    async def _check_key(self, key: str) -> None:
        draft = self.draft()
        try:
            branches = await self.model.replace_key(draft, key)
        finally:
            self.connection.check_button.set_busy(False)
        self.connection.close_key_entry()
        self._key_state()
        self.banner.show_success(
            self.tr(
                "The key works and is saved in this computer's keyring. It will not be shown again."
            )
        )
        log.info("API key replaced from the manager screen (%s)", draft.environment.value)
        self._show_branches(branches, draft)
        saved = self.model.draft()
        if self._connection_key(saved) == self._connection_key(draft):
            self.on_applied(("api_key",))

    def save(self) -> None:
        self.show_problems({})
        self.save_button.set_busy(True)
        self.tasks.start("save", self._save())

    async def _save(self) -> None:
        try:
            draft = self.draft()
            branches = self.branch.branches if self._branches_for is not None else None
            known = self._choices if self._choices_for == draft.branch_id else None
            qrs = known.qrs if known is not None else None
            changed = await self.model.apply(draft, branches=branches, qrs=qrs)
        finally:
            self.save_button.set_busy(False)
        if not changed:
            self.banner.show_info(self.tr("Nothing to save: no setting was changed."))
            return
        names = ", ".join(
            QCoreApplication.translate("ManagerSettings", str(FIELD_NAMES[Field(key)]))
            for key in changed
        )
        self.banner.show_success(self.tr("Saved: %1.").replace("%1", names))
        log.info("manager settings saved: %s", ", ".join(changed))
        self.on_applied(changed)

    def undo(self) -> None:
        """Back to the saved values, every field (see ``fill``)."""
        self.tasks.cancel_all()
        self.branch.reload_button.set_busy(False)
        self.connection.close_key_entry()
        self.banner.dismiss()
        self.fill()
        if self._branches_for is None:
            self.load_branches()

    # -- failures ----------------------------------------------------------------
    def _failed(self, error: BaseException) -> None:
        self._banner_for_fields = isinstance(error, SettingsRefused)
        if isinstance(error, SettingsRefused):
            self.show_problems(error.problems)
            if set(error.problems) == {Field.API_KEY}:
                self.banner.show_error(problem_text(error.problems[Field.API_KEY]))
            else:
                self.banner.show_error(self.tr("Nothing was saved. Check the marked fields."))
        elif isinstance(error, SwitchRefused):
            log.info("settings change refused: %d credit(s) still pending", error.waiting)
            self.banner.show_error(
                self.tr(
                    "Not changed: %n credit(s) made here are still waiting to be sent where "
                    "they were made. Changing the environment, the API key or the branch now "
                    "would send them to the wrong place. Let them go out first (the status bar "
                    "shows how many are pending), then try again.",
                    "",
                    error.waiting,
                )
            )
        elif isinstance(error, ApiError):
            log.warning("manager settings: %s", error)
            self.banner.show_error(error_text(error))
        else:
            log.error("manager settings: unexpected failure", exc_info=error)
            self.banner.show_error(error_text(error))
