"""The Pending list's reads (issue #16): pages in the list's order by key, rows by id,
counts by COUNT; every write announces the ids it touched; a row the kiosk cannot read
is listed, saying so, never dropped."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from kiosk.api.models.points import CreditClient, CreditRequest
from kiosk.core.db import DatabaseWorker
from kiosk.core.outbox import listing
from kiosk.core.outbox.queue import (
    STALE_AFTER,
    Binding,
    Outbox,
    Resolution,
    RowKind,
    RowState,
)
from kiosk.core.outbox.types import Unreadable
from tests.core.outbox.harness import BASE_URL, VirtualTime

BINDING = Binding.of("training", BASE_URL, "sk-live-do-not-store-9f8e7d", 3)
Scenario = Callable[[Outbox, DatabaseWorker, VirtualTime], Coroutine[Any, Any, None]]


def run(tmp_path: Path, scenario: Scenario) -> None:
    async def main() -> None:
        worker = DatabaseWorker(tmp_path / "kiosk.sqlite3")
        await worker.start()
        clock = VirtualTime()
        try:
            await scenario(Outbox(worker, BINDING, clock=clock.time), worker, clock)
        finally:
            await worker.close()

    asyncio.run(main())


def sale(n: int) -> CreditRequest:
    return CreditRequest(
        f"b3-20261122-k0a1b2c3d-{n:012x}",
        CreditClient(email=f"client{n}@gmail.com"),
        amount=100.0 + n,
    )


async def seed(outbox: Outbox, count: int) -> list[int]:
    return [(await outbox.submit_credit(sale(n))).row.id for n in range(count)]


async def dead_letter(outbox: Outbox, row_id: int) -> None:
    await outbox.begin_attempt(row_id)
    await outbox.settle(
        row_id, RowState.DEAD, Resolution.REJECTED, error_kind="bad_request", error="suspended"
    )


def test_pages_follow_the_lists_order_by_key_dead_letters_first(tmp_path: Path) -> None:
    async def scenario(outbox: Outbox, worker: DatabaseWorker, clock: VirtualTime) -> None:
        ids = await seed(outbox, 12)
        for row_id in (ids[3], ids[7], ids[10]):
            await dead_letter(outbox, row_id)
        await outbox.begin_attempt(ids[5])  # sending: still waiting, in its place
        waiting = [i for i in ids if i not in (ids[3], ids[7], ids[10])]
        expected = [ids[3], ids[7], ids[10], *waiting]
        read: list[int] = []
        after: listing.ListKey | None = None
        while True:
            page = await outbox.page(after, limit=4)
            read += [e.id for e in page]
            if len(page) < 4:
                break
            after = listing.key_of(page[-1])
        assert read == expected
        first = await outbox.page(None, limit=5)
        assert [e.state for e in first[:4]] == [RowState.DEAD] * 3 + [RowState.PENDING]
        assert first[4].state is RowState.PENDING
        assert first[4].id == ids[1]
        sending = await outbox.page((listing.WAITING_RANK, ids[4]), limit=1)
        assert [(e.id, e.state) for e in sending] == [(ids[5], RowState.SENDING)]

    run(tmp_path, scenario)


def test_the_counts_come_from_count_queries_with_the_stale_rows(tmp_path: Path) -> None:
    async def scenario(outbox: Outbox, worker: DatabaseWorker, clock: VirtualTime) -> None:
        old = await seed(outbox, 3)
        await dead_letter(outbox, old[0])
        clock.now += STALE_AFTER + 60
        await outbox.submit_credit(sale(50))
        counts = await outbox.list_counts()
        assert counts == listing.ListCounts(pending=3, dead=1, stale=2)
        assert (await outbox.status()).pending == counts.pending

    run(tmp_path, scenario)


def test_every_write_announces_the_rows_it_touched(
    tmp_path: Path, expect_log: Callable[[str], None]
) -> None:
    expect_log(r"discarded")

    async def scenario(outbox: Outbox, worker: DatabaseWorker, clock: VirtualTime) -> None:
        heard: list[frozenset[int] | None] = []
        outbox.rows_changed.connect(lambda change: heard.append(change.ids))
        first = (await outbox.submit_credit(sale(1))).row.id
        second = (await outbox.submit_credit(sale(2))).row.id
        await outbox.submit_credit(sale(1))  # already there: nothing written
        assert heard == [frozenset({first}), frozenset({second})]
        heard.clear()
        await outbox.begin_attempt(first)
        await outbox.reschedule(first, reached=True, wait=5, error_kind="server", error="503")
        await outbox.begin_attempt(first)
        await outbox.resume()  # caught mid-send: pending again
        await outbox.begin_attempt(first)
        await outbox.settle(first, RowState.DONE, Resolution.CREDITED, points=10)
        assert heard == [frozenset({first})] * 6
        heard.clear()
        await dead_letter(outbox, second)
        await outbox.requeue(second)
        await outbox.discard(second)
        assert heard == [frozenset({second})] * 4
        heard.clear()
        third = (await outbox.submit_credit(sale(3))).row.id
        cancel = await outbox.submit_cancel(sale(3).external_id or "")
        assert cancel.voided is not None  # never sent: voided with its cancel
        assert heard == [frozenset({third}), frozenset({cancel.row.id, third})]
        heard.clear()
        await outbox.submit_credit(sale(4))
        heard.clear()
        await outbox.retry_now()
        await outbox.purge(clock.time() + 1)
        assert heard == [None, None]  # many rows: "any row"

    run(tmp_path, scenario)


def test_by_ids_reads_only_those_rows_in_any_state(tmp_path: Path) -> None:
    async def scenario(outbox: Outbox, worker: DatabaseWorker, clock: VirtualTime) -> None:
        ids = await seed(outbox, 5)
        await outbox.begin_attempt(ids[1])
        await outbox.settle(ids[1], RowState.DONE, Resolution.CREDITED, points=3)
        rows = await outbox.by_ids(frozenset({ids[1], ids[2], 999}))
        assert [(e.id, e.state) for e in rows] == [
            (ids[1], RowState.DONE),
            (ids[2], RowState.PENDING),
        ]
        assert rows[1].amount == 102.0

    run(tmp_path, scenario)


def break_rows(conn: sqlite3.Connection, corrupt: int, newer: int) -> None:
    with conn:
        conn.execute("UPDATE outbox_rows SET body = '{not json' WHERE id = ?", (corrupt,))
        conn.execute("PRAGMA ignore_check_constraints = ON")  # a newer version's kind
        conn.execute("UPDATE outbox_rows SET kind = 'refund' WHERE id = ?", (newer,))
    conn.execute("PRAGMA ignore_check_constraints = OFF")


def test_a_row_the_kiosk_cannot_read_is_listed_saying_so(tmp_path: Path) -> None:
    async def scenario(outbox: Outbox, worker: DatabaseWorker, clock: VirtualTime) -> None:
        ids = await seed(outbox, 4)
        await worker.run(lambda conn: break_rows(conn, ids[1], ids[2]))
        page = await outbox.page(None)
        assert [e.id for e in page] == ids  # none dropped
        corrupt, newer = page[1], page[2]
        assert corrupt.unreadable is Unreadable.CORRUPT_BODY
        assert corrupt.kind is RowKind.CREDIT
        assert corrupt.client == page[0].client.replace("client0", "client1")
        assert newer.unreadable is Unreadable.UNKNOWN_KIND
        assert newer.stored_kind == "refund"
        assert page[0].unreadable is None
        assert page[3].unreadable is None
        again = await outbox.by_ids(frozenset({ids[1], ids[2]}))
        assert [e.unreadable for e in again] == [Unreadable.CORRUPT_BODY, Unreadable.UNKNOWN_KIND]
        assert (await outbox.list_counts()).pending == 4

    run(tmp_path, scenario)


def test_a_row_the_kiosk_cannot_read_never_holds_up_the_rows_behind_it(tmp_path: Path) -> None:
    """A kind written by a newer version (IT rolled the kiosk back) or a damaged body
    waits in the list; the sender goes on with the rows it can read."""

    async def scenario(outbox: Outbox, worker: DatabaseWorker, clock: VirtualTime) -> None:
        ids = await seed(outbox, 4)
        await worker.run(lambda conn: break_rows(conn, ids[0], ids[1]))
        first = await outbox.next_row(BINDING)
        assert first is not None
        assert first.id == ids[2]
        await outbox.begin_attempt(ids[2])
        await outbox.settle(ids[2], RowState.DONE, Resolution.CREDITED, points=10)
        second = await outbox.next_row(BINDING)
        assert second is not None
        assert second.id == ids[3]
        assert (await outbox.list_counts()).pending == 3  # the two unreadable still wait

    run(tmp_path, scenario)


def test_the_sender_picks_every_kind_this_version_knows() -> None:
    from kiosk.core.outbox.store import _NEXT

    assert f"o.kind IN ({', '.join(repr(k.value) for k in RowKind)})" in _NEXT
