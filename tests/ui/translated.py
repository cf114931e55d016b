"""The kiosk's translators installed on the application for a block, removed after
(tests share one ``QApplication``): ``translated(app, "es")`` and the ``spanish``
fixture of ``tests/ui/conftest.py``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QTranslator
from PySide6.QtWidgets import QApplication

from kiosk.ui.i18n import install_translators


@contextmanager
def translated(app: QApplication, lang: str) -> Iterator[list[QTranslator]]:
    """``lang``'s translators installed while the block runs (none for English)."""
    installed = install_translators(app, lang)
    try:
        yield installed
    finally:
        for translator in installed:
            app.removeTranslator(translator)
