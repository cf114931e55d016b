"""The outbox's rows in the kiosk's SQLite file (table ``outbox_rows``, migration 2).

Synchronous, like ``Journal``: use it from the thread that owns the connection
(``kiosk.core.outbox.queue.Outbox`` runs it in the ``DatabaseWorker`` thread). Every
change that also settles a journal row does both in one transaction.

A row is one credit or one cancel, with its ``external_id`` fixed before the
first attempt (``UNIQUE (kind, external_id)``: a cancel shares its credit's id).

States::

    pending --begin_attempt--> sending --settle--> done | dead
       ^                          |
       +------- reschedule -------+          (resume after a crash: sending -> pending)
    pending | dead --void/discard--> voided        dead --requeue--> pending

``may_have_reached_server`` is set, durably, before every send; a failure that
cannot have reached the server (429, 503, a connection that never opened) puts
back what it was. A settled row's body loses the client's personal data; a dead
letter keeps it (it may be sent again) until ``redact_dead`` blanks it, after the age
``kiosk.core.retention`` gives: then it can only be discarded.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection
from typing import Any

from kiosk.api.redact import redact_text
from kiosk.core.db import transaction
from kiosk.core.outbox.body import REDACTED, Body, BodyError, dumps, loads, redacted_body
from kiosk.core.outbox.journal_link import journal_row, settle_journal
from kiosk.core.outbox.types import (
    JournalNote,
    OutboxCounts,
    OutboxError,
    OutboxRow,
    Resolution,
    RowKind,
    RowState,
)
from kiosk.core.settings.binding import Binding

SELECT = (  # the columns ``OutboxRow.from_db`` reads, in its order
    "SELECT id, kind, external_id, state, resolution, attempts, created_at, first_attempt_at,"
    " last_attempt_at, next_attempt_at, settled_at, last_error_kind, last_error, ticket_typed,"
    " may_have_reached_server, environment, base_url, key_fingerprint, branch_id, journal_id,"
    " client_label, points, body FROM outbox_rows"
)
_NEXT = (
    "SELECT id, kind, external_id, state, resolution, attempts, created_at, first_attempt_at,"
    " last_attempt_at, next_attempt_at, settled_at, last_error_kind, last_error, ticket_typed,"
    " may_have_reached_server, environment, base_url, key_fingerprint, branch_id, journal_id,"
    " client_label, points, body FROM outbox_rows AS o WHERE o.state = 'pending'"
    " AND o.environment = ? AND o.base_url = ? AND o.key_fingerprint = ? AND o.branch_id IS ?"
    # A row this version cannot read (a kind from a newer version, a damaged body) waits,
    # listed saying so, and never holds up the rows behind it.
    " AND o.kind IN ('credit', 'cancel') AND json_valid(o.body)"  # RowKind's values
    " AND NOT EXISTS (SELECT 1 FROM outbox_rows AS e WHERE e.external_id = o.external_id"
    " AND e.id < o.id AND e.state IN ('pending', 'sending'))"
)
_ELSEWHERE = (
    "SELECT COUNT(*) FROM outbox_rows WHERE state IN ('pending', 'sending', 'dead') AND NOT"
    " (environment = ? AND base_url = ? AND key_fingerprint = ? AND branch_id IS ?)"
)


def _bound(binding: Binding) -> tuple[Any, ...]:
    return (binding.environment, binding.base_url, binding.key_fingerprint, binding.branch_id)


class OutboxStore:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    @property
    def connection(self) -> sqlite3.Connection:
        """For the list's reads in the same job (``kiosk.core.outbox.listing``)."""
        return self._conn

    # -- reading ------------------------------------------------------------------
    def get(self, row_id: int) -> OutboxRow | None:
        found = self._conn.execute(f"{SELECT} WHERE id = ?", (row_id,)).fetchone()
        return None if found is None else OutboxRow.from_db(found)

    def find(self, kind: RowKind, external_id: str) -> OutboxRow | None:
        found = self._conn.execute(
            f"{SELECT} WHERE kind = ? AND external_id = ?", (kind.value, external_id)
        ).fetchone()
        return None if found is None else OutboxRow.from_db(found)

    def rows(self, state: RowState, also: RowState | None = None) -> list[OutboxRow]:
        """Rows in ``state`` (or ``also``), oldest first."""
        found = self._conn.execute(
            f"{SELECT} WHERE state = ? OR state = ? ORDER BY id",
            (state.value, (also or state).value),
        ).fetchall()
        return [OutboxRow.from_db(values) for values in found]

    def next_row(self, binding: Binding, live: Collection[int] = ()) -> OutboxRow | None:
        """The row to send next for ``binding``: a live one first, else the oldest pending.

        A row waits while an earlier row with its external id (a cancel's credit) is
        still pending or sending. The row may not be due yet (see ``next_attempt_at``).
        """
        if live:
            ids = "," + ",".join(str(int(i)) for i in sorted(live)) + ","
            found = self._conn.execute(
                f"{_NEXT} AND instr(?, ',' || o.id || ',') > 0 ORDER BY o.id LIMIT 1",
                (*_bound(binding), ids),
            ).fetchone()
            if found is not None:
                return OutboxRow.from_db(found)
        found = self._conn.execute(f"{_NEXT} ORDER BY o.id LIMIT 1", _bound(binding)).fetchone()
        return None if found is None else OutboxRow.from_db(found)

    def counts(self, binding: Binding | None = None) -> OutboxCounts:
        pending = dead = 0
        oldest: float | None = None
        for state, count, first in self._conn.execute(
            "SELECT state, COUNT(*), MIN(created_at) FROM outbox_rows"
            " WHERE state IN ('pending', 'sending', 'dead') GROUP BY state"
        ):
            if state == "dead":
                dead += count
            else:
                pending += count
                oldest = first if oldest is None else min(oldest, first)
        elsewhere = 0
        if binding is not None and pending + dead:
            elsewhere = self._conn.execute(_ELSEWHERE, _bound(binding)).fetchone()[0]
        return OutboxCounts(pending, dead, oldest, elsewhere)

    def unsettled_bindings(self) -> list[tuple[Binding, int]]:
        found = self._conn.execute(
            "SELECT environment, base_url, key_fingerprint, branch_id, COUNT(*) FROM outbox_rows"
            " WHERE state IN ('pending', 'sending', 'dead')"
            " GROUP BY environment, base_url, key_fingerprint, branch_id"
        ).fetchall()
        return [(Binding(e, u, k, b), int(n)) for e, u, k, b, n in found]

    # -- adding -------------------------------------------------------------------
    def add(
        self,
        kind: RowKind,
        external_id: str,
        body: Body,
        binding: Binding,
        *,
        now: float,
        ticket_typed: bool = False,
        journal: int | JournalNote | None = None,
        client_label: str = "",
    ) -> tuple[OutboxRow, bool]:
        """Insert a pending row; ``(existing row, False)`` when that id is already there.

        ``journal``: the id of the operation's journal row, or a note to write it now.
        """
        with transaction(self._conn):
            existing = self.find(kind, external_id)
            if existing is not None:
                return existing, False
            journal_id = journal_row(self._conn, kind, external_id, journal, client_label)
            row_id = self._insert(
                kind, external_id, body, binding, now, ticket_typed, journal_id, client_label
            )
        row = self.get(row_id)
        assert row is not None
        return row, True

    def _insert(
        self,
        kind: RowKind,
        external_id: str,
        body: Body,
        binding: Binding,
        now: float,
        ticket_typed: bool,
        journal_id: int | None,
        client_label: str,
        state: RowState = RowState.PENDING,
        resolution: Resolution | None = None,
    ) -> int:
        cursor = self._conn.execute(
            "INSERT INTO outbox_rows (kind, external_id, body, state, resolution, created_at,"
            " next_attempt_at, settled_at, ticket_typed, environment, base_url, key_fingerprint,"
            " branch_id, journal_id, client_label) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
            " ?, ?)",
            (
                kind.value,
                external_id,
                dumps(body),
                state.value,
                None if resolution is None else resolution.value,
                now,
                now,
                None if state is RowState.PENDING else now,
                int(ticket_typed),
                *_bound(binding),
                journal_id,
                redact_text(client_label),
            ),
        )
        return int(cursor.lastrowid or 0)

    def add_cancel(
        self,
        external_id: str,
        binding: Binding,
        *,
        now: float,
        journal: int | JournalNote | None = None,
        client_label: str = "",
    ) -> tuple[OutboxRow, bool, OutboxRow | None]:
        """Queue the cancel of a credit: ``(cancel row, created, credit row voided now)``.

        A credit that cannot have reached the server (pending or dead, never sent in a
        way that could have arrived) is voided with its cancel: no request at all.
        """
        with transaction(self._conn):
            existing = self.find(RowKind.CANCEL, external_id)
            if existing is not None:
                return existing, False, None
            credit = self.find(RowKind.CREDIT, external_id)
            if credit is not None:
                if credit.state is RowState.VOIDED:
                    raise OutboxError("this credit was never sent: there is nothing to cancel")
                if credit.resolution is Resolution.ALREADY_CREDITED:
                    raise OutboxError("this ticket was credited before, not by this sale")
                if credit.binding != binding:
                    raise OutboxError("this credit was made for another environment or branch")
            voids = (
                credit is not None
                and credit.state in (RowState.PENDING, RowState.DEAD)
                and not credit.may_have_reached_server
            )
            label = client_label or (credit.client_label if credit is not None else "")
            journal_id = journal_row(self._conn, RowKind.CANCEL, external_id, journal, label)
            row_id = self._insert(
                RowKind.CANCEL, external_id, {}, binding, now, False, journal_id, label,
                RowState.VOIDED if voids else RowState.PENDING,
                Resolution.VOIDED if voids else None,
            )  # fmt: skip
            if voids and credit is not None:
                self._settle(credit, RowState.VOIDED, Resolution.VOIDED, now)
                settle_journal(self._conn, credit, Resolution.VOIDED, None, None, now)
                cancel = self.get(row_id)
                assert cancel is not None
                settle_journal(self._conn, cancel, Resolution.VOIDED, None, None, now)
        row = self.get(row_id)
        assert row is not None
        return row, True, (self.get(credit.id) if voids and credit is not None else None)

    # -- sending ------------------------------------------------------------------
    def begin_attempt(self, row_id: int, now: float) -> OutboxRow | None:
        """Mark the row ``sending`` and maybe-arrived, durably; the row as it was before
        (``None`` if it is not pending any more: voided or discarded meanwhile)."""
        with transaction(self._conn):
            before = self.get(row_id)
            if before is None or before.state is not RowState.PENDING:
                return None
            self._conn.execute(
                "UPDATE outbox_rows SET state = 'sending', may_have_reached_server = 1,"
                " attempts = attempts + 1, first_attempt_at = COALESCE(first_attempt_at, ?),"
                " last_attempt_at = ? WHERE id = ?",
                (now, now, row_id),
            )
        return before

    def reschedule(
        self,
        row_id: int,
        *,
        reached: bool,
        next_attempt_at: float,
        error_kind: str,
        error: str,
    ) -> None:
        """Back to pending after a failure worth retrying."""
        self._conn.execute(
            "UPDATE outbox_rows SET state = 'pending', may_have_reached_server = ?,"
            " next_attempt_at = ?, last_error_kind = ?, last_error = ?"
            " WHERE id = ? AND state = 'sending'",
            (int(reached), next_attempt_at, error_kind, redact_text(error), row_id),
        )

    def settle(
        self,
        row_id: int,
        state: RowState,
        resolution: Resolution,
        *,
        now: float,
        points: int | None = None,
        error_kind: str | None = None,
        error: str | None = None,
    ) -> OutboxRow:
        """Done, dead or voided, with the row's journal entry, in one transaction."""
        with transaction(self._conn):
            row = self.get(row_id)
            if row is None:
                raise OutboxError(f"no outbox row {row_id}")
            self._settle(row, state, resolution, now, points, error_kind, error)
            settle_journal(self._conn, row, resolution, points, error, now)
        settled = self.get(row_id)
        assert settled is not None
        return settled

    def _settle(
        self,
        row: OutboxRow,
        state: RowState,
        resolution: Resolution,
        now: float,
        points: int | None = None,
        error_kind: str | None = None,
        error: str | None = None,
    ) -> None:
        body = row.body if state is RowState.DEAD else redacted_body(row.body)
        self._conn.execute(
            "UPDATE outbox_rows SET state = ?, resolution = ?, settled_at = ?, body = ?,"
            " points = COALESCE(?, points), last_error_kind = COALESCE(?, last_error_kind),"
            " last_error = COALESCE(?, last_error) WHERE id = ?",
            (
                state.value,
                resolution.value,
                now,
                dumps(body),
                points,
                error_kind,
                None if error is None else redact_text(error),
                row.id,
            ),
        )

    def resume(self) -> int:
        """After a crash or a stop: rows caught mid-send are pending again, flagged as
        having maybe reached the server (resent with their id)."""
        cursor = self._conn.execute(
            "UPDATE outbox_rows SET state = 'pending', may_have_reached_server = 1"
            " WHERE state = 'sending'"
        )
        return cursor.rowcount

    def unstick(self, in_flight: Collection[int] = ()) -> list[int]:
        """Rows ``sending`` that no attempt is sending now (``in_flight``: the ones it
        is): pending again, maybe arrived, due now. Their ids."""
        with transaction(self._conn):
            return self._unstick(in_flight)

    def _unstick(self, in_flight: Collection[int]) -> list[int]:
        busy = set(in_flight)
        ids = [
            int(found)
            for (found,) in self._conn.execute("SELECT id FROM outbox_rows WHERE state = 'sending'")
            if int(found) not in busy
        ]
        self._conn.executemany(
            "UPDATE outbox_rows SET state = 'pending', may_have_reached_server = 1"
            " WHERE id = ? AND state = 'sending'",
            [(row_id,) for row_id in ids],
        )
        return ids

    # -- the manager's actions ------------------------------------------------------
    def retry_now(self, now: float, in_flight: Collection[int] = ()) -> int:
        """Every pending row due now; a row left ``sending`` by an attempt that is over
        (not in ``in_flight``) is pending again first."""
        with transaction(self._conn):
            unstuck = len(self._unstick(in_flight))
            cursor = self._conn.execute(
                "UPDATE outbox_rows SET next_attempt_at = ? WHERE state = 'pending'"
                " AND next_attempt_at > ?",
                (now, now),
            )
        return max(unstuck, cursor.rowcount)

    def discard(self, row_id: int, now: float, in_flight: Collection[int] = ()) -> OutboxRow:
        """Give up a pending or dead-letter row, or one left ``sending`` by an attempt
        that is over (never one in ``in_flight``: on its way now)."""
        with transaction(self._conn):
            row = self.get(row_id)
            if row is None:
                raise OutboxError(f"no outbox row {row_id}")
            stuck = row.state is RowState.SENDING and row_id not in set(in_flight)
            if row.state not in (RowState.PENDING, RowState.DEAD) and not stuck:
                raise OutboxError(
                    f"only a pending or dead-letter row can be discarded ({row.state})"
                )
            if stuck:  # it may have reached the server: the journal says so
                self._unstick(in_flight)
                row = self.get(row_id)
                assert row is not None
            self._settle(row, RowState.VOIDED, Resolution.DISCARDED, now)
            settle_journal(self._conn, row, Resolution.DISCARDED, None, None, now)
        settled = self.get(row_id)
        assert settled is not None
        return settled

    def requeue(self, row_id: int, now: float) -> OutboxRow:
        """A dead-letter row, fixed elsewhere (client reactivated...), tried again."""
        row = self.get(row_id)
        if row is not None and row.state is RowState.DEAD and row.body.get(REDACTED):
            raise OutboxError(
                "this dead letter's client data was removed after the retention period: "
                "it can only be discarded"
            )
        cursor = self._conn.execute(
            "UPDATE outbox_rows SET state = 'pending', resolution = NULL, settled_at = NULL,"
            " next_attempt_at = ? WHERE id = ? AND state = 'dead'",
            (now, row_id),
        )
        if cursor.rowcount == 0:
            raise OutboxError("only a dead-letter row can be sent again")
        row = self.get(row_id)
        assert row is not None
        return row

    def redact_dead(self, died_before: float) -> int:
        """Blank the client's personal data (email, document, names, phone, birthday) in
        the body of dead letters that died before that time, as a settled row's. They
        stay dead letters (counted, listed, discardable) but cannot be sent again."""
        found = self._conn.execute(
            "SELECT id, body FROM outbox_rows WHERE state = 'dead' AND settled_at < ?",
            (died_before,),
        ).fetchall()
        redacted = 0
        for row_id, text in found:
            try:
                body = loads(text)
            except (ValueError, BodyError):
                body = {"client": {}}  # unreadable: nothing of it is kept
            if body.get(REDACTED) or "client" not in body:
                continue
            self._conn.execute(
                "UPDATE outbox_rows SET body = ? WHERE id = ? AND state = 'dead'",
                (dumps(redacted_body(body)), row_id),
            )
            redacted += 1
        return redacted

    def purge(self, settled_before: float) -> int:
        """Delete rows settled (done or voided) before that time; never an unsettled one."""
        cursor = self._conn.execute(
            "DELETE FROM outbox_rows WHERE state IN ('done', 'voided') AND settled_at < ?",
            (settled_before,),
        )
        return cursor.rowcount
