"""What a table read by pages shares (Today's and the Pending list's models): the
columns and their translated headings, read-only cells, and the next page asked when
the view scrolls past the last row read.

A subclass says how many rows it holds (``rows``) and what each cell shows (``data``);
it sets ``more`` when it takes a page (rows after the last one read are still to be
read) and clears ``fetching`` once the page asked has come (or failed).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)

_INDEX = QModelIndex | QPersistentModelIndex


class PagedTableModel(QAbstractTableModel):
    """``more_wanted`` when the view wants the next page (``fetchMore``)."""

    more_wanted = Signal()

    def __init__(self, headers: Sequence[object], context: str, parent: QObject | None) -> None:
        super().__init__(parent)
        self._headers = tuple(str(h) for h in headers)  # untranslated ("": the action's)
        self._context = context  # the headings' translation context
        self._more = False
        self.fetching = False  # a page was asked and has not come yet

    def rows(self) -> int:
        raise NotImplementedError

    def header_alignment(self, section: int) -> object:
        """The heading's alignment (``None``: the view's default)."""
        return None

    # -- Qt's model ---------------------------------------------------------------
    def rowCount(self, parent: _INDEX = QModelIndex()) -> int:  # noqa: B008 (Qt's default)
        return 0 if parent.isValid() else self.rows()

    def columnCount(self, parent: _INDEX = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._headers)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self._headers):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            text = self._headers[section]
            return QCoreApplication.translate(self._context, text) if text else ""
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return self.header_alignment(section)
        return None

    def flags(self, index: _INDEX) -> Qt.ItemFlag:
        return Qt.ItemFlag.ItemIsEnabled if index.isValid() else Qt.ItemFlag.NoItemFlags

    def canFetchMore(self, parent: _INDEX) -> bool:
        return not parent.isValid() and self._more and not self.fetching

    def fetchMore(self, parent: _INDEX) -> None:
        if self.canFetchMore(parent):
            self.fetching = True
            self.more_wanted.emit()

    @property
    def more(self) -> bool:
        """Rows after the last one read are still to be read."""
        return self._more
