"""Credit, preview and cancel against the simulator over loopback HTTP."""

from __future__ import annotations

from collections.abc import Callable

from kiosk.api import ErrorKind, LoyaltyClient, Reason, Resource
from kiosk.api.models import CreditClient, CreditRequest, ItemQuantity
from kiosk.sim.control import SimControl
from kiosk.sim.world import World
from tests.api.conftest import run
from tests.api.support import JUAN_DNI, SUSPENDED_DNI, client_record, fails

Connect = Callable[..., LoyaltyClient]


def juan(
    amount: float | None = 1500, external_id: str | None = "T-0001", **kw: object
) -> CreditRequest:
    return CreditRequest(external_id, CreditClient(document=JUAN_DNI), amount=amount, **kw)  # type: ignore[arg-type]


def test_credit_applies_once_and_a_repeat_is_already_credited(
    connect: Connect, control: SimControl, sim_world: World, main_branches: list[int]
) -> None:
    before = client_record(sim_world, JUAN_DNI)["score"]

    async def scenario() -> None:
        async with connect() as api:
            first = await api.credit(juan())
            again = await api.credit(juan())
        assert first.operation is not None
        assert not first.already_credited
        assert first.operation.points.total == 18  # 15 + 25% level bonus (Plata)
        assert first.operation.points.initial == 15
        assert again.already_credited
        assert again.operation is None
        assert again.external_id == "T-0001"

    run(scenario())
    ops = [op for op in control.ledger() if op["externalId"] == "T-0001"]
    assert len(ops) == 1
    assert ops[0]["branchId"] == main_branches[0]
    assert client_record(sim_world, JUAN_DNI)["score"] == before + 18


def test_credit_by_point_items_and_a_new_client_is_created(
    connect: Connect, sim_world: World
) -> None:
    async def scenario() -> None:
        async with connect() as api:
            by_items = await api.credit(juan(amount=None, point_items=[1, 1, 5], external_id="I-1"))
            created = await api.credit(
                CreditRequest(
                    "N-1",
                    CreditClient(email="nueva.clienta@example.com", first_name="Nueva"),
                    amount=2500,
                )
            )
            found = await api.search_client("nueva.clienta@example.com")
        assert by_items.operation is not None
        assert by_items.operation.points.reward_type == "items"
        assert by_items.operation.points.initial == 50 + 50 + 120
        assert created.operation is not None
        assert created.operation.client_id == found.id

    run(scenario())


def test_credit_refusals_are_typed(connect: Connect, other_branches: list[int]) -> None:
    async def scenario() -> None:
        async with connect() as api:
            suspended = await fails(
                api.credit(CreditRequest("S-1", CreditClient(document=SUSPENDED_DNI), amount=1000))
            )
            foreign = await fails(api.credit(juan(external_id="F-1", branch_id=other_branches[0])))
            no_item = await fails(
                api.credit(juan(amount=None, point_items=[999], external_id="U-1"))
            )
            unknown = await fails(
                api.credit(
                    CreditRequest(
                        "U-2",
                        CreditClient(email="nadie@example.com"),
                        amount=1000,
                        ignore_create_client=True,
                    )
                )
            )
            no_points = await fails(api.credit(juan(amount=50, external_id="Z-1")))
            invalid = await fails(
                api.credit(CreditRequest("V-1", CreditClient(email="no-es-un-email"), amount=1000))
            )
        assert suspended.kind is ErrorKind.SUSPENDED
        assert suspended.status == 403
        assert (foreign.kind, foreign.reason) == (ErrorKind.FORBIDDEN, Reason.FOREIGN_BRANCH)
        assert (no_item.kind, no_item.resource) == (ErrorKind.NOT_FOUND, Resource.POINT_ITEM)
        assert (unknown.kind, unknown.resource) == (ErrorKind.NOT_FOUND, Resource.CLIENT)
        assert (no_points.kind, no_points.reason) == (ErrorKind.BAD_REQUEST, Reason.NO_POINTS)
        assert invalid.kind is ErrorKind.VALIDATION
        assert any(f.field.endswith("email") for f in invalid.field_errors)

    run(scenario())


def test_preview_in_its_three_modes_applies_nothing(
    connect: Connect, control: SimControl, sim_world: World, main_branches: list[int]
) -> None:
    client_id = client_record(sim_world, JUAN_DNI)["id"]
    before = len(control.ledger())

    async def scenario() -> None:
        async with connect() as api:
            by_amount = await api.preview(client_id, amount=1500)
            by_items = await api.preview(client_id, point_items=[ItemQuantity(1, 2)])
            direct = await api.preview(client_id, points=100, branch_id=main_branches[1])
        assert (by_amount.points.initial, by_amount.points.level_bonus, by_amount.points.total) == (
            15,
            3,
            18,
        )
        assert by_amount.level is not None
        assert by_amount.level.points_multiplier == 1.25
        assert by_items.points.reward_type == "items"
        assert by_items.points.initial == 100
        assert direct.points.reward_type == "points"
        assert direct.points.rules_bonus is not None
        assert direct.points.rules_bonus > 0
        assert direct.branch_id == main_branches[1]

    run(scenario())
    assert len(control.ledger()) == before


def test_preview_refusals_are_typed(connect: Connect, sim_world: World) -> None:
    suspended_id = client_record(sim_world, SUSPENDED_DNI)["id"]
    juan_id = client_record(sim_world, JUAN_DNI)["id"]

    async def scenario() -> None:
        async with connect() as api:
            suspended = await fails(api.preview(suspended_id, amount=1000))
            missing = await fails(api.preview(999_999, amount=1000))
            nothing = await fails(api.preview(juan_id, amount=10))
        assert suspended.kind is ErrorKind.SUSPENDED
        assert (missing.kind, missing.resource) == (ErrorKind.NOT_FOUND, Resource.CLIENT)
        assert (nothing.kind, nothing.reason) == (ErrorKind.BAD_REQUEST, Reason.NO_POINTS)

    run(scenario())


def test_cancel_reverts_a_credit_and_an_unknown_id_is_not_found(
    connect: Connect, sim_world: World
) -> None:
    async def scenario() -> None:
        async with connect() as api:
            await api.credit(juan(external_id="C-1 ticket"))  # the space is quoted in the path
            balance = (await api.search_client(JUAN_DNI)).balance
            canceled = await api.cancel_credit("C-1 ticket")
            after = (await api.search_client(JUAN_DNI)).balance
            missing = await fails(api.cancel_credit("C-1 ticket"))
        assert canceled.status == "canceled"
        assert canceled.external_id == "C-1 ticket"
        assert canceled.points is not None
        assert after == balance - canceled.points.total
        assert not canceled.already_canceled
        assert (missing.kind, missing.resource) == (ErrorKind.NOT_FOUND, Resource.POINT_OPERATION)

    run(scenario())
