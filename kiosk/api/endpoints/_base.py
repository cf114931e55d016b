"""What every endpoint mixin of ``LoyaltyClient`` shares: send, read, page, walk."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import replace
from typing import Any, TypeVar
from urllib.parse import quote

from kiosk.api.errors import MalformedResponse
from kiosk.api.models.common import MAX_PAGE_SIZE, Direction, ListQuery, Page, envelope_data
from kiosk.api.ratelimit import Sleep
from kiosk.api.session import MAX_LIST_BODY, Answer, Call, Session

T = TypeVar("T")


def segment(value: str | int) -> str:
    """A path segment, quoted (an external id may hold ``/`` or spaces).

    A segment of only dots (``.``, ``..``) is sent as ``%2E``s: left as it is, the URL's
    dot-segment removal would turn ``/external/purchase/..`` into ``/external`` (another
    endpoint). Sent encoded, it is the unknown code or id it is."""
    quoted = quote(str(value), safe="")
    if quoted and quoted.strip(".") == "":
        return "%2E" * len(quoted)
    return quoted


def list_query(
    *,
    page: int,
    limit: int | None,
    query: str | None,
    order: str | None,
    direction: Direction | str | None,
    filters: Mapping[str, str | int | bool | None] | None = None,
) -> ListQuery:
    return ListQuery(
        page=page,
        limit=limit,
        query=query,
        order=order,
        direction=Direction(direction) if direction is not None else None,
        filters={k: v for k, v in (filters or {}).items() if v is not None},
    )


class EndpointBase:
    _session: Session
    _branch_id: int | None
    _origin: str
    _sleep: Sleep
    _settle_seconds: float

    @property
    def branch_id(self) -> int | None:
        """The kiosk's branch: sent where the API takes one and none is given."""
        return self._branch_id

    def _branch(self, branch_id: int | None) -> int | None:
        return branch_id if branch_id is not None else self._branch_id

    async def _send(self, call: Call) -> Answer:
        return await self._session.send(call)

    @staticmethod
    def _parse(answer: Answer, parse: Callable[[Any], T]) -> T:
        """``parse(body)``, a malformed body located at the call that returned it."""
        try:
            return parse(answer.json())
        except MalformedResponse as error:
            error.at(method=answer.method, path=answer.path, status=answer.status)
            raise

    @classmethod
    def _any_shape(cls, answer: Answer) -> Any:
        """The JSON of a 2xx whose shape the contract does not show: ``None`` when the
        body is empty (a 204...). A body that is not JSON at all (an HTML page) is no
        answer of the service's: ``MalformedResponse``, as anywhere else."""
        if not answer.content or answer.content.isspace():
            return None
        return cls._parse(answer, lambda body: body)

    def _data(self, answer: Answer, what: str, parse: Callable[[Any], T]) -> T:
        """``parse`` applied to the ``data`` of an enveloped answer."""
        return self._parse(answer, lambda body: parse(envelope_data(body, what)))

    def _enveloped(self, answer: Answer, what: str) -> None:
        """Check an answer is an envelope (``data`` not needed)."""
        self._parse(answer, lambda body: envelope_data(body, what, required=False))

    async def _page(self, call: Call, what: str, parse: Callable[[Any], T]) -> Page[T]:
        answer = await self._send(replace(call, max_body=MAX_LIST_BODY))
        return self._parse(answer, lambda body: Page.from_json(body, what, parse))

    async def _walk(
        self, call: Call, query: ListQuery, what: str, parse: Callable[[Any], T]
    ) -> AsyncIterator[T]:
        """Every item of a list: pages of 200 until ``currentPage == totalPages``."""
        query = replace(query, page=1, limit=MAX_PAGE_SIZE)
        while True:
            page = await self._page(replace(call, params=query.to_params()), what, parse)
            for item in page.items:
                yield item
            if page.meta.is_last or query.page >= page.meta.total_pages or not page.items:
                return
            query = replace(query, page=query.page + 1)
