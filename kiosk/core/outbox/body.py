"""What an outbox row keeps of a credit: its request body, exactly as it goes on the wire.

``credit_body`` turns a ``CreditRequest`` into the JSON body the API receives (the
same ``to_json`` the client uses) and refuses anything that would not come back
unchanged from storage, so what is resent after a crash is byte for byte what was
meant. ``credit_request`` rebuilds the request from the stored body for the
sender. The body never holds the API key (it travels in a header).

The client's email, document and the rest of the ``client`` object are personal
data, kept only while the credit still has to be sent: ``redacted_body`` replaces
them with masked forms once a row is settled (done, voided or discarded), and a
redacted body can never be sent again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from kiosk.api.models.clients import Gender
from kiosk.api.models.common import DEFAULT_ORIGIN
from kiosk.api.redact import mask_document, mask_email
from kiosk.core.journal import client_display

if TYPE_CHECKING:  # the API's point records load with the first credit, after "ready"
    from kiosk.api.models.points import CreditRequest

Body = dict[str, Any]

REDACTED = "redacted"
"""Key set to ``true`` in a body whose personal data was blanked."""


class BodyError(ValueError):
    """A credit that cannot be kept in (or sent from) the outbox as it is."""


def credit_body(
    request: CreditRequest, *, branch_id: int | None, origin: str = DEFAULT_ORIGIN
) -> Body:
    """The wire body of ``request`` (``BodyError`` when it cannot be stored faithfully)."""
    if not request.external_id:
        raise BodyError("a queued credit needs its external id, fixed before the first attempt")
    if request.gift_cards:
        raise BodyError("credits with gift cards are not queued")
    body = request.to_json(origin=origin, branch_id=branch_id)
    if _wire(credit_request(body), body) != body:
        raise BodyError("the credit would not survive storage unchanged")
    return body


def credit_request(body: Mapping[str, Any]) -> CreditRequest:
    """The request that ``body`` is the wire form of (``BodyError`` if unreadable)."""
    from kiosk.api.models.points import CreditClient, CreditRequest

    if body.get(REDACTED):
        raise BodyError("the body's personal data was blanked: it cannot be sent")
    try:
        client = body["client"]
        extra = body.get("extra_data")
        gender = client.get("gender")
        return CreditRequest(
            external_id=str(body["external_id"]),
            client=CreditClient(
                email=client.get("email"),
                document=client.get("dni"),
                first_name=client.get("first_name"),
                last_name=client.get("last_name"),
                phone=client.get("phone"),
                birthday=_date(client.get("birthday")),
                gender=None if gender is None else Gender(gender),
            ),
            amount=body.get("amount"),
            point_items=body.get("pointItems"),
            branch_id=body.get("branch_id"),
            reason=body.get("reason"),
            ignore_create_client=body.get("ignoreCreateClient"),
            extra_data=json.loads(extra) if extra else None,
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise BodyError(f"unreadable credit body: {type(error).__name__}") from None


def _wire(request: CreditRequest, body: Mapping[str, Any]) -> Body:
    return request.to_json(origin=str(body.get("origin", DEFAULT_ORIGIN)), branch_id=None)


def _date(value: Any) -> date | None:
    if value is None:
        return None
    return datetime.fromisoformat(str(value).replace("Z", "+00:00")).date()


def redacted_body(body: Mapping[str, Any]) -> Body:
    """``body`` with the client's personal data masked (``a***@mail.com``, ``****3456``)."""
    if body.get(REDACTED) or "client" not in body:
        return dict(body)
    client = body["client"] if isinstance(body["client"], Mapping) else {}
    masked: Body = {}
    if client.get("email"):
        masked["email"] = mask_email(str(client["email"]))
    if client.get("dni"):
        masked["dni"] = mask_document(str(client["dni"]))
    return {**body, "client": masked, REDACTED: True}


def client_label(body: Mapping[str, Any]) -> str:
    """A display of the credited client with no personal data (masked email or document)."""
    client = body.get("client")
    if not isinstance(client, Mapping):
        return ""
    if body.get(REDACTED):
        return str(client.get("email") or client.get("dni") or "")
    name = " ".join(str(client[k]) for k in ("first_name", "last_name") if client.get(k))
    return client_display(name, client.get("email"), client.get("dni"))


def dumps(body: Mapping[str, Any]) -> str:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"))


def loads(text: str) -> Body:
    value = json.loads(text)
    if not isinstance(value, dict):
        raise BodyError("a stored body must be a JSON object")
    return value
