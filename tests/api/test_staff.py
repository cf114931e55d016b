"""Branches, the key check, operators."""

from __future__ import annotations

from collections.abc import Callable

from kiosk.api import ErrorKind, LoyaltyClient, Reason, Resource
from kiosk.api.models import BranchAssignment, NewOperator, OperatorChanges, OperatorOrder
from kiosk.sim.control import SimControl
from tests.api.conftest import run
from tests.api.support import fails
from tests.conftest import OTHER_KEY

Connect = Callable[..., LoyaltyClient]


def test_branches_list_and_read(
    connect: Connect, main_branches: list[int], other_branches: list[int]
) -> None:
    async def scenario() -> None:
        async with connect() as api:
            branches = await api.list_branches()
            one = await api.get_branch(main_branches[1])
            foreign = await fails(api.get_branch(other_branches[0]))
            missing = await fails(api.get_branch(999_999))
        assert [b.id for b in branches] == main_branches
        assert all(b.is_enabled and b.branch_type == "physical" for b in branches)
        assert one.name == "Sucursal Palermo"
        assert one.address
        for error in (foreign, missing):
            assert (error.kind, error.resource) == (ErrorKind.NOT_FOUND, Resource.BRANCH)

    run(scenario())


def test_check_key_and_credential_failures(connect: Connect, control: SimControl) -> None:
    async def scenario() -> None:
        async with connect() as good, connect(OTHER_KEY) as other, connect("not-a-real-key") as bad:
            assert await good.check_key()
            assert await other.check_key()
            assert not await bad.check_key()
            invalid = await fails(bad.search_client("30123456"))
            control.add_fault(
                "status",
                "^/external/branch$",
                status=404,
                body={"statusCode": 404, "message": "Your API key is invalid"},
            )
            old_style = await fails(good.list_branches())
            control.add_fault(
                "status",
                "^/external/branch$",
                status=404,
                body={"statusCode": 404, "message": "Your API key is invalid"},
            )
            assert not await good.check_key()
        assert (invalid.kind, invalid.reason, invalid.status) == (
            ErrorKind.AUTH,
            Reason.KEY_INVALID,
            401,
        )
        assert (old_style.kind, old_style.status) == (ErrorKind.AUTH, 404)

    run(scenario())


def test_the_other_merchant_sees_only_its_own_records(connect: Connect) -> None:
    async def scenario() -> None:
        async with connect(OTHER_KEY, branch_id=None) as other:
            missing = await fails(other.search_client("27456789"))  # a client of merchant 1
            juan = await other.search_client("30123456")  # same person, other program
            products = [p.id async for p in other.iter_products()]
        assert missing.kind is ErrorKind.NOT_FOUND
        assert juan.balance == 640
        assert products == sorted(products)
        assert len(products) == 3

    run(scenario())


def test_operators_crud_and_cap(connect: Connect, main_branches: list[int]) -> None:
    async def scenario() -> None:
        async with connect() as api:
            page = await api.list_operators(order=OperatorOrder.EMAIL, limit=3)
            everyone = [o async for o in api.iter_operators()]
            detail = await api.get_operator(everyone[0].id)
            created = await api.create_operator(
                NewOperator(
                    "Rosa",
                    "Quispe",
                    "rosa.quispe@example.com",
                    branches=[BranchAssignment(main_branches[0], permission_group_id=None)],
                )
            )
            updated = await api.update_operator(
                created.id,
                OperatorChanges(
                    phone="+54 11 1111-2222", branches=[BranchAssignment(main_branches[1])]
                ),
            )
            taken = await fails(
                api.create_operator(NewOperator("Otra", "Rosa", "rosa.quispe@example.com"))
            )
            for i in range(10 - len(everyone) - 1):
                await api.create_operator(NewOperator("Op", str(i), f"op{i}@example.com"))
            capped = await fails(api.create_operator(NewOperator("Uno", "Más", "mas@example.com")))
            await api.delete_operator(created.id)
            gone = await fails(api.get_operator(created.id))
        assert page.meta.total_items == len(everyone)
        assert len(page.items) == 3
        emails = [o.email or "" for o in page.items]
        assert emails == sorted(emails)
        assert everyone[0].role == "admin"  # administrators first by default
        assert detail.branches
        assert all(b.branch_name for b in detail.branches)
        assert [b.branch_id for b in created.branches] == [main_branches[0]]
        assert [b.branch_id for b in updated.branches] == [main_branches[1]]
        assert updated.phone == "+54 11 1111-2222"
        assert updated.email == "rosa.quispe@example.com"
        assert (taken.kind, taken.reason) == (ErrorKind.CONFLICT, Reason.EMAIL_TAKEN)
        assert (capped.kind, capped.reason) == (ErrorKind.BAD_REQUEST, Reason.OPERATOR_CAP)
        assert (gone.kind, gone.resource) == (ErrorKind.NOT_FOUND, Resource.OPERATOR)

    run(scenario())
