"""Typed records of the merchant API and the bodies sent to it.

The API's own field names live here and nowhere else: records are parsed with
``from_json`` (unknown fields ignored, undocumented fields optional, wrong types
raise ``MalformedResponse``) and bodies are built with ``to_json``.

The names are imported lazily (PEP 562), as in ``kiosk.api``: a module that needs
the client records (``kiosk.api.models.clients``) does not load every record of the
API (catalog, staff, purchases: ~45 ms of class definitions) before the counter's
first screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiosk.api import lazy_exports

if TYPE_CHECKING:
    from kiosk.api.models.catalog import (
        Level,
        LevelColors,
        LevelDraft,
        LevelOrder,
        Offer,
        OfferDraft,
        PointItem,
        PointItemDraft,
        PointItemOrder,
        Product,
        ProductDraft,
        Stock,
    )
    from kiosk.api.models.clients import (
        Client,
        ClientChanges,
        ClientOrder,
        Gender,
        NewClient,
        RemovalReason,
    )
    from kiosk.api.models.common import Direction, ListQuery, Named, Page, PageMeta, SecretUrl
    from kiosk.api.models.points import (
        CancelResult,
        CreditClient,
        CreditPoints,
        CreditRequest,
        CreditResult,
        GiftCard,
        ItemQuantity,
        PointOperation,
        Preview,
        PreviewLevel,
        PreviewPoints,
        PreviewUnavailable,
    )
    from kiosk.api.models.purchases import (
        Applied,
        Purchase,
        PurchaseClient,
        PurchaseOrder,
        PurchaseStatus,
        PurchaseType,
    )
    from kiosk.api.models.staff import (
        Branch,
        BranchAssignment,
        NewOperator,
        Operator,
        OperatorBranch,
        OperatorChanges,
        OperatorOrder,
    )
    from kiosk.api.models.validation import CodeCheck, ValidationCode, ValidationQr

_WHERE = {
    "Applied": "kiosk.api.models.purchases",
    "Branch": "kiosk.api.models.staff",
    "BranchAssignment": "kiosk.api.models.staff",
    "CancelResult": "kiosk.api.models.points",
    "Client": "kiosk.api.models.clients",
    "ClientChanges": "kiosk.api.models.clients",
    "ClientOrder": "kiosk.api.models.clients",
    "CodeCheck": "kiosk.api.models.validation",
    "CreditClient": "kiosk.api.models.points",
    "CreditPoints": "kiosk.api.models.points",
    "CreditRequest": "kiosk.api.models.points",
    "CreditResult": "kiosk.api.models.points",
    "Direction": "kiosk.api.models.common",
    "Gender": "kiosk.api.models.clients",
    "GiftCard": "kiosk.api.models.points",
    "ItemQuantity": "kiosk.api.models.points",
    "Level": "kiosk.api.models.catalog",
    "LevelColors": "kiosk.api.models.catalog",
    "LevelDraft": "kiosk.api.models.catalog",
    "LevelOrder": "kiosk.api.models.catalog",
    "ListQuery": "kiosk.api.models.common",
    "Named": "kiosk.api.models.common",
    "NewClient": "kiosk.api.models.clients",
    "NewOperator": "kiosk.api.models.staff",
    "Offer": "kiosk.api.models.catalog",
    "OfferDraft": "kiosk.api.models.catalog",
    "Operator": "kiosk.api.models.staff",
    "OperatorBranch": "kiosk.api.models.staff",
    "OperatorChanges": "kiosk.api.models.staff",
    "OperatorOrder": "kiosk.api.models.staff",
    "Page": "kiosk.api.models.common",
    "PageMeta": "kiosk.api.models.common",
    "PointItem": "kiosk.api.models.catalog",
    "PointItemDraft": "kiosk.api.models.catalog",
    "PointItemOrder": "kiosk.api.models.catalog",
    "PointOperation": "kiosk.api.models.points",
    "Preview": "kiosk.api.models.points",
    "PreviewLevel": "kiosk.api.models.points",
    "PreviewPoints": "kiosk.api.models.points",
    "PreviewUnavailable": "kiosk.api.models.points",
    "Product": "kiosk.api.models.catalog",
    "ProductDraft": "kiosk.api.models.catalog",
    "Purchase": "kiosk.api.models.purchases",
    "PurchaseClient": "kiosk.api.models.purchases",
    "PurchaseOrder": "kiosk.api.models.purchases",
    "PurchaseStatus": "kiosk.api.models.purchases",
    "PurchaseType": "kiosk.api.models.purchases",
    "RemovalReason": "kiosk.api.models.clients",
    "SecretUrl": "kiosk.api.models.common",
    "Stock": "kiosk.api.models.catalog",
    "ValidationCode": "kiosk.api.models.validation",
    "ValidationQr": "kiosk.api.models.validation",
}

__all__ = [
    "Applied",
    "Branch",
    "BranchAssignment",
    "CancelResult",
    "Client",
    "ClientChanges",
    "ClientOrder",
    "CodeCheck",
    "CreditClient",
    "CreditPoints",
    "CreditRequest",
    "CreditResult",
    "Direction",
    "Gender",
    "GiftCard",
    "ItemQuantity",
    "Level",
    "LevelColors",
    "LevelDraft",
    "LevelOrder",
    "ListQuery",
    "Named",
    "NewClient",
    "NewOperator",
    "Offer",
    "OfferDraft",
    "Operator",
    "OperatorBranch",
    "OperatorChanges",
    "OperatorOrder",
    "Page",
    "PageMeta",
    "PointItem",
    "PointItemDraft",
    "PointItemOrder",
    "PointOperation",
    "Preview",
    "PreviewLevel",
    "PreviewPoints",
    "PreviewUnavailable",
    "Product",
    "ProductDraft",
    "Purchase",
    "PurchaseClient",
    "PurchaseOrder",
    "PurchaseStatus",
    "PurchaseType",
    "RemovalReason",
    "SecretUrl",
    "Stock",
    "ValidationCode",
    "ValidationQr",
]


__getattr__ = lazy_exports(__name__, _WHERE, globals())
