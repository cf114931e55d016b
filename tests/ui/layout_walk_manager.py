"""The manager's part of the layout audit's walk (``tests/ui/layout_walk.py``): the PIN
chosen by the first person at Manager, the settings, and each admin section's list,
forms and confirmations, then the PIN pad to enter it again."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.qt_async import until
from tests.ui.layout_walk import ADMIN, PIN, STATES, Walk


async def walk_manager(walk: Walk, lock: Any) -> None:
    async def first_pin() -> None:
        await walk.rail("manager")

    async def settings() -> None:
        await lock.set_pin(PIN)  # the first person at Manager chooses the PIN
        await until(lambda: walk.view.current.gate.view is not None)

    await walk.state("manager-pin-first", first_pin)
    await walk.state("manager-settings", settings)
    manager = walk.view.current.gate.view
    if manager is None:
        return
    for row, name in enumerate(ADMIN, start=1):
        await _admin_section(walk, manager, row, name)

    async def enter_pin() -> None:
        lock.relock()
        await until(lambda: walk.view.current.gate.view is None)

    await walk.state("manager-pin-enter", enter_pin)


async def _admin_section(walk: Walk, manager: Any, row: int, name: str) -> None:
    section: Any = None

    async def listed() -> None:
        nonlocal section
        manager.open_section(row)
        section = manager.current_widget()
        await until(lambda: section.list.loads > 0 and section.list.table.rowCount() > 0)

    async def new_form() -> None:
        section.open_new()
        await until(lambda: section.pages.currentWidget() is not section.list)
        await asyncio.sleep(0.05)

    async def detail() -> None:
        section.back_to_list()
        section.open_row(0)
        await until(lambda: section.pages.currentWidget() is not section.list)
        await asyncio.sleep(0.1)

    async def deliver() -> None:
        section.back_to_list()
        items = (section.list.item(r) for r in range(section.list.table.rowCount()))
        row = next(r for r, p in enumerate(items) if p is not None and p.is_pending)
        section.open_row(row)
        await until(section.sheet.isVisible)

    async def removal() -> None:
        section.ask_removal()
        await until(section.sheet.isVisible)

    await walk.state(f"manager-{name}-list", listed)
    if section is None:
        return
    if f"manager-{name}-new" in STATES:
        await walk.state(f"manager-{name}-new", new_form)
    if name == "purchases":
        await walk.state("manager-purchases-deliver", deliver)
    else:
        later = "edit" if f"manager-{name}-edit" in STATES else "detail"
        await walk.state(f"manager-{name}-{later}", detail)
    if name == "clients":
        await walk.state("manager-clients-removal", removal)
    section.back_to_list()
