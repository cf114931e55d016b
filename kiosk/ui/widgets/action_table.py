"""A table the cashier reads whose rows carry one action, painted in one column and
hit-tested on tap: no widget per row (Today's "Cancel credit", Pending's "Discard").

``ActionTable`` is the view's common part: read-only, no selection, touch-sized rows,
and the action's taps and keys. A tap counts when it is pressed and released on the
painted button of a row that shows the action, while actions are enabled; Enter,
Space or Select on the focused action cell count too. Each table says which column
holds the action, which model role is true on a row that shows it, which role holds
the row's id, and what ``activate(row_id)`` does.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from kiosk.ui.widgets.layouts import read_only_table

ROW_PX = 60
ACTION_MARGIN = (4, 6)  # around the painted button: 48 px high in a 60 px row
CELL_PAD = 24  # the style sheet's 8 + 8 px and the item's own margins
ACTION_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space, Qt.Key.Key_Select)


def action_rect(cell: QRect) -> QRect:
    """The painted button's rect inside its cell (what a tap must land on)."""
    dx, dy = ACTION_MARGIN
    return cell.adjusted(dx, dy, -dx, -dy)


class ActionTable(QTableView):
    def __init__(
        self,
        parent: QWidget | None,
        *,
        action_column: int,
        action_role: int,
        id_role: int,
        word_wrap: bool,
        row_px: int = ROW_PX,
    ) -> None:
        super().__init__(parent)
        self.action_column = action_column
        self.action_role = action_role
        self.id_role = id_role
        self.actions_enabled = True
        self.pressed_id: int | None = None  # the row whose action is under a press
        read_only_table(self, word_wrap=word_wrap)
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # the keyboard reaches the actions
        self.setTabKeyNavigation(False)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.verticalHeader().setDefaultSectionSize(row_px)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        header = self.horizontalHeader()
        header.setHighlightSections(False)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)

    def activate(self, row_id: int) -> None:
        """The action of the row ``row_id`` was tapped or keyed."""
        raise NotImplementedError

    def set_actions_enabled(self, enabled: bool) -> None:
        """Off while the action's request runs: a second one cannot start."""
        if enabled != self.actions_enabled:
            self.actions_enabled = enabled
            self.viewport().update()

    def row_action_rect(self, row: int) -> QRect:
        """Where row ``row``'s action is, in the viewport's coordinates (scrolled to)."""
        model = self.model()
        index = model.index(row, self.action_column)
        self.scrollTo(index)
        return action_rect(self.visualRect(index))

    # -- taps and keys ---------------------------------------------------------------
    def _action_at(self, event: QMouseEvent) -> int | None:
        pos = event.position().toPoint()
        index = self.indexAt(pos)
        if not index.isValid() or index.column() != self.action_column:
            return None
        if not index.data(self.action_role) or not action_rect(self.visualRect(index)).contains(
            pos
        ):
            return None
        return int(index.data(self.id_role))

    def mousePressEvent(self, event: QMouseEvent) -> None:
        hit = self._action_at(event) if event.button() == Qt.MouseButton.LeftButton else None
        if hit is None or not self.actions_enabled:
            super().mousePressEvent(event)
            return
        self.pressed_id = hit
        self.viewport().update()
        event.accept()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        pressed, self.pressed_id = self.pressed_id, None
        if pressed is None:
            super().mouseReleaseEvent(event)
            return
        self.viewport().update()
        event.accept()
        if self._action_at(event) == pressed and self.actions_enabled:
            self.activate(pressed)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        index = self.currentIndex()
        if event.key() in ACTION_KEYS and index.isValid() and index.column() == self.action_column:
            if index.data(self.action_role) and self.actions_enabled:
                self.activate(int(index.data(self.id_role)))
            event.accept()
            return
        super().keyPressEvent(event)
