"""Long texts the contract allows (issue #30, item 2).

The contract sets no maximum on a product's description or a client's notes, and the
simulator accepts 6,000 and 5,000 characters. Through the client over loopback HTTP,
such a record is read, its long text kept cut to ``MAX_TEXT`` characters ending in
``CUT_MARK``; one long reward never empties the list, and that client is still
identified. An exact value (an email, a code) that long stays a malformed answer: a
cut one would be wrong.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from kiosk.api import LoyaltyClient
from kiosk.api.errors import ErrorKind
from kiosk.api.models.catalog import OfferDraft, ProductDraft
from kiosk.api.retry import NO_RETRY
from kiosk.sim.world import World
from tests.api.conftest import run
from tests.api.hostile_server import HostileServer, fixed
from tests.api.support import JUAN_DNI, client_record, fails
from tests.conftest import MAIN_KEY

Connect = Callable[..., LoyaltyClient]
MAX_TEXT = 4096  # kiosk.api.models._read.MAX_TEXT
MARK = "…"


def test_a_reward_with_6000_characters_of_terms_is_listed_cut(connect: Connect) -> None:
    terms = "Válido de lunes a viernes. " * 223 + "FIN"  # 6,024 characters
    assert len(terms) > 6000

    async def scenario() -> None:
        async with connect() as api:
            created = await api.create_product(
                ProductDraft("Termo", [OfferDraft(7000)], description=terms)
            )
            every = [p async for p in api.iter_products()]
            page = await api.list_products(limit=200)
        long = next(p for p in every if p.id == created.id)
        assert long.description == terms[: MAX_TEXT - 1] + MARK
        assert len(every) == len(page.items) == 13  # the seeded 12 and this one
        assert long in page.items

    run(scenario())


def test_a_client_with_5000_characters_of_notes_is_identified(
    connect: Connect, sim_world: World
) -> None:
    notes = "Prefiere que lo llamen por la tarde. " * 136  # 5,032 characters
    assert len(notes) > 5000
    # The merchant's notes, written in the merchant's panel (the API's PUT has a cap).
    client_record(sim_world, JUAN_DNI)["description"] = notes

    async def scenario() -> None:
        async with connect() as api:
            found = await api.search_client(JUAN_DNI)
            again = await api.search_client(JUAN_DNI)
            listed = [c async for c in api.iter_clients(query=JUAN_DNI)]
        assert again.id == found.id
        assert again.description is not None
        assert len(again.description) == MAX_TEXT
        assert again.description.endswith(MARK)
        assert notes.startswith(again.description[:-1])
        assert [c.id for c in listed] == [found.id]

    run(scenario())


def test_an_exact_value_that_long_is_still_malformed(client_warnings: None) -> None:
    record = {"id": 7, "score": 10, "email": "a" * 5000 + "@example.com"}
    body = json.dumps({"success": True, "status": 200, "data": record}).encode()
    with HostileServer(fixed(body)) as server:
        api = LoyaltyClient(server.base_url, MAIN_KEY, branch_id=1, retry=NO_RETRY)

        async def scenario() -> None:
            try:
                error = await fails(api.search_client(JUAN_DNI))
                assert error.kind is ErrorKind.MALFORMED
                assert "email: expected a string of at most 4096 characters" in error.message
            finally:
                await api.aclose()

        run(scenario())
