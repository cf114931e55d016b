"""The counter's visual language: design tokens and the application style sheet.

One accent for primary actions, green only for success, red only for errors and
destructive actions, amber for the training/QA band. Sizes follow the counter
guide: base text 18 px, headings 24-28 px, amounts 64 px, the validation code
160 px; touch targets at least 48 px, primary buttons 64 px tall; 8 px grid.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication


@dataclass(frozen=True)
class Palette:
    name: str
    background: str
    surface: str
    surface_alt: str
    border: str
    text: str
    muted: str
    accent: str
    accent_text: str
    accent_pressed: str
    success: str
    success_bg: str
    danger: str
    danger_bg: str
    warning: str
    warning_text: str
    info_bg: str


LIGHT = Palette(
    name="light",
    background="#eef1f5",
    surface="#ffffff",
    surface_alt="#f6f8fa",
    border="#d0d7de",
    text="#111827",
    muted="#4b5563",
    accent="#1d4ed8",
    accent_text="#ffffff",
    accent_pressed="#1e3a8a",
    success="#15803d",
    success_bg="#dcfce7",
    danger="#b91c1c",
    danger_bg="#fee2e2",
    warning="#f59e0b",
    warning_text="#1f2937",
    info_bg="#dbeafe",
)

DARK = Palette(
    name="dark",
    background="#0f172a",
    surface="#1e293b",
    surface_alt="#273449",
    border="#334155",
    text="#f8fafc",
    muted="#cbd5e1",
    accent="#60a5fa",
    accent_text="#0b1220",
    accent_pressed="#93c5fd",
    success="#4ade80",
    success_bg="#14532d",
    danger="#f87171",
    danger_bg="#7f1d1d",
    warning="#fbbf24",
    warning_text="#111827",
    info_bg="#1e3a8a",
)

BASE_PX = 18
HEADING_PX = 26
AMOUNT_PX = 64
CODE_PX = 168
TOUCH_PX = 48
PRIMARY_PX = 64
KEY_PX = 76
RAIL_PX = 132


def palette_named(name: str) -> Palette:
    return DARK if name == "dark" else LIGHT


def style_sheet(p: Palette) -> str:
    """The application style sheet; widgets pick roles with ``setProperty('role', ...)``."""
    return f"""
QWidget {{ font-size: {BASE_PX}px; color: {p.text}; }}
QMainWindow, QWidget#root {{ background: {p.background}; }}
QLabel {{ background: transparent; }}
QLabel[role="heading"] {{ font-size: {HEADING_PX}px; font-weight: 600; }}
QLabel[role="muted"] {{ color: {p.muted}; }}
QLabel[role="amount"] {{ font-size: {AMOUNT_PX}px; font-weight: 600; }}
QLabel[role="code"] {{ font-size: {CODE_PX}px; font-weight: 700; letter-spacing: 12px; }}
QLabel[role="hint"] {{ color: {p.muted}; font-size: 16px; }}
QLabel[role="field-error"] {{ color: {p.danger}; font-size: 15px; }}
QFrame[role="card"] {{ background: {p.surface}; border: 1px solid {p.border}; border-radius: 12px; }}
QFrame[role="band"] {{ background: {p.warning}; }}
QLabel[role="band"] {{ color: {p.warning_text}; font-weight: 700; font-size: 17px; }}
QFrame[role="statusbar"] {{ background: {p.surface}; border-top: 1px solid {p.border}; }}
QFrame[role="rail"] {{ background: {p.surface}; border-right: 1px solid {p.border}; }}
QLineEdit, QSpinBox, QComboBox, QDateEdit, QPlainTextEdit {{
    background: {p.surface}; border: 2px solid {p.border}; border-radius: 10px;
    padding: 8px 12px; min-height: 32px; selection-background-color: {p.accent};
    selection-color: {p.accent_text};
}}
QLineEdit:focus, QComboBox:focus, QDateEdit:focus {{ border-color: {p.accent}; }}
QLineEdit[invalid="true"] {{ border-color: {p.danger}; }}
QLineEdit[role="big"] {{ font-size: 28px; min-height: 48px; }}
QPushButton {{
    background: {p.surface}; border: 2px solid {p.border}; border-radius: 10px;
    padding: 8px 18px; min-height: {TOUCH_PX - 20}px; min-width: 64px; font-weight: 600;
    icon-size: 24px;
}}
QPushButton:hover {{ border-color: {p.accent}; }}
QPushButton:pressed {{ background: {p.surface_alt}; }}
QPushButton:checked {{ border-color: {p.accent}; background: {p.info_bg}; color: {p.accent}; }}
QPushButton:disabled {{ color: {p.muted}; background: {p.surface_alt}; border-color: {p.border}; }}
QPushButton[role="primary"] {{
    background: {p.accent}; color: {p.accent_text}; border: none; min-height: {PRIMARY_PX - 16}px;
    font-size: 22px;
}}
QPushButton[role="primary"]:pressed {{ background: {p.accent_pressed}; }}
QPushButton[role="primary"]:disabled {{ background: {p.border}; color: {p.muted}; }}
QPushButton[role="danger"] {{ background: {p.danger}; color: #ffffff; border: 2px solid {p.danger}; }}
QPushButton[role="danger"]:disabled {{ border-color: {p.border}; }}
QPushButton[role="key"] {{ font-size: 30px; min-height: {KEY_PX - 20}px; min-width: {KEY_PX}px; }}
QPushButton[role="tile"] {{ text-align: left; padding: 12px; min-height: 80px; }}
QPushButton[role="tile"]:checked {{ border-color: {p.accent}; background: {p.info_bg}; }}
QToolButton[role="rail"] {{
    background: transparent; border: none; border-radius: 12px; padding: 8px;
    min-width: {RAIL_PX - 40}px; min-height: 76px; font-size: 16px; font-weight: 600;
    color: {p.muted};
}}
QToolButton[role="rail"]:checked {{ background: {p.info_bg}; color: {p.accent}; }}
QToolButton[role="rail"]:disabled {{ color: {p.border}; }}
QTableWidget, QTableView, QListWidget, QListView[role="checklist"] {{
    background: {p.surface}; border: 1px solid {p.border}; border-radius: 10px;
    gridline-color: {p.border}; alternate-background-color: {p.surface_alt};
}}
QHeaderView::section {{ background: {p.surface_alt}; border: none; padding: 8px; font-weight: 600; }}
QScrollBar:vertical {{ width: 16px; background: transparent; }}
QScrollBar::handle:vertical {{ background: {p.border}; border-radius: 8px; min-height: 48px; }}
QScrollBar::add-line, QScrollBar::sub-line {{ height: 0px; width: 0px; border: none; }}
QScrollBar::add-page, QScrollBar::sub-page {{ background: transparent; }}
QProgressBar {{ border: none; background: {p.surface_alt}; border-radius: 6px; height: 12px; }}
QProgressBar::chunk {{ background: {p.accent}; border-radius: 6px; }}
"""


def apply_theme(app: QApplication, name: str = "light") -> Palette:
    p = palette_named(name)
    # First: widgets that repaint on the palette or style change below read it.
    app.setProperty("kioskTheme", p.name)
    qpal = QPalette()
    qpal.setColor(QPalette.ColorRole.Window, QColor(p.background))
    qpal.setColor(QPalette.ColorRole.Base, QColor(p.surface))
    qpal.setColor(QPalette.ColorRole.AlternateBase, QColor(p.surface_alt))
    qpal.setColor(QPalette.ColorRole.Text, QColor(p.text))
    qpal.setColor(QPalette.ColorRole.WindowText, QColor(p.text))
    qpal.setColor(QPalette.ColorRole.Button, QColor(p.surface))
    qpal.setColor(QPalette.ColorRole.ButtonText, QColor(p.text))
    qpal.setColor(QPalette.ColorRole.Highlight, QColor(p.accent))
    qpal.setColor(QPalette.ColorRole.HighlightedText, QColor(p.accent_text))
    app.setPalette(qpal)
    font = QFont(app.font())
    font.setPixelSize(BASE_PX)
    app.setFont(font)
    if not app.property("kioskBaseStyle"):  # the platform's style, before a sheet hides it
        app.setProperty("kioskBaseStyle", app.style().name())
    app.setStyleSheet(style_sheet(p))
    return p


def current_palette() -> Palette:
    app = QApplication.instance()
    name = app.property("kioskTheme") if app is not None else None
    return palette_named(str(name) if name else "light")
