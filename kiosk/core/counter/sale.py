"""One sale at the counter: its amount or items, ticket, preview, id and state.

``editing -> previewed -> crediting -> done`` (or ``failed``, from which the same
sale is tried again with the same id). A sale may be "previewed" without figures
(``no_preview``): offline, or when the service's answer to the preview held none. The
``external_id`` is fixed on the first attempt and kept for every retry; an edit of the
amount, the items or the mode is a new sale (a new id, no preview); another ticket is a
new id too, but keeps the preview (the ticket does not change the points).
``kiosk.core.counter.credit`` drives it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from kiosk.api.models.points import PointOperation, Preview
from kiosk.core.counter.basket import Basket
from kiosk.core.counter.tickets import normalize_ticket


class SaleMode(StrEnum):
    AMOUNT = "amount"
    ITEMS = "items"


class SaleState(StrEnum):
    EDITING = "editing"
    PREVIEWED = "previewed"
    CREDITING = "crediting"
    DONE = "done"
    FAILED = "failed"


class NoPreview(StrEnum):
    """Why a sale goes on to its credit without a preview's figures."""

    OFFLINE = "offline"  # no connection, or a client not verified: the outbox credits it later
    UNAVAILABLE = "unavailable"  # the service answered the preview without figures
    BUSY = "busy"  # the service asked the kiosk to wait (a long 429): asked again at retry_at


class SaleProblem(StrEnum):
    NO_CLIENT = "no_client"
    CLIENT_CHANGED = "client_changed"
    EMPTY_BASKET = "empty_basket"
    NOT_PREVIEWED = "not_previewed"
    BUSY = "busy"
    FINISHED = "finished"


class SaleError(RuntimeError):
    """The sale cannot do that now; ``problem`` says why (the screen words it)."""

    def __init__(self, problem: SaleProblem) -> None:
        self.problem = problem
        super().__init__(problem.value)


class CreditStatus(StrEnum):
    CREDITED = "credited"
    ALREADY_CREDITED = "already_credited"  # the cashier's ticket was credited before
    PENDING = "pending"  # kept in the outbox: it will be sent automatically


@dataclass(frozen=True)
class CreditOutcome:
    status: CreditStatus
    external_id: str
    points: int | None  # points given (the preview's total when only a 409 confirmed it)
    operation: PointOperation | None = None
    confirmed_by_duplicate: bool = False  # our earlier attempt was applied (409 on a retry)
    balance: int | None = None  # the client's available points afterwards, when read
    pending: int = 0  # PENDING: operations waiting in the outbox, this one included
    # The service's answer named another client than the one at the counter (its id):
    # the cashier is told, a manager checks where the points went.
    other_client: int | None = None


class Sale:
    """One sale at the counter (see the module's docstring). Edit it through its
    methods: they keep the preview and the external id honest."""

    def __init__(self, mode: SaleMode = SaleMode.AMOUNT) -> None:
        self.mode = mode
        self.amount_text = ""
        self.ticket_text = ""
        self._basket = Basket()
        self.state = SaleState.EDITING
        self.revision = 0
        self.amount: Decimal | None = None  # parsed when previewed
        # Set when the sale goes on without a preview's figures: see ``unpreviewed``.
        self.no_preview: NoPreview | None = None
        self.retry_at: float | None = None  # BUSY: when the kiosk asks the service again
        self.ticket: str | None = None  # normalized on the first attempt
        self.preview: Preview | None = None
        self.client_id: int | None = None
        self.external_id: str | None = None
        self.attempts = 0
        self.maybe_applied = False  # an attempt of this id may have reached the server
        self.outcome: CreditOutcome | None = None
        self.error: BaseException | None = None

    @property
    def basket(self) -> Basket:
        """A copy: change the items with ``add_item`` / ``remove_item``."""
        return self._basket.copy()

    @property
    def preview_unavailable(self) -> bool:
        """The sale goes on to its credit without a preview's figures."""
        return self.no_preview is not None

    @property
    def locked(self) -> bool:
        return self.state in (SaleState.CREDITING, SaleState.DONE)

    # -- edits: each one makes a new sale (a new id; no preview unless the ticket) ----
    def _check_editable(self) -> None:
        if self.state is SaleState.CREDITING:
            raise SaleError(SaleProblem.BUSY)
        if self.state is SaleState.DONE:
            raise SaleError(SaleProblem.FINISHED)

    def _new_id(self) -> None:
        self.external_id = None
        self.ticket = None
        self.attempts = 0
        self.maybe_applied = False
        self.error = None

    def _edit(self) -> None:
        self._check_editable()
        self.revision += 1
        self.state = SaleState.EDITING
        self.preview = None
        self.no_preview = None
        self.retry_at = None
        self._new_id()

    def set_mode(self, mode: SaleMode) -> None:
        if mode is not self.mode:
            self._edit()
            self.mode = mode

    def set_amount_text(self, text: str) -> None:
        if text != self.amount_text:
            self._edit()
            self.amount_text = text

    def set_ticket_text(self, text: str) -> None:
        """Another ticket is another sale (a new id), but the preview still holds."""
        if text != self.ticket_text:
            self._check_editable()
            self._new_id()
            if self.state is SaleState.FAILED:
                self.state = SaleState.PREVIEWED
            self.ticket_text = text

    def add_item(self, item_id: int) -> int:
        """One more unit (``BasketFull`` at the limit, nothing changed)."""
        if self._basket.is_full:
            self._basket.add(item_id)  # raises BasketFull
        self._edit()
        return self._basket.add(item_id)

    def remove_item(self, item_id: int) -> int:
        if self._basket.count(item_id) == 0:
            return 0
        self._edit()
        return self._basket.remove(item_id)

    def clear_items(self) -> None:
        if not self._basket.is_empty:
            self._edit()
            self._basket.clear()

    def reopen(self) -> None:
        """Back to editing the same amount or items: the preview is discarded (the
        cashier's Escape). Only a previewed sale: a failed credit may have been applied."""
        if self.state is SaleState.PREVIEWED:
            self._edit()

    # -- transitions driven by the flow ------------------------------------------------
    def previewed(
        self, preview: Preview, *, client_id: int, amount: Decimal | None, revision: int
    ) -> bool:
        """Keep an answer; False (ignored) when the sale changed while it was asked."""
        if revision != self.revision or self.state is not SaleState.EDITING:
            return False
        self.preview, self.client_id, self.amount = preview, client_id, amount
        self.state = SaleState.PREVIEWED
        return True

    def unpreviewed(
        self,
        *,
        client_id: int,
        amount: Decimal | None,
        revision: int,
        why: NoPreview = NoPreview.OFFLINE,
        retry_at: float | None = None,
    ) -> bool:
        """Go on without a preview's figures (offline, a client not verified, the
        service's answer held none, or it asked the kiosk to wait until ``retry_at``,
        epoch seconds): the points are computed by the service when the credit reaches
        it."""
        if revision != self.revision or self.state is not SaleState.EDITING:
            return False
        self.preview, self.client_id, self.amount = None, client_id, amount
        self.no_preview = why
        self.retry_at = retry_at
        self.state = SaleState.PREVIEWED
        return True

    def begin_attempt(self, make_id: Callable[[str | None], str]) -> str:
        """Lock the sale for one attempt. On the first one the ticket is read and the
        id made from it (``make_id(ticket)``); retries reuse both."""
        if self.state not in (SaleState.PREVIEWED, SaleState.FAILED):
            raise SaleError(
                SaleProblem.BUSY
                if self.state is SaleState.CREDITING
                else SaleProblem.FINISHED
                if self.state is SaleState.DONE
                else SaleProblem.NOT_PREVIEWED
            )
        if self.external_id is None:
            ticket = normalize_ticket(self.ticket_text)  # TicketError: nothing changes
            self.external_id = make_id(ticket)
            self.ticket = ticket
        external_id = self.external_id
        self.attempts += 1
        self.state = SaleState.CREDITING
        self.error = None
        return external_id

    def succeeded(self, outcome: CreditOutcome) -> None:
        self.outcome = outcome
        self.state = SaleState.DONE

    def failed(self, error: BaseException, *, maybe_applied: bool) -> None:
        self.error = error
        self.maybe_applied = self.maybe_applied or maybe_applied
        self.state = SaleState.FAILED
