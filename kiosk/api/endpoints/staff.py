"""Branches (read only) and operators."""

from __future__ import annotations

from collections.abc import AsyncIterator

from kiosk.api.endpoints._base import EndpointBase, list_query, segment
from kiosk.api.errors import ApiError, ErrorKind, Resource
from kiosk.api.models._read import list_of
from kiosk.api.models.common import Direction, ListQuery, Page
from kiosk.api.models.staff import Branch, NewOperator, Operator, OperatorChanges, OperatorOrder
from kiosk.api.retry import Resend
from kiosk.api.session import MAX_LIST_BODY, Call

_BRANCHES = "/external/branch"
_OPERATORS = "/external/operators"


class StaffEndpoints(EndpointBase):
    # -- branches -----------------------------------------------------------------
    async def list_branches(self) -> tuple[Branch, ...]:
        call = Call(
            "GET",
            _BRANCHES,
            name="list_branches",
            resource=Resource.BRANCH,
            max_body=MAX_LIST_BODY,
        )
        return self._data(
            await self._send(call), "branches", lambda d: list_of(d, "branches", Branch.from_json)
        )

    async def get_branch(self, branch_id: int) -> Branch:
        """404 ``BRANCH`` when missing or of another merchant."""
        call = Call(
            "GET", f"{_BRANCHES}/{segment(branch_id)}", name="get_branch", resource=Resource.BRANCH
        )
        return self._data(await self._send(call), "branch", Branch.from_json)

    async def check_key(self) -> bool:
        """Whether the key opens a merchant (``GET /external/branch``, the lightest
        call). ``False`` for a missing or unknown key; other failures raise."""
        try:
            await self.list_branches()
        except ApiError as error:
            if error.kind is ErrorKind.AUTH:
                return False
            raise
        return True

    # -- operators ----------------------------------------------------------------
    def _operators_call(
        self,
        page: int,
        limit: int | None,
        query: str | None,
        order: OperatorOrder | str | None,
        direction: Direction | str | None,
    ) -> tuple[Call, ListQuery]:
        q = list_query(page=page, limit=limit, query=query, order=order, direction=direction)
        return Call("GET", _OPERATORS, name="list_operators", params=q.to_params()), q

    async def list_operators(
        self,
        *,
        page: int = 1,
        limit: int | None = None,
        query: str | None = None,
        order: OperatorOrder | str | None = None,
        direction: Direction | str | None = None,
    ) -> Page[Operator]:
        """Administrators first unless ``order``; records without ``branches``."""
        call, _ = self._operators_call(page, limit, query, order, direction)
        return await self._page(call, "operators", Operator.from_json)

    async def iter_operators(
        self,
        *,
        query: str | None = None,
        order: OperatorOrder | str | None = None,
        direction: Direction | str | None = None,
    ) -> AsyncIterator[Operator]:
        call, q = self._operators_call(1, None, query, order, direction)
        async for item in self._walk(call, q, "operators", Operator.from_json):
            yield item

    async def get_operator(self, operator_id: int) -> Operator:
        """The operator with its ``branches`` and permission groups."""
        call = Call(
            "GET",
            f"{_OPERATORS}/{segment(operator_id)}",
            name="get_operator",
            resource=Resource.OPERATOR,
        )
        return self._data(await self._send(call), "operator", Operator.from_json)

    async def create_operator(self, draft: NewOperator) -> Operator:
        """400 ``OPERATOR_CAP`` when the plan's operator cap is reached."""
        call = Call(
            "POST",
            _OPERATORS,
            name="create_operator",
            body=draft.to_json(),
            resource=Resource.OPERATOR,
            resend=Resend.IF_NOT_APPLIED,
        )
        return self._data(await self._send(call), "operator", Operator.from_json)

    async def update_operator(self, operator_id: int, changes: OperatorChanges) -> Operator:
        call = Call(
            "PUT",
            f"{_OPERATORS}/{segment(operator_id)}",
            name="update_operator",
            body=changes.to_json(),
            resource=Resource.OPERATOR,
            resend=Resend.IF_NOT_APPLIED,
        )
        return self._data(await self._send(call), "operator", Operator.from_json)

    async def delete_operator(self, operator_id: int) -> None:
        call = Call(
            "DELETE",
            f"{_OPERATORS}/{segment(operator_id)}",
            name="delete_operator",
            resource=Resource.OPERATOR,
            resend=Resend.IF_NOT_APPLIED,
        )
        await self._send(call)
