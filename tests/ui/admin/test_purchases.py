"""Exchanges in manager mode over the in-process simulator: the list (newest first,
filtered by state and kind, searched, client masked), delivery of a pending one
confirmed and journaled, an expired one refused in plain words, and the others not
offered for delivery."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.core.journal import OperationKind
from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.admin.purchases import PurchasesSection
from tests.qt_async import until
from tests.ui.admin.admin_support import Rig, params, table, themed_rig

PURCHASES = r"^/external/purchase"


@pytest.fixture
def rig(
    qapp: QApplication, qtbot: QtBot, session: CounterSession, sim_world: World
) -> Iterator[Rig]:
    yield from themed_rig(qapp, qtbot, session, sim_world)


def codes(section: PurchasesSection) -> list[str]:
    return section.list.texts(0)


def purchase(rig: Rig, code: str) -> dict[str, Any]:
    return next(p for p in table(rig.world, "purchases").values() if p["code"] == code)


def test_list_filters_and_search(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(PurchasesSection)

    async def scenario() -> None:
        await rig.loaded()
        assert codes(section)[:5] == ["PEND2345", "CASH2345", "ENTR6789", "CANC4567", "VENC3456"]
        clients = section.list.texts(4)
        assert all("***@" in text for text in clients)
        rig.shot("purchases_list")
        rig.unfold_options()
        rig.tap(section.status_chips.button_for("pending"))
        await rig.loaded(2)
        assert set(codes(section)) == {"PEND2345", "CASH2345", "VENC3456"}
        rig.tap(section.type_chips.button_for("money"))
        await rig.loaded(3)
        assert codes(section) == ["CASH2345"]
        # Two taps back to back: the second request replaces the first (one page shown).
        rig.tap(section.type_chips.button_for(None))
        rig.tap(section.status_chips.button_for(None))
        await rig.loaded(4)
        assert len(codes(section)) == 5
        section.list.search.setText("venc")
        section.list.apply_search()
        await rig.loaded(5)
        assert codes(section) == ["VENC3456"]
        rig.tap(section.list.sort_chips.button_for("points"))
        await rig.loaded(6)

    arun(scenario())
    last = params(rig.requests("GET", PURCHASES + "$")[-1])
    assert (last["query"], last["order"], last["direction"]) == ("venc", "points", "asc")


def test_deliver_a_pending_exchange(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(PurchasesSection)
    events: list[None] = []
    rig.session.journal_changed.connect(events.append)

    async def scenario() -> None:
        await rig.loaded()
        section.list.activated.emit(codes(section).index("PEND2345"))
        assert section.sheet.asking == "deliver"
        assert "Café con medialunas" in section.sheet.message.text()
        rig.shot("purchases_deliver_confirm")
        await rig.confirm()
        await until(lambda: section.banner.kind == "success")
        await rig.idle("list")
        row = codes(section).index("PEND2345")
        assert section.list.texts(1)[row] == "Delivered"

    arun(scenario())
    assert purchase(rig, "PEND2345")["status"] == "delivered"
    rows = arun(rig.session.journal.today())
    assert [(r.kind, r.detail) for r in rows] == [
        (OperationKind.REDEEM, "Café con medialunas · PEND2345")
    ]
    assert events == [None]


def test_expired_exchange_refused_in_plain_words(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(PurchasesSection)

    async def scenario() -> None:
        await rig.loaded()
        section.list.activated.emit(codes(section).index("VENC3456"))  # still reads pending
        await rig.confirm()
        await until(lambda: section.banner.kind == "error")
        assert "has expired" in section.banner.text()
        assert section.sheet.isHidden()
        rig.shot("purchases_expired")

    arun(scenario())
    assert purchase(rig, "VENC3456")["status"] == "pending"
    assert arun(rig.session.journal.today()) == []


def test_only_pending_exchanges_are_offered(rig: Rig, arun: Callable[..., Any]) -> None:
    section = rig.open(PurchasesSection)

    async def scenario() -> None:
        await rig.loaded()
        section.list.activated.emit(codes(section).index("ENTR6789"))
        assert section.sheet.isHidden()
        assert "only pending exchanges" in section.banner.text()
        section.list.activated.emit(codes(section).index("CANC4567"))
        assert "is canceled" in section.banner.text()

    arun(scenario())
    assert rig.requests("POST", PURCHASES) == []


def test_a_double_tap_or_enter_enter_delivers_once_and_never_unseen(
    rig: Rig, arun: Callable[..., Any]
) -> None:
    """The row's second tap (or a tap at once on the sheet) cannot deliver: the sheet's
    button accepts taps only once painted and the guard passed; then Enter, Enter and a
    double tap send one delivery."""
    section = rig.open(PurchasesSection)
    left = Qt.MouseButton.LeftButton

    async def scenario() -> None:
        await rig.loaded()
        rig.control.clear_requests()
        table_view = section.list.table
        row = codes(section).index("PEND2345")
        spot = table_view.visualRect(table_view.model().index(row, 2)).center()
        rig.qtbot.mouseClick(table_view.viewport(), left, pos=spot)
        assert section.sheet.asking == "deliver"
        confirm = section.sheet.confirm
        rig.qtbot.mouseClick(confirm, left)  # at once: not seen yet, ignored
        rig.qtbot.mouseClick(confirm, left)
        assert not section.tasks.running("deliver")
        assert purchase(rig, "PEND2345")["status"] == "pending"
        await until(lambda: confirm.armed)
        confirm.setFocus()
        rig.qtbot.keyClick(confirm, Qt.Key.Key_Return)
        rig.qtbot.keyClick(confirm, Qt.Key.Key_Return)
        rig.qtbot.mouseClick(confirm, left)
        await until(lambda: section.banner.kind == "success")
        await rig.idle("list")

    arun(scenario())
    assert purchase(rig, "PEND2345")["status"] == "delivered"
    writes = [r for r in rig.control.requests() if r.get("method") not in ("GET", None)]
    assert len(writes) == 1, writes
