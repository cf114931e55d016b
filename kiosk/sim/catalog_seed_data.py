"""The demo catalog's data (rewards, point items, staff) for ``seed_catalog``.

Prices are the base price (clients without level); each level gets 10% off per
rung above none. Images are omitted on purpose: the demo must not need the network.
"""

from __future__ import annotations

from typing import Any

# name, shortDescription, base points, stock (None = not controlled), extras
MAIN_PRODUCTS: list[tuple[str, str, int, int | None, dict[str, Any]]] = [
    (
        "Café con medialunas",
        "Café mediano y dos medialunas de manteca",
        800,
        None,
        {"categoryIds": [1]},
    ),
    (
        "Entrada de cine 2D",
        "Una entrada para cualquier función 2D, de lunes a jueves",
        3500,
        25,
        {"categoryIds": [2]},
    ),
    (
        "Descuento $2.000",
        "Descuento de $2.000 en tu próxima compra",
        2000,
        None,
        {"categoryIds": [3]},
    ),
    (
        "Bolso térmico",
        "Bolso térmico de 12 litros con la marca de la tienda",
        6000,
        1,
        {"categoryIds": [4]},
    ),
    (
        "Botella térmica 750 ml",
        "Botella de acero inoxidable, frío 24 h / calor 12 h",
        4500,
        0,
        {"categoryIds": [4]},
    ),
    (
        "Kit matero",
        "Mate de calabaza, bombilla de alpaca y yerba 500 g",
        5000,
        10,
        {"categoryIds": [4]},
    ),
    ("Alfajores x6", "Caja de seis alfajores de dulce de leche", 1200, None, {"categoryIds": [1]}),
    (
        "Torta de cumpleaños individual",
        "Regalo de cumpleaños: una por cliente",
        1500,
        None,
        {"maxPurchases": 1, "categoryIds": [1]},
    ),
    (
        "Gift card Spotify Premium 1 mes",
        "Código de activación enviado por email",
        3000,
        5,
        {
            "categoryIds": [5],
            "_custom_coupons": True,
            "_preserved": {
                "thirdPartyStore": "Spotify",
                "postExchangeMessage": "Te enviamos el código por email.",
            },
        },
    ),
    (
        "Entrada Parque de la Costa",
        "Pasaporte para un día, válido por 60 días",
        9000,
        8,
        {"categoryIds": [2]},
    ),
    (
        "Pan dulce artesanal",
        "Edición de fin de año (500 g)",
        2500,
        None,
        {
            "_disabled_in_panel": True,
            "categoryIds": [1],
            "_preserved": {"timeRestriction": "diciembre"},
        },
    ),
    (
        "Cena para dos en parrilla",
        "Exclusivo del nivel más alto: entrada, principal y postre",
        12000,
        4,
        {"top_level_only": True, "categoryIds": [2], "_preserved": {"monthlyCap": 10}},
    ),
]

OTHER_PRODUCTS: list[tuple[str, str, int, int | None, dict[str, Any]]] = [
    ("Protector solar FPS 50", "Protector solar de 200 ml", 2200, 12, {"categoryIds": [10]}),
    ("Kit de higiene dental", "Cepillo, pasta e hilo dental", 1400, None, {"categoryIds": [10]}),
    (
        "Descuento 15% en perfumería",
        "Un uso, en compras de perfumería",
        900,
        None,
        {"maxPurchases": 2},
    ),
]

# name, points, amount, per-branch (one copy limited to each branch when True)
MAIN_POINT_ITEMS: list[tuple[str, int | None, float | None, bool]] = [
    ("Compra en góndola +50 pts", 50, None, False),
    ("Café", None, 1500.0, False),
    ("Recarga SUBE", None, 2000.0, False),
    ("Combo almuerzo", None, 6500.0, False),
    ("Producto destacado de la semana", 120, None, False),
    ("Promo de la sucursal +30 pts", 30, None, True),
]

OTHER_POINT_ITEMS: list[tuple[str, int | None, float | None, bool]] = [
    ("Compra en farmacia", None, 1000.0, False),
    ("Receta presentada +20 pts", 20, None, False),
]

PERMISSION_GROUPS = ("Cajero", "Supervisor", "Encargado de sucursal")

# firstName, lastName, email, document, role, password?, [(branch index, group name | None)]
MAIN_OPERATORS: list[tuple[str, str, str, str, str, bool, list[tuple[int, str | None]]]] = [
    ("Lucía", "Fernández", "lucia.fernandez@almacendelsol.test", "27111222", "admin", True, []),
    (
        "Martín",
        "Gómez",
        "martin.gomez@almacendelsol.test",
        "30222333",
        "operator",
        True,
        [(0, "Cajero")],
    ),
    (
        "Sofía",
        "Rodríguez",
        "sofia.rodriguez@almacendelsol.test",
        "31333444",
        "operator",
        True,
        [(0, "Supervisor"), (1, "Supervisor")],
    ),
    (
        "Diego",
        "Pereyra",
        "diego.pereyra@almacendelsol.test",
        "33444555",
        "operator",
        False,
        [(1, "Cajero")],
    ),
    (
        "Valentina",
        "López",
        "valentina.lopez@almacendelsol.test",
        "35555666",
        "operator",
        False,
        [(2, None)],
    ),
]

OTHER_OPERATORS: list[tuple[str, str, str, str, str, bool, list[tuple[int, str | None]]]] = [
    ("Carlos", "Benítez", "carlos.benitez@farmacianorte.test", "25666777", "admin", True, []),
    (
        "Julieta",
        "Sosa",
        "julieta.sosa@farmacianorte.test",
        "36777888",
        "operator",
        True,
        [(0, "Cajero")],
    ),
]

# Demo purchase codes (alphabet without 0/O/1/I/L): code, status, product name | None
# (money), age in days; "expired" is pending but older than the merchant's TTL.
MAIN_PURCHASES: list[tuple[str, str, str | None, float]] = [
    ("PEND2345", "pending", "Café con medialunas", 1),
    ("CASH2345", "pending", None, 2),
    ("ENTR6789", "delivered", "Entrada de cine 2D", 5),
    ("VENC3456", "expired", "Alfajores x6", 45),
    ("CANC4567", "canceled", "Descuento $2.000", 10),
]

OTHER_PURCHASES: list[tuple[str, str, str | None, float]] = [
    ("FARM2345", "pending", "Kit de higiene dental", 1),
]
