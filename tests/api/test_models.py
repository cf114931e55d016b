"""Records: unknown fields ignored, undocumented ones optional, wrong types refused."""

from __future__ import annotations

import copy
import json
import pickle
from datetime import UTC, date, datetime
from typing import Any

import pytest

from kiosk.api.errors import MalformedResponse
from kiosk.api.models import (
    Client,
    ClientChanges,
    CreditClient,
    CreditRequest,
    GiftCard,
    ItemQuantity,
    LevelDraft,
    ListQuery,
    NewClient,
    OfferDraft,
    Page,
    PointItemDraft,
    PointOperation,
    Preview,
    Product,
    ProductDraft,
    Purchase,
    SecretUrl,
    Stock,
)
from kiosk.api.models.common import envelope_data, iso_datetime
from kiosk.api.models.points import preview_body

CLIENT: dict[str, Any] = {
    "id": 7,
    "name": "Camila Díaz",
    "first_name": "Camila",
    "last_name": "Díaz",
    "email": "camila.diaz@example.com",
    "dni": "41222333",
    "document_number": "41222333",
    "document_type": "DNI",
    "phone": "+54 11 5555-0000",
    "gender": 1,
    "affiliate_card": "AC-7",
    "score": 310,
    "total_score": 310,
    "description": None,
    "birthday": "1998-12-03T00:00:00.000Z",
    "status": "ACTIVE",
    "created_at": "2025-01-02T03:04:05.000Z",
    "last_transaction": "2026-01-02T03:04:05.000Z",
    "purchases_counter": 0,
    "reads_counter": 2,
    "level": {"id": 1, "name": "Bronce"},
    "registered": False,
    "register_url": "https://registro.example.test/r/SECRET-TOKEN-123",
}


def test_client_reads_every_documented_field() -> None:
    client = Client.from_json(CLIENT)
    assert (client.id, client.balance, client.accumulated_points) == (7, 310, 310)
    assert client.level is not None
    assert client.level.name == "Bronce"
    assert client.birthday == datetime(1998, 12, 3, tzinfo=UTC)
    assert client.document_number == "41222333"
    assert client.registered is False
    assert client.register_url is not None
    assert client.register_url.reveal() == CLIENT["register_url"]


def test_unknown_fields_are_ignored_and_undocumented_ones_optional() -> None:
    richer = {**CLIENT, "loyaltyTier": {"x": 1}, "newField": [1, 2]}
    assert Client.from_json(richer) == Client.from_json(CLIENT)
    minimal = Client.from_json({"id": 1, "score": 0})
    assert minimal.email is None
    assert minimal.level is None
    assert minimal.register_url is None


def test_dni_is_used_when_document_number_is_missing() -> None:
    data = {k: v for k, v in CLIENT.items() if k != "document_number"}
    assert Client.from_json(data).document_number == "41222333"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("id", "7"),
        ("id", None),
        ("score", "diez"),
        ("score", True),
        ("email", 5),
        ("level", "Bronce"),
        ("registered", "false"),
        ("birthday", "ayer"),
        ("purchases_counter", 1.5),
    ],
)
def test_wrong_types_raise_malformed(field: str, value: object) -> None:
    with pytest.raises(MalformedResponse, match=field):
        Client.from_json({**CLIENT, field: value})


def test_a_record_that_is_not_an_object_is_malformed() -> None:
    for data in (None, [], "x", 3):
        with pytest.raises(MalformedResponse):
            Client.from_json(data)


def test_register_url_never_shows_and_is_never_persisted() -> None:
    client = Client.from_json(CLIENT)
    secret = CLIENT["register_url"]
    assert secret not in repr(client)
    assert secret not in str(client)
    assert secret not in repr(client.register_url)
    assert secret not in f"{client.register_url}"
    with pytest.raises(TypeError):
        pickle.dumps(client)
    with pytest.raises(TypeError):
        json.dumps(client.register_url)
    assert copy.deepcopy(client).register_url == client.register_url
    assert "camila.diaz@example.com" not in repr(client)


def test_equal_secret_urls_compare_equal_but_not_to_text() -> None:
    assert SecretUrl("a") == SecretUrl("a") != "a"
    assert hash(SecretUrl("a")) == hash(SecretUrl("a"))


def test_page_walk_metadata() -> None:
    body = {
        "data": [{"id": 1, "score": 3}],
        "meta": {
            "totalItems": 1,
            "itemCount": 1,
            "itemsPerPage": 200,
            "totalPages": 1,
            "currentPage": 1,
            "from": 1,
            "to": 1,
        },
        "links": {"first": "/x?page=1"},
    }
    page = Page.from_json(body, "clients", Client.from_json)
    assert [c.id for c in page.items] == [1]
    assert page.meta.is_last
    empty = Page.from_json(
        {"data": [], "meta": {"totalPages": 0, "currentPage": 1}}, "c", Client.from_json
    )
    assert empty.items == ()
    assert empty.meta.is_last
    with pytest.raises(MalformedResponse, match="totalPages"):
        Page.from_json(
            {"data": [], "meta": {"totalPages": "1", "currentPage": 1}}, "c", Client.from_json
        )
    with pytest.raises(MalformedResponse, match="data"):
        Page.from_json(
            {"data": {}, "meta": {"totalPages": 1, "currentPage": 1}}, "c", Client.from_json
        )


def test_envelope_data_is_required_where_the_record_is_needed() -> None:
    assert envelope_data({"success": True, "data": {"a": 1}}, "x") == {"a": 1}
    assert envelope_data({"success": True}, "x", required=False) is None
    with pytest.raises(MalformedResponse):
        envelope_data({"success": True}, "x")
    with pytest.raises(MalformedResponse):
        envelope_data(["not", "an", "envelope"], "x")


def test_credit_body_uses_the_contracts_names() -> None:
    request = CreditRequest(
        "T-1",
        CreditClient(
            email="ana@example.com",
            document="30123456",
            first_name="Ana",
            birthday=date(1990, 5, 1),
        ),
        point_items=[12, 12, 37],
        reason="ticket",
        extra_data=[{"caja": 2}],
        gift_cards=[GiftCard("b@example.com", points=10, apply_level_bonus=True)],
    )
    body = request.to_json(origin="external-integration", branch_id=3)
    assert body == {
        "client": {
            "email": "ana@example.com",
            "dni": "30123456",
            "first_name": "Ana",
            "birthday": "1990-05-01T00:00:00.000Z",
        },
        "pointItems": [12, 12, 37],
        "branch_id": 3,
        "external_id": "T-1",
        "reason": "ticket",
        "giftCards": [
            {
                "clientMail": "b@example.com",
                "points": {"pointsToGive": 10},
                "applyBonus": {"applyLevelPointsBonus": True},
            }
        ],
        "origin": "external-integration",
        "extra_data": '[{"caja": 2}]',
    }
    assert "ana@example.com" not in repr(request)


def test_bodies_refuse_what_the_api_would_refuse() -> None:
    with pytest.raises(ValueError, match="email or document"):
        CreditClient()
    with pytest.raises(ValueError, match="amount or point items"):
        CreditRequest("T", CreditClient(email="a@b.co"))
    with pytest.raises(ValueError, match="point items"):
        CreditRequest("T", CreditClient(email="a@b.co"), point_items=[1] * 101)
    with pytest.raises(ValueError, match="exactly one"):
        preview_body(client_id=1, amount=1, point_items=None, points=5, branch_id=None)
    with pytest.raises(ValueError, match="exactly one"):
        preview_body(client_id=1, amount=None, point_items=None, points=None, branch_id=None)
    with pytest.raises(ValueError, match="email or a document"):
        NewClient(first_name="Sin datos")
    with pytest.raises(ValueError, match="either points or an amount"):
        PointItemDraft(name="x", points=1, amount=2)
    with pytest.raises(ValueError, match="positive"):
        PointItemDraft(name="x", points=0)
    with pytest.raises(ValueError, match="at least 1"):
        LevelDraft(name="x", min_points=1, points_multiplier=0.5)
    with pytest.raises(ValueError, match="at least one offer"):
        ProductDraft(name="x", offers=[])
    with pytest.raises(ValueError, match="limit"):
        ListQuery(limit=201).to_params()


def test_preview_body_and_item_quantities() -> None:
    body = preview_body(
        client_id=4, amount=None, point_items=[ItemQuantity(2, 3)], points=None, branch_id=1
    )
    assert body == {"clientId": 4, "pointItems": [{"id": 2, "quantity": 3}], "branch_id": 1}


def test_drafts_send_only_what_is_set() -> None:
    assert ClientChanges(phone="+54 9").to_json() == {"phone": "+54 9"}
    draft = ProductDraft(
        name="Mate",
        offers=[OfferDraft(100), OfferDraft(90, level_id=2)],
        stock=Stock(controlled=True, available=3),
    )
    assert draft.to_json() == {
        "name": "Mate",
        "offers": [{"points": 100}, {"points": 90, "levelId": 2}],
        "stock": {"controlled": True, "available": 3},
    }


def test_iso_datetime_is_utc_with_milliseconds() -> None:
    assert iso_datetime(date(2000, 1, 2)) == "2000-01-02T00:00:00.000Z"
    assert iso_datetime(datetime(2000, 1, 2, 3, 4, 5, 678900, tzinfo=UTC)) == (
        "2000-01-02T03:04:05.678Z"
    )


def test_operation_preview_purchase_product_parse() -> None:
    op = PointOperation.from_json(
        {
            "pointOperationId": 5,
            "clientId": 1,
            "points": {"amount": 1500, "totalPointsToGive": 18, "initialPointsToGive": 15},
        }
    )
    assert (op.id, op.points.total, op.points.initial, op.points.amount) == (5, 18, 15, 1500.0)
    preview = Preview.from_json({"points": {"totalPointsToGive": 9}})
    assert preview.points.total == 9
    assert preview.level is None
    purchase = Purchase.from_json({"id": 1, "code": "AB12", "status": "someNewState", "points": 10})
    assert purchase.status == "someNewState"
    assert not purchase.is_pending
    product = Product.from_json({"id": 3, "offers": [{"productOfferId": 9, "points": 5}]})
    assert product.offer_for(None) is not None
    assert product.offer_for(2) is None
    with pytest.raises(MalformedResponse, match="offers"):
        Product.from_json({"id": 3, "offers": {"productOfferId": 9}})
