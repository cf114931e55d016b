"""Point operations: credit, preview, cancel (``/external/tags/*``, 10 per second)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from kiosk.api.endpoints._base import EndpointBase, segment
from kiosk.api.errors import ApiError, ErrorKind, Reason, Resource
from kiosk.api.models.points import (
    CancelResult,
    CreditRequest,
    CreditResult,
    ItemQuantity,
    PointOperation,
    Preview,
    PreviewUnavailable,
    preview_body,
    read_preview,
)
from kiosk.api.ratelimit import TAGS
from kiosk.api.retry import Resend
from kiosk.api.session import Call

log = logging.getLogger(__name__)


class PointsEndpoints(EndpointBase):
    async def credit(self, request: CreditRequest, *, background: bool = False) -> CreditResult:
        """Credit points now. With an ``external_id`` the call is resent after any
        lost answer, and the API's duplicate refusal means it was applied: the
        result is then ``already_credited`` (never an error, never retried)."""
        call = Call(
            "POST",
            "/external/tags/add",
            name="credit",
            body=request.to_json(origin=self._origin, branch_id=self._branch_id),
            resource=Resource.CLIENT,
            resend=Resend.ALWAYS if request.external_id else Resend.IF_NOT_APPLIED,
            operation=True,
            rule=TAGS,
            background=background,
        )
        try:
            answer = await self._send(call)
        except ApiError as error:
            if error.kind is ErrorKind.DUPLICATE_EXTERNAL_ID and request.external_id:
                if error.names_external_id != request.external_id:
                    raise _other_operation(error, request.external_id) from None
                return CreditResult(
                    request.external_id,
                    None,
                    already_credited=True,
                    after_lost_answer=error.after_lost_answer,
                )
            raise
        operation = self._data(answer, "credit", PointOperation.from_json)
        return CreditResult(request.external_id, operation)

    async def preview(
        self,
        client_id: int,
        *,
        amount: float | None = None,
        point_items: Sequence[ItemQuantity] | None = None,
        points: int | None = None,
        branch_id: int | None = None,
        background: bool = False,
    ) -> Preview | PreviewUnavailable:
        """What a credit would give, bonuses included; exactly one of ``amount``,
        ``point_items`` or ``points`` (direct points). Nothing is applied.

        The contract does not show the answer's shape: a 2xx without the figures the
        kiosk reads is ``PreviewUnavailable`` (logged), not an error."""
        body = preview_body(
            client_id=client_id,
            amount=amount,
            point_items=point_items,
            points=points,
            branch_id=self._branch(branch_id),
        )
        call = Call(
            "POST",
            "/external/tags/add/preview",
            name="preview",
            body=body,
            resource=Resource.CLIENT,
            operation=True,
            rule=TAGS,
            background=background,
        )
        answer = await self._send(call)
        preview = read_preview(self._any_shape(answer), answer.status)
        if isinstance(preview, PreviewUnavailable):
            log.warning(
                "%s %s -> %d without the preview's figures (%s): preview unavailable",
                answer.method,
                answer.path,
                answer.status,
                preview.reason,
            )
        return preview

    async def cancel_credit(self, external_id: str, *, background: bool = False) -> CancelResult:
        """Revert the credit bound to ``external_id``. Resent after a lost answer; a
        404 then means an earlier attempt already reverted it (``already_canceled``).
        Any 2xx is the cancel, whatever its body (the contract does not show it)."""
        call = Call(
            "PUT",
            f"/external/tags/cancel/{segment(external_id)}",
            name="cancel_credit",
            resource=Resource.POINT_OPERATION,
            operation=True,
            rule=TAGS,
            background=background,
        )
        try:
            answer = await self._send(call)
        except ApiError as error:
            if error.kind is ErrorKind.NOT_FOUND and error.after_lost_answer:
                return CancelResult(external_id=external_id, already_canceled=True)
            raise
        return CancelResult.from_answer(self._any_shape(answer), external_id)


def _other_operation(error: ApiError, external_id: str) -> ApiError:
    """A duplicate refusal that does not name our id (another id, or none in the
    contract's form): not proof that our credit happened. A refusal (``CONFLICT``) the
    outbox keeps as a dead letter for a manager, never a silent success
    (docs/design/outbox.md, "A duplicate that is not ours")."""
    log.warning(
        "credit %s: a duplicate refusal that does not name this id (%s): not counted as ours",
        external_id,
        "another id" if error.names_external_id else "no id in the contract's form",
    )
    refusal = ApiError(
        ErrorKind.CONFLICT,
        status=error.status,
        message=error.message,
        reason=Reason.OTHER_OPERATION,
        method=error.method,
        path=error.path,
    )
    refusal.after_lost_answer = error.after_lost_answer
    return refusal
