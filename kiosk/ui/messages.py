"""What the person at the counter reads when something goes wrong: plain words and
the next step, in their language. The API's own message goes to the log only.

Texts are marked with ``QT_TRANSLATE_NOOP("Messages", ...)`` so ``pyside6-lupdate``
collects them (it only sees literal ``tr``/``translate``/``QT_TRANSLATE_NOOP`` calls)
and translated at run time by ``_t``.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from kiosk.api.errors import AmbiguousOutcome, ApiError, ErrorKind, Reason, Resource
from kiosk.core.amounts import AmountError, AmountLocale, AmountProblem, format_amount
from kiosk.core.storage import is_disk_full


def _t(text: str) -> str:
    return QCoreApplication.translate("Messages", text)


GENERIC = QT_TRANSLATE_NOOP(
    "Messages", "Something went wrong. Try again; if it keeps happening, call a manager."
)
DISK_FULL = QT_TRANSLATE_NOOP(
    "Messages",
    "Disk full: nothing was saved or sent. Call IT to free space on this kiosk, then try again.",
)
AMBIGUOUS = QT_TRANSLATE_NOOP(
    "Messages",
    "The answer was lost on the way and it is not certain whether this happened. "
    "Check before trying again.",
)

RESOURCE_TEXT = {
    Resource.CLIENT: QT_TRANSLATE_NOOP("Messages", "No client matches."),
    Resource.PURCHASE: QT_TRANSLATE_NOOP(
        "Messages", "That code does not exist. Check it and try again."
    ),
    Resource.PRODUCT: QT_TRANSLATE_NOOP(
        "Messages", "That reward no longer exists. Refresh the list."
    ),
    Resource.OFFER: QT_TRANSLATE_NOOP(
        "Messages", "That reward no longer exists. Refresh the list."
    ),
    Resource.POINT_ITEM: QT_TRANSLATE_NOOP(
        "Messages", "A point item no longer exists. Refresh the buttons."
    ),
    Resource.POINT_OPERATION: QT_TRANSLATE_NOOP(
        "Messages", "There is no active credit with that reference."
    ),
    Resource.BRANCH: QT_TRANSLATE_NOOP(
        "Messages", "This kiosk's branch was not found. Ask a manager to check the settings."
    ),
    Resource.QR: QT_TRANSLATE_NOOP(
        "Messages", "The validation QR was not found. Ask a manager to check the settings."
    ),
    Resource.LEVEL: QT_TRANSLATE_NOOP("Messages", "That level no longer exists."),
    Resource.OPERATOR: QT_TRANSLATE_NOOP("Messages", "That operator no longer exists."),
    Resource.ROUTE: QT_TRANSLATE_NOOP(
        "Messages", "The service does not know this operation. Call IT."
    ),
}

REASON_TEXT = {
    Reason.INSUFFICIENT_POINTS: QT_TRANSLATE_NOOP(
        "Messages", "The client does not have enough points for this."
    ),
    Reason.PRODUCT_DISABLED: QT_TRANSLATE_NOOP(
        "Messages", "This reward is not available right now."
    ),
    Reason.NO_STOCK: QT_TRANSLATE_NOOP("Messages", "This reward is out of stock."),
    Reason.LEVEL_NOT_ALLOWED: QT_TRANSLATE_NOOP(
        "Messages", "The client's level cannot exchange this reward."
    ),
    Reason.EXCHANGE_CAP: QT_TRANSLATE_NOOP(
        "Messages", "The client already reached the limit of exchanges for this reward."
    ),
    Reason.MONEY_MINIMUM: QT_TRANSLATE_NOOP(
        "Messages", "The amount is below the minimum for a money exchange."
    ),
    Reason.OTHER_OPERATION: QT_TRANSLATE_NOOP(
        "Messages",
        "The service says this reference belongs to another operation. Check it in the "
        "program's panel before sending it again.",
    ),
    Reason.CLIENT_EXISTS: QT_TRANSLATE_NOOP("Messages", "This client is already registered."),
    Reason.EMAIL_TAKEN: QT_TRANSLATE_NOOP("Messages", "That email belongs to another client."),
    Reason.DOCUMENT_TAKEN: QT_TRANSLATE_NOOP(
        "Messages", "That document belongs to another client."
    ),
    Reason.CARD_TAKEN: QT_TRANSLATE_NOOP(
        "Messages", "That affiliate card belongs to another client."
    ),
    Reason.MIN_POINTS_TAKEN: QT_TRANSLATE_NOOP(
        "Messages", "Another level already starts at those points."
    ),
    Reason.NO_POINTS: QT_TRANSLATE_NOOP(
        "Messages", "That gives no points. Check the amount or the items."
    ),
    Reason.PREVIEW_MODE: QT_TRANSLATE_NOOP(
        "Messages", "Choose an amount or point items, not both."
    ),
    Reason.ALREADY_REDEEMED: QT_TRANSLATE_NOOP(
        "Messages", "This code was already delivered or has expired. Nothing was changed."
    ),
    Reason.PURCHASE_CANCELED: QT_TRANSLATE_NOOP(
        "Messages", "This exchange was canceled and cannot be delivered. Nothing was changed."
    ),
    Reason.EMAIL_LOCKED: QT_TRANSLATE_NOOP(
        "Messages", "The email cannot be changed: the client already entered the platform."
    ),
    Reason.WRONG_CODE: QT_TRANSLATE_NOOP("Messages", "The code is not correct."),
    Reason.OPERATOR_CAP: QT_TRANSLATE_NOOP(
        "Messages", "The plan's limit of operators was reached."
    ),
    Reason.COUPON_STOCK: QT_TRANSLATE_NOOP(
        "Messages", "This reward's stock comes from its coupons and cannot be edited here."
    ),
    Reason.FOREIGN_BRANCH: QT_TRANSLATE_NOOP(
        "Messages", "This kiosk's branch does not belong to the merchant of the key. Ask a manager."
    ),
    Reason.KEY_MISSING: QT_TRANSLATE_NOOP(
        "Messages", "The kiosk has no API key. Ask a manager to set it up."
    ),
    Reason.KEY_INVALID: QT_TRANSLATE_NOOP(
        "Messages", "The kiosk's API key was rejected. Ask a manager to replace it."
    ),
}

KIND_TEXT = {
    ErrorKind.VALIDATION: QT_TRANSLATE_NOOP(
        "Messages", "Some data is not valid. Check the marked fields."
    ),
    ErrorKind.BAD_REQUEST: QT_TRANSLATE_NOOP(
        "Messages", "The service refused this request. Check the data and try again."
    ),
    ErrorKind.AUTH: QT_TRANSLATE_NOOP(
        "Messages", "The kiosk's API key was rejected. Ask a manager to replace it."
    ),
    ErrorKind.FORBIDDEN: QT_TRANSLATE_NOOP(
        "Messages", "This operation is not allowed for this branch. Ask a manager."
    ),
    ErrorKind.SUSPENDED: QT_TRANSLATE_NOOP(
        "Messages",
        "This client is suspended and cannot earn or use points. Refer them to customer service.",
    ),
    ErrorKind.DUPLICATE_EXTERNAL_ID: QT_TRANSLATE_NOOP(
        "Messages", "This ticket was already credited. No new points were given."
    ),
    ErrorKind.CONFLICT: QT_TRANSLATE_NOOP(
        "Messages", "The service refused this because of a conflict with existing data."
    ),
    ErrorKind.RATE_LIMITED: QT_TRANSLATE_NOOP(
        "Messages", "The service is busy. Wait a few seconds and try again."
    ),
    ErrorKind.UNAVAILABLE: QT_TRANSLATE_NOOP(
        "Messages", "The service cannot process this right now. Try again in a few seconds."
    ),
    ErrorKind.SERVER: QT_TRANSLATE_NOOP(
        "Messages", "The service had a problem. Try again in a moment."
    ),
    ErrorKind.NETWORK: QT_TRANSLATE_NOOP(
        "Messages", "No connection to the service. Check the network and try again."
    ),
    ErrorKind.TIMEOUT: QT_TRANSLATE_NOOP(
        "Messages", "The service did not answer in time. Try again."
    ),
    ErrorKind.MALFORMED: QT_TRANSLATE_NOOP(
        "Messages",
        "The service sent an answer the kiosk cannot read. Try again; if it repeats, call IT.",
    ),
    ErrorKind.TLS: QT_TRANSLATE_NOOP(
        "Messages",
        "The secure connection to the service could not be verified. Call IT: "
        "the network or a proxy may be intercepting it.",
    ),
    ErrorKind.AMBIGUOUS: AMBIGUOUS,
}

MONEY_MINIMUM_IS = QT_TRANSLATE_NOOP(
    "Messages", "The amount is below the minimum for a money exchange: %1."
)
# The figure that ends the service's refusal ("El monto mínimo para canjear dinero es de
# 500."): how the service writes it is not shown; "500", "1500.5", "1.500,50" are read.
_LAST_FIGURE = re.compile(r"(\d[\d.,]{0,18})\D*$")

AMOUNT_TEXT = {
    AmountProblem.EMPTY: QT_TRANSLATE_NOOP("Messages", "Type the purchase amount."),
    AmountProblem.NOT_A_NUMBER: QT_TRANSLATE_NOOP(
        "Messages", "That is not an amount. Use only digits and the decimal separator."
    ),
    AmountProblem.NOT_POSITIVE: QT_TRANSLATE_NOOP(
        "Messages", "The amount must be greater than zero."
    ),
    AmountProblem.TOO_MANY_DECIMALS: QT_TRANSLATE_NOOP(
        "Messages", "An amount has at most two decimals."
    ),
    AmountProblem.AMBIGUOUS_GROUPING: QT_TRANSLATE_NOOP(
        "Messages", "Check the separators: use %1 for thousands and %2 for decimals."
    ),
    AmountProblem.TOO_LARGE: QT_TRANSLATE_NOOP("Messages", "That amount is too large. Check it."),
}


def service_minimum(error: ApiError) -> Decimal | None:
    """The money exchange's minimum the service named in its refusal, if it did."""
    found = _LAST_FIGURE.search(error.message)
    if found is None:
        return None
    figure = found.group(1).rstrip(".,")
    separators = [c for c in figure if c in ".,"]
    if separators:
        last = max(figure.rfind("."), figure.rfind(","))
        whole, decimals = figure[:last], figure[last + 1 :]
        if len(set(separators)) == 1 and len(decimals) == 3:  # "1.500": thousands
            whole, decimals = figure, ""
        figure = re.sub(r"[.,]", "", whole) + (f".{decimals}" if decimals else "")
    try:
        value = Decimal(figure)
    except InvalidOperation:
        return None
    return value if value > 0 else None


def error_text(error: BaseException, locale: AmountLocale | None = None) -> str:
    """One or two sentences for the counter, translated (``locale``: the store's, for
    the figures a refusal names)."""
    if isinstance(error, AmountError):
        return amount_text(error)
    if is_disk_full(error):  # the kiosk's own disk, not the service: IT frees space
        return _t(DISK_FULL)
    if not isinstance(error, ApiError):
        return _t(GENERIC)
    if isinstance(error, AmbiguousOutcome):
        return _t(AMBIGUOUS)
    if error.reason is Reason.MONEY_MINIMUM:
        minimum = service_minimum(error)
        if minimum is not None:
            shown = format_amount(minimum, locale) if locale is not None else str(minimum)
            return _t(MONEY_MINIMUM_IS).replace("%1", shown)
    if error.reason is not None and error.reason in REASON_TEXT:
        return _t(REASON_TEXT[error.reason])
    if error.kind is ErrorKind.NOT_FOUND:
        return _t(
            RESOURCE_TEXT.get(error.resource or Resource.ROUTE, RESOURCE_TEXT[Resource.ROUTE])
        )
    return _t(KIND_TEXT.get(error.kind, GENERIC))


def amount_text(error: AmountError) -> str:
    text = _t(AMOUNT_TEXT.get(error.problem, GENERIC))
    if error.problem is AmountProblem.AMBIGUOUS_GROUPING:
        locale = error.locale
        text = text.replace("%1", locale.group_separator).replace("%2", locale.decimal_separator)
    return text
