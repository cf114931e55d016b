"""From status + body to a typed error: the contract's and the simulator's messages."""

from __future__ import annotations

import pickle

import pytest

from kiosk.api.classify import error_from_response, parse_retry_after
from kiosk.api.errors import ApiError, ErrorKind, Reason, Resource


def classify(status: int, message: object, **extra: object) -> ApiError:
    body = {"statusCode": status, "message": message, "errors": None, **extra}
    return error_from_response(status, body, method="POST", path="/external/x")


@pytest.mark.parametrize(
    ("status", "message", "kind", "reason"),
    [
        (401, "Api Key is required", ErrorKind.AUTH, Reason.KEY_MISSING),
        (401, "Api key is invalid", ErrorKind.AUTH, Reason.KEY_INVALID),
        (404, "Api key is invalid", ErrorKind.AUTH, Reason.KEY_INVALID),
        (404, "Your API key is invalid", ErrorKind.AUTH, Reason.KEY_INVALID),
        (404, "Api Key is required", ErrorKind.AUTH, Reason.KEY_MISSING),
        (
            403,
            "Branch with id 9 does not belong to business with id 1",
            ErrorKind.FORBIDDEN,
            Reason.FOREIGN_BRANCH,
        ),
        (403, "El cliente se encuentra suspendido.", ErrorKind.SUSPENDED, None),
        (
            409,
            "Ya existe una operación de puntos con el externalId T-1 para este negocio",
            ErrorKind.DUPLICATE_EXTERNAL_ID,
            None,
        ),
        (409, "El cliente ya se encuentra registrado.", ErrorKind.CONFLICT, Reason.CLIENT_EXISTS),
        (409, "El email ya está en uso por otro cliente.", ErrorKind.CONFLICT, Reason.EMAIL_TAKEN),
        (
            409,
            "El documento ya está en uso por otro cliente.",
            ErrorKind.CONFLICT,
            Reason.DOCUMENT_TAKEN,
        ),
        (409, "La tarjeta de afiliado ya está en uso.", ErrorKind.CONFLICT, Reason.CARD_TAKEN),
        (
            409,
            "Ya existe un nivel con la misma cantidad mínima de puntos necesarios.",
            ErrorKind.CONFLICT,
            Reason.MIN_POINTS_TAKEN,
        ),
        (
            409,
            "El cliente no tiene puntos suficientes.",
            ErrorKind.CONFLICT,
            Reason.INSUFFICIENT_POINTS,
        ),
        (
            409,
            "El producto no se encuentra disponible.",
            ErrorKind.CONFLICT,
            Reason.PRODUCT_DISABLED,
        ),
        (409, "El producto no tiene stock disponible.", ErrorKind.CONFLICT, Reason.NO_STOCK),
        (
            409,
            "El nivel del cliente no permite canjear este producto.",
            ErrorKind.CONFLICT,
            Reason.LEVEL_NOT_ALLOWED,
        ),
        (
            409,
            "El cliente alcanzó el máximo de canjes permitidos para este producto.",
            ErrorKind.CONFLICT,
            Reason.EXCHANGE_CAP,
        ),
        (
            409,
            "El monto mínimo para canjear dinero es de 500.",
            ErrorKind.CONFLICT,
            Reason.MONEY_MINIMUM,
        ),
        (409, "Algo que nadie documentó", ErrorKind.CONFLICT, None),
        (400, "La operación no genera puntos.", ErrorKind.BAD_REQUEST, Reason.NO_POINTS),
        (
            400,
            "Debe enviar exactamente uno de: amount, pointItems, initialPointsToGive.",
            ErrorKind.BAD_REQUEST,
            Reason.PREVIEW_MODE,
        ),
        (400, "El canje ya fue realizado", ErrorKind.BAD_REQUEST, Reason.ALREADY_REDEEMED),
        (400, "Código de validación incorrecto.", ErrorKind.BAD_REQUEST, Reason.WRONG_CODE),
        (
            400,
            "Se alcanzó el límite de operadores de su plan.",
            ErrorKind.BAD_REQUEST,
            Reason.OPERATOR_CAP,
        ),
        (
            400,
            "El stock de este producto se calcula a partir de sus cupones y no puede modificarse.",
            ErrorKind.BAD_REQUEST,
            Reason.COUPON_STOCK,
        ),
        (429, "Rate limit excedido. Intente más tarde.", ErrorKind.RATE_LIMITED, None),
        (500, "Internal server error", ErrorKind.SERVER, None),
        (502, "Bad Gateway", ErrorKind.SERVER, None),
        (503, "No es posible procesar la operación", ErrorKind.UNAVAILABLE, None),
        (418, "I'm a teapot", ErrorKind.UNEXPECTED, None),
    ],
)
def test_status_and_message_decide_kind_and_reason(
    status: int, message: str, kind: ErrorKind, reason: Reason | None
) -> None:
    error = classify(status, message)
    assert (error.kind, error.reason, error.status) == (kind, reason, status)


def test_accents_case_and_trailing_dot_do_not_matter() -> None:
    assert classify(409, "EL PRODUCTO NO TIENE STOCK DISPONIBLE").reason is Reason.NO_STOCK
    assert classify(400, "Codigo de validacion incorrecto").reason is Reason.WRONG_CODE


@pytest.mark.parametrize(
    ("message", "resource"),
    [
        ("Client not found", Resource.CLIENT),
        ("Level not found", Resource.LEVEL),
        ("Sucursal no encontrada", Resource.BRANCH),
        ("Canje no encontrado", Resource.PURCHASE),
        ("PointsItem with id 77 not found", Resource.POINT_ITEM),
        ("Product not found", Resource.PRODUCT),
        ("Product offer not found", Resource.OFFER),
        ("Operator not found", Resource.OPERATOR),
        ("QR not found", Resource.QR),
        ("No existe una operación de puntos activa con el externalId X", Resource.POINT_OPERATION),
        ("Cannot GET /external/nothing", Resource.ROUTE),
    ],
)
def test_not_found_names_the_resource(message: str, resource: Resource) -> None:
    error = classify(404, message)
    assert (error.kind, error.resource) == (ErrorKind.NOT_FOUND, resource)


def test_unknown_not_found_text_falls_back_to_the_calls_resource() -> None:
    error = error_from_response(
        404, {"message": "gone"}, method="GET", path="/p", resource=Resource.LEVEL
    )
    assert error.resource is Resource.LEVEL


def test_validation_error_carries_each_field() -> None:
    error = classify(
        400,
        "Error de validación",
        errors=[
            {"field": "email", "constraints": {"isEmail": "email must be an email"}, "value": "x@"},
            {"field": "gender", "constraints": {"max": "gender must not be greater than 3"}},
            "junk",
        ],
    )
    assert error.kind is ErrorKind.VALIDATION
    assert [f.field for f in error.field_errors] == ["email", "gender"]
    assert error.field_errors[0].constraints == {"isEmail": "email must be an email"}
    assert "email: isEmail" in str(error)
    assert "x@" not in str(error)
    assert "x@" not in repr(error.field_errors[0])


def test_nest_style_list_message_is_joined() -> None:
    error = classify(400, ["email must be an email", "name should not be empty"])
    assert error.message == "email must be an email; name should not be empty"


def test_body_that_is_not_an_object_still_classifies_by_status() -> None:
    assert error_from_response(409, ["x"], method="GET", path="/").kind is ErrorKind.CONFLICT
    assert error_from_response(401, None, method="GET", path="/").kind is ErrorKind.AUTH


def test_messages_and_paths_are_redacted() -> None:
    error = error_from_response(
        404,
        {"message": "Client ana.perez@gmail.com with dni 30123456 not found"},
        method="GET",
        path="/external/clients/search?query=ana.perez%40gmail.com&x=30123456",
    )
    text = str(error) + repr(error)
    assert "ana.perez" not in text
    assert "30123456" not in text
    assert "a***@gmail.com" in text
    assert "****3456" in text


def test_errors_survive_pickling_with_their_fields() -> None:
    error = classify(409, "El producto no tiene stock disponible.")
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.kind, copy.reason, copy.status, str(copy)) == (
        error.kind,
        error.reason,
        error.status,
        str(error),
    )


@pytest.mark.parametrize(
    ("header", "seconds"),
    [
        ("3", 3.0),
        ("0", 0.0),
        ("1.5", 1.5),
        ("-4", 0.0),
        ("soon", None),
        ("", None),
        (None, None),
        ("Wed, 21 Oct 2015 07:28:10 GMT", 10.0),
    ],
)
def test_retry_after_in_seconds_or_http_date(header: str | None, seconds: float | None) -> None:
    now = 1445412480.0  # Wed, 21 Oct 2015 07:28:00 GMT
    assert parse_retry_after(header, now_epoch=now) == seconds
