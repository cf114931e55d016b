"""Clients: list and walk, search, create, update, remove, suspend."""

from __future__ import annotations

from collections.abc import Callable

from kiosk.api import ErrorKind, LoyaltyClient, Reason, Resource
from kiosk.api.models import (
    ClientChanges,
    ClientOrder,
    CreditClient,
    CreditRequest,
    Direction,
    NewClient,
    RemovalReason,
    SecretUrl,
)
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from tests.api.conftest import run
from tests.api.support import CAMILA_DNI, JUAN_DNI, JUAN_EMAIL, client_record, fails

Connect = Callable[..., LoyaltyClient]


def add_clients(world: World, count: int) -> None:
    """Copies of a seeded client with their own id, email and document."""
    table = world.merchants[1].tables["clients"]
    template = client_record(world, JUAN_DNI)
    for i in range(count):
        new_id = world.next_id("clients")
        document = f"50{i:06d}"
        table[new_id] = {
            **template,
            "id": new_id,
            "email": f"copia{i}@example.com",
            "dni": document,
            "document_number": document,
            "affiliate_card": f"COPY-{i}",
        }


def test_one_page_with_query_order_and_filters(connect: Connect, sim_world: World) -> None:
    async def scenario() -> None:
        async with connect() as api:
            first = await api.list_clients()
            by_name = await api.list_clients(
                order=ClientOrder.FULL_NAME, direction=Direction.ASC, limit=50
            )
            perez = await api.list_clients(query="Pérez")
            gold = await api.list_clients(level_id=3, limit=50)
            rich = await api.list_clients(filters={"minPoints": 15000}, limit=50)
        assert first.meta.current_page == 1
        assert first.meta.total_items == 36
        balances = [c.balance for c in first.items]
        assert balances == sorted(balances, reverse=True)  # default: points descending
        names = [c.name or "" for c in by_name.items]
        assert names[0].startswith("Agustina")
        assert [c.document_number for c in perez.items] == [JUAN_DNI]
        assert gold.items
        assert all(c.level is not None and c.level.id == 3 for c in gold.items)
        assert rich.items
        assert all(c.balance >= 15000 for c in rich.items)

    run(scenario())


def test_walk_requests_pages_of_200_until_the_last(
    connect: Connect, sim_world: World, control: SimControl
) -> None:
    add_clients(sim_world, 230)

    async def scenario() -> list[int]:
        async with connect() as api:
            return [c.id async for c in api.iter_clients(order=ClientOrder.CREATED_AT)]

    ids = run(scenario())
    assert len(ids) == len(set(ids)) == 266
    queries = [r["query"] for r in control.requests(path="^/external/clients$")]
    assert len(queries) == 2
    assert all("limit=200" in q for q in queries)
    assert "page=1" in queries[0]
    assert "page=2" in queries[1]


def test_walking_an_empty_list_stops_at_once(connect: Connect, control: SimControl) -> None:
    async def scenario() -> list[int]:
        async with connect() as api:
            return [c.id async for c in api.iter_clients(query="no existe nadie así")]

    assert run(scenario()) == []
    assert len(control.requests(path="^/external/clients$")) == 1


def test_search_by_email_or_document_and_register_url(connect: Connect) -> None:
    async def scenario() -> None:
        async with connect() as api:
            by_email = await api.search_client(JUAN_EMAIL.upper())
            by_document = await api.search_client(JUAN_DNI)
            camila = await api.search_client(CAMILA_DNI)
            missing = await fails(api.search_client("nadie@example.com"))
        assert by_email.id == by_document.id
        assert by_email.registered is True
        assert by_email.register_url is None
        assert camila.registered is False
        assert isinstance(camila.register_url, SecretUrl)
        assert camila.register_url.reveal().startswith("https://")
        assert camila.register_url.reveal() not in repr(camila)
        assert (missing.kind, missing.resource) == (ErrorKind.NOT_FOUND, Resource.CLIENT)

    run(scenario())


def test_create_client_and_its_refusals(
    connect: Connect, control: SimControl, main_branches: list[int]
) -> None:
    async def scenario() -> None:
        async with connect() as api:
            created = await api.create_client(
                NewClient(
                    first_name="Ana",
                    last_name="López",
                    email="ana.lopez@example.com",
                    document_number="44123987",
                    phone="+54 11 5555-1234",
                ),
                branch_id=main_branches[1],
            )
            taken = await fails(api.create_client(NewClient(document_number=JUAN_DNI)))
            invalid = await fails(api.create_client(NewClient(email="sin-arroba")))
        assert not created.reconciled
        assert created.record.email == "ana.lopez@example.com"
        assert created.record.balance == 50  # welcome points
        assert (taken.kind, taken.reason) == (ErrorKind.CONFLICT, Reason.CLIENT_EXISTS)
        assert invalid.kind is ErrorKind.VALIDATION
        assert invalid.field_errors

    run(scenario())
    post = control.requests(path="^/external/clients$", method="POST")[0]
    assert post["branch"] == main_branches[1]


def test_update_client_and_taken_identifiers(connect: Connect, sim_world: World) -> None:
    juan = client_record(sim_world, JUAN_DNI)
    other = client_record(sim_world, CAMILA_DNI)

    async def scenario() -> None:
        async with connect() as api:
            updated = await api.update_client(
                other["id"],
                ClientChanges(phone="+54 11 4444-0000", description="Prefiere WhatsApp"),
            )
            email = await fails(api.update_client(other["id"], ClientChanges(email=juan["email"])))
            document = await fails(
                api.update_client(other["id"], ClientChanges(document_number=JUAN_DNI))
            )
            card = await fails(
                api.update_client(other["id"], ClientChanges(affiliate_card=juan["affiliate_card"]))
            )
            locked = await fails(
                api.update_client(juan["id"], ClientChanges(email="otro.email@example.com"))
            )
            missing = await fails(api.update_client(999_999, ClientChanges(phone="1")))
        assert updated.phone == "+54 11 4444-0000"
        assert updated.first_name == "Camila"
        assert (email.kind, email.reason) == (ErrorKind.CONFLICT, Reason.EMAIL_TAKEN)
        assert (document.kind, document.reason) == (ErrorKind.CONFLICT, Reason.DOCUMENT_TAKEN)
        assert (card.kind, card.reason) == (ErrorKind.CONFLICT, Reason.CARD_TAKEN)
        assert (locked.kind, locked.reason) == (ErrorKind.BAD_REQUEST, Reason.EMAIL_LOCKED)
        assert (missing.kind, missing.resource) == (ErrorKind.NOT_FOUND, Resource.CLIENT)

    run(scenario())


def test_suspend_then_credit_is_refused_and_delete_hides_the_client(
    connect: Connect, sim_world: World
) -> None:
    camila = client_record(sim_world, CAMILA_DNI)
    juan = client_record(sim_world, JUAN_DNI)

    async def scenario() -> None:
        async with connect() as api:
            suspended = await api.suspend_client(camila["id"])
            refused = await fails(
                api.credit(CreditRequest("S-9", CreditClient(document=CAMILA_DNI), amount=1000))
            )
            await api.delete_client(juan["id"], [RemovalReason.REQUESTED_BY_CLIENT])
            gone = await fails(api.search_client(JUAN_DNI))
            again = await fails(api.delete_client(juan["id"], [RemovalReason.OTHER]))
        assert suspended is not None
        assert suspended.is_suspended
        assert refused.kind is ErrorKind.SUSPENDED
        assert (gone.kind, gone.resource) == (ErrorKind.NOT_FOUND, Resource.CLIENT)
        assert again.kind is ErrorKind.NOT_FOUND

    run(scenario())
