"""A reusable paginated administration list: search (latest wins), sort by the
contract's ``order`` values, filters, pages ("1–10 of 36"), and its states: busy,
empty (what to do), error (try again; the banner says why).

The list asks its section to run the request (``Screen.run("list", ...)``): a newer
search, sort or page replaces the request still running, and leaving the section
cancels it. The page shows through ``AdminListModel`` in an ``AdminTable`` (no item
per cell). Tapping a row, or Enter on the current row, emits ``activated(row)``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from kiosk.api.errors import ApiError
from kiosk.api.models.common import Direction, Page
from kiosk.core.admin.paging import DEFAULT_LIMIT, ListState, PageWindow
from kiosk.ui.admin.chips import CHIP_STYLE, ChoiceChips, FitButton, FlowLayout
from kiosk.ui.admin.list_columns import Column, FittedColumns, OptionsArea
from kiosk.ui.admin.list_model import AdminListModel, AdminTable
from kiosk.ui.admin.list_summary import StateChip
from kiosk.ui.icons import icon
from kiosk.ui.screens.base import Screen
from kiosk.ui.theme import current_palette
from kiosk.ui.widgets.busy_button import BusyButton
from kiosk.ui.widgets.elided import ElidedLabel
from kiosk.ui.widgets.relayout import PageStack

log = logging.getLogger(__name__)

ROW_PX = 52  # ten rows fit at 1280x800; still a comfortable touch target
SEARCH_DELAY_MS = 400
Fetch = Callable[[ListState], Awaitable[Page[Any]]]


class AdminList(QWidget):
    activated = Signal(int)
    new_requested = Signal()
    loaded = Signal()

    def __init__(
        self,
        owner: Screen,
        fetch: Fetch,
        columns: Sequence[Column],
        *,
        sorts: Sequence[tuple[str | None, str]] = (),
        new_text: str = "",
        search_hint: str = "",
        empty_text: str = "",
        limit: int = DEFAULT_LIMIT,
        default: ListState | None = None,
    ) -> None:
        super().__init__()
        self.owner = owner
        self.fetch = fetch
        self.columns = list(columns)
        self.sorts = list(sorts)
        self.state = default or ListState(limit=limit)
        self.default = self.state
        self.page_window: PageWindow | None = None
        self.loads = 0  # pages shown (tests and screenshots wait on it)
        self.failed = False
        p = current_palette()

        self.search = QLineEdit()
        self.search.setPlaceholderText(search_hint or self.tr("Search"))
        self.search.setMinimumHeight(52)
        self.search.setClearButtonEnabled(True)
        # Not focused on its own when shown: the on-screen keyboard waits for a tap.
        self.search.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.search.setVisible(bool(search_hint))
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self.apply_search)
        self.search.textEdited.connect(lambda _: self._search_timer.start())
        self.search.returnPressed.connect(self.apply_search)
        # Refresh is an icon (its word in the tooltip): the row keeps its room for the search.
        self.refresh_button = BusyButton("")
        self.refresh_button.setIcon(icon("refresh", p.accent))
        self.refresh_button.setIconSize(QSize(26, 26))
        self.refresh_button.setToolTip(self.tr("Refresh"))
        self.refresh_button.setAccessibleName(self.tr("Refresh"))
        self.refresh_button.setFixedSize(56, 52)
        self.refresh_button.clicked.connect(self.reload)
        self.new_button = FitButton(new_text)
        self.new_button.setProperty("role", "primary")
        self.new_button.setIcon(icon("points", p.accent_text))
        self.new_button.setMinimumHeight(52)
        self.new_button.setVisible(bool(new_text))
        self.new_button.clicked.connect(self.new_requested.emit)
        # Sort and filters fold away under one button: the rows keep the height.
        self.options_button = FitButton(self.tr("Sort and filter"))
        self.options_button.setCheckable(True)
        self.options_button.setIcon(icon("settings", p.text))
        self.options_button.setMinimumHeight(52)
        self.options_button.setVisible(bool(self.sorts))
        self.options_button.toggled.connect(self._show_options)
        # Folded, the sort and filters in force are said beside it; a tap clears them.
        self.state_chip = StateChip()
        self.state_chip.clicked.connect(self.clear_sort_and_filters)
        top = QHBoxLayout()
        top.setSpacing(12)
        top.addWidget(self.search, 1)
        top.addWidget(self.refresh_button)
        # Wraps onto a second line rather than cutting a word (Spanish at 1024 px).
        second = FlowLayout(spacing=12)
        second.addWidget(self.options_button)
        second.addWidget(self.state_chip)
        second.addWidget(self.new_button)

        self.sort_chips = ChoiceChips(self.tr("Sort by"), self.sorts)
        self.sort_chips.chosen.connect(self._sort_chosen)
        self.direction_button = QPushButton()
        self.direction_button.setMinimumHeight(48)
        self.direction_button.setStyleSheet(CHIP_STYLE)
        self.direction_button.clicked.connect(self._toggle_direction)
        self.sort_chips.add_button(self.direction_button)
        self.sort_chips.setVisible(bool(self.sorts))
        self.options_area = OptionsArea(self.sort_chips)
        self.options, self.filters = self.options_area.card, self.options_area.filters

        # Which columns the list had no room for, under "1–10 of 36" (their values: in
        # each row's name's tooltip, and in the row's detail).
        self.hidden_note = ElidedLabel(hint=self.tr("Each row's tooltip and detail show them."))
        self.hidden_note.setProperty("role", "muted")
        self.hidden_note.hide()
        self.model = AdminListModel(self.columns, self)
        self.table = AdminTable()
        self.table.setModel(self.model)
        self.fitter = FittedColumns(self.table, lambda: self.columns)
        self.fitter.on_hidden = self._columns_hidden
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        # The keyboard reaches the rows (arrows, Enter opens); a tap leaves no focus frame.
        self.table.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.table.setAlternatingRowColors(True)
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.setStyleSheet(
            "QTableView { font-size: 17px; } QHeaderView::section { font-size: 16px; }"
            " QTableView::item { padding-left: 8px; padding-right: 8px; }"
        )
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(ROW_PX)
        header = self.table.horizontalHeader()
        header.setHighlightSections(False)
        header.setMinimumHeight(44)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        header.sectionClicked.connect(self._header_clicked)
        self.set_columns(self.columns)
        self.table.clicked.connect(lambda index: self.activated.emit(index.row()))
        self.table.row_opened.connect(self.activated.emit)

        self.empty = QLabel(empty_text)
        self.empty.setProperty("role", "muted")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self._empty_text = empty_text
        self.error_panel = QWidget()
        self.error_label = QLabel(self.tr("The list could not be loaded."))
        self.error_label.setProperty("role", "muted")
        self.error_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.retry_button = QPushButton(self.tr("Try again"))
        self.retry_button.setStyleSheet("QPushButton { min-height: 32px; padding: 8px 32px; }")
        self.retry_button.clicked.connect(self.reload)
        error_layout = QVBoxLayout(self.error_panel)
        error_layout.addStretch(1)
        error_layout.addWidget(self.error_label)
        error_layout.addWidget(self.retry_button, 0, Qt.AlignmentFlag.AlignHCenter)
        error_layout.addStretch(1)
        self.stack = PageStack()
        self.stack.addWidget(self.table)
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.error_panel)

        self.range_label = QLabel()
        self.range_label.setProperty("role", "muted")
        self.previous_button = QPushButton(self.tr("Previous"))
        self.next_button = QPushButton(self.tr("Next"))
        for button in (self.previous_button, self.next_button):
            button.setMinimumHeight(48)
            button.setMinimumWidth(140)
            button.setEnabled(False)
        self.previous_button.clicked.connect(lambda: self.go_to(self.state.page - 1))
        self.next_button.clicked.connect(lambda: self.go_to(self.state.page + 1))
        pages = QHBoxLayout()
        pages.setSpacing(12)
        counts = QVBoxLayout()
        counts.setSpacing(0)
        counts.addWidget(self.range_label)
        counts.addWidget(self.hidden_note)
        pages.addLayout(counts, 1)
        pages.addWidget(self.previous_button)
        pages.addWidget(self.next_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(12)
        if search_hint:
            layout.addLayout(top)
        else:
            self.search.hide()
            second.addWidget(self.refresh_button)
        layout.addLayout(second)
        layout.addWidget(self.options_area)
        layout.addWidget(self.stack, 1)
        layout.addLayout(pages)
        self._sync_sort()

    def set_columns(self, columns: Sequence[Column]) -> None:
        """(Re)define the columns (the rewards' prices have one per level)."""
        self.columns = list(columns)
        self.model.set_columns(self.columns)  # (the headers' titles, tooltips, alignment)
        self.fitter.setup()
        self.fitter.fit()

    def _columns_hidden(self, hidden: tuple[int, ...]) -> None:
        self.model.set_hidden(hidden)
        titles = ", ".join(self.columns[i].title for i in hidden if i < len(self.columns))
        self.hidden_note.setText(
            self.tr("Hidden for lack of room: %1").replace("%1", titles) if titles else ""
        )
        self.hidden_note.setVisible(bool(titles))

    # -- what to ask -----------------------------------------------------------------------
    def add_filter(self, widget: QWidget) -> None:
        """A filter under the sort, in the folding options (chips of a filter's values)."""
        self.filters.addWidget(widget)
        self.options_button.show()

    def _show_options(self, shown: bool) -> None:
        self.options_area.setVisible(shown)
        self.options_area.fit(self.width(), self.height())
        self._say_state()

    def _filter_chips(self) -> list[ChoiceChips]:
        found = self.options_area.card.findChildren(ChoiceChips)
        return [chips for chips in found if chips is not self.sort_chips]

    def _say_state(self) -> None:
        parts = self.state_chip.describe(self.state, self.default, self.sorts, self._filter_chips())
        self.state_chip.show_parts(parts, folded=not self.options_button.isChecked())

    def clear_sort_and_filters(self) -> None:
        """Back to the list's default sort, unfiltered (the search stays)."""
        default = self.default
        self.state = replace(
            self.state,
            order=default.order,
            direction=default.direction,
            filters=default.filters,
            page=1,
        )
        for chips in self._filter_chips():
            chips.set_value(next((v for v in chips.values if v is None), None))
        self._sync_sort()
        self.reload()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.options_area.fit(self.width(), self.height())

    def set_filter(self, name: str, value: str | int | bool | None) -> None:
        self.state = self.state.filtered(name, value)
        self.reload()

    def apply_search(self) -> None:
        self._search_timer.stop()
        text = self.search.text()
        if " ".join(text.split()) == self.state.query and self.loads:
            return
        self.state = self.state.searching(text)
        self.reload()

    def sort_by(self, order: str | None, direction: Direction | None = None) -> None:
        self.state = self.state.sorted_by(order, direction)
        self._sync_sort()
        self.reload()

    def go_to(self, page: int) -> None:
        self.state = self.state.at_page(page)
        self.reload()

    def _sort_chosen(self, order: str | None) -> None:
        if order != self.state.order:
            self.sort_by(order, Direction.ASC)

    def _toggle_direction(self) -> None:
        if self.state.order is not None:
            flipped = Direction.DESC if self.state.direction is Direction.ASC else Direction.ASC
            self.sort_by(self.state.order, flipped)

    def _header_clicked(self, index: int) -> None:
        order = self.columns[index].order
        if order is not None and any(o == order for o, _ in self.sorts):
            self.sort_by(order)

    def _sync_sort(self) -> None:
        self.sort_chips.set_value(self.state.order)
        ascending = self.state.direction is Direction.ASC
        self.direction_button.setText(
            self.tr("↑ Ascending") if ascending else self.tr("↓ Descending")
        )
        self.direction_button.setEnabled(self.state.order is not None)
        header = self.table.horizontalHeader()
        column = next(
            (i for i, c in enumerate(self.columns) if c.order and c.order == self.state.order), -1
        )
        header.setSortIndicatorShown(column >= 0)
        if column >= 0:
            header.setSortIndicator(
                column,
                Qt.SortOrder.AscendingOrder if ascending else Qt.SortOrder.DescendingOrder,
            )

    # -- loading -----------------------------------------------------------------------------
    def reload(self) -> None:
        self._say_state()
        self.owner.run("list", self._load(self.state), buttons=[self.refresh_button])

    async def _load(self, state: ListState) -> None:
        self._set_loading(True)
        try:
            page = await self.fetch(state)
            window = PageWindow.of(page.meta, len(page.items), state.limit)
            if window.past_the_end:  # records removed meanwhile: the last page instead
                state = state.at_page(max(1, window.pages))
                self.state = state
                page = await self.fetch(state)
                window = PageWindow.of(page.meta, len(page.items), state.limit)
        except ApiError:
            self.failed = True
            self.stack.setCurrentWidget(self.error_panel)
            self.range_label.clear()
            raise
        finally:
            self._set_loading(False)
        self.failed = False
        self.show_page(list(page.items), window)

    def _set_loading(self, loading: bool) -> None:
        self.table.setEnabled(not loading)
        self.retry_button.setEnabled(not loading)
        if loading:
            self.previous_button.setEnabled(False)
            self.next_button.setEnabled(False)
        elif self.page_window is not None and not self.failed:
            self.previous_button.setEnabled(self.page_window.has_previous)
            self.next_button.setEnabled(self.page_window.has_next)

    def show_page(self, items: Sequence[Any], window: PageWindow) -> None:
        self.page_window = window
        self.model.set_records(items)  # one reset: a page is at most ``limit`` rows
        self.fitter.fit()
        if items:
            self.stack.setCurrentWidget(self.table)
        else:
            self.empty.setText(
                self.tr("Nothing matches. Clear the search or change the filters.")
                if self.state.narrowed
                else self._empty_text
            )
            self.stack.setCurrentWidget(self.empty)
        self.range_label.setText(self.range_text(window))
        self.previous_button.setEnabled(window.has_previous)
        self.next_button.setEnabled(window.has_next)
        self.loads += 1
        self.loaded.emit()

    def range_text(self, window: PageWindow) -> str:
        if not window.total:
            return ""
        return (
            self.tr("%1–%2 of %3")
            .replace("%1", str(window.first))
            .replace("%2", str(window.last))
            .replace("%3", str(window.total))
        )

    @property
    def items(self) -> list[Any]:
        """The shown page's records, top to bottom."""
        return self.model.records

    def item(self, row: int) -> Any:
        return self.model.record(row)

    def texts(self, column: int) -> list[str]:
        """The texts of one column, top to bottom (tests and logs)."""
        return self.model.texts(column)

    def clear(self) -> None:
        """Forget the rows (idle reset: they may hold personal data)."""
        self.model.clear()
        self.page_window = None
        self.range_label.clear()
