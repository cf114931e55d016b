"""What every endpoint mixin of ``LoyaltyClient`` shares: send, read, page, walk."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import replace
from typing import Any, TypeVar
from urllib.parse import quote

from kiosk.api.errors import MalformedResponse
from kiosk.api.models.common import (
    MAX_PAGE_SIZE,
    Direction,
    ListQuery,
    Page,
    PageMeta,
    envelope_data,
)
from kiosk.api.ratelimit import Sleep
from kiosk.api.session import MAX_LIST_BODY, Answer, Call, Session

T = TypeVar("T")

# The most pages one walk reads (40,000 records at 200 a page): a merchant's levels,
# rewards, point items or operators are far fewer; a longer list is a broken server.
MAX_WALK_PAGES = 200


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
        """Every item of a list: pages of 200 until ``currentPage == totalPages``.

        A list that never ends is refused (``MalformedResponse``): a page whose
        ``currentPage`` is not the page asked (a server that ignores ``?page=``), or a
        walk past the pages its first page's ``totalItems`` allow (at most
        ``MAX_WALK_PAGES``)."""
        query = replace(query, page=1, limit=MAX_PAGE_SIZE)
        bound = MAX_WALK_PAGES
        while True:
            sent = replace(call, params=query.to_params())
            page = await self._page(sent, what, parse)
            if page.meta.current_page != query.page:
                raise MalformedResponse(
                    f"{what}: asked for page {query.page}, "
                    f"answered page {min(page.meta.current_page, 10**9)}",
                    method=sent.method,
                    path=sent.shown_path,
                )
            if query.page == 1:
                bound = walk_bound(page.meta, len(page.items))
            for item in page.items:
                yield item
            if page.meta.is_last or query.page >= page.meta.total_pages or not page.items:
                return
            if query.page >= bound:
                raise MalformedResponse(
                    f"{what}: the list does not end (still more after page {query.page}, "
                    f"at most {bound} expected)",
                    method=sent.method,
                    path=sent.shown_path,
                )
            query = replace(query, page=query.page + 1)


def walk_bound(meta: PageMeta, first_page_items: int) -> int:
    """How many pages a walk may read, from its first page: what ``totalItems`` needs
    at the page size the server used (one more for items added during the walk), never
    more than ``MAX_WALK_PAGES``."""
    if meta.total_items is None:
        return MAX_WALK_PAGES
    size = max(meta.items_per_page or 0, first_page_items, 1)
    return max(1, min(MAX_WALK_PAGES, -(-meta.total_items // size) + 1))
