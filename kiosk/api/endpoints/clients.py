"""Clients: list, search, create, update, remove, suspend."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from typing import cast

from kiosk.api import logsafety, reconcile
from kiosk.api.endpoints._base import EndpointBase, list_query, segment
from kiosk.api.errors import AmbiguousOutcome, ErrorKind, MalformedResponse, Resource
from kiosk.api.models.clients import (
    Client,
    ClientChanges,
    ClientOrder,
    NewClient,
    RemovalReason,
    client_filters,
    removal_body,
    suspend_body,
)
from kiosk.api.models.common import Direction, ListQuery, Page, envelope_data
from kiosk.api.models.purchases import Applied
from kiosk.api.retry import Resend
from kiosk.api.session import Call

_CLIENTS = "/external/clients"


class ClientEndpoints(EndpointBase):
    def _clients_query(
        self,
        page: int,
        limit: int | None,
        query: str | None,
        order: ClientOrder | str | None,
        direction: Direction | str | None,
        level_id: int | None,
        filters: Mapping[str, str | int | bool] | None,
    ) -> ListQuery:
        return list_query(
            page=page,
            limit=limit,
            query=query,
            order=order,
            direction=direction,
            filters={**client_filters(level_id), **(filters or {})},
        )

    async def list_clients(
        self,
        *,
        page: int = 1,
        limit: int | None = None,
        query: str | None = None,
        order: ClientOrder | str | None = None,
        direction: Direction | str | None = None,
        level_id: int | None = None,
        filters: Mapping[str, str | int | bool] | None = None,
    ) -> Page[Client]:
        """One page of clients (by available points, descending, unless ``order``).
        ``filters``: further API parameters by their API names (tag, points range
        and last-credit dates exist; their names are not documented)."""
        q = self._clients_query(page, limit, query, order, direction, level_id, filters)
        call = Call("GET", _CLIENTS, name="list_clients", params=q.to_params())
        return await self._page(call, "clients", Client.from_json)

    async def iter_clients(
        self,
        *,
        query: str | None = None,
        order: ClientOrder | str | None = None,
        direction: Direction | str | None = None,
        level_id: int | None = None,
        filters: Mapping[str, str | int | bool] | None = None,
    ) -> AsyncIterator[Client]:
        q = self._clients_query(1, None, query, order, direction, level_id, filters)
        call = Call("GET", _CLIENTS, name="list_clients")
        async for client in self._walk(call, q, "clients", Client.from_json):
            yield client

    async def search_client(self, query: str) -> Client:
        """The client with exactly this email or document number (404: ``CLIENT``).

        The record carries ``registered`` and ``register_url`` (a ``SecretUrl``: keep
        it in memory for the QR only; its hash is registered so no log shows it).
        """
        call = Call(
            "GET",
            f"{_CLIENTS}/search",
            name="search_client",
            params={"query": query.strip()},
            resource=Resource.CLIENT,
        )
        client = self._data(await self._send(call), "client", Client.from_json)
        if client.register_url is not None:
            logsafety.register_secret_url(client.register_url.reveal())
        return client

    async def create_client(
        self, draft: NewClient, *, branch_id: int | None = None
    ) -> Applied[Client]:
        """Create a client (welcome points, level later, welcome email).

        Not resent after a lost answer: the client search tells whether it was
        created (``reconciled``), else ``AmbiguousOutcome``. 409 ``CLIENT_EXISTS``
        when the email or document is already registered.
        """
        reader = cast(reconcile.Reader, self)
        existed = await reconcile.creation_before(reader, draft)
        call = Call(
            "POST",
            _CLIENTS,
            name="create_client",
            body=draft.to_json(),
            branch_id=self._branch(branch_id),
            resend=Resend.IF_NOT_APPLIED,
        )
        try:
            answer = await self._send(call)
            return Applied(self._data(answer, "client", Client.from_json))
        except (AmbiguousOutcome, MalformedResponse) as error:
            lost = (
                error
                if isinstance(error, AmbiguousOutcome)
                else AmbiguousOutcome(
                    operation="create_client",
                    cause=ErrorKind.MALFORMED,
                    status=error.status,
                    method=error.method,
                    path=error.path,
                )
            )
        return await reconcile.reconcile_creation(
            reader,
            self._sleep,
            self._settle_seconds,
            draft=draft,
            existed_before=existed,
            lost=lost,
        )

    async def update_client(self, client_id: int, changes: ClientChanges) -> Client:
        """Incremental update: unset fields stay as they are."""
        call = Call(
            "PUT",
            f"{_CLIENTS}/{segment(client_id)}",
            name="update_client",
            body=changes.to_json(),
            resource=Resource.CLIENT,
            resend=Resend.IF_NOT_APPLIED,
        )
        return self._data(await self._send(call), "client", Client.from_json)

    async def delete_client(self, client_id: int, reasons: Sequence[RemovalReason]) -> None:
        """Schedule the client's removal (30 days' grace, then anonymized)."""
        call = Call(
            "DELETE",
            f"{_CLIENTS}/{segment(client_id)}",
            name="delete_client",
            body=removal_body(reasons),
            resource=Resource.CLIENT,
            resend=Resend.IF_NOT_APPLIED,
        )
        await self._send(call)

    async def suspend_client(self, client_id: int) -> Client | None:
        """Stop the client from accumulating; the updated record when the API sends it."""
        call = Call(
            "PUT",
            f"{_CLIENTS}/{segment(client_id)}/status",
            name="suspend_client",
            body=suspend_body(),
            resource=Resource.CLIENT,
            resend=Resend.IF_NOT_APPLIED,
        )
        answer = await self._send(call)
        return self._parse(answer, _optional_client)


def _optional_client(body: object) -> Client | None:
    data = envelope_data(body, "client", required=False)
    return Client.from_json(data) if data is not None else None
