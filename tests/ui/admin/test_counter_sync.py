"""What a manager creates in the administration sections reaches the counter with no tap
on "Refresh" (issue #14, defect 12), and a section Qt deleted hears no more events (its
listeners went with it: no "Internal C++ object already deleted" in the log)."""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QApplication, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from kiosk.core.counter.catalogue import catalogue_changes
from kiosk.core.session import CounterSession
from kiosk.sim.world import World
from kiosk.ui.admin.point_items import PointItemsSection
from kiosk.ui.admin.rewards import RewardsSection
from kiosk.ui.screens.rewards.screen import RewardsScreen
from tests.qt_async import until
from tests.ui.admin.admin_support import Rig, table, themed_rig
from tests.ui.screens.points.points_support import JUAN, release_screens, shown_screen

LEFT = Qt.MouseButton.LeftButton
PLATA = 2
LONG_ITEM = "Docena de medialunas de manteca con dulce de leche y crema pastelera"
LONG_REWARD = "Canasta navideña del Almacén del Sol con pan dulce, sidra y turrones"


@pytest.fixture
def rig(
    qapp: QApplication, qtbot: QtBot, session: CounterSession, sim_world: World
) -> Iterator[Rig]:
    yield from themed_rig(qapp, qtbot, session, sim_world)


def id_of(world: World, name: str, kind: str) -> int:
    return next(r["id"] for r in table(world, kind).values() if r["name"] == name)


def test_a_new_point_item_and_reward_reach_the_counter_without_refresh(
    rig: Rig, arun: Callable[..., Any], qtbot: QtBot, session: CounterSession
) -> None:
    session.set_client(arun(session.api.search_client(JUAN)))
    points = shown_screen(qtbot, session)
    rewards = RewardsScreen(session)
    qtbot.addWidget(rewards)
    rewards.resize(1280, 800)
    rewards.show()
    rewards.entered()

    async def scenario() -> None:
        qtbot.mouseClick(points.items_tab, LEFT)
        await until(lambda: len(points.grid.tiles) > 2 and not points.tasks.running("items"))
        await until(lambda: rewards.grid.tiles and not rewards.tasks.running("catalog"))
        rewards.hide()  # the manager's screen is in front now
        points.hide()
        section = rig.open(PointItemsSection)
        await rig.loaded()
        rig.tap(section.list.new_button)
        rig.type_into(section.name_edit, LONG_ITEM)
        rig.type_into(section.value_edit, "120")
        rig.tap(section.form.save_button)
        await until(lambda: section.banner.kind == "success")
        item_id = id_of(rig.world, LONG_ITEM, "point_items")
        # The counter's buttons have it, with nobody tapping "Refresh items".
        await until(lambda: item_id in points.grid.tiles)
        points.show()
        assert points.grid.tiles[item_id].name.text() == LONG_ITEM
        section.close()

        shop = rig.open(RewardsSection)
        await rig.loaded()
        rig.tap(shop.list.new_button)
        await until(lambda: shop.form is not None and not shop.tasks.running("form"))
        form = shop.form
        assert form is not None
        rig.type_into(form.name_edit, LONG_REWARD)
        rig.type_into(form.short_edit, "Para las fiestas")
        rig.type_into(form.price_edit(None), "900")
        rig.type_into(form.price_edit(PLATA), "850")  # Juan's level
        rig.tap(form.save_button)
        await until(lambda: shop.banner.kind == "success")
        reward_id = id_of(rig.world, LONG_REWARD, "products")
        shop.close()
        # Back to Rewards: the catalog is read again as it shows.
        rewards.show()
        rewards.entered()
        await until(lambda: reward_id in rewards.grid.tiles)

    arun(scenario())
    refreshes = [
        r for r in rig.requests("GET", r"^/external/point-items") if r.get("query") is not None
    ]
    assert refreshes  # fetched again by the counter itself
    release_screens(session, [points])


def test_deleted_sections_hear_no_more_events(
    rig: Rig, arun: Callable[..., Any], caplog: pytest.LogCaptureFixture, session: CounterSession
) -> None:
    """The manager view is deleted each time manager mode locks (ManagerGate): its
    sections' listeners go with it."""
    caplog.set_level(logging.DEBUG, logger="kiosk.core.events")
    holder = QWidget()
    layout = QVBoxLayout(holder)
    sections = [PointItemsSection(session), RewardsSection(session)]
    for section in sections:
        layout.addWidget(section)
    holder.resize(1280, 800)
    holder.show()
    listeners = session.client_changed.listeners

    async def loaded() -> None:
        await until(lambda: all(not s.tasks.running("list") for s in sections))

    async def events() -> None:
        session.set_client(await session.api.search_client(JUAN))
        session.set_client(None)
        catalogue_changes(session).point_items.emit(None)
        catalogue_changes(session).rewards.emit(None)

    arun(loaded())
    holder.deleteLater()  # as ManagerGate deletes the manager view when it locks
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    arun(events())  # the sections' Python objects are still referenced (``sections``)
    gc.collect()
    assert "event listener failed" not in caplog.text
    assert "already deleted" not in caplog.text
    assert session.client_changed.listeners <= listeners - 2
